// The host's page (README "The host's page"): the admin token, then the host API of
// app/api/routes/admin.py. The token is kept in sessionStorage (this tab only) and sent as
// "Authorization: Bearer …"; every name, reason and message goes in as text (dom.js).
import { HttpError, request } from "./http.js";
import { renderActions, renderRecovery } from "./admin-log.js";
import { fundBotsForm, renderBots } from "./admin-bots.js";
import { renderRooms } from "./admin-rooms.js";
import { botTag, renderTables } from "./admin-tables.js";
import { $, chips, fill, h, humanize, toast } from "./dom.js";
import { formatDate, t, tn } from "./i18n.js";

const TOKEN_KEY = "t31_admin_token";
const REFRESH_MS = 10000;

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) || "",
  players: [],
  tables: [],
  rooms: [],
  playerNames: new Map(), // player_id → name (for the log)
  tableNames: new Map(), // table_id → name, closed tables included once seen
  roomNames: new Map(), // room_id → name, closed rooms included once seen
  gameTitles: new Map(), // game id → title, of the games the tables listed play
  closing: new Set(), // table ids whose "close" confirmation is open
  closingRooms: new Set(), // room ids whose "close" confirmation is open
  timer: null,
};

// ------------------------------------------------------------------ the API with the token

const REFUSED = t(
  "The server refused that token: it is not this server's admin token. Check ADMIN_TOKEN in the server's settings (or the token printed in its log at start-up).",
);

/** A host call: the token alone (no cookie); a refused token locks the page. */
async function call(method, path, body) {
  try {
    return await request(method, path, { body, credentials: "omit", headers: { Authorization: `Bearer ${state.token}` } });
  } catch (err) {
    if (err.status === 403 && path.startsWith("/api/admin")) {
      lock(REFUSED); // the token stopped working (the server restarted with another one)
      throw new HttpError(403, REFUSED, null, err.body);
    }
    throw err;
  }
}

const enc = encodeURIComponent;
const host = {
  audit: () => call("GET", "/api/admin/audit"),
  players: () => call("GET", "/api/admin/players"),
  chips: (id, amount, reason) => call("POST", `/api/admin/players/${enc(id)}/chips`, { amount, reason }),
  fundHouse: (amount, reason) => call("POST", "/api/admin/house", { amount, reason }),
  bots: () => call("GET", "/api/admin/bots"),
  fundBots: (amount, reason) => call("POST", "/api/admin/bots", { amount, reason }),
  tables: () => call("GET", "/api/admin/tables"),
  pause: (id, reason) => call("POST", `/api/admin/tables/${enc(id)}/pause`, { reason }),
  resume: (id) => call("POST", `/api/admin/tables/${enc(id)}/resume`, {}),
  close: (id, reason) => call("POST", `/api/admin/tables/${enc(id)}/close`, reason ? { reason } : {}),
  rooms: () => call("GET", "/api/admin/rooms"),
  closeRoom: (id, reason) => call("POST", `/api/admin/rooms/${enc(id)}/close`, reason ? { reason } : {}),
  removeSeat: (id, seat) => call("DELETE", `/api/admin/tables/${enc(id)}/seats/${enc(seat)}`),
  addBot: (id) => call("POST", `/api/admin/tables/${enc(id)}/bots`, {}),
  removeBot: (id, seat) => call("DELETE", `/api/admin/tables/${enc(id)}/bots/${enc(seat)}`),
  settings: () => call("GET", "/api/admin/settings"),
  putSettings: (startingBankroll) => call("PUT", "/api/admin/settings", { starting_bankroll: startingBankroll }),
  actions: () => call("GET", "/api/admin/actions"),
  recovery: () => call("GET", "/api/admin/recovery"),
};

// ------------------------------------------------------------------ the token

function showLocked(message = "") {
  $("#login-panel").hidden = false;
  $("#admin-main").hidden = true;
  $("#login-error").textContent = message;
  fill($("#whoami"), h("span", { class: "muted" }, t("Locked")));
}

function showUnlocked() {
  $("#login-panel").hidden = true;
  $("#admin-main").hidden = false;
  const lockButton = h("button", { type: "button", class: "btn btn-small btn-quiet", id: "lock" }, t("Lock"));
  lockButton.addEventListener("click", () => lock(""));
  fill($("#whoami"), h("span", { class: "pill pill-host" }, t("Host")), " ", lockButton);
}

function lock(message) {
  state.token = "";
  sessionStorage.removeItem(TOKEN_KEY);
  clearInterval(state.timer);
  state.timer = null;
  showLocked(message);
  $("#login-token").value = "";
  $("#login-token").focus();
}

async function unlock(token) {
  state.token = token;
  const submit = $("#login-submit");
  submit.disabled = true;
  $("#login-error").textContent = "";
  let settings;
  try {
    settings = await host.settings();
  } catch (err) {
    if (err.status !== 403) showLocked(err.message); // 403: lock() already said why
    state.token = "";
    sessionStorage.removeItem(TOKEN_KEY);
    return;
  } finally {
    submit.disabled = false;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  showUnlocked();
  $("#settings-bankroll").value = String(settings.starting_bankroll);
  clearInterval(state.timer);
  state.timer = setInterval(() => {
    if (!document.hidden) refreshQuietly();
  }, REFRESH_MS);
  await refreshQuietly();
}

// ------------------------------------------------------------------ the audit

function figure(label, value, sub = false) {
  return [h("dt", { class: sub ? "sub" : null }, label), h("dd", { class: sub ? "sub" : null }, h("span", { class: "admin-figure" }, value))];
}

const KIND_LABELS = {
  bankroll: t("Bankrolls"), house: t("The house"), bots: t("The bots' bank"), stack: t("Stacks at tables"),
  bets: t("Bets in play"), pot: t("Pots"), prison: t("Bets in prison"),
};

function renderAudit(a) {
  const ok = a.balanced === true;
  const problems = [];
  if (a.mismatched_accounts?.length) {
    problems.push(h("p", { class: "field-error" },
      t("Accounts whose balance differs from their entries: {accounts}", { accounts: a.mismatched_accounts.join(", ") })));
  }
  if (a.negative_accounts?.length) {
    problems.push(h("p", { class: "field-error" },
      t("Accounts below zero: {accounts}", { accounts: a.negative_accounts.join(", ") })));
  }
  const kinds = Object.entries(a.by_kind || {}).sort(([x], [y]) => x.localeCompare(y));
  fill($("#audit"),
    h("p", { class: `audit-verdict ${ok ? "audit-ok" : "audit-bad"}`, id: "audit-verdict", "data-balanced": String(ok) },
      ok ? t("Balanced: every chip is accounted for.") : t("NOT balanced: the accounts do not add up to the chips granted.")),
    h("dl", { class: "admin-figures" },
      figure(t("Chips granted"), chips(a.granted)),
      figure(t("granted in"), chips(a.granted_in), true),
      figure(t("taken back"), chips(a.taken_out), true),
      figure(t("Held by the accounts"), chips(a.accounts_total)),
      kinds.map(([kind, total]) => figure(KIND_LABELS[kind] || humanize(kind), chips(total), true)),
      figure(t("Accounts"), chips(a.accounts))),
    problems);
  $("#house-balance").textContent = chips(a.house);
}

// ------------------------------------------------------------------ players and chips

function renderPlayers() {
  const showBots = $("#show-bots").checked;
  const list = state.players.filter((p) => showBots || !p.bot);
  const people = state.players.filter((p) => !p.bot).length;
  $("#players-count").textContent = tn("{n} player", "{n} players", people);

  // The chips form's choice, kept across refreshes.
  const select = $("#chips-player");
  const chosen = select.value;
  fill(select, h("option", { value: "" }, t("Choose a player…")),
    state.players.filter((p) => !p.bot || showBots).map((p) => {
      const name = botTag(p) ? t("{name} (bot)", { name: p.name }) : p.name;
      return h("option", { value: p.player_id }, t("{name} — {chips}", { name, chips: chips(p.bankroll) }));
    }));
  if (chosen && state.players.some((p) => p.player_id === chosen)) select.value = chosen;

  if (!list.length) {
    fill($("#admin-players"), h("p", { class: "muted" }, t("Nobody has chosen a name yet.")));
    return;
  }
  const rows = list.map((p) => {
    const pick = h("button", { type: "button", class: "btn btn-small btn-quiet",
      "aria-label": t("Grant or take chips: {name}", { name: p.name }) }, t("Chips…"));
    pick.addEventListener("click", () => {
      select.value = p.player_id;
      $("#chips-amount").focus();
    });
    return h("tr", { dataset: { playerId: p.player_id } },
      h("td", { class: "admin-name" }, h("span", { class: "player-name" }, p.name), botTag(p)),
      h("td", { class: "num", "data-testid": "bankroll" }, chips(p.bankroll)),
      h("td", { class: "admin-when muted small" },
        formatDate(p.created_at, { year: "numeric", month: "numeric", day: "numeric" })),
      h("td", { class: "admin-row-action" }, pick));
  });
  fill($("#admin-players"),
    h("table", { class: "admin-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("Name")), h("th", { scope: "col", class: "num" }, t("Bankroll")),
        h("th", { scope: "col", class: "admin-when" }, t("Since")),
        h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Actions"))))),
      h("tbody", {}, rows)));
}

async function submitChips(event) {
  event.preventDefault();
  const take = event.submitter?.value === "take";
  const error = $("#chips-error");
  error.textContent = "";
  const playerId = $("#chips-player").value;
  const amount = Number($("#chips-amount").value);
  const reason = $("#chips-reason").value.trim();
  if (!playerId) return fieldError(error, "#chips-player", t("Choose a player."));
  if (!Number.isInteger(amount) || amount <= 0) return fieldError(error, "#chips-amount", t("The chips: a whole number above zero."));
  if (!reason) return fieldError(error, "#chips-reason", t("Give a reason: it is kept in the ledger with the chips."));
  const player = state.players.find((p) => p.player_id === playerId);
  await busy(event.target, async () => {
    const result = await host.chips(playerId, take ? -amount : amount, reason);
    const told = { chips: chips(amount), name: player ? player.name : t("the player"), bankroll: chips(result.bankroll) };
    toast(take
      ? t("Took {chips} chips from {name}: the bankroll holds {bankroll}.", told)
      : t("Granted {chips} chips to {name}: the bankroll holds {bankroll}.", told), "info");
    $("#chips-amount").value = "";
    $("#chips-reason").value = "";
    await refreshAll();
  }, error);
}

// ------------------------------------------------------------------ the house and settings

async function submitHouse(event) {
  event.preventDefault();
  const error = $("#house-error");
  error.textContent = "";
  const amount = Number($("#house-amount").value);
  const reason = $("#house-reason").value.trim() || t("host top-up");
  if (!Number.isInteger(amount) || amount <= 0) return fieldError(error, "#house-amount", t("The chips: a whole number above zero."));
  await busy(event.target, async () => {
    const result = await host.fundHouse(amount, reason);
    toast(t("The house now holds {chips} chips.", { chips: chips(result.house) }), "info");
    $("#house-amount").value = "";
    await refreshAll();
  }, error);
}

async function submitSettings(event) {
  event.preventDefault();
  const error = $("#settings-error");
  error.textContent = "";
  const value = Number($("#settings-bankroll").value);
  if ($("#settings-bankroll").value.trim() === "" || !Number.isInteger(value) || value < 0) {
    return fieldError(error, "#settings-bankroll", t("A whole number of chips, zero or more."));
  }
  await busy(event.target, async () => {
    const result = await host.putSettings(value);
    $("#settings-bankroll").value = String(result.starting_bankroll);
    toast(t("New players now start with {chips} chips.", { chips: chips(result.starting_bankroll) }), "info");
    await refreshActions();
  }, error);
}

// ------------------------------------------------------------------ refreshing

async function refreshActions() {
  renderActions(await host.actions(), state);
}

async function refreshAll() {
  // the bank first: reading it brings home the chips of the bots that have left
  const bots = await host.bots();
  const [audit, players, tables, rooms, actions, recovery] = await Promise.all([
    host.audit(), host.players(), host.tables(), host.rooms(), host.actions(), host.recovery()]);
  renderBots(bots);
  state.players = players;
  state.tables = tables;
  state.rooms = rooms;
  for (const p of players) state.playerNames.set(p.player_id, p.name);
  for (const table of tables) {
    state.tableNames.set(table.table_id, table.name);
    state.gameTitles.set(table.game, table.game_title);
  }
  for (const r of rooms) state.roomNames.set(r.room_id, r.name);
  for (const id of state.closing) if (!tables.some((table) => table.table_id === id)) state.closing.delete(id);
  for (const id of state.closingRooms) if (!rooms.some((r) => r.room_id === id)) state.closingRooms.delete(id);
  renderAudit(audit);
  renderPlayers();
  renderRooms({ state, host, act });
  renderTables({ state, host, act });
  renderActions(actions, state);
  renderRecovery(recovery, state);
}

async function refreshQuietly() {
  // Not while the host is in the middle of a form: a redraw would move things under the pointer.
  const active = document.activeElement;
  if (active?.closest("#admin-main form") && active.value) return;
  try {
    await refreshAll();
  } catch (err) {
    if (err.status !== 403) toast(t("Could not refresh: {reason}", { reason: err.message }), "warn");
  }
}

// ------------------------------------------------------------------ helpers

function fieldError(slot, selector, message) {
  slot.textContent = message;
  const input = $(selector);
  input.setAttribute("aria-invalid", "true");
  input.addEventListener("input", () => input.removeAttribute("aria-invalid"), { once: true });
  input.focus();
}

/** Run `work` with the form's buttons disabled; a failure goes to `errorSlot`. */
async function busy(form, work, errorSlot) {
  const buttons = [...form.querySelectorAll("button")];
  for (const b of buttons) b.disabled = true;
  try {
    await work();
  } catch (err) {
    if (err.status !== 403) errorSlot.textContent = err.message;
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

/** A table's button: run `work`, say what went wrong, then redraw from the server. */
async function act(button, work) {
  button.disabled = true;
  try {
    await work();
  } catch (err) {
    if (err.status !== 403) toast(err.message);
  } finally {
    button.disabled = false;
  }
  if (state.token) {
    try {
      await refreshAll();
    } catch (err) {
      if (err.status !== 403) toast(t("Could not refresh: {reason}", { reason: err.message }), "warn");
    }
  }
}

// ------------------------------------------------------------------ start

function start() {
  // the forms' default reason (templates/admin.html writes it in English) in the host's language
  for (const input of [$("#house-reason"), $("#bots-reason")]) {
    if (input.value === "host top-up") input.value = t("host top-up");
  }
  $("#login-form").addEventListener("submit", (event) => {

    event.preventDefault();
    const token = $("#login-token").value.trim();
    if (!token) {
      $("#login-error").textContent = t("Paste the admin token first.");

      $("#login-token").focus();
      return;
    }
    unlock(token);
  });
  $("#login-submit").disabled = false; // the form is handled now (templates/admin.html)
  $("#chips-form").addEventListener("submit", submitChips);
  $("#house-form").addEventListener("submit", submitHouse);
  $("#bots-form").addEventListener("submit", fundBotsForm({ host, busy, fieldError, refreshAll }));
  $("#settings-form").addEventListener("submit", submitSettings);
  $("#show-bots").addEventListener("change", renderPlayers);
  $("#refresh-all").addEventListener("click", (event) => act(event.currentTarget, async () => {}));
  if (state.token) unlock(state.token);
  else showLocked();
}

start();
