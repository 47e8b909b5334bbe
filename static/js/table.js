// The table page: a generic client driven by the view (PROTOCOL.md "The view").
//
// ─── The game-module interface ──────────────────────────────────────────────────────────────
// Everything game-specific lives in static/js/games/<game-id>.js, loaded by the game's id
// (the file name IS the registration). A module's default export is an object:
//
//   export default {
//     // Required. Fill `el` (emptied before each call) with the game's central area: the
//     // banker's up card, the pot, the discard pile, the status line, the last settlement…
//     // Must tolerate missing fields; build DOM with ctx.h (text only, never innerHTML).
//     renderCenter(view, el, ctx) {},
//
//     // Optional. Extra lines in one seat's box (the generic box already shows name, stack,
//     // role badge, connected dot, bot/you/leaving tags and each hand's cards, stake, value,
//     // status and note).
//     renderSeatExtras(seat, view, el, ctx) {},
//
//     // Optional. Lines for the table log, from the previous view (null at first) to this one.
//     describeChanges(prev, view, ctx) { return ["Bob bets 20"]; },
//
//     // Optional. Button labels by action kind (merged over controls.js KIND_LABELS), and
//     // a label for one param value (null: the default, a card code is drawn as "10♥").
//     labels: { accept_bank: "Take the bank" },
//     valueLabel(kind, param, value, view, ctx) { return null; },
//   };
//
// ctx = {h, fill, chips, signed, humanize, cardEl, cardRow, cardText,
//        seatName(seatNo) → the seated player's name or "Seat N", you: your seat or null,
//        act(action) → sends one action that fits `legal` (as the controls do),
//        sit(seat, title?) → the buy-in dialog, then sits at `seat` (null: any free seat)}.
// A game without a module gets `genericModule` below (status, messages and any card fields).
// ────────────────────────────────────────────────────────────────────────────────────────────

import { api, clock } from "./api.js";
import { asCards, cardEl, cardRow, cardText } from "./cards.js";
import { renderControls } from "./controls.js";
import { $, chips, fill, h, humanize, signed, toast } from "./dom.js";
import { renderSeats, turnSeats } from "./seats.js";
import { renderSignIn, showWhoami } from "./signin.js";
import { TableSocket } from "./socket.js";

const page = $("#table-page");
const tableId = page.dataset.tableId;
const gameId = page.dataset.game;
const summary = JSON.parse($("#table-data").textContent);
const invite = new URLSearchParams(location.search).get("invite");
// Whether the browser holds a session cookie (the server tells, without its value): without one
// GET /api/me can only answer 401, so it is not asked (a 401 is logged as a console error).
let hasSession = page.dataset.session === "yes";

const ACK_TIMEOUT_MS = 8000;
const LOG_LIMIT = 80;

const state = {
  me: null,
  view: null,
  version: -1,
  freshConnection: true, // the first state on a connection is taken whatever its version
  conn: "connecting",
  module: null,
  pending: null, // {id, version, action, acked, timer}
  legalKey: null, // the legal list the controls were built from
  memory: new Map(), // controls remember the last amounts
  lastIdle: null, // the snapshot seen between hands: the baseline of the next hand
  handBaseline: null, // {handId, ...snapshot}
  lastResult: null, // {handId, deltas: Map, left: [{seat, name, delta}], notes: [text]}
  closed: null, // {reason, gone}: the host closed the table (or it is gone); nothing more happens
  counter: 0,
};

// ------------------------------------------------------------------ the generic module

const KNOWN_KEYS = new Set([
  "table_id", "game", "hand_id", "phase", "you", "seats", "legal", "deadline", "table",
  "status", "messages", "turn", "order",
]);

/** For a game without its own module: status, messages, card fields and simple values. */
export const genericModule = {
  renderCenter(view, el, ctx) {
    if (typeof view.status === "string") el.append(ctx.h("p", { class: "status-line" }, view.status));
    const facts = ctx.h("p", { class: "facts" });
    const cardBlocks = [];
    for (const [key, value] of Object.entries(view)) {
      if (KNOWN_KEYS.has(key) || value === null || value === undefined) continue;
      const cards = asCards(value);
      if (cards) {
        cardBlocks.push(ctx.h("div", { class: "center-cards" },
          ctx.h("span", { class: "muted small" }, ctx.humanize(key)), ctx.cardRow(cards)));
      } else if (["string", "number", "boolean"].includes(typeof value)) {
        facts.append(ctx.h("span", { class: "fact" }, ctx.h("span", { class: "muted" }, `${ctx.humanize(key)} `),
          typeof value === "number" ? ctx.chips(value) : String(value)));
      }
    }
    el.append(...cardBlocks);
    messagesList(view.messages, el);
    if (facts.childNodes.length) el.append(facts);
  },
};

function messagesList(messages, el) {
  if (!Array.isArray(messages) || !messages.length) return;
  el.append(h("ul", { class: "messages" }, messages.filter((m) => typeof m === "string").map((m) => h("li", {}, m))));
}

async function loadModule(id) {
  if (!/^[a-z0-9-]+$/.test(id)) return genericModule;
  try {
    const mod = await import(`./games/${id}.js`);
    return mod.default && typeof mod.default.renderCenter === "function" ? mod.default : genericModule;
  } catch {
    return genericModule; // no module for this game yet: the generic one plays it fine
  }
}

function moduleCtx(view) {
  const names = new Map((view.seats || []).map((s) => [s.seat, s.name]));
  return {
    h, fill, chips, signed, humanize, cardEl, cardRow, cardText,
    seatName: (n) => (typeof names.get(n) === "string" ? names.get(n) : `Seat ${n}`),
    you: view.you,
    act,
    sit,
  };
}

// ------------------------------------------------------------------ the log

function log(text, kind = "") {
  const list = $("#log");
  const time = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  list.prepend(h("li", { class: kind ? `log-${kind}` : "" }, h("time", {}, time), " ", text));
  while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
}

function describeGeneric(prev, view, ctx) {
  const lines = [];
  const before = new Map((prev?.seats || []).map((s) => [s.seat, s]));
  const after = new Map((view.seats || []).map((s) => [s.seat, s]));
  if (prev) {
    for (const [n, s] of after) {
      if (!before.has(n) || before.get(n).player_id !== s.player_id) lines.push(`${ctx.seatName(n)} sat down in seat ${n}.`);
      else if (s.leaving && !before.get(n).leaving) lines.push(`${ctx.seatName(n)} will leave at the next chance.`);
    }
    for (const [n, s] of before) if (!after.has(n)) lines.push(`${s.name || `Seat ${n}`} left the table.`);
  }
  if (view.hand_id && view.hand_id !== prev?.hand_id) lines.push("A new hand is dealt.");
  const message = view.table?.message;
  if (message && message !== prev?.table?.message) lines.push(message);
  return lines;
}

// ------------------------------------------------------------------ hands and their results

/** What the settlement needs to know of a moment: stacks and who holds them, and the chips
 *  held apart from the stacks that a view shows (a pot; stakes in prison). */
function snapshot(view) {
  const seats = (view.seats || []).filter((s) => typeof s.stack === "number");
  return {
    stacks: new Map(seats.map((s) => [s.seat, s.stack])),
    players: new Map(seats.map((s) => [s.seat, {
      id: s.player_id, name: typeof s.name === "string" ? s.name : `Seat ${s.seat}` }])),
    pot: typeof view.pot === "number" ? view.pot : null,
    prison: prisonTotal(view),
    front: frontTotal(view),
    standing: standingStacks(view),
  };
}

/** Bettors who stand behind the seats (Trente et Quarante's `bettors` not in `seats`). */
function standingStacks(view) {
  if (!Array.isArray(view.bettors)) return null;
  const seated = new Set((view.seats || []).map((s) => s.seat));
  return new Map(view.bettors.filter((b) => !seated.has(b.seat) && typeof b.stack === "number")
    .map((b) => [b.player_id ?? `seat:${b.seat}`, b.stack]));
}

/** Bets put up in front of the players, off their stacks (En og tredive's `bets` × `bet_unit`). */
function frontTotal(view) {
  if (typeof view.bet_unit !== "number") return null;
  return (view.seats || []).reduce((sum, s) => sum + (typeof s.bets === "number" ? s.bets * view.bet_unit : 0), 0);
}

function prisonTotal(view) {
  let total = null;
  for (const s of Array.isArray(view.bettors) ? view.bettors : view.seats || []) {
    if (!Array.isArray(s.prison)) continue;
    for (const p of s.prison) if (typeof p?.amount === "number") total = (total || 0) + p.amount;
  }
  return total;
}

/** A house banks the game (Trente et Quarante): chips the players lose go to it, not to a seat. */
function hasHouse(view) {
  return typeof view.house === "number" || Boolean(view.limits && typeof view.limits === "object" && "house_cover" in view.limits);
}

/** The hand's result, from the stacks before it (`base`) and now: what each player still seated
 *  won or lost, who left with the hand's last chips, and where the rest of the chips went — as
 *  far as the view tells (a pot, prison, the house; else just the amount). */
function handResult(base, view) {
  const now = snapshot(view);
  const deltas = new Map();
  const left = [];
  for (const [seat, before] of base.stacks) {
    const was = base.players.get(seat);
    const is = now.players.get(seat);
    if (is && (!was?.id || !is.id || was.id === is.id)) deltas.set(seat, now.stacks.get(seat) - before);
    else left.push({ seat, name: was?.name || `Seat ${seat}`, delta: null });
  }
  const known = [...deltas.values()].reduce((a, b) => a + b, 0);
  const notes = [];
  let rest = -known; // chips that left (or, below 0, came to) the stacks of the players still here
  const held = (change, into, from) => {
    if (!change) return;
    rest -= change;
    notes.push(change > 0 ? `${chips(change)} ${into}` : `${chips(-change)} ${from}`);
  };
  if (base.front !== null && now.front !== null) {
    held(now.front - base.front, "put up as bets in front of the players", "came back from the bets in front");
  }
  if (base.pot !== null && now.pot !== null) held(now.pot - base.pot, "went into the pot", "came from the pot");
  if (base.prison !== null || now.prison !== null) {
    held((now.prison || 0) - (base.prison || 0), "went to prison", "came back from prison");
  }
  let unsure = false; // someone outside the list took part, and what they did is not known
  if (base.standing || now.standing) {
    const before = base.standing || new Map();
    const after = now.standing || new Map();
    let change = 0;
    for (const [id, stack] of after) {
      if (before.has(id)) change += stack - before.get(id);
      else unsure = true;
    }
    for (const id of before.keys()) if (!after.has(id)) unsure = true;
    if (change) {
      rest -= change;
      notes.push(`standing bettors ${signed(change)}`);
    }
  }
  const house = hasHouse(view);
  // Among players only, one leaver: the rest is theirs, even when it is nothing (listed ±0).
  if (!house && !unsure && left.length === 1) left[0].delta = rest;
  else if (rest !== 0) {
    if (!house && !unsure && left.length > 1) {
      notes.push(`${signed(rest)} for ${left.map((l) => l.name).join(" and ")}, who left`);
    } else if (house && !unsure && !left.length) {
      notes.push(rest > 0 ? `${chips(rest)} went to the house` : `${chips(-rest)} came from the house`);
    } else notes.push(`net ${signed(-rest)}`); // cannot tell where: just the amount
  }
  return { deltas, left, notes };
}

/** Remember stacks between hands; when a hand ends, what each seat won or lost in it. */
function trackHands(prev, view) {
  if (view.table?.status === "closed") {
    // Closing voids the hand in play and stands everyone up: there is no result to tell.
    state.handBaseline = null;
    state.lastResult = null;
    return;
  }
  if (!view.hand_id) {
    if (state.handBaseline && prev && prev.hand_id === state.handBaseline.handId) {
      const result = handResult(state.handBaseline, view);
      state.lastResult = { handId: state.handBaseline.handId, ...result };
      const ctx = moduleCtx(view);
      const parts = [...result.deltas].filter(([, d]) => d !== 0).map(([s, d]) => `${ctx.seatName(s)} ${signed(d)}`);
      for (const l of result.left) if (l.delta) parts.push(`${l.name} (left) ${signed(l.delta)}`);
      const notes = result.notes.length ? ` (${result.notes.join("; ")})` : "";
      log(parts.length ? `Hand over: ${parts.join(", ")}${notes}.` : `Hand over: no chips changed hands${notes}.`, "result");
    }
    state.handBaseline = null;
    state.lastIdle = snapshot(view);
  } else if (!state.handBaseline || state.handBaseline.handId !== view.hand_id) {
    // The stacks just before this hand, when we saw them; else as the hand stands now.
    const base = prev && !prev.hand_id && state.lastIdle ? state.lastIdle : snapshot(view);
    state.handBaseline = { handId: view.hand_id, ...base };
  }
}

function renderSettlement(view) {
  const box = $("#settlement");
  const result = state.lastResult;
  const leavers = result ? result.left.filter((l) => l.delta !== null) : [];
  if (state.closed || !result || (!result.deltas.size && !leavers.length)) {
    box.hidden = true;
    return;
  }
  const ctx = moduleCtx(view);
  box.hidden = false;
  const item = (seat, name, d, extra = null) =>
    h("li", { class: d > 0 ? "delta-up" : d < 0 ? "delta-down" : "", dataset: extra ? { seat, delta: d, left: "yes" } : { seat, delta: d } },
      h("span", { class: "settlement-name" }, name), extra, " ", signed(d));
  fill(box,
    h("span", { class: "settlement-title" }, view.hand_id ? "Last hand" : "Hand settled"),
    h("ul", { class: "settlement-list" },
      [...result.deltas].map(([seat, d]) => item(seat, ctx.seatName(seat), d)),
      leavers.map((l) => item(l.seat, l.name, l.delta, h("span", { class: "muted" }, " (left)")))),
    // Where chips went that no player still here holds: said only when the view tells.
    result.notes.length ? h("span", { class: "settlement-note muted small" }, `(${result.notes.join("; ")})`) : null);
}

// ------------------------------------------------------------------ acting

function newId() {
  state.counter += 1;
  return `c-${Date.now().toString(36)}-${state.counter}`;
}

function act(action) {
  if (state.pending) return; // one decision at a time; the buttons are disabled anyway
  const message = { type: "act", id: newId(), version: state.version, action };
  if (!socket.send(message)) {
    toast("Not connected: your action was not sent. Reconnecting…");
    return;
  }
  state.pending = { ...message, acked: false, timer: setTimeout(noAnswer, ACK_TIMEOUT_MS) };
  renderControlsArea();
}

function noAnswer() {
  if (!state.pending || state.pending.acked) return;
  toast("The server has not answered your action yet; check the table and try again.");
  clearPending();
}

function clearPending() {
  if (state.pending) clearTimeout(state.pending.timer);
  state.pending = null;
  renderControlsArea();
}

function onAck(message) {
  if (state.pending && message.id === state.pending.id) {
    state.pending.acked = true;
    clearTimeout(state.pending.timer);
    // The new state follows the ack at once; keep the buttons disabled until it arrives.
  }
}

function onError(message) {
  const text = typeof message.message === "string" ? message.message : `Refused (${message.code})`;
  if (state.pending && message.id && message.id === state.pending.id) clearPending();
  if (message.code === "stale_version") {
    toast(`${text} — the table is up to date again.`, "warn");
    socket.send({ type: "resync", version: state.version });
  } else if (message.code === "unauthorized") {
    toast(text);
    askForName();
  } else toast(text);
  log(`Refused: ${text}`, "error");
}

// ------------------------------------------------------------------ sitting, leaving, chips

function askAmount({ title, help, min, max, value, label, confirm }) {
  const dialog = $("#amount-dialog");
  const input = $("#amount-input");
  const error = $("#amount-error");
  $("#amount-title").textContent = title;
  $("#amount-help").textContent = help;
  $("#amount-label").textContent = label;
  $("#amount-ok").textContent = confirm;
  error.textContent = "";
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  const fixed = min === max;
  input.readOnly = fixed;
  $("#amount-row").hidden = fixed;
  return new Promise((resolve) => {
    const form = $("#amount-form");
    const done = (result) => {
      form.removeEventListener("submit", onSubmit);
      $("#amount-cancel").removeEventListener("click", onCancel);
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      resolve(result);
    };
    const onSubmit = (event) => {
      event.preventDefault();
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < min || n > max) {
        error.textContent = `A whole number from ${chips(min)} to ${chips(max)}, please.`;
        input.focus();
        return;
      }
      done(n);
    };
    const onCancel = (event) => {
      event?.preventDefault();
      done(null);
    };
    form.addEventListener("submit", onSubmit);
    $("#amount-cancel").addEventListener("click", onCancel);
    dialog.addEventListener("cancel", onCancel);
    dialog.showModal();
    (fixed ? $("#amount-ok") : input).focus();
    if (!fixed) input.select();
  });
}

async function sit(seat, title = `Sit in seat ${seat}`) {
  const limits = state.view?.table?.buy_in || summary.buy_in || { min: 1, max: 1 };
  const bankroll = typeof state.me?.bankroll === "number" ? state.me.bankroll : null;
  const max = bankroll === null ? limits.max : Math.min(limits.max, bankroll);
  if (max < limits.min) {
    toast(`The buy-in here is at least ${chips(limits.min)} chips; your bankroll holds ${chips(bankroll)}.`);
    return;
  }
  const fixed = limits.min === limits.max;
  const suggested = Math.min(max, Math.max(limits.min, bankroll === null ? limits.min : Math.floor(bankroll / 2)));
  const amount = await askAmount({
    title,
    help: fixed
      ? `The buy-in at this seat is exactly ${chips(limits.min)} chips, taken from your bankroll${bankroll === null ? "" : ` (${chips(bankroll)})`}.`
      : `Bring ${chips(limits.min)} to ${chips(max)} chips from your bankroll${bankroll === null ? "" : ` (${chips(bankroll)})`}.`,
    min: limits.min, max: fixed ? limits.min : max, value: fixed ? limits.min : suggested,
    label: "Buy-in", confirm: fixed ? `Sit down for ${chips(limits.min)}` : "Sit down",
  });
  if (amount === null) return;
  if (!socket.send({ type: "sit", seat, buy_in: amount })) toast("Not connected: try again in a moment.");
}

async function topUp() {
  const bankroll = typeof state.me?.bankroll === "number" ? state.me.bankroll : 0;
  if (bankroll < 1) {
    toast("Your bankroll is empty.");
    return;
  }
  const amount = await askAmount({
    title: "Add chips", help: `From your bankroll (${chips(bankroll)} chips) to your stack at this table.`,
    min: 1, max: bankroll, value: Math.min(bankroll, 100), label: "Chips", confirm: "Add chips",
  });
  if (amount !== null && !socket.send({ type: "top_up", amount })) toast("Not connected: try again in a moment.");
}

function leave() {
  if (socket.send({ type: "leave" })) log("You asked to leave: you stand up at the next moment the rules allow.");
  else toast("Not connected: try again in a moment.");
}

async function addBot() {
  const button = $("#btn-bot");
  button.disabled = true;
  try {
    const result = await api.addBot(tableId);
    toast(`A bot sat down in seat ${result.seat}.`, "info");
  } catch (err) {
    toast(err.status === 401 ? "Choose a name first." : err.message);
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ rendering

function renderAll(prev) {
  if (!state.view && state.closed) state.view = { seats: [], legal: [], you: null, table: {} };
  const view = state.view;
  if (!view) return;
  const ctx = moduleCtx(view);
  const module = state.module || genericModule;

  // Banner: closed, paused, over, the table's message.
  const t = view.table || {};
  const closed = state.closed;
  const banner = $("#banner");
  const notes = [];
  if (closed) notes.push(...closedNotice(closed));
  else {
    if (t.over) notes.push(h("strong", {}, "Table over: "), t.over);
    if (t.status === "paused") notes.push(h("strong", {}, "Paused by the host"), t.pause_reason ? ` — ${t.pause_reason}` : ".");
    if (t.message) notes.push(h("span", { class: "banner-message" }, notes.length ? ` ${t.message}` : t.message));
  }
  banner.hidden = notes.length === 0;
  banner.className = `banner${closed || t.over || t.status !== "open" ? " banner-strong" : ""}`;
  fill(banner, notes);

  $("#phase").textContent = closed ? "Closed" : humanize(view.phase || "");
  $("#table-name").textContent = t.name || summary.name;

  renderSettlement(view);
  const center = $("#game-center");
  center.replaceChildren();
  if (closed) {
    fill(center, h("p", { class: "status-line" }, "This table is closed"),
      closed.gone ? null : h("p", { class: "closed-text" }, "Every chip at it went back to its owner's bankroll."),
      h("a", { class: "btn btn-primary btn-small", href: "/" }, "Back to the lobby"));
  } else {
    try {
      module.renderCenter(view, center, ctx);
    } catch (err) {
      console.error("renderCenter failed", err);
      center.replaceChildren();
      genericModule.renderCenter(view, center, ctx);
    }
  }

  const seated = !closed && view.you !== null && view.you !== undefined;
  renderSeats($("#seats"), view, {
    canSit: Boolean(state.me) && !seated && !closed && t.status !== "closed",
    onSit: sit,
    deltas: state.lastResult && !view.hand_id ? state.lastResult.deltas : null,
    module,
    ctx,
  });

  $("#btn-leave").hidden = !seated;
  $("#btn-top-up").hidden = !(seated && t.can_top_up);
  $("#btn-bot").hidden = Boolean(closed);
  renderControlsArea();
  if (prev && prev.you !== view.you) {
    refreshMe(); // the bankroll moved
    if (!closed) renderInvite(); // a seated player may share a private table's link
  }
  fitCenter();
}

/** The banner of a closed table: that it is closed, the host's reason, the way out. */
function closedNotice(closed) {
  const reason = typeof closed.reason === "string" ? closed.reason.trim() : "";
  return [
    h("strong", {}, closed.gone && !reason ? "This table is closed (or no longer exists)." : "This table is closed"),
    reason ? h("span", { class: "banner-message" }, `: ${reason}${/[.!?…]$/.test(reason) ? "" : "."}`) : closed.gone ? null : ".",
    " ",
    h("a", { class: "banner-link", href: "/" }, "Back to the lobby"),
  ];
}

/** The host closed the table (its last state), or the server says it is gone (4404): stop
 *  reconnecting, drop every control, keep the log, and offer the way back to the lobby. */
function enterClosed(reason, gone = false) {
  if (state.closed) return false;
  state.closed = { reason: typeof reason === "string" && reason ? reason : null, gone };
  socket.stop();
  if (state.pending) clearTimeout(state.pending.timer);
  state.pending = null;
  state.legalKey = null;
  state.conn = "closed";
  page.classList.add("is-closed");
  page.classList.remove("is-offline");
  const slot = $("#signin-inline");
  slot.hidden = true;
  slot.replaceChildren();
  $("#invite-box").hidden = true;
  const pill = $("#conn");
  pill.dataset.state = "closed";
  pill.textContent = "Table closed";
  return true;
}

/** Keep the table's centre clear of the seats: when its content would run under a seat box,
 *  fit it (narrower if that helps) into the band the seats leave free, scrolling if need be. */
function fitCenter() {
  const center = $("#center");
  const felt = $("#felt");
  for (const prop of ["top", "width", "max-height"]) center.style.removeProperty(prop);
  center.classList.remove("center-scrolls", "at-end");
  if (!felt.clientHeight || getComputedStyle(center).position !== "absolute") return; // stacked
  const boxes = [...felt.querySelectorAll(".seat")]
    .filter((n) => getComputedStyle(n).visibility !== "hidden")
    .map((n) => n.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const c = center.getBoundingClientRect();
  const hits = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  if (!boxes.some((r) => hits(r, c))) return;
  const f = felt.getBoundingClientRect();
  const top0 = f.top + felt.clientTop;
  const bottom0 = top0 + felt.clientHeight;
  const middle = (top0 + bottom0) / 2;
  const cx = c.left + c.width / 2;
  const GAP = 6;
  const band = (half) => {
    let top = top0 + GAP;
    let bottom = bottom0 - GAP;
    for (const r of boxes) {
      if (r.right <= cx - half || r.left >= cx + half) continue;
      if ((r.top + r.bottom) / 2 < middle) top = Math.max(top, r.bottom + GAP);
      else bottom = Math.min(bottom, r.top - GAP);
    }
    return { top, bottom };
  };
  // Candidate widths: as styled, and each width that keeps clear of a seat beside the centre.
  const halves = new Set([c.width / 2]);
  for (const r of boxes) {
    if (r.right <= cx && r.right > c.left) halves.add(cx - r.right - GAP);
    if (r.left >= cx && r.left < c.right) halves.add(r.left - cx - GAP);
  }
  let best = null;
  for (const half of [...halves].filter((x) => x >= 110).sort((a, b) => b - a)) {
    const { top, bottom } = band(half);
    center.style.width = `${2 * half}px`;
    const spare = bottom - top - center.scrollHeight;
    if (!best || spare > best.spare) best = { half, top, bottom, spare };
    if (spare >= 0) break; // the widest that fits
  }
  if (!best) {
    center.style.removeProperty("width");
    return;
  }
  if (best.half * 2 < c.width - 0.5) center.style.width = `${2 * best.half}px`;
  else center.style.removeProperty("width");
  center.style.top = `${(best.top + best.bottom) / 2 - top0}px`;
  center.style.maxHeight = `${Math.max(60, best.bottom - best.top)}px`;
  markScroll();
}

/** A centre that scrolls says so: a thin scrollbar, and its lower edge fades until the end. */
function markScroll() {
  const center = $("#center");
  const scrolls = center.scrollHeight > center.clientHeight + 1;
  center.classList.toggle("center-scrolls", scrolls);
  center.classList.toggle("at-end", !scrolls || center.scrollTop + center.clientHeight >= center.scrollHeight - 2);
}

function renderControlsArea() {
  const view = state.view;
  const el = $("#controls");
  const dock = $("#dock");
  const turnBanner = $("#turn-banner");
  if (!view) return;
  const legal = Array.isArray(view.legal) ? view.legal : [];
  const seated = !state.closed && view.you !== null && view.you !== undefined;
  const live = state.conn === "open";
  const yourTurn = legal.length > 0 && !state.closed;
  dock.classList.toggle("is-your-turn", yourTurn);
  dock.classList.toggle("is-pending", Boolean(state.pending));
  document.title = `${yourTurn ? "● Your turn · " : ""}${summary.name} · Table 31`;

  const closed = Boolean(state.closed);
  const turnText = closed ? "" : !live ? "Reconnecting…" : yourTurn ? "Your turn" : "";
  if (turnBanner.dataset.text !== turnText) {
    turnBanner.dataset.text = turnText; // only a change is announced (aria-live)
    fill(turnBanner, turnText ? h("span", { class: "turn-text" }, turnText) : null);
  }

  const key = JSON.stringify([legal, seated, Boolean(state.me), view.table?.status, closed]);
  if (key !== state.legalKey || !el.firstChild) {
    state.legalKey = key;
    const module = state.module || genericModule;
    if (closed) {
      fill(el, h("p", { class: "idle idle-closed" }, "The table is closed: there is nothing more to play here."));
    } else if (yourTurn) {
      const inner = h("div", { class: "controls-inner" });
      renderControls(inner, legal, {
        onAct: act,
        labels: module.labels,
        valueLabel: module.valueLabel ? (k, p, v) => module.valueLabel(k, p, v, state.view, moduleCtx(state.view)) : null,
        memory: state.memory,
      });
      const box = h("fieldset", { class: "controls-set" },
        h("legend", { class: "visually-hidden" }, "Your choices"), inner);
      fill(el, box);
    } else if (!state.me) {
      fill(el, h("p", { class: "idle" }, "You are watching. Choose a name above to sit down and play."));
    } else if (!seated) {
      fill(el, h("p", { class: "idle" }, "You are watching. Pick a free seat (“Sit here”) to play."));
    } else {
      fill(el, h("p", { class: "idle" }, waitingText(view)));
    }
  } else if (!closed && !yourTurn && seated) {
    const idle = el.querySelector(".idle");
    if (idle) idle.textContent = waitingText(view);
  }
  const set = el.querySelector("fieldset");
  if (set) set.disabled = Boolean(state.pending) || !live;
  el.querySelector(".pending-note")?.remove();
  if (state.pending) el.append(h("p", { class: "pending-note", role: "status" }, "Sending…"));
}

function waitingText(view) {
  const turn = [...turnSeats(view)];
  const ctx = moduleCtx(view);
  if (turn.length) return `Waiting for ${turn.map(ctx.seatName).join(", ")}…`;
  return view.hand_id ? "Nothing for you to decide right now." : "Waiting for the next hand…";
}

/** The decision clock, from the view's deadline (server unix seconds). */
function tick() {
  const el = $("#countdown");
  const deadline = state.view?.deadline;
  const left = typeof deadline === "number" ? deadline - clock.now() : null;
  if (left === null || left <= 0 || state.conn !== "open") {
    el.textContent = "";
    el.hidden = true;
    return;
  }
  const secs = Math.ceil(left);
  el.hidden = false;
  el.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  el.classList.toggle("urgent", secs <= 5);
}

// ------------------------------------------------------------------ the socket

function onState(message) {
  if (typeof message.version !== "number" || !message.view) return;
  if (!state.freshConnection && message.version < state.version) return; // an older state
  state.freshConnection = false;
  const prev = state.view;
  state.version = message.version;
  state.view = message.view;
  const closing = message.view.table?.status === "closed" && enterClosed(message.view.table.message);
  if (state.pending && state.pending.acked && message.version > state.pending.version) clearPending();
  const ctx = moduleCtx(message.view);
  const module = state.module || genericModule;
  const lines = describeGeneric(prev, message.view, ctx);
  try {
    if (module.describeChanges) lines.push(...module.describeChanges(prev, message.view, ctx));
    else if (message.view.status !== prev?.status && typeof message.view.status === "string") lines.push(message.view.status);
  } catch (err) {
    console.error("describeChanges failed", err);
  }
  for (const line of lines) log(line);
  if (closing) log("The table is closed.", "error");
  trackHands(prev, message.view); // logs "Hand over: …" after the hand's last events
  renderAll(prev);
  tick();
}

function onStatus(conn, detail, code) {
  if (state.closed) return; // nothing reconnects a closed table
  if (conn === "closed" && code === 4404) {
    enterClosed(null, true);
    log("The table is closed or no longer exists.", "error");
    renderAll(state.view);
    return;
  }
  const was = state.conn;
  state.conn = conn;
  const pill = $("#conn");
  pill.dataset.state = conn;
  const text = {
    connecting: "Connecting…",
    open: "Connected",
    reconnecting: typeof detail === "number" ? `Reconnecting… (${detail}s)` : "Reconnecting…",
    closed: `Disconnected${detail ? `: ${detail}` : ""}`,
  }[conn];
  pill.textContent = text;
  page.classList.toggle("is-offline", conn !== "open");
  if (conn === "open") {
    state.freshConnection = true;
    if (was === "reconnecting") log("Reconnected.");
    // An act not yet acknowledged may have been lost with the old socket: send it again with
    // the same id; the server applies it once (PROTOCOL.md, "act").
    if (state.pending && !state.pending.acked) {
      const { type, id, version, action } = state.pending;
      socket.send({ type, id, version, action });
    }
  } else if (conn === "reconnecting" && was === "open") log("Connection lost; reconnecting…", "error");
  else if (conn === "closed") toast(text);
  renderControlsArea();
}

const socket = new TableSocket(tableId, {
  onStatus,
  onMessage(message) {
    if (message.type === "state") onState(message);
    else if (message.type === "ack") onAck(message);
    else if (message.type === "error") onError(message);
    // "pong" and notices need nothing
  },
}, invite);

// ------------------------------------------------------------------ who you are

async function refreshMe() {
  if (!hasSession && !state.me) return; // no cookie: nobody to ask about
  try {
    state.me = await api.me();
  } catch {
    return; // keep what we had; the socket tells us about the table
  }
  showWhoami(state.me);
}

function askForName() {
  const slot = $("#signin-inline");
  slot.hidden = false;
  renderSignIn(slot, {
    joinCode: page.dataset.joinCode === "required",
    intro: "You are watching this table. Choose a name to sit down and play:",
    button: "Join the table",
    onSignedIn(player) {
      state.me = player;
      hasSession = true;
      slot.hidden = true;
      slot.replaceChildren();
      state.legalKey = null;
      if (state.closed) return;
      socket.reconnect(); // the new cookie identifies you on a fresh socket
      renderAll(state.view);
    },
  });
}

/** A private table: show its invite link to those the server gives it to (opener, players). */
async function renderInvite() {
  if (!summary.private) return;
  let table;
  try {
    table = await api.table(tableId, invite);
  } catch {
    return;
  }
  const box = $("#invite-box");
  if (!table.invite_path) {
    box.hidden = true;
    return;
  }
  const link = new URL(table.invite_path, location.origin).href;
  const input = h("input", { class: "invite-link", readonly: true, value: link, "aria-label": "Invite link", onfocus: (e) => e.target.select() });
  const copy = h("button", { type: "button", class: "btn btn-small", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast("Invite link copied.", "info");
    } catch {
      input.select();
      toast("Select the link and copy it.", "warn");
    }
  } }, "Copy");
  fill(box, h("p", { class: "small muted" }, "A private table: share this link to invite people."), h("div", { class: "invite-row" }, input, copy));
  box.hidden = false;
}

function renderOptions() {
  const list = $("#options-list");
  const opts = summary.options || {};
  fill(list, Object.entries(opts).map(([k, v]) => [
    h("dt", {}, humanize(k)),
    h("dd", {}, v === null ? "no limit" : typeof v === "string" ? humanize(v) : String(v)),
  ]));
}

async function start() {
  renderOptions();
  $("#btn-leave").addEventListener("click", leave);
  $("#btn-bot").addEventListener("click", addBot);
  $("#btn-top-up").addEventListener("click", topUp);
  setInterval(tick, 250);
  $("#center").addEventListener("scroll", markScroll, { passive: true });
  let fitting = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(fitting);
    fitting = requestAnimationFrame(fitCenter);
  });
  state.module = await loadModule(gameId);
  await refreshMe();
  if (!state.me) askForName();
  renderInvite();
  socket.connect();
}

start();
