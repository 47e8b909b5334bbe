// The host at the table (docs/protocol/socket.md §5.13): the host's panel on the table page,
// built from the view's `table.host_legal` and `table.requests` alone (pause or resume, stand a
// player up, hand the host role on, change the stakes and clocks between hands, close the table,
// let a newcomer in or not), and the host's badge for everyone. Each button sends a `host`
// message; the server's ack and the new state (or an error, told by table-acts.js) follow.
// Nothing here knows a game's rules: the options form is built from the template's specs.
import { announce } from "./announce.js";
import { $, chips, h } from "./dom.js";
import { t } from "./i18n.js";
import { socket, state } from "./table-context.js";
import { optionLabel } from "./table-info.js";

let built = null; // the key the panel was built from: rebuilt only when it changes
let told = new Set(); // requests already announced to the host
let counter = 0;

/** Send one host action (`{kind, ...params}`); false when the socket is down. */
export function hostAct(action) {
  counter += 1;
  const sent = socket.send({ type: "host", id: `host-${Date.now()}-${counter}`, action });
  if (!sent) {
    const note = $("#host-note");
    if (note) note.textContent = t("Not connected: try again in a moment.");
  }
  return sent;
}

/** The badge beside the table's name: who hosts the table, for everyone. */
export function renderHostBadge(view) {
  const badge = $("#host-badge");
  if (!badge) return;
  const host = view?.table?.host;
  const name = host && typeof host.name === "string" ? host.name : null;
  badge.hidden = !host;
  const you = host && state.me && host.player_id === state.me.player_id;
  badge.textContent = you ? t("You host this table") : name ? t("Host: {name}", { name }) : t("Host");
}

/** The asker's own request, in words (pending, refused), or nothing. */
export function seatRequestNote(view) {
  const words = view?.table?.seat_request_message;
  return typeof words === "string" && words ? words : null;
}

function templates(view) {
  const list = view?.table?.host_legal;
  return Array.isArray(list) ? list : [];
}

function seatName(view, seat) {
  const entry = (view.seats || []).find((s) => s.seat === seat);
  return entry && typeof entry.name === "string" ? entry.name : t("Seat {seat}", { seat });
}

/** Fill the host's panel (`el`) for `view`, or hide it when you are not the host. */
export function renderHostPanel(el, view, { disabled = false } = {}) {
  if (!el) return;
  const offered = templates(view);
  const requests = Array.isArray(view?.table?.requests) ? view.table.requests : [];
  if (!offered.length) {
    el.hidden = true;
    el.replaceChildren();
    built = null;
    told = new Set();
    return;
  }
  for (const r of requests) {
    if (!told.has(r.player_id)) {
      told.add(r.player_id);
      announce(t("{name} asks to sit in seat {seat} with {chips} chips.", { name: r.name, seat: r.seat, chips: chips(r.buy_in) }));
    }
  }
  told = new Set([...told].filter((id) => requests.some((r) => r.player_id === id)));
  const key = JSON.stringify([offered, requests, disabled, view.table?.status,
    (view.seats || []).map((s) => [s.seat, s.name])]);
  if (key === built) return;
  built = key;
  const focused = el.contains(document.activeElement) ? document.activeElement?.dataset?.focus : null;
  const byKind = new Map(offered.map((offer) => [offer.kind, offer]));
  const parts = [h("h2", { class: "host-title", id: "host-title", tabindex: "-1" }, t("You host this table"))];

  if (requests.length) {
    parts.push(h("h3", { class: "host-sub" }, t("Asking to sit")),
      h("ul", { class: "host-requests", "aria-label": t("Requests to sit") }, requests.map((r) =>
        h("li", { class: "host-request", dataset: { player: r.player_id } },
          h("span", {}, t("{name}: seat {seat}, {chips} chips", { name: r.name, seat: r.seat, chips: chips(r.buy_in) }), " "),
          h("button", { type: "button", class: "btn btn-primary btn-small", disabled,
            dataset: { focus: `approve-${r.player_id}` }, "aria-label": t("Let in {name}", { name: r.name }),
            onclick: () => hostAct({ kind: "approve", player_id: r.player_id }) }, t("Let in")),
          " ",
          h("button", { type: "button", class: "btn btn-quiet btn-small", disabled,
            dataset: { focus: `refuse-${r.player_id}` }, "aria-label": t("Refuse {name}", { name: r.name }),
            onclick: () => hostAct({ kind: "refuse", player_id: r.player_id }) }, t("Refuse"))))));
  }

  const row = [];
  if (byKind.has("pause")) row.push(button(t("Pause"), "pause", { kind: "pause" }, disabled, t("Stop the clocks: nobody acts until you resume")));
  if (byKind.has("resume")) row.push(button(t("Resume"), "resume", { kind: "resume" }, disabled, t("Play goes on")));
  if (byKind.has("close")) {
    row.push(h("button", { type: "button", class: "btn btn-quiet btn-small", disabled, dataset: { focus: "close" },
      title: t("Close the table for good: every stack goes home"),
      onclick: () => {
        if (window.confirm(t("Close this table for good? Every stack goes back to its owner's bankroll."))) hostAct({ kind: "close" });
      } }, t("Close table")));
  }
  if (row.length) parts.push(h("div", { class: "host-buttons", role: "group", "aria-label": t("The table") }, row));

  const unseat = byKind.get("unseat")?.params?.seat?.one_of || [];
  const handTo = new Set(byKind.get("make_host")?.params?.seat?.one_of || []);
  if (unseat.length) {
    parts.push(h("h3", { class: "host-sub" }, t("Players")),
      h("ul", { class: "host-players", "aria-label": t("Players at the table") }, unseat.map((seat) => {
        const name = seatName(view, seat);
        return h("li", {}, h("span", {}, `${name} `),
          h("button", { type: "button", class: "btn btn-quiet btn-tiny", disabled, dataset: { focus: `unseat-${seat}`, seat },
            "aria-label": t("Stand up {name}", { name }), title: t("Their chips go back to their bankroll (after the hand they play in)"),
            onclick: () => {
              if (window.confirm(t("Stand {name} up? Their chips go back to their bankroll.", { name }))) hostAct({ kind: "unseat", seat });
            } }, t("Stand up")),
          handTo.has(seat) ? [" ", h("button", { type: "button", class: "btn btn-quiet btn-tiny", disabled,
            dataset: { focus: `host-${seat}` }, "aria-label": t("Make host: {name}", { name }),
            onclick: () => {
              if (window.confirm(t("Hand the host role to {name}? You will no longer run this table.", { name }))) {
                hostAct({ kind: "make_host", seat });
              }
            } }, t("Make host"))] : null);
      })));
  }

  const specs = byKind.get("set_options")?.params?.options;
  if (specs && typeof specs === "object") {
    parts.push(optionsForm(specs, disabled));
    if (view.hand_id) parts.push(h("p", { class: "muted small" }, t("A change now is for the next hand: this one keeps its stakes.")));
  }
  parts.push(h("p", { class: "field-error", id: "host-note", role: "status" }));

  el.hidden = false;
  el.replaceChildren(...parts);
  if (focused) {
    const again = el.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
    (again || $("#host-title")).focus();
  }
}

function button(label, focus, action, disabled, title) {
  return h("button", { type: "button", class: "btn btn-quiet btn-small", disabled, title, dataset: { focus },
    onclick: () => hostAct(action) }, label);
}

/** The stakes and clocks as a small form, one field per spec (as the lobby's open form). */
function optionsForm(specs, disabled) {
  const fields = Object.values(specs).map((spec) => {
    const id = `host-opt-${spec.name}`;
    if (spec.type === "bool") {
      return h("div", { class: "field field-check" },
        h("label", { for: id }, h("input", { type: "checkbox", id, name: spec.name, checked: Boolean(spec.value),
          dataset: { type: "bool", focus: id } }), " ", optionLabel(spec.name)));
    }
    return h("div", { class: "field" },
      h("label", { for: id }, optionLabel(spec.name)),
      h("input", { type: "number", id, name: spec.name, step: "1", inputmode: "numeric",
        min: spec.min ?? undefined, max: spec.max ?? undefined,
        value: spec.value === null || spec.value === undefined ? "" : String(spec.value),
        placeholder: spec.nullable ? t("no limit") : "", dataset: { type: "int", focus: id, nullable: spec.nullable ? "yes" : "" } }));
  });
  const form = h("form", { class: "host-options", "aria-labelledby": "host-options-title" },
    h("h3", { class: "host-sub", id: "host-options-title" }, t("Stakes and clocks (from the next hand)")),
    ...fields,
    h("button", { type: "submit", class: "btn btn-small", disabled, dataset: { focus: "set-options" } }, t("Change")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const options = {};
    for (const input of form.querySelectorAll("input")) {
      const spec = specs[input.name];
      let value;
      if (input.dataset.type === "bool") value = input.checked;
      else if (input.value.trim() === "" && input.dataset.nullable) value = null;
      else value = Number(input.value);
      if (value !== spec.value) options[input.name] = value;
    }
    if (!Object.keys(options).length) {
      $("#host-note").textContent = t("Nothing changed.");

      return;
    }
    hostAct({ kind: "set_options", options });
  });
  return form;
}
