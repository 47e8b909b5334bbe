// The host's page (static/js/admin.js): the open rooms (docs/protocol/admin.md, GET
// /api/admin/rooms), each with its link, its host, the game and table it plays at now, how many
// tables it has played and who sits there now, and a close confirmed with a reason (POST
// /api/admin/rooms/{id}/close: its table closes for good, every stack home, and the room with
// it). A refresh keeps what the host is typing in a reason.
import { botTag } from "./admin-tables.js";
import { $, fill, h, toast } from "./dom.js";
import { formatDate, t, tn } from "./i18n.js";

function opened(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? "" : formatDate(when, { dateStyle: "medium", timeStyle: "short" });
}

function tableNow(r) {
  const table = r.table;
  if (!table) return h("p", { class: "muted small admin-room-now" }, t("Its table is not served now."));
  const state = table.status === "paused" ? "paused" : table.in_hand ? "playing" : "waiting";
  const STATE_WORDS = { paused: t("Paused"), playing: t("Playing"), waiting: t("Waiting") };
  return h("p", { class: "admin-room-now" }, ...placed(t("{now} {game} {state} at {table}"), {
    now: h("span", { class: "muted small" }, t("Now:")),
    game: h("strong", {}, table.game_title || table.game),
    state: h("span", { class: `pill pill-${state}` }, STATE_WORDS[state]),
    table: h("a", { href: table.path, target: "_blank", rel: "noopener", class: "admin-room-table" }, t("table {id}", { id: table.table_id })),
  }));
}

/** A sentence's parts: its text, each {name} in it replaced by the node `nodes[name]` (a
 *  sentence with markup inside stays one message). */
function placed(text, nodes) {
  return text.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && Object.hasOwn(nodes, name) ? nodes[name] : part;
  });
}


function seatedList(r) {
  if (!r.seated.length) return h("p", { class: "muted small" }, t("Nobody seated."));
  return h("ul", { class: "admin-room-seated", "aria-label": t("Seated in {name} now", { name: r.name }) },
    r.seated.map((s) => h("li", {}, h("span", { class: "seat-no" }, t("Seat {seat}", { seat: s.seat })), " ",
      h("span", { class: "admin-seat-name" }, s.name), botTag(s))));
}

function closeControls(r, ctx) {
  const { state, host, act } = ctx;
  if (!state.closingRooms.has(r.room_id)) {
    const close = h("button", { type: "button", class: "btn btn-small btn-quiet btn-danger-quiet", dataset: { act: "close-room" } }, t("Close the room…"));
    close.setAttribute("aria-label", t("Close the room {name}…", { name: r.name }));
    close.addEventListener("click", () => {
      state.closingRooms.add(r.room_id);
      renderRooms(ctx);
      document.querySelector(`[data-room-id="${CSS.escape(r.room_id)}"] .admin-close input`)?.focus();
    });
    return h("div", { class: "admin-table-controls" }, close);
  }
  const reason = h("input", { class: "admin-reason", maxlength: "200", placeholder: t("The host closed this room"), autocomplete: "off" });
  reason.setAttribute("aria-label", t("Why you close the room {name}", { name: r.name }));
  const confirm = h("button", { type: "submit", class: "btn btn-small btn-danger", dataset: { act: "close-room-confirm" } }, t("Close the room for good"));
  const cancel = h("button", { type: "button", class: "btn btn-small btn-quiet" }, t("Cancel"));
  cancel.addEventListener("click", () => {
    state.closingRooms.delete(r.room_id);
    renderRooms(ctx);
  });
  const box = h("form", { class: "admin-close", novalidate: true },
    h("p", { class: "small" }, t("Closing the room closes its table for good: the hand in play is void and every stack goes back to its bankroll. It cannot be undone.")),
    reason, h("div", { class: "admin-buttons" }, confirm, cancel));
  box.addEventListener("submit", (event) => {
    event.preventDefault();
    act(confirm, async () => {
      await host.closeRoom(r.room_id, reason.value.trim());
      state.closingRooms.delete(r.room_id);
      toast(t("The room {name} is closed; every stack went back to its bankroll.", { name: r.name }), "info");
    });
  });
  return box;
}

function roomCard(r, ctx) {
  const head = h("div", { class: "admin-table-head" },
    h("span", { class: "pill pill-room" }, t("Room")),
    h("a", { class: "admin-table-name", href: r.url, target: "_blank", rel: "noopener" }, r.name),
    r.private ? h("span", { class: "pill pill-private" }, t("Private")) : null,
    h("span", { class: "muted small" }, t("hosted by {name}", { name: r.host.name })));
  const facts = h("p", { class: "muted small admin-room-facts" },
    [t("opened {when}", { when: opened(r.opened) }), tn("{n} table", "{n} tables", r.tables_played),
      tn("{n} hand", "{n} hands", r.hands), tn("{n} watching", "{n} watching", r.watching)].filter(Boolean).join(" · "));
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
  $("#rooms-count").textContent = tn("{n} open", "{n} open", n);
  if (!n) {
    fill($("#admin-rooms"), h("p", { class: "muted" }, t("No room is open.")));

    return;
  }
  fill($("#admin-rooms"), h("ul", { class: "admin-table-list" }, state.rooms.map((room) => roomCard(room, ctx))));
  for (const input of document.querySelectorAll("#admin-rooms .admin-reason")) {
    const id = input.closest("[data-room-id]").dataset.roomId;
    if (typed.has(id)) input.value = typed.get(id);
    if (id === focusId) input.focus();
  }
}
