// The lobby: choose a name, see the open tables, open a table with the game's options.
import { api } from "./api.js";
import { $, chips, fill, h, humanize } from "./dom.js";
import { renderSignIn, showWhoami } from "./signin.js";
import { recoveryControl } from "./recover.js";
import { seatedWords } from "./seated-words.js";
import { formatTime, t } from "./i18n.js";

const REFRESH_MS = 4000;
const games = JSON.parse($("#games-data").textContent);
const gameById = new Map(games.map((g) => [g.id, g]));
let me = null;

// ------------------------------------------------------------------ who you are

function renderIdentity() {
  const slot = $("#signin-slot");
  showWhoami(me);
  if (me) {
    fill(slot, h("p", { class: "signed-in" },
      t("Signed in as"), " ", h("strong", {}, me.name),
      typeof me.bankroll === "number" ? t(" — your bankroll holds {chips} chips.", { chips: chips(me.bankroll) }) : "."),
      recoveryControl(me));
    return;
  }
  renderSignIn(slot, {
    joinCode: slot.dataset.joinCode === "required",
    intro: t("Choose a name to play. It is kept by this browser (a cookie), so you keep your chips."),
    onSignedIn(player) {
      me = player;
      renderIdentity();
    },
  });
}

// ------------------------------------------------------------------ open tables

function tableItem(table) {
  const seated = Array.isArray(table.seats) ? table.seats : [];
  const state = table.status === "paused" ? "paused" : table.in_hand ? "playing" : "waiting";
  const STATE_WORDS = { paused: t("Paused"), playing: t("Playing"), waiting: t("Waiting") };
  return h("li", { class: "table-item", dataset: { tableId: table.table_id } },
    h("div", { class: "table-item-main" },
      // the game's title from the page's listing, in the reader's language
      h("span", { class: "table-item-game" }, gameById.get(table.game)?.title || table.game_title || table.game),
      h("span", { class: "table-item-name" }, table.name),
      h("span", { class: "table-item-players" }, seatedWords(table)),
      h("span", { class: `pill pill-${state}` }, STATE_WORDS[state]),
      table.private ? h("span", { class: "pill pill-private", title: t("Only people with the invite link") }, t("Private")) : null,
      table.room_id ? h("span", { class: "pill pill-room", title: t("One link for the evening: its host switches the game") }, t("Room")) : null),
    seated.length
      ? h("p", { class: "table-item-who muted small" }, h("span", { class: "table-item-names" },
          // a bot of the server's pool is named with its mark already ("Basil (bot)")
          seated.map((s) => (s.bot && !String(s.name).endsWith("(bot)") ? t("{name} (bot)", { name: s.name }) : s.name)).join(", ")))
      : h("p", { class: "table-item-who muted small" }, t("Nobody seated yet")),
    // a room is one entry: its link, whichever table it plays at now
    h("a", { class: "btn btn-primary btn-small",
      href: table.room_id ? `/rooms/${encodeURIComponent(table.room_id)}` : `/tables/${encodeURIComponent(table.table_id)}`,
      "aria-label": t("Join {name}", { name: table.name }) }, t("Join")));
}

async function refreshTables() {
  const list = $("#tables-list");
  try {
    const tables = await api.tables();
    if (!tables.length) {
      fill(list, h("p", { class: "muted" }, t("No table is open yet: open one below.")));
    } else {
      fill(list, h("ul", { class: "table-list" }, tables.map(tableItem)));
    }
    $("#tables-updated").textContent = t("updated {time}", { time: formatTime(new Date()) });
  } catch (err) {
    $("#tables-updated").textContent = t("could not refresh: {reason}", { reason: err.message });
  }
}

// ------------------------------------------------------------------ open a table

/** What the page opens with where it differs from the API's default: a table for friends, which
 *  deals its first hand once everyone is ready (the API's default, `auto`, is for bots and
 *  scripts; docs/rules.md §0.11). */
const PAGE_DEFAULTS = { start: "when_ready" };

/** An option's name and help for people, in the page's language (GET /api/games gives them:
 *  app/rulebook/option_names.py), and a choice's values in words. */
const label = (spec) => spec.label || humanize(spec.name);
const help = (spec) => spec.help || spec.description || "";
const choiceLabel = (spec, i) => spec.choice_labels?.[i] ?? String(spec.choices[i]);

/** One form field per option spec: int (number, maybe empty = no limit), bool, choice. */
function optionField(spec) {
  const id = `opt-${spec.name}`;
  const helpId = `${id}-help`;
  const errorEl = h("p", { class: "field-error", id: `err-options.${spec.name}`, role: "alert" });
  let input;
  if (spec.type === "bool") {
    input = h("input", { type: "checkbox", id, name: spec.name, checked: Boolean(spec.default),
      "aria-describedby": helpId });
    return h("div", { class: "field field-check", dataset: { option: spec.name, type: "bool" } },
      h("label", { for: id }, input, " ", label(spec)),
      h("p", { class: "help", id: helpId }, help(spec)),
      errorEl);
  }
  if (spec.type === "choice") {
    input = h("select", { id, name: spec.name, "aria-describedby": helpId },
      (spec.choices || []).map((c, i) =>
        h("option", { value: JSON.stringify(c), selected: c === (PAGE_DEFAULTS[spec.name] ?? spec.default) }, choiceLabel(spec, i))));
  } else {
    input = h("input", {
      type: "number", id, name: spec.name, step: "1", inputmode: "numeric",
      min: spec.min ?? undefined, max: spec.max ?? undefined,
      value: spec.default === null || spec.default === undefined ? "" : String(spec.default),
      placeholder: spec.nullable ? t("no limit") : "",
      "aria-describedby": helpId,
    });
  }
  // Huge upper bounds (1,000,000,000) say "no practical limit": show only the lower one.
  const bounds = spec.max >= 1e6
    ? t("at least {least}", { least: chips(spec.min) })
    : `${chips(spec.min)}–${chips(spec.max)}`;
  const said = help(spec).replace(/\.$/, "");
  let helpText = `${said}.`;
  if (spec.type === "int") {
    helpText = spec.nullable
      ? t("{help} ({bounds}; empty: no limit).", { help: said, bounds })
      : t("{help} ({bounds}).", { help: said, bounds });
  }
  return h("div", { class: "field", dataset: { option: spec.name, type: spec.type } },
    h("label", { for: id }, label(spec)),
    input,
    h("p", { class: "help", id: helpId }, helpText),
    errorEl);
}

function renderOptions() {
  const game = gameById.get($("#open-game").value);
  const rules = $("#open-game-rules");
  if (rules && game) {
    rules.href = `/games/${encodeURIComponent(game.id)}/how-to-play`;
    rules.textContent = t("How to play {title}", { title: game.title });
  }
  const box = $("#open-options");
  fill(box, h("legend", {}, t("{title} options", { title: game ? game.title : "" })),
    ...(game ? game.options.map(optionField) : []));
}

/** The options as the server wants them; a client-side message for an unreadable number. */
function readOptions(game) {
  const options = {};
  const problems = [];
  for (const spec of game.options) {
    const input = document.getElementById(`opt-${spec.name}`);
    if (spec.type === "bool") options[spec.name] = input.checked;
    else if (spec.type === "choice") options[spec.name] = JSON.parse(input.value);
    else {
      const raw = input.value.trim();
      if (raw === "") {
        if (spec.nullable) options[spec.name] = null;
        else problems.push([spec.name, t("{option} needs a whole number", { option: label(spec) })]);
      } else options[spec.name] = Number(raw); // the server checks whole numbers and ranges
    }
  }
  return { options, problems };
}

function clearErrors() {
  for (const el of document.querySelectorAll("#open-form .field-error")) el.textContent = "";
  for (const el of document.querySelectorAll("#open-form [aria-invalid]")) el.removeAttribute("aria-invalid");
}

function showFieldError(field, message) {
  const slot = document.getElementById(`err-${field}`) || $("#err-form");
  slot.textContent = message;
  const input = field?.startsWith("options.")
    ? document.getElementById(`opt-${field.slice(8)}`)
    : document.getElementById(`open-${field}`);
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
}

async function openTable(event) {
  event.preventDefault();
  clearErrors();
  const game = gameById.get($("#open-game").value);
  if (!game) return;
  if (!me) {
    showFieldError("form", t("Choose a name first (above), then open the table."));
    $("#signin-name")?.focus();
    return;
  }
  const { options, problems } = readOptions(game);
  if (problems.length) {
    for (const [name, message] of problems) showFieldError(`options.${name}`, message);
    return;
  }
  const submit = $("#open-submit");
  submit.disabled = true;
  try {
    const name = $("#open-name").value.trim();
    if ($("#open-room")?.checked) {
      const room = await api.openRoom(game.id, name, options, $("#open-private").checked);
      location.href = room.url;
      return;
    }
    const table = await api.openTable(game.id, name, options, $("#open-private").checked);
    await seatPracticeBots(table.table_id);
    location.href = table.invite_path || `/tables/${encodeURIComponent(table.table_id)}`;
  } catch (err) {
    if (err.status === 401) {
      me = null;
      renderIdentity();
      showFieldError("form", t("Choose a name first (above), then open the table."));
    } else showFieldError(err.field || "form", err.message);
  } finally {
    submit.disabled = false;
  }
}

/** "Practise against bots": seat the bots asked for at the new table, one after the other
 *  (a refusal, such as the bots' bank running dry, stops there: the table is open anyway). */
async function seatPracticeBots(tableId) {
  const count = Number($("#open-bots").value);
  const level = $("#open-bot-level").value;
  for (let i = 0; i < count; i += 1) {
    try {
      await api.addBot(tableId, level);
    } catch {
      return;
    }
  }
}

// ------------------------------------------------------------------ start

/** Seats by approval are on at a private table unless the opener says otherwise
 *  (docs/rules.md §0.12): the box follows "Private table" until it is touched. */
function approvalFollowsPrivate() {
  const approval = document.getElementById("opt-approval");
  if (!approval) return;
  if (!approval.dataset.follows) {
    approval.dataset.follows = "yes";
    approval.addEventListener("change", () => { approval.dataset.touched = "yes"; });
  }
  if (!approval.dataset.touched) approval.checked = $("#open-private").checked;
}

function start() {
  const select = $("#open-game");
  fill(select, games.map((g) => h("option", { value: g.id }, g.title)));
  select.addEventListener("change", () => {
    clearErrors();
    renderOptions();
    approvalFollowsPrivate();
  });
  renderOptions();
  $("#open-private").addEventListener("change", approvalFollowsPrivate);
  $("#open-form").addEventListener("submit", openTable);
  refreshTables();
  setInterval(() => {
    if (!document.hidden) refreshTables();
  }, REFRESH_MS);
  // Without a session cookie (the page says whether there is one; the cookie itself is not
  // readable here) GET /api/me could only answer 401: go straight to choosing a name.
  if ($("#signin-slot").dataset.session !== "yes") {
    renderIdentity();
    return;
  }
  api.me().then((player) => {
    me = player;
    renderIdentity();
  }, (err) => {
    fill($("#signin-slot"), h("p", { class: "field-error" }, err.message));
  });
}

start();
