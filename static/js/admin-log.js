// The host's page (static/js/admin.js): the host's log (every host action, in words) and what
// the server's last start-up did.
import { $, chips, fill, h, humanize, signed } from "./dom.js";

function tableName(names, id) {
  const name = names.tableNames.get(id);
  return name ? `\u201c${name}\u201d` : `table ${id}`;
}

function playerName(names, id) {
  return names.playerNames.get(id) || `player ${String(id).slice(0, 8)}`;
}

/** An action of a table's own host, from the table (docs/protocol/socket.md §5.13): marked
 *  `by: "table_host"`, not the server owner's. */
function describeTableHost(a, d, names) {
  if (a.action === "table_switch_game") { // a room's switch: the game it went to, not its options
    const room = names.roomNames?.get(d.room_id);
    const where = room ? `the room \u201c${room}\u201d` : tableName(names, d.table_id);
    return `The room's host, ${playerName(names, d.host_id)}, switched ${where} to ${names.gameTitles?.get(d.game) || humanize(d.game || "another game")}`;
  }
  const what = humanize(a.action.replace(/^table_/, "")).toLowerCase();
  const whom = typeof d.name === "string" ? ` ${d.name}` : "";
  const options = d.options ? ` ${JSON.stringify(d.options)}` : "";
  return `The table's host, ${playerName(names, d.host_id)}, at ${tableName(names, d.table_id)}: ${what}${whom}${options}`;
}

function describe(a, names) {
  const d = a.detail || {};
  if (d.by === "table_host") return describeTableHost(a, d, names);
  switch (a.action) {
    case "grant_chips": return `Granted ${chips(d.amount)} chips to ${playerName(names, d.player_id)}`;
    case "take_chips": return `Took ${chips(-d.amount)} chips from ${playerName(names, d.player_id)}`;
    case "fund_house": return `Funded the house with ${chips(d.amount)} chips`;
    case "fund_bots": return `Funded the bots' bank with ${chips(d.amount)} chips`;
    case "pause_table": return `Paused ${tableName(names, d.table_id)}`;
    case "resume_table": return `Resumed ${tableName(names, d.table_id)}`;
    case "close_table": return `Closed ${tableName(names, d.table_id)}`;
    case "close_room": return `Closed the room \u201c${d.name}\u201d${d.table_id ? " and its table" : ""}`;
    case "remove_seat": return `Removed ${playerName(names, d.player_id)} from seat ${d.seat} at ${tableName(names, d.table_id)}`;
    case "add_bot": return `Seated a bot in seat ${d.seat} at ${tableName(names, d.table_id)}`;
    case "remove_bot": return `Stood the bot in seat ${d.seat} up at ${tableName(names, d.table_id)}`;
    case "set_starting_bankroll": return `Set the starting bankroll to ${chips(d.value)} chips`;
    case "recovery_closed_table": return `The server closed ${tableName(names, d.table_id)} at start-up; its chips went back to the players`;
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
    fill(list, h("li", { class: "muted" }, "Nothing yet."));
    return;
  }
  fill(list, actions.slice(0, 200).map((a) => {
    const when = new Date(a.at);
    return h("li", { dataset: { action: a.action } },
      h("time", { datetime: a.at, title: when.toLocaleString() }, when.toLocaleString([], { dateStyle: "short", timeStyle: "short" })),
      " ",
      h("span", { class: "admin-log-what" }, describe(a, names)),
      a.note ? h("span", { class: "admin-log-note" }, ` — ${a.note}`) : null,
      a.action === "grant_chips" || a.action === "take_chips"
        ? h("span", { class: a.detail.amount > 0 ? "delta delta-up" : "delta delta-down" }, ` ${signed(a.detail.amount)}`)
        : null);
  }));
}

// ------------------------------------------------------------------ the last start-up

/** What the last start-up did, when it had to close a table or leave one aside. */
export function renderRecovery(r, names) {
  // Shown only when the last start-up had to close a table or leave one aside.
  const panel = $("#recovery-panel");
  const closed = r.closed || [];
  const skipped = r.skipped || [];
  panel.hidden = !closed.length && !skipped.length;
  if (panel.hidden) return;
  fill($("#recovery"),
    h("p", { class: "muted small" },
      `At the last start-up ${count(r.recovered, "table")} came back and ${count(r.voided_hands, "unfinished hand")} ${r.voided_hands === 1 ? "was" : "were"} void (stakes returned).`),
    closed.length ? h("ul", { class: "admin-recovery-list", id: "recovery-closed" }, closed.map((c) =>
      h("li", { dataset: { tableId: c.table_id } },
        h("strong", {}, `\u201c${c.name}\u201d`), ` (${humanize(c.game)}) was closed: ${c.reason}. `,
        Object.keys(c.returned || {}).length
          ? `Returned to bankrolls: ${Object.entries(c.returned).map(([id, n]) => `${playerName(names, id)} ${chips(n)}`).join(", ")}.`
          : "It held no chips."))) : null,
    skipped.length ? h("p", { class: "muted small" },
      `${count(skipped.length, "table")} of a game this server does not offer now ${skipped.length === 1 ? "was" : "were"} left as ${skipped.length === 1 ? "it is" : "they are"}; ${skipped.length === 1 ? "it comes" : "they come"} back when the game is offered again (ENABLED_GAMES).`) : null);
}

function count(n, noun) {
  return `${chips(n)} ${noun}${n === 1 ? "" : "s"}`;
}
