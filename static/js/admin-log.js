// The host's page (static/js/admin.js): the host's log (every host action, in words) and what
// the server's last start-up did.
import { $, chips, fill, h, humanize, signed } from "./dom.js";
import { formatDate, t, tn } from "./i18n.js";

function tableName(names, id) {
  const name = names.tableNames.get(id);
  return name ? t("“{name}”", { name }) : t("table {id}", { id });
}

function playerName(names, id) {
  return names.playerNames.get(id) || t("player {id}", { id: String(id).slice(0, 8) });
}

/** A table host's action (its `kind`, docs/protocol/socket.md §5.13) in a word. */
function hostActionWord(kind) {
  switch (kind) {
    case "pause": return t("pause");
    case "resume": return t("resume");
    case "unseat": return t("unseat");
    case "set_options": return t("set options");
    case "make_host": return t("make host");
    case "close": return t("close");
    case "approve": return t("approve");
    case "refuse": return t("refuse");
    default: return humanize(kind).toLowerCase();
  }
}

/** An action of a table's own host, from the table (docs/protocol/socket.md §5.13): marked
 *  `by: "table_host"`, not the server owner's. */
function describeTableHost(a, d, names) {
  if (a.action === "table_switch_game") { // a room's switch: the game it went to, not its options
    const room = names.roomNames?.get(d.room_id);
    const to = d.game ? names.gameTitles?.get(d.game) || humanize(d.game) : t("Another game");
    const host = playerName(names, d.host_id);
    return room
      ? t("The room's host, {host}, switched the room “{room}” to {game}", { host, room, game: to })
      : t("The room's host, {host}, switched {table} to {game}", { host, table: tableName(names, d.table_id), game: to });
  }
  const what = hostActionWord(a.action.replace(/^table_/, ""));
  const whom = typeof d.name === "string" ? ` ${d.name}` : "";
  const options = d.options ? ` ${JSON.stringify(d.options)}` : "";
  return t("The table's host, {host}, at {table}: {what}{details}", {
    host: playerName(names, d.host_id), table: tableName(names, d.table_id), what, details: `${whom}${options}`,
  });
}

function describe(a, names) {
  const d = a.detail || {};
  if (d.by === "table_host") return describeTableHost(a, d, names);
  switch (a.action) {
    case "grant_chips":
      return t("Granted {chips} chips to {player}", { chips: chips(d.amount), player: playerName(names, d.player_id) });
    case "take_chips":
      return t("Took {chips} chips from {player}", { chips: chips(-d.amount), player: playerName(names, d.player_id) });
    case "fund_house": return t("Funded the house with {chips} chips", { chips: chips(d.amount) });
    case "fund_bots": return t("Funded the bots' bank with {chips} chips", { chips: chips(d.amount) });
    case "pause_table": return t("Paused {table}", { table: tableName(names, d.table_id) });
    case "resume_table": return t("Resumed {table}", { table: tableName(names, d.table_id) });
    case "close_table": return t("Closed {table}", { table: tableName(names, d.table_id) });
    case "close_room":
      return d.table_id
        ? t("Closed the room “{name}” and its table", { name: d.name })
        : t("Closed the room “{name}”", { name: d.name });
    case "remove_seat":
      return t("Removed {player} from seat {seat} at {table}",
        { player: playerName(names, d.player_id), seat: d.seat, table: tableName(names, d.table_id) });
    case "add_bot": return t("Seated a bot in seat {seat} at {table}", { seat: d.seat, table: tableName(names, d.table_id) });
    case "remove_bot": return t("Stood the bot in seat {seat} up at {table}", { seat: d.seat, table: tableName(names, d.table_id) });
    case "set_starting_bankroll": return t("Set the starting bankroll to {chips} chips", { chips: chips(d.value) });
    case "recovery_closed_table":
      return t("The server closed {table} at start-up; its chips went back to the players", { table: tableName(names, d.table_id) });
    case "seed_table": return t("Seed table {detail}", { detail: JSON.stringify(d) }); // the tests' fixed shuffle
    default: return `${humanize(a.action)} ${JSON.stringify(d)}`;
  }
}

/** The host's log, newest first (`names`: the page's player and table names, which it adds to). */
export function renderActions(actions, names) {
  const list = $("#admin-actions");
  for (const a of actions) {
    // a closed table is no longer listed: its close entry carries its name
    const d = a.detail || {};
    if (d.table_id && d.name && !names.tableNames.has(d.table_id)) names.tableNames.set(d.table_id, d.name);
    if (a.action === "close_room" && d.room_id && d.name) names.roomNames?.set(d.room_id, d.name);
  }
  if (!actions.length) {
    fill(list, h("li", { class: "muted" }, t("Nothing yet.")));
    return;
  }
  fill(list, actions.slice(0, 200).map((a) => {
    const when = new Date(a.at);
    return h("li", { dataset: { action: a.action } },
      h("time", { datetime: a.at, title: formatDate(when, LONG_WHEN) }, formatDate(when, { dateStyle: "short", timeStyle: "short" })),
      " ",
      h("span", { class: "admin-log-what" }, describe(a, names)),
      a.note ? h("span", { class: "admin-log-note" }, ` — ${a.note_words || a.note}`) : null,
      a.action === "grant_chips" || a.action === "take_chips"
        ? h("span", { class: a.detail.amount > 0 ? "delta delta-up" : "delta delta-down" }, ` ${signed(a.detail.amount)}`)
        : null);
  }));
}

/** A log entry's moment in full (its title), as the page's language writes it. */
const LONG_WHEN = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" };

// ------------------------------------------------------------------ the last start-up

/** What the last start-up did, when it had to close a table or leave one aside. */
export function renderRecovery(r, names) {
  // Shown only when the last start-up had to close a table or leave one aside.
  const panel = $("#recovery-panel");
  const closed = r.closed || [];
  const skipped = r.skipped || [];
  panel.hidden = !closed.length && !skipped.length;
  if (panel.hidden) return;
  // each count's phrase first, on its own (make extract reads no call inside another's arguments)
  const tables = tn("{n} table", "{n} tables", r.recovered);
  const hands = tn("{n} unfinished hand was void", "{n} unfinished hands were void", r.voided_hands);
  fill($("#recovery"),
    h("p", { class: "muted small" },
      t("At the last start-up {tables} came back and {hands} (stakes returned).", { tables, hands })),
    closed.length ? h("ul", { class: "admin-recovery-list", id: "recovery-closed" }, closed.map((c) =>
      h("li", { dataset: { tableId: c.table_id } },
        h("strong", {}, t("“{name}”", { name: c.name })), " ",
        t("({game}) was closed: {reason}.", { game: humanize(c.game), reason: c.reason }), " ",
        Object.keys(c.returned || {}).length
          ? t("Returned to bankrolls: {returns}.", {
              returns: Object.entries(c.returned).map(([id, n]) => `${playerName(names, id)} ${chips(n)}`).join(", "),
            })
          : t("It held no chips.")))) : null,
    skipped.length ? h("p", { class: "muted small" },
      tn("{n} table of a game this server does not offer now was left as it is; it comes back when the game is offered again (ENABLED_GAMES).",
        "{n} tables of a game this server does not offer now were left as they are; they come back when the game is offered again (ENABLED_GAMES).",
        skipped.length)) : null);
}

