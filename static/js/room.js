// A room's page (/rooms/{id}; docs/protocol/socket.md §5.12): the page of the table the room
// plays at now. Its host switches the game with a labelled form; when the room moves
// (`room_switch`), the page follows to the new table WITHOUT a reload: the table's summary is
// fetched, the game's module re-mounted, the socket retargeted; the URL stays the room's.

import { announce } from "./announce.js";
import { api } from "./api.js";
import { $, fill, h } from "./dom.js";
import { t, tc } from "./i18n.js";
import { invite, log, room, showTable, socket, state } from "./table-context.js";

let refillHandOver = null; // the hand-over list, filled again from the seats of a new view

/** A new view: the host's hand-over list follows who is seated (room.js builds it before the
 *  first view, and again at each new table). */
export function roomViewChanged() {
  if (refillHandOver) refillHandOver();
}

/** The host's game chooser: a labelled form (the game, and whether to wait for Ready). */
export function renderRoomChooser() {
  const box = $("#room-box");
  if (!box || !room) return;
  box.hidden = false;
  const host = state.me && state.me.player_id === room.host_id;
  const title = h("h2", { class: "room-title small", id: "room-title" }, t("Room: {name}", { name: room.name }));
  if (!host) {
    refillHandOver = null;
    fill(box, title, h("p", { class: "muted small" }, t("The room's host chooses the game; this page follows.")));
    return;
  }
  const select = h("select", { id: "room-game", name: "game" },
    (room.games || []).map((g) => h("option", { value: g.id }, g.title)));
  const ready = h("input", { type: "checkbox", id: "room-ready", name: "ready", checked: true });
  const note = h("p", { class: "small", id: "room-note", role: "status" });
  const form = h("form", { class: "room-form", id: "room-form", "aria-labelledby": "room-title" },
    h("label", { for: "room-game" }, t("Next game"), " "), select,
    h("label", { class: "small room-ready" }, ready, " ", t("Wait for everyone to be Ready")),
    h("button", { type: "submit", class: "btn btn-small", id: "room-switch" }, t("Switch game")),
    note);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const options = ready.checked ? { start: "when_ready" } : {};
    const sent = socket.send({ type: "switch_game", game: select.value, options });
    note.textContent = sent ? t("Switching… (a hand in play ends first)") : t("Not while the connection is down.");
  });
  fill(box, title, form, handOverForm());
}

/** The host hands the room to a player seated at its table (a labelled form; the list is the
 *  seats of the view now, filled when it is opened). */
function handOverForm() {
  const select = h("select", { id: "room-host-to", name: "player_id" });
  const fillPlayers = () => {
    const seated = (state.view?.seats || []).filter((s) => s.player_id && !s.bot && s.player_id !== room.host_id);
    const chosen = select.value;
    fill(select, seated.length
      ? seated.map((s) => h("option", { value: s.player_id }, s.name))
      : h("option", { value: "" }, t("Nobody else is seated")));
    if (chosen) select.value = chosen;
  };
  fillPlayers();
  refillHandOver = () => {
    if (document.activeElement !== select) fillPlayers(); // never under the reader's hand
  };
  select.addEventListener("focus", fillPlayers);
  select.addEventListener("pointerdown", fillPlayers);
  const note = h("p", { class: "small", id: "room-host-note", role: "status" });
  const form = h("form", { class: "room-form", id: "room-host-form", "aria-label": t("Hand the room over") },
    h("label", { for: "room-host-to" }, t("Hand the room to"), " "), select,
    h("button", { type: "submit", class: "btn btn-small btn-quiet", id: "room-hand-over" }, tc("room", "Hand over")),
    note);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!select.value) return;
    try {
      const host = await api.handRoomOver(room.room_id, select.value);
      room.host_id = host.player_id;
      const words = t("{name} is the room's host now.", { name: host.name });
      log(words);
      announce(words);
      renderRoomChooser();
    } catch (err) {
      note.textContent = err.message || t("The room could not be handed over.");
    }
  });
  return form;
}

/** The room moved to another table: follow it (`remount` re-mounts the page's table). */
export async function followRoom(message, remount) {
  if (!room || message.room_id !== room.room_id) return;
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let next;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(message.table_id)}${query}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    next = await response.json();
  } catch {
    log(t("The room moved to another table, which could not be opened: reload the page."), "error");
    return;
  }
  try { // the room's host may have handed it over meanwhile
    const now = await fetch(`/api/rooms/${encodeURIComponent(room.room_id)}${query}`, { credentials: "same-origin" });
    if (now.ok) room.host_id = (await now.json()).host.player_id;
  } catch {
    // keep the host the page knew
  }
  showTable(next);
  await remount(next);
  const hands = $(".room-hands-link"); // the evening's hands, from the room's table now
  if (hands) {
    const where = new URLSearchParams({ room_id: room.room_id, ...(invite ? { invite } : {}) });
    hands.href = `/tables/${encodeURIComponent(next.table_id)}/history?${where}`;
  }
  socket.retarget(next.table_id);
  const words = t("The room switched to {game}.", { game: next.game_title });

  log(words);
  announce(words);
  const note = $("#room-note");
  if (note) note.textContent = words;
}
