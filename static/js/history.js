// A table's hand history (/tables/{id}/history): its hands, newest first, paged by cursor,
// filtered by date; each links to its replay. The table's ledger as CSV for its players.
// With ?room_id= it is a room's (docs/review.md, "Pages"): every hand of the room, table after
// table (GET /api/hands?room_id=), by game, and a link to the room's settle-up. The room filter
// offers the reader's own rooms (GET /api/rooms), each by its name and the day it opened; it is
// a plain GET form, so the address says which hands the page shows.
import { eveningSummary } from "./analysis.js";
import { api } from "./api.js";
import { $, fill, h } from "./dom.js";
import { filterTracker, handList } from "./hand-list.js";
import { formatDate, t } from "./i18n.js";
import { download, getJson, showBanner } from "./review-api.js";
import { showWhoami } from "./signin.js";

const page = $("#history-page");
const tableId = page.dataset.tableId;
const invite = new URLSearchParams(location.search).get("invite");
const room = page.dataset.roomId
  ? { room_id: page.dataset.roomId, name: page.dataset.roomName, opened: page.dataset.roomOpened,
      games: (page.dataset.roomGames || "").split(",").filter(Boolean) }
  : null;

/** "Friday · 21 Nov 2026": a room by its name and the day it opened, in the reader's zone. */
function roomLabel(r) {
  const day = new Date(r.opened);
  const date = Number.isNaN(day.getTime()) ? "" : formatDate(day, { day: "numeric", month: "short", year: "numeric" });
  return date ? t("{name} · {date}", { name: r.name, date }) : r.name;
}

/** The room filter: this table, or one of the reader's rooms (the page's own room first when
 *  it is not one of them: a link may open a room the reader only watched). Shown when there
 *  is a room to choose. */
async function roomFilter(me) {
  let rooms = [];
  if (me) {
    try {
      rooms = await getJson("/api/rooms");
    } catch {
      rooms = [];
    }
  }
  if (room && !rooms.some((r) => r.room_id === room.room_id)) rooms.unshift(room);
  if (!rooms.length) return;
  const select = $("#filter-room");
  fill(select,
    h("option", { value: "" }, t("This table: {name}", { name: page.dataset.tableName })),
    rooms.map((r) => h("option", { value: r.room_id }, t("Room: {room}", { room: roomLabel(r) }))));
  select.value = room ? room.room_id : "";
  $("#room-filter").hidden = false;
}

async function start() {
  let me = null;
  try {
    me = await api.me();
  } catch {
    me = null;
  }
  showWhoami(me);
  const params = invite ? { invite } : {};
  if (room) {
    // a room's evening: its settle-up rather than one table's ledger
    const query = new URLSearchParams({ room: room.room_id });
    fill($("#downloads"), h("a", { href: `/settle?${query}`, class: "btn btn-small btn-neutral", id: "room-settle" }, t("Settle up")));
  } else {
    fill($("#downloads"), h("button", { type: "button", class: "btn btn-small btn-neutral", id: "btn-ledger",
      onclick: () => download(`/api/tables/${encodeURIComponent(tableId)}/ledger.csv`, `ledger-${tableId}.csv`)
        .catch((err) => showBanner(err.message)) }, t("Ledger (CSV)")));
  }
  await roomFilter(me);
  const list = $("#hand-list");
  const filtered = filterTracker(list);
  if (me) evening(list, params);
  await handList(list, {
    // a room's hands: those of every table of the room that the reader may see
    endpoint: room ? "/api/hands" : `/api/tables/${encodeURIComponent(tableId)}/hands`,
    // a private table's history opened with its invite link: the list needs the invite too
    params: room ? { ...params, room_id: room.room_id } : params,
    games: room ? room.games : [],
    dates: !room, // a room is one evening: its list is by game
    tables: Boolean(room),
    resultKey: "your_net",
    resultLabel: t("Your result"),
    // read when a page comes back empty: with a filter set, the filter left nothing
    get empty() {
      if (!me) return t("Sign in (in the lobby) to see the hands.");
      if (filtered()) return t("No hands match the filter.");
      return room ? t("No hands finished in this room yet.") : t("No hands finished at this table yet.");
    },
  });
}

/** The evening's summary (how the reader played these hands): a room's, or the table's hands
 *  as the list's filter narrows them (counted again when the filter is applied). */
function evening(list, params) {
  $("#evening-analysis").hidden = false;
  const path = () => {
    if (room) return `/api/rooms/${encodeURIComponent(room.room_id)}/analysis?${new URLSearchParams(params)}`;
    const query = new URLSearchParams(params);
    for (const [id, name] of [["#filter-game", "game"], ["#filter-since", "since"], ["#filter-until", "until"]]) {
      const value = list.querySelector(id)?.value;
      if (value) query.set(name, value);
    }
    return `/api/tables/${encodeURIComponent(tableId)}/analysis?${query}`;
  };
  const again = eveningSummary($("#evening-summary"), path);
  list.addEventListener("submit", () => setTimeout(again), true);
}

start();
