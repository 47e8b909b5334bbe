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
  lastIdleStacks: null, // stacks seen between hands: the baseline of the next hand
  handBaseline: null, // {handId, stacks}
  lastResult: null, // {handId, deltas: Map}
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

/** Remember stacks between hands; when a hand ends, what each seat won or lost in it. */
function trackHands(prev, view) {
  const stacks = new Map((view.seats || []).filter((s) => typeof s.stack === "number").map((s) => [s.seat, s.stack]));
  if (!view.hand_id) {
    if (state.handBaseline && prev && prev.hand_id === state.handBaseline.handId) {
      const deltas = new Map();
      for (const [seat, before] of state.handBaseline.stacks) {
        if (stacks.has(seat)) deltas.set(seat, stacks.get(seat) - before);
      }
      state.lastResult = { handId: state.handBaseline.handId, deltas };
      const ctx = moduleCtx(view);
      const parts = [...deltas].filter(([, d]) => d !== 0).map(([s, d]) => `${ctx.seatName(s)} ${signed(d)}`);
      log(parts.length ? `Hand over: ${parts.join(", ")}.` : "Hand over: no chips changed hands.", "result");
    }
    state.handBaseline = null;
    state.lastIdleStacks = stacks;
  } else if (!state.handBaseline || state.handBaseline.handId !== view.hand_id) {
    // The stacks just before this hand, when we saw them; else as the hand stands now.
    const base = prev && !prev.hand_id && state.lastIdleStacks ? state.lastIdleStacks : stacks;
    state.handBaseline = { handId: view.hand_id, stacks: new Map(base) };
  }
}

function renderSettlement(view) {
  const box = $("#settlement");
  const result = state.lastResult;
  if (!result || !result.deltas.size) {
    box.hidden = true;
    return;
  }
  const ctx = moduleCtx(view);
  box.hidden = false;
  const total = [...result.deltas.values()].reduce((a, b) => a + b, 0);
  fill(box,
    h("span", { class: "settlement-title" }, view.hand_id ? "Last hand" : "Hand settled"),
    h("ul", { class: "settlement-list" }, [...result.deltas].map(([seat, d]) =>
      h("li", { class: d > 0 ? "delta-up" : d < 0 ? "delta-down" : "", dataset: { seat, delta: d } },
        h("span", { class: "settlement-name" }, ctx.seatName(seat)), " ", signed(d)))),
    // Chips are conserved among the players except where a pot or the house takes part.
    total !== 0 ? h("span", { class: "muted small" }, `(${signed(total)} to/from the pot or house)`) : null);
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
  const view = state.view;
  if (!view) return;
  const ctx = moduleCtx(view);
  const module = state.module || genericModule;

  // Banner: paused, over, the table's message.
  const t = view.table || {};
  const banner = $("#banner");
  const notes = [];
  if (t.over) notes.push(h("strong", {}, "Table over: "), t.over);
  if (t.status === "paused") notes.push(h("strong", {}, "Paused by the host"), t.pause_reason ? ` — ${t.pause_reason}` : ".");
  if (t.status === "closed") notes.push(h("strong", {}, "This table is closed."));
  if (t.message) notes.push(h("span", { class: "banner-message" }, notes.length ? ` ${t.message}` : t.message));
  banner.hidden = notes.length === 0;
  banner.className = `banner${t.over || t.status !== "open" ? " banner-strong" : ""}`;
  fill(banner, notes);

  $("#phase").textContent = humanize(view.phase || "");
  $("#table-name").textContent = t.name || summary.name;

  renderSettlement(view);
  const center = $("#game-center");
  center.replaceChildren();
  try {
    module.renderCenter(view, center, ctx);
  } catch (err) {
    console.error("renderCenter failed", err);
    center.replaceChildren();
    genericModule.renderCenter(view, center, ctx);
  }

  const seated = view.you !== null && view.you !== undefined;
  renderSeats($("#seats"), view, {
    canSit: Boolean(state.me) && !seated && t.status !== "closed",
    onSit: sit,
    deltas: state.lastResult && !view.hand_id ? state.lastResult.deltas : null,
    module,
    ctx,
  });

  $("#btn-leave").hidden = !seated;
  $("#btn-top-up").hidden = !(seated && t.can_top_up);
  renderControlsArea();
  if (prev && prev.you !== view.you) {
    refreshMe(); // the bankroll moved
    renderInvite(); // a seated player may share a private table's link
  }
}

function renderControlsArea() {
  const view = state.view;
  const el = $("#controls");
  const dock = $("#dock");
  const turnBanner = $("#turn-banner");
  if (!view) return;
  const legal = Array.isArray(view.legal) ? view.legal : [];
  const seated = view.you !== null && view.you !== undefined;
  const live = state.conn === "open";
  const yourTurn = legal.length > 0;
  dock.classList.toggle("is-your-turn", yourTurn);
  dock.classList.toggle("is-pending", Boolean(state.pending));
  document.title = `${yourTurn ? "● Your turn · " : ""}${summary.name} · Table 31`;

  const turnText = !live ? "Reconnecting…" : yourTurn ? "Your turn" : "";
  if (turnBanner.dataset.text !== turnText) {
    turnBanner.dataset.text = turnText; // only a change is announced (aria-live)
    fill(turnBanner, turnText ? h("span", { class: "turn-text" }, turnText) : null);
  }

  const key = JSON.stringify([legal, seated, Boolean(state.me), view.table?.status]);
  if (key !== state.legalKey || !el.firstChild) {
    state.legalKey = key;
    const module = state.module || genericModule;
    if (yourTurn) {
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
  } else if (!yourTurn && seated) {
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
  trackHands(prev, message.view); // logs "Hand over: …" after the hand's last events
  renderAll(prev);
  tick();
}

function onStatus(conn, detail) {
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
      slot.hidden = true;
      slot.replaceChildren();
      state.legalKey = null;
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
  state.module = await loadModule(gameId);
  await refreshMe();
  if (!state.me) askForName();
  renderInvite();
  socket.connect();
}

start();
