// What the table page's modules share: the table it shows (from the page), the page's state,
// the table socket (table.js sets its handlers) and the table log.
import { $, h } from "./dom.js";
import { formatTime } from "./i18n.js";
import { TableSocket } from "./socket.js";

export const page = $("#table-page");
// A room's page follows its room from table to table (static/js/room.js): the table's id,
// game and summary change in place (live bindings), the page is not reloaded.
export let tableId = page.dataset.tableId;
export let gameId = page.dataset.game;
export const summary = JSON.parse($("#table-data").textContent);
export const invite = new URLSearchParams(location.search).get("invite");
/** The room this page follows ({room_id, name, host_id, games}), or null: a table's page. */
export const room = summary.room || null;

/** The page now shows table `next` (its summary, as GET /api/tables/{id} gives it). */
export function showTable(next) {
  for (const key of Object.keys(summary)) if (key !== "room") delete summary[key];
  Object.assign(summary, next);
  tableId = next.table_id;
  gameId = next.game;
  page.dataset.tableId = tableId;
  page.dataset.game = gameId;
}

const LOG_LIMIT = 80;

export const state = {
  // Whether the browser holds a session cookie (the server tells, without its value): without
  // one GET /api/me can only answer 401, so it is not asked (a 401 is logged as a console error).
  hasSession: page.dataset.session === "yes",
  me: null,
  view: null,
  version: -1,
  freshConnection: true, // the first state on a connection is taken whatever its version
  conn: "connecting",
  module: null,
  pending: null, // {id, version, action, acked, timer}
  legalKey: null, // the legal list the controls were built from
  memory: new Map(), // controls remember the last amounts
  lastResult: null, // the server's result of the last finished hand (docs/protocol.md §6.6)
  reconnected: false, // say "Reconnected." after the story the new socket brings
  closed: null, // {reason, gone}: the host closed the table (or it is gone); nothing more happens
  counter: 0,
};

/** The table socket; table.js gives it its handlers before it connects. */
export const socket = new TableSocket(tableId, {}, invite);

/** A line in the table log, newest first (`t`: the server's unix time of the event). */
export function log(text, kind = "", t = null) {
  const list = $("#log");
  const when = typeof t === "number" ? new Date(t * 1000) : new Date();
  const time = formatTime(when, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  list.prepend(h("li", { class: kind ? `log-${kind}` : "" }, h("time", {}, time), " ", text));
  while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
}
