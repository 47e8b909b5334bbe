// Seats around the oval. Generic over games: it reads only the common seat fields
// (seat, name, stack, role, connected, bot, leaving, ready, sitting_out…, hands[{cards, stake, bet,
// value, status, note}])
// and an optional `place` (where the seat sits at the table, when a game moves players around).
import { cardRow } from "./cards.js";
import { chips, h, signed } from "./dom.js";
import { said } from "./engine-words.js";
import { t } from "./i18n.js";
import { seatPresence } from "./presence.js";
import { codeWords } from "./words.js";

/**
 * Where each seat number sits: occupied seats at their `place` (or their number), empty seats
 * in the places left over; turned so that your seat (else place 0) is at the bottom.
 * Returns Map seat → {index, count}.
 */
export function seatPlaces(view) {
  const seats = view.seats || [];
  // The places at the table: `table_seats` when the game has other positions (standing bettors).
  const count = Math.max(view.table?.table_seats || view.table?.max_seats || 0, ...seats.map((s) => s.seat + 1), 1);
  const placeOf = new Map();
  const used = new Set();
  for (const s of seats) {
    const place = Number.isInteger(s.place) && s.place >= 0 && s.place < count && !used.has(s.place) ? s.place : null;
    if (place !== null) {
      placeOf.set(s.seat, place);
      used.add(place);
    }
  }
  const free = [];
  for (let p = 0; p < count; p++) if (!used.has(p)) free.push(p);
  for (let seat = 0; seat < count; seat++) if (!placeOf.has(seat)) placeOf.set(seat, free.shift());
  const anchor = view.you !== null && view.you !== undefined && placeOf.has(view.you) ? placeOf.get(view.you) : 0;
  const out = new Map();
  for (const [seat, place] of placeOf) out.set(seat, { index: (place - anchor + count) % count, count });
  return out;
}

/** Seats whose turn it is: the view's `turn` (a seat or a list), if the game has one. */
export function turnSeats(view) {
  const turn = view.turn;
  if (Array.isArray(turn)) return new Set(turn.filter(Number.isInteger));
  return Number.isInteger(turn) ? new Set([turn]) : new Set();
}

/** Position on the ellipse, in percent of the felt; index 0 is bottom centre, then clockwise. */
function spot(index, count) {
  const angle = Math.PI / 2 + (index * 2 * Math.PI) / count;
  return { x: 50 + 47 * Math.cos(angle), y: 50 + 45 * Math.sin(angle) };
}

/**
 * Render every seat into `container`.
 * opts: {canSit, onSit(seat), deltas: Map seat→chips won/lost last hand, module, ctx}
 */
export function renderSeats(container, view, opts) {
  const places = seatPlaces(view);
  const bySeat = new Map((view.seats || []).map((s) => [s.seat, s]));
  const turn = turnSeats(view);
  const free = new Set(view.table?.free_seats || []);
  const nodes = [];
  const ordered = [...places.entries()].sort((a, b) => a[1].index - b[1].index);
  for (const [seatNo, { index, count }] of ordered) {
    const seat = bySeat.get(seatNo);
    const { x, y } = spot(index, count);
    const node = seat
      ? occupiedSeat(seat, view, turn.has(seatNo), opts)
      : emptySeat(seatNo, free.has(seatNo) && opts.canSit, opts);
    node.style.setProperty("--x", `${x.toFixed(2)}%`);
    node.style.setProperty("--y", `${y.toFixed(2)}%`);
    // The stacked (phone) layout keeps the table's order, occupied seats first.
    node.style.order = String(seat ? index : 100 + index);
    nodes.push(node);
  }
  container.replaceChildren(...nodes);
}

function emptySeat(seatNo, canSit, opts) {
  return h("div", { class: "seat seat-empty", dataset: { seat: seatNo }, "aria-label": t("Seat {n}, empty", { n: seatNo }) },
    h("span", { class: "seat-no" }, t("Seat {n}", { n: seatNo })),
    canSit
      ? h("button", { type: "button", class: "btn btn-sit", dataset: { seat: seatNo },
          onclick: () => opts.onSit(seatNo) }, t("Sit here"))
      : h("span", { class: "muted small" }, t("Empty")));
}

/** The seat's role for its badge: the game module's `seatRole(seat, view)` when it has one
 *  (a game whose centre names the dealer from another field of the view), else `role`. */
function roleOf(seat, view, module) {
  let role = seat.role;
  if (module && typeof module.seatRole === "function") {
    try {
      role = module.seatRole(seat, view);
    } catch (err) {
      console.error("seatRole failed", err);
    }
  }
  return typeof role === "string" && role !== "player" ? role : null;
}

/** The figure a seat's stack shows: the view's, unless the game's module says otherwise. */
function shownStack(seat, view, module) {
  if (!module || typeof module.stackShown !== "function") return seat.stack;
  const figure = module.stackShown(seat, view);
  return typeof figure === "number" ? figure : seat.stack;
}

function occupiedSeat(seat, view, isTurn, opts) {
  const you = seat.seat === view.you;
  const role = roleOf(seat, view, opts.module);
  const classes = ["seat", "seat-taken"];
  if (you) classes.push("is-you");
  if (isTurn) classes.push("is-turn");
  if (role) classes.push(`role-${role}`);
  if (seat.connected === false) classes.push("is-away");
  const delta = opts.deltas ? opts.deltas.get(seat.seat) : undefined;
  const name = typeof seat.name === "string" ? seat.name : t("Seat {n}", { n: seat.seat });
  const node = h("div", {
    class: classes.join(" "),
    dataset: { seat: seat.seat, stack: typeof seat.stack === "number" ? seat.stack : "" },
    "aria-label": seatLabel(seat.seat, name, role ? codeWords(role).toLowerCase() : null, isTurn),
  },
    h("div", { class: "seat-head" },
      h("span", { class: `dot ${seat.connected === false ? "dot-off" : "dot-on"}`,
        title: seat.connected === false ? t("disconnected") : t("connected"),
        "aria-label": seat.connected === false ? t("disconnected") : t("connected"), role: "img" }),
      h("span", { class: "seat-name", title: name }, name)),
    h("div", { class: "seat-stack" },
      h("span", { class: "chip-icon", "aria-hidden": "true" }),
      h("span", { class: "stack-value", title: t("Stack") }, chips(shownStack(seat, view, opts.module))),
      role ? h("span", { class: `badge badge-${role}` }, codeWords(role)) : null,
      you ? h("span", { class: "tag tag-you" }, t("you")) : null,
      seat.bot
        ? h("span", { class: "tag tag-bot", title: botTitle(seat.bot_level) }, botTag(seat.bot_level))
        : null,
      delta !== undefined
        ? h("span", { class: `delta ${delta > 0 ? "delta-up" : delta < 0 ? "delta-down" : ""}`,
            title: t("Last hand") }, signed(delta))
        : null,
      seat.leaving ? h("span", { class: "tag tag-leaving" }, t("leaving")) : null,
      ...seatPresence(seat, view, opts)),
    (Array.isArray(seat.hands) ? seat.hands : []).map((hand) => handBox(hand, seat, opts.ctx)));
  if (opts.module && typeof opts.module.renderSeatExtras === "function") {
    const extras = h("div", { class: "seat-extras" });
    try {
      opts.module.renderSeatExtras(seat, view, extras, opts.ctx);
    } catch (err) {
      console.error("renderSeatExtras failed", err);
    }
    if (extras.childNodes.length) node.append(extras);
  }
  return node;
}

function handBox(hand, seat, ctx) {
  const status = typeof hand.status === "string" ? hand.status : typeof hand.state === "string" ? hand.state : null;
  const meta = [];
  if (typeof hand.stake === "number" && hand.stake > 0) meta.push(h("span", { class: "stake" }, t("Stake {chips}", { chips: chips(hand.stake) })));
  else if (typeof hand.bet === "number" && hand.bet > 0) meta.push(h("span", { class: "stake" }, t("Bet {chips}", { chips: chips(hand.bet) })));
  if (typeof hand.value === "number") {
    meta.push(h("span", { class: "hand-value", title: t("Hand value") }, String(hand.value)));
  }
  if (hand.natural === true) meta.push(h("span", { class: "tag tag-natural" }, t("natural")));
  if (status && status !== seat.role) meta.push(h("span", { class: `tag status status-${status}` }, codeWords(status)));
  return h("div", { class: "hand", dataset: status ? { status } : {} },
    cardRow(hand.cards, { small: true }),
    meta.length ? h("div", { class: "hand-meta" }, meta) : null,
    typeof hand.note === "string" && hand.note ? h("p", { class: "hand-note" }, said(hand.note_coded, ctx, hand.note)) : null);
}

/** What a bot's level means, in a tooltip (docs/analysis.md §5). */
function botTitle(level) {
  if (level === "best") return t("A bot playing the analysis's best option");
  if (level === "random") return t("A bot playing any legal action at random");
  return t("A bot playing a simple fixed rule");
}

/** "bot", or "bot · best" for a level other than the steady one. */
function botTag(level) {
  if (level === "best") return t("bot · best");
  if (level === "random") return t("bot · random");
  return level && level !== "steady" ? t("bot · {level}", { level }) : t("bot");
}

/** A seat's accessible name: "Seat 3: Ada, dealer, to act". */
function seatLabel(n, name, role, isTurn) {
  if (role && isTurn) return t("Seat {n}: {name}, {role}, to act", { n, name, role });
  if (role) return t("Seat {n}: {name}, {role}", { n, name, role });
  if (isTurn) return t("Seat {n}: {name}, to act", { n, name });
  return t("Seat {n}: {name}", { n, name });
}
