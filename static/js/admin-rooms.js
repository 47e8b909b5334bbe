// The host's page (static/js/admin.js): the open rooms (docs/protocol/admin.md, GET
// /api/admin/rooms), each with its link, its host, the game and table it plays at now, how many
// tables it has played and who sits there now, and a close confirmed with a reason (POST
// /api/admin/rooms/{id}/close: its table closes for good, every stack home, and the room with
// it). A refresh keeps what the host is typing in a reason.
import { botTag } from "./admin-tables.js";
import { $, chips, fill, h, toast } from "./dom.js";

function plural(n, one, many = `${one}s`) {
  return `${chips(n)} ${n === 1 ? one : many}`;
}

function opened(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function tableNow(r) {
  const t = r.table;
  if (!t) return h("p", { class: "muted small admin-room-now" }, "Its table is not served now.");
  const state = t.status === "paused" ? "Paused" : t.in_hand ? "Playing" : "Waiting";
  return h("p", { class: "admin-room-now" },
    h("span", { class: "muted small" }, "Now: "),
    h("strong", {}, t.game_title || t.game), " ",
    h("span", { class: `pill pill-${state.toLowerCase()}` }, state), " at ",
    h("a", { href: t.path, target: "_blank", rel: "noopener", class: "admin-room-table" }, `table ${t.table_id}`));
}

function seatedList(r) {
  if (!r.seated.length) return h("p", { class: "muted small" }, "Nobody seated.");
  return h("ul", { class: "admin-room-seated", "aria-label": `Seated in ${r.name} now` },
    r.seated.map((s) => h("li", {}, h("span", { class: "seat-no" }, `Seat ${s.seat}`), " ",
      h("span", { class: "admin-seat-name" }, s.name), botTag(s))));
}

function closeControls(r, ctx) {
  const { state, host, act } = ctx;
  if (!state.closingRooms.has(r.room_id)) {
    const close = h("button", { type: "button", class: "btn btn-small btn-quiet btn-danger-quiet", dataset: { act: "close-room" } }, "Close the room…");
    close.setAttribute("aria-label", `Close the room ${r.name}…`);
    close.addEventListener("click", () => {
      state.closingRooms.add(r.room_id);
      renderRooms(ctx);
      document.querySelector(`[data-room-id="${CSS.escape(r.room_id)}"] .admin-close input`)?.focus();
    });
    return h("div", { class: "admin-table-controls" }, close);
  }
  const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: "The host closed this room", autocomplete: "off" });
  reason.setAttribute("aria-label", `Why you close the room ${r.name}`);
  const confirm = h("button", { type: "submit", class: "btn btn-small btn-danger", dataset: { act: "close-room-confirm" } }, "Close the room for good");
  const cancel = h("button", { type: "button", class: "btn btn-small btn-quiet" }, "Cancel");
  cancel.addEventListener("click", () => {
    state.closingRooms.delete(r.room_id);
    renderRooms(ctx);
  });
  const box = h("form", { class: "admin-close", novalidate: true },
    h("p", { class: "small" }, "Closing the room closes its table for good: the hand in play is void and every stack goes back to its bankroll. It cannot be undone."),
    reason, h("div", { class: "admin-buttons" }, confirm, cancel));
  box.addEventListener("submit", (event) => {
    event.preventDefault();
    act(confirm, async () => {
      await host.closeRoom(r.room_id, reason.value.trim());
      state.closingRooms.delete(r.room_id);
      toast(`The room ${r.name} is closed; every stack went back to its bankroll.`, "info");
    });
  });
  return box;
}

function roomCard(r, ctx) {
  const head = h("div", { class: "admin-table-head" },
    h("span", { class: "pill pill-room" }, "Room"),
    h("a", { class: "admin-table-name", href: r.url, target: "_blank", rel: "noopener" }, r.name),
    r.private ? h("span", { class: "pill pill-private" }, "Private") : null,
    h("span", { class: "muted small" }, `hosted by ${r.host.name}`));
  const facts = h("p", { class: "muted small admin-room-facts" },
    [`opened ${opened(r.opened)}`, plural(r.tables_played, "table"), plural(r.hands, "hand"),
      `${chips(r.watching)} watching`].filter(Boolean).join(" · "));
  return h("li", { class: "admin-table-card admin-room-card", dataset: { roomId: r.room_id } },
    head, facts, tableNow(r), seatedList(r), closeControls(r, ctx));
}

/** The open rooms, each a card (`ctx`: {state, host, act} of the admin page). */
export function renderRooms(ctx) {
  const { state } = ctx;
  const typed = new Map();
  for (const input of document.querySelectorAll("#admin-rooms .admin-reason")) {
    const card = input.closest("[data-room-id]");
    if (card && input.value) typed.set(card.dataset.roomId, input.value);
  }
  const focused = document.activeElement?.closest?.("#admin-rooms [data-room-id]");
  const focusId = focused && document.activeElement.classList.contains("admin-reason") ? focused.dataset.roomId : null;

  const n = state.rooms.length;
  $("#rooms-count").textContent = `${n} open`;
  if (!n) {
    fill($("#admin-rooms"), h("p", { class: "muted" }, "No room is open."));
    return;
  }
  fill($("#admin-rooms"), h("ul", { class: "admin-table-list" }, state.rooms.map((room) => roomCard(room, ctx))));
  for (const input of document.querySelectorAll("#admin-rooms .admin-reason")) {
    const id = input.closest("[data-room-id]").dataset.roomId;
    if (typed.has(id)) input.value = typed.get(id);
    if (id === focusId) input.focus();
  }
}
