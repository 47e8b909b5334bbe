// The host's page (README "The host's page"): the admin token, then the host API of
// app/api/routes/admin.py. The token is kept in sessionStorage (this tab only) and sent as
// "Authorization: Bearer …"; every name, reason and message goes in as text (dom.js).
import { ApiError } from "./api.js";
import { $, chips, fill, h, humanize, signed, toast } from "./dom.js";

const TOKEN_KEY = "t31_admin_token";
const REFRESH_MS = 10000;

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) || "",
  players: [],
  tables: [],
  playerNames: new Map(), // player_id → name (for the log)
  tableNames: new Map(), // table_id → name, closed tables included once seen
  closing: new Set(), // table ids whose "close" confirmation is open
  timer: null,
};

// ------------------------------------------------------------------ the API with the token

function messageOf(body, status) {
  const detail = body && body.detail;
  if (body && typeof body.message === "string") return body.message;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((d) => String(d.msg || "").replace(/^Value error, /, "")).join("; ");
  }
  return `The server answered ${status}`;
}

const REFUSED = "The server refused that token: it is not this server's admin token. "
  + "Check ADMIN_TOKEN in the server's settings (or the token printed in its log at start-up).";

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "omit", // the host's calls go by the token alone
      headers: {
        Authorization: `Bearer ${state.token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "The server cannot be reached; check your connection.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 403 && path.startsWith("/api/admin")) {
    lock(REFUSED); // the token stopped working (the server restarted with another one)
    throw new ApiError(403, REFUSED, null, data);
  }
  if (!response.ok) throw new ApiError(response.status, messageOf(data, response.status), null, data);
  return data;
}

const enc = encodeURIComponent;
const host = {
  audit: () => call("GET", "/api/admin/audit"),
  players: () => call("GET", "/api/admin/players"),
  chips: (id, amount, reason) => call("POST", `/api/admin/players/${enc(id)}/chips`, { amount, reason }),
  fundHouse: (amount, reason) => call("POST", "/api/admin/house", { amount, reason }),
  tables: () => call("GET", "/api/admin/tables"),
  pause: (id, reason) => call("POST", `/api/admin/tables/${enc(id)}/pause`, { reason }),
  resume: (id) => call("POST", `/api/admin/tables/${enc(id)}/resume`, {}),
  close: (id, reason) => call("POST", `/api/admin/tables/${enc(id)}/close`, reason ? { reason } : {}),
  removeSeat: (id, seat) => call("DELETE", `/api/admin/tables/${enc(id)}/seats/${enc(seat)}`),
  addBot: (id) => call("POST", `/api/admin/tables/${enc(id)}/bots`, {}),
  removeBot: (id, seat) => call("DELETE", `/api/admin/tables/${enc(id)}/bots/${enc(seat)}`),
  settings: () => call("GET", "/api/admin/settings"),
  putSettings: (startingBankroll) => call("PUT", "/api/admin/settings", { starting_bankroll: startingBankroll }),
  actions: () => call("GET", "/api/admin/actions"),
};

// ------------------------------------------------------------------ the token

function showLocked(message = "") {
  $("#login-panel").hidden = false;
  $("#admin-main").hidden = true;
  $("#login-error").textContent = message;
  fill($("#whoami"), h("span", { class: "muted" }, "Locked"));
}

function showUnlocked() {
  $("#login-panel").hidden = true;
  $("#admin-main").hidden = false;
  const lockButton = h("button", { type: "button", class: "btn btn-small btn-quiet", id: "lock" }, "Lock");
  lockButton.addEventListener("click", () => lock(""));
  fill($("#whoami"), h("span", { class: "pill pill-host" }, "Host"), " ", lockButton);
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
  bankroll: "Bankrolls", house: "The house", stack: "Stacks at tables", bets: "Bets in play",
  pot: "Pots", prison: "Bets in prison",
};

function renderAudit(a) {
  const ok = a.balanced === true;
  const problems = [];
  if (a.mismatched_accounts?.length) {
    problems.push(h("p", { class: "field-error" }, "Accounts whose balance differs from their entries: ",
      a.mismatched_accounts.join(", ")));
  }
  if (a.negative_accounts?.length) {
    problems.push(h("p", { class: "field-error" }, "Accounts below zero: ", a.negative_accounts.join(", ")));
  }
  const kinds = Object.entries(a.by_kind || {}).sort(([x], [y]) => x.localeCompare(y));
  fill($("#audit"),
    h("p", { class: `audit-verdict ${ok ? "audit-ok" : "audit-bad"}`, id: "audit-verdict", "data-balanced": String(ok) },
      ok ? "Balanced: every chip is accounted for." : "NOT balanced: the accounts do not add up to the chips granted."),
    h("dl", { class: "admin-figures" },
      figure("Chips granted", chips(a.granted)),
      figure("granted in", chips(a.granted_in), true),
      figure("taken back", chips(a.taken_out), true),
      figure("Held by the accounts", chips(a.accounts_total)),
      kinds.map(([kind, total]) => figure(KIND_LABELS[kind] || humanize(kind), chips(total), true)),
      figure("Accounts", chips(a.accounts))),
    problems);
  $("#house-balance").textContent = chips(a.house);
}

// ------------------------------------------------------------------ players and chips

function renderPlayers() {
  const showBots = $("#show-bots").checked;
  const list = state.players.filter((p) => showBots || !p.bot);
  const people = state.players.filter((p) => !p.bot).length;
  $("#players-count").textContent = `${people} player${people === 1 ? "" : "s"}`;

  // The chips form's choice, kept across refreshes.
  const select = $("#chips-player");
  const chosen = select.value;
  fill(select, h("option", { value: "" }, "Choose a player…"),
    state.players.filter((p) => !p.bot || showBots).map((p) =>
      h("option", { value: p.player_id }, `${p.name}${botTag(p) ? " (bot)" : ""} — ${chips(p.bankroll)}`)));
  if (chosen && state.players.some((p) => p.player_id === chosen)) select.value = chosen;

  if (!list.length) {
    fill($("#admin-players"), h("p", { class: "muted" }, "Nobody has chosen a name yet."));
    return;
  }
  const rows = list.map((p) => {
    const pick = h("button", { type: "button", class: "btn btn-small btn-quiet", "aria-label": `Grant or take chips: ${p.name}` }, "Chips…");
    pick.addEventListener("click", () => {
      select.value = p.player_id;
      $("#chips-amount").focus();
    });
    return h("tr", { dataset: { playerId: p.player_id } },
      h("td", { class: "admin-name" }, h("span", { class: "player-name" }, p.name), botTag(p)),
      h("td", { class: "num", "data-testid": "bankroll" }, chips(p.bankroll)),
      h("td", { class: "admin-when muted small" }, new Date(p.created_at).toLocaleDateString()),
      h("td", { class: "admin-row-action" }, pick));
  });
  fill($("#admin-players"),
    h("table", { class: "admin-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Name"), h("th", { scope: "col", class: "num" }, "Bankroll"),
        h("th", { scope: "col", class: "admin-when" }, "Since"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
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
  if (!playerId) return fieldError(error, "#chips-player", "Choose a player.");
  if (!Number.isInteger(amount) || amount <= 0) return fieldError(error, "#chips-amount", "The chips: a whole number above zero.");
  if (!reason) return fieldError(error, "#chips-reason", "Give a reason: it is kept in the ledger with the chips.");
  const player = state.players.find((p) => p.player_id === playerId);
  await busy(event.target, async () => {
    const result = await host.chips(playerId, take ? -amount : amount, reason);
    toast(`${take ? "Took" : "Granted"} ${chips(amount)} chips ${take ? "from" : "to"} ${player ? player.name : "the player"}: the bankroll holds ${chips(result.bankroll)}.`, "info");
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
  const reason = $("#house-reason").value.trim() || "host top-up";
  if (!Number.isInteger(amount) || amount <= 0) return fieldError(error, "#house-amount", "The chips: a whole number above zero.");
  await busy(event.target, async () => {
    const result = await host.fundHouse(amount, reason);
    toast(`The house now holds ${chips(result.house)} chips.`, "info");
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
    return fieldError(error, "#settings-bankroll", "A whole number of chips, zero or more.");
  }
  await busy(event.target, async () => {
    const result = await host.putSettings(value);
    $("#settings-bankroll").value = String(result.starting_bankroll);
    toast(`New players now start with ${chips(result.starting_bankroll)} chips.`, "info");
    await refreshActions();
  }, error);
}

// ------------------------------------------------------------------ tables

function copyButton(text, label) {
  const button = h("button", { type: "button", class: "btn btn-small" }, "Copy");
  button.setAttribute("aria-label", label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast("Link copied.", "info");
    } catch {
      toast("Select the link and copy it.", "warn");
    }
  });
  return button;
}

/** A "bot" tag, unless the bot's name already says so ("Ada (bot)"). */
function botTag(p) {
  return p.bot && !/\(bot\)\s*$/i.test(p.name) ? h("span", { class: "tag tag-bot" }, "bot") : null;
}

function seatItem(t, s) {
  const remove = h("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { seat: s.seat }, disabled: s.leaving || null }, "Remove");
  remove.setAttribute("aria-label", `${s.bot ? "Remove the bot" : "Remove"} ${s.name} from seat ${s.seat}`);
  remove.addEventListener("click", () => act(remove, async () => {
    if (s.bot) {
      await host.removeBot(t.table_id, s.seat);
      toast(`The bot in seat ${s.seat} stands up at the next moment the rules allow.`, "info");
    } else {
      const r = await host.removeSeat(t.table_id, s.seat);
      toast(r.removed
        ? `${s.name} stood up; their stack went back to their bankroll.`
        : `${s.name} stands up at the end of this hand; their stack then goes back to their bankroll.`, "info");
    }
  }));
  return h("li", { class: "admin-seat", dataset: { seat: s.seat } },
    h("span", { class: "seat-no" }, `Seat ${s.seat}`),
    h("span", { class: "admin-seat-name" }, s.name),
    botTag(s),
    s.leaving ? h("span", { class: "tag tag-leaving", title: "stands up at the next moment the rules allow" }, "leaving") : null,
    remove);
}

function tableCard(t) {
  const paused = t.status === "paused";
  const path = t.invite_path || `/tables/${enc(t.table_id)}`;
  const link = new URL(path, location.origin).href;
  const seats = Array.isArray(t.seats) ? t.seats : [];
  const state_ = paused ? "Paused" : t.in_hand ? "Playing" : "Waiting";

  const head = h("div", { class: "admin-table-head" },
    h("span", { class: "table-item-game" }, t.game_title || t.game),
    h("a", { class: "admin-table-name", href: path, target: "_blank", rel: "noopener" }, t.name),
    h("span", { class: `pill pill-${state_.toLowerCase()}` }, state_),
    t.private ? h("span", { class: "pill pill-private" }, "Private") : null,
    h("span", { class: "muted small" },
      `${seats.length}/${t.max_seats} seated · ${chips(t.spectators || 0)} watching · ${chips(t.hands_played || 0)} hands`));

  const pauseNote = paused
    ? h("p", { class: "admin-paused" }, h("strong", {}, "Paused"), t.pause_reason ? ` — ${t.pause_reason}` : " (no reason given)")
    : null;

  const linkInput = h("input", { class: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() });
  linkInput.setAttribute("aria-label", t.private ? `Invite link of ${t.name}` : `Link of ${t.name}`);
  const linkRow = h("div", { class: "admin-link" },
    h("span", { class: "small muted" }, t.private ? "Invite link (the only way in):" : "Link:"),
    h("div", { class: "invite-row" }, linkInput, copyButton(link, `Copy the link of ${t.name}`)));

  const seatList = seats.length
    ? h("ul", { class: "admin-seats" }, seats.map((s) => seatItem(t, s)))
    : h("p", { class: "muted small" }, "Nobody seated.");

  // Pause (with a reason) or resume; add a bot; close (confirmed, with a reason).
  const controls = h("div", { class: "admin-table-controls" });
  if (paused) {
    const resume = h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { act: "resume" } }, "Resume");
    resume.addEventListener("click", () => act(resume, async () => {
      await host.resume(t.table_id);
      toast(`${t.name} is playing again.`, "info");
    }));
    controls.append(resume);
  } else {
    const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: "Reason (players see it)", autocomplete: "off" });
    reason.setAttribute("aria-label", `Why you pause ${t.name}`);
    const pause = h("button", { type: "submit", class: "btn btn-small", dataset: { act: "pause" } }, "Pause");
    const form = h("form", { class: "admin-inline-form", novalidate: true }, reason, pause);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      act(pause, async () => {
        await host.pause(t.table_id, reason.value.trim());
        toast(`${t.name} is paused.`, "info");
      });
    });
    controls.append(form);
  }
  const bot = h("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { act: "bot" } }, "Add a bot");
  bot.addEventListener("click", () => act(bot, async () => {
    const r = await host.addBot(t.table_id);
    toast(`A bot sat down in seat ${r.seat}.`, "info");
  }));
  controls.append(bot);

  let closeBox;
  if (state.closing.has(t.table_id)) {
    const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: "The host closed this table", autocomplete: "off" });
    reason.setAttribute("aria-label", `Why you close ${t.name}`);
    const confirm = h("button", { type: "submit", class: "btn btn-small btn-danger", dataset: { act: "close-confirm" } }, "Close for good");
    const cancel = h("button", { type: "button", class: "btn btn-small btn-quiet" }, "Cancel");
    cancel.addEventListener("click", () => {
      state.closing.delete(t.table_id);
      renderTables();
    });
    closeBox = h("form", { class: "admin-close", novalidate: true },
      h("p", { class: "small" }, "Closing voids the hand in play and sends every stack back to its bankroll. It cannot be undone."),
      reason, h("div", { class: "admin-buttons" }, confirm, cancel));
    closeBox.addEventListener("submit", (event) => {
      event.preventDefault();
      act(confirm, async () => {
        await host.close(t.table_id, reason.value.trim());
        state.closing.delete(t.table_id);
        toast(`${t.name} is closed.`, "info");
      });
    });
  } else {
    const close = h("button", { type: "button", class: "btn btn-small btn-quiet btn-danger-quiet", dataset: { act: "close" } }, "Close…");
    close.addEventListener("click", () => {
      state.closing.add(t.table_id);
      renderTables();
      document.querySelector(`[data-table-id="${CSS.escape(t.table_id)}"] .admin-close input`)?.focus();
    });
    controls.append(close);
  }

  return h("li", { class: `admin-table-card${paused ? " is-paused" : ""}`, dataset: { tableId: t.table_id } },
    head, pauseNote, linkRow, seatList, controls, closeBox);
}

function renderTables() {
  // Keep what the host is typing in a pause or close reason across a refresh.
  const typed = new Map();
  for (const input of document.querySelectorAll("#admin-tables .admin-reason")) {
    const card = input.closest("[data-table-id]");
    if (card && input.value) typed.set(`${card.dataset.tableId}|${input.closest(".admin-close") ? "close" : "pause"}`, input.value);
  }
  const focused = document.activeElement?.closest?.("#admin-tables [data-table-id]");
  const focusKey = focused && document.activeElement.classList.contains("admin-reason")
    ? `${focused.dataset.tableId}|${document.activeElement.closest(".admin-close") ? "close" : "pause"}` : null;

  const n = state.tables.length;
  $("#tables-count").textContent = `${n} open`;
  if (!n) {
    fill($("#admin-tables"), h("p", { class: "muted" }, "No table is open."));
    return;
  }
  fill($("#admin-tables"), h("ul", { class: "admin-table-list" }, state.tables.map(tableCard)));
  for (const input of document.querySelectorAll("#admin-tables .admin-reason")) {
    const card = input.closest("[data-table-id]");
    const key = `${card.dataset.tableId}|${input.closest(".admin-close") ? "close" : "pause"}`;
    if (typed.has(key)) input.value = typed.get(key);
    if (key === focusKey) input.focus();
  }
}

// ------------------------------------------------------------------ the host's log

function tableName(id) {
  const name = state.tableNames.get(id);
  return name ? `\u201c${name}\u201d` : `table ${id}`;
}

function playerName(id) {
  return state.playerNames.get(id) || `player ${String(id).slice(0, 8)}`;
}

function describe(a) {
  const d = a.detail || {};
  switch (a.action) {
    case "grant_chips": return `Granted ${chips(d.amount)} chips to ${playerName(d.player_id)}`;
    case "take_chips": return `Took ${chips(-d.amount)} chips from ${playerName(d.player_id)}`;
    case "fund_house": return `Funded the house with ${chips(d.amount)} chips`;
    case "pause_table": return `Paused ${tableName(d.table_id)}`;
    case "resume_table": return `Resumed ${tableName(d.table_id)}`;
    case "close_table": return `Closed ${tableName(d.table_id)}`;
    case "remove_seat": return `Removed ${playerName(d.player_id)} from seat ${d.seat} at ${tableName(d.table_id)}`;
    case "add_bot": return `Seated a bot in seat ${d.seat} at ${tableName(d.table_id)}`;
    case "remove_bot": return `Stood the bot in seat ${d.seat} up at ${tableName(d.table_id)}`;
    case "set_starting_bankroll": return `Set the starting bankroll to ${chips(d.value)} chips`;
    default: return `${humanize(a.action)} ${JSON.stringify(d)}`;
  }
}

function renderActions(actions) {
  const list = $("#admin-actions");
  for (const a of actions) {
    // a closed table is no longer listed: its close entry carries its name
    const d = a.detail || {};
    if (d.table_id && d.name && !state.tableNames.has(d.table_id)) state.tableNames.set(d.table_id, d.name);
  }
  if (!actions.length) {
    fill(list, h("li", { class: "muted" }, "Nothing yet."));
    return;
  }
  fill(list, actions.slice(0, 200).map((a) => {
    const when = new Date(a.at);
    return h("li", { dataset: { action: a.action } },
      h("time", { datetime: a.at, title: when.toLocaleString() }, when.toLocaleString([], { dateStyle: "short", timeStyle: "short" })),
      " ",
      h("span", { class: "admin-log-what" }, describe(a)),
      a.note ? h("span", { class: "admin-log-note" }, ` — ${a.note}`) : null,
      a.action === "grant_chips" || a.action === "take_chips"
        ? h("span", { class: a.detail.amount > 0 ? "delta delta-up" : "delta delta-down" }, ` ${signed(a.detail.amount)}`)
        : null);
  }));
}

// ------------------------------------------------------------------ refreshing

async function refreshActions() {
  renderActions(await host.actions());
}

async function refreshAll() {
  const [audit, players, tables, actions] = await Promise.all([host.audit(), host.players(), host.tables(), host.actions()]);
  state.players = players;
  state.tables = tables;
  for (const p of players) state.playerNames.set(p.player_id, p.name);
  for (const t of tables) state.tableNames.set(t.table_id, t.name);
  for (const id of state.closing) if (!tables.some((t) => t.table_id === id)) state.closing.delete(id);
  renderAudit(audit);
  renderPlayers();
  renderTables();
  renderActions(actions);
}

async function refreshQuietly() {
  // Not while the host is in the middle of a form: a redraw would move things under the pointer.
  const active = document.activeElement;
  if (active && active.closest("#admin-main form") && active.value) return;
  try {
    await refreshAll();
  } catch (err) {
    if (err.status !== 403) toast(`Could not refresh: ${err.message}`, "warn");
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
      if (err.status !== 403) toast(`Could not refresh: ${err.message}`, "warn");
    }
  }
}

// ------------------------------------------------------------------ start

function start() {
  $("#login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const token = $("#login-token").value.trim();
    if (!token) {
      $("#login-error").textContent = "Paste the admin token first.";
      $("#login-token").focus();
      return;
    }
    unlock(token);
  });
  $("#chips-form").addEventListener("submit", submitChips);
  $("#house-form").addEventListener("submit", submitHouse);
  $("#settings-form").addEventListener("submit", submitSettings);
  $("#show-bots").addEventListener("change", renderPlayers);
  $("#refresh-all").addEventListener("click", (event) => act(event.currentTarget, async () => {}));
  if (state.token) unlock(state.token);
  else showLocked();
}

start();
