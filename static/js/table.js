// The table page: a generic client driven by the view (docs/protocol.md §6).
// A game's own look and words come from its module (game-module.js says what a module is).

import { clockState, startAlerts, turnState } from "./alerts.js";
import { announce } from "./announce.js";
import { api } from "./api.js";
import { seeView } from "./bankroll-follow.js";
import { cardEl, cardRow, cardText } from "./cards.js";
import { said } from "./engine-words.js";
import { chatWhoChanged, onChatMessage, startChat } from "./chat.js";
import { cannotPlayNotice, renderControls } from "./controls.js";
import { $, chips, fill, h, humanize, signed, toast } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { codeWords } from "./words.js";
import { fitTable, markScroll, refitOnResize } from "./felt-layout.js";
import { genericModule, loadModule } from "./game-module.js";
import { clock } from "./http.js";
import { renderHostBadge, renderHostPanel, seatRequestNote } from "./host-panel.js";
import { startKeyboard } from "./keyboard.js";
import { act, clearPending, onAck, onActs, onError } from "./table-acts.js";
import { gameChoices, renderPresence } from "./presence.js";
import { renderSeats, turnSeats } from "./seats.js";
import { renderSignIn, showWhoami } from "./signin.js";
import { describe, renderResultBox, resultDeltas } from "./story.js";
import { followRoom, renderRoomChooser, roomViewChanged } from "./room.js";
import { gameId, log, page, socket, state, summary } from "./table-context.js";
import { optionLabel, renderInvite, renderOptions } from "./table-info.js";
import { addBot, closeTable, leave, mayAddBot, mayCloseTable, sit, topUp } from "./table-seat-actions.js";

/** Each seat's player's name as last seen: a player who left in the hand being told (gone
 *  from the view that tells it) is still named, never "Seat 3". */
const knownNames = new Map();

function learnNames(view, message) {
  for (const s of [...(view?.bettors || []), ...(view?.seats || [])]) {
    if (Number.isInteger(s.seat) && typeof s.name === "string") knownNames.set(s.seat, s.name);
  }
  for (const event of [...(message?.story || []), ...(message?.events || [])]) {
    if (Number.isInteger(event?.seat) && typeof event.name === "string") knownNames.set(event.seat, event.name);
  }
}

function moduleCtx(view) {
  const names = new Map(knownNames);
  for (const s of [...(view.bettors || []), ...(view.seats || [])]) names.set(s.seat, s.name);
  return {
    h, fill, chips, signed, humanize, cardEl, cardRow, cardText,
    seatName: (n) => (typeof names.get(n) === "string" ? names.get(n) : t("Seat {n}", { n })),
    optionLabel,
    you: view.you,
    view,
    live: true,
    act,
    sit,
  };
}

// ------------------------------------------------------------------ the log

/** The server's notice (a void hand, a closing table) when it changes: not an event. The
 *  server words it in the reader's language (docs/i18n.md, "The table's own words"). */
function noticeLines(prev, view, message) {
  const notice = view.table?.message;
  if (!notice || notice === prev?.table?.message) return [];
  // a void hand's notice is its hand_void event's reason, told already (docs/protocol.md §6.6)
  const told = [...(message.story || []), ...(message.events || [])];
  return told.some((event) => event.kind === "hand_void" && event.reason === notice) ? [] : [notice];
}

/** The story the server sent with a state (docs/protocol.md §6.6): a new connection's
 *  `story` replaces the log, a change's `events` add to it; `result` is the last hand's. The
 *  story that answers a `resync` on the same socket tells nothing new (no event is lost on a
 *  live socket): the log keeps its lines, the page's own ("Refused: …") with them. */
function tellStory(message, ctx, fresh) {
  const module = state.module || genericModule;
  const kind = (event) => (event.kind === "hand_end" ? "result" : "");
  if (Array.isArray(message.story) && fresh) {
    // a room's page keeps the evening's log from table to table (room.js)
    if (state.keepLog) state.keepLog = false;
    else $("#log").replaceChildren();
    for (const event of message.story) for (const line of describe(event, module, ctx)) log(line, kind(event), event.t);
  }
  for (const event of Array.isArray(message.events) ? message.events : []) {
    for (const line of describe(event, module, ctx)) {
      log(line, kind(event), event.t);
      if (event.kind === "hand_end") announce(line); // the result, said by screen readers
    }
  }
  if (message.result !== undefined) state.lastResult = message.result;
}

function renderSettlement(view) {
  const box = $("#settlement");
  if (state.closed || !state.lastResult) {
    box.hidden = true;
    return;
  }
  renderResultBox(box, state.lastResult, { h, fill, signed, view, title: view.hand_id ? t("Last hand") : t("Hand settled") });
}

// ------------------------------------------------------------------ acting

// ------------------------------------------------------------------ rendering

function renderAll(prev) {
  if (!state.view && state.closed) state.view = { seats: [], legal: [], you: null, table: {} };
  const view = state.view;
  if (!view) return;
  const ctx = moduleCtx(view);
  const module = state.module || genericModule;

  // Banner: closed, paused, over, the table's message.
  const table = view.table || {};
  const closed = state.closed;
  const banner = $("#banner");
  const notes = [];
  if (closed) notes.push(...closedNotice(closed));
  else {
    if (table.over) notes.push(h("strong", {}, t("Table over:")), " ", said(table.over_coded, ctx, table.over));
    if (table.status === "paused") notes.push(h("strong", {}, t("Paused by the host")), table.pause_reason ? ` — ${table.pause_reason}` : ".");
    const notice = table.message || "";
    if (notice) notes.push(h("span", { class: "banner-message" }, notes.length ? ` ${notice}` : notice));
    const asked = seatRequestNote(view); // your own request to sit (seats by approval)
    if (asked) notes.push(h("span", { class: "banner-message banner-seat-request" }, notes.length ? ` ${asked}` : asked));
  }
  banner.hidden = notes.length === 0;
  banner.className = `banner${closed || table.over || table.status !== "open" ? " banner-strong" : ""}`;
  fill(banner, notes);

  $("#phase").textContent = closed ? t("Closed") : codeWords(view.phase || "");
  $("#table-name").textContent = table.name || summary.name;
  renderHostBadge(closed ? null : view);
  renderHostPanel($("#host-panel"), closed ? {} : view, { disabled: state.conn !== "open" });
  roomViewChanged();

  renderSettlement(view);
  const center = $("#game-center");
  center.replaceChildren();
  if (closed) {
    fill(center, h("p", { class: "status-line" }, t("This table is closed")),
      closed.gone ? null : h("p", { class: "closed-text" }, t("Every chip at it went back to its owner's bankroll.")),
      h("a", { class: "btn btn-primary btn-small", href: "/" }, t("Back to the lobby")));
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
    canSit: Boolean(state.me) && !seated && !closed && table.status !== "closed",
    onSit: sit,
    deltas: !view.hand_id ? resultDeltas(state.lastResult, view) : null,
    module,
    ctx,
    // the opener stands up a seat that has been sitting out (docs/protocol/socket.md §5.10)
    standUp: !closed && state.me && state.me.player_id === summary.created_by
      ? (seat, minutes) => socket.send({ type: "stand_up", seat, away_at_least: minutes * 60 })
      : null,
    now: clock.now(),
  });

  $("#btn-leave").hidden = !seated;
  $("#btn-top-up").hidden = !(seated && table.can_top_up);
  $("#btn-bot").hidden = Boolean(closed) || !mayAddBot();
  $("#bot-level-box").hidden = $("#btn-bot").hidden;
  $("#btn-close-table").hidden = Boolean(closed) || !mayCloseTable(view);
  renderControlsArea();
  if ($("#controls .cannot-play")) {
    // the notice offers Add chips and Leave table itself: the dock's own would say it twice
    $("#btn-leave").hidden = true;
    $("#btn-top-up").hidden = true;
  }
  if (prev && prev.you !== view.you) {
    refreshMe(); // the bankroll moved
    if (!closed) renderInvite(); // a seated player may share a private table's link
  }
  fitTable();
}

/** The banner of a closed table: that it is closed, the host's reason, the way out. */
function closedNotice(closed) {
  const reason = typeof closed.reason === "string" ? closed.reason.trim() : "";
  return [
    h("strong", {}, closed.gone && !reason ? t("This table is closed (or no longer exists).") : t("This table is closed")),
    reason ? h("span", { class: "banner-message" }, `: ${reason}${/[.!?…]$/.test(reason) ? "" : "."}`) : closed.gone ? null : ".",
    " ",
    h("a", { class: "banner-link", href: "/" }, t("Back to the lobby")),
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
  pill.textContent = t("Table closed");
  return true;
}

function renderControlsArea() {
  const view = state.view;
  const el = $("#controls");
  const dock = $("#dock");
  const turnBanner = $("#turn-banner");
  if (!view) return;
  const whole = Array.isArray(view.legal) ? view.legal : [];
  const legal = gameChoices(whole); // Ready, Deal, Sit out and I'm back have their own line
  const seated = !state.closed && view.you !== null && view.you !== undefined;
  const live = state.conn === "open";
  const yourTurn = legal.length > 0 && !state.closed;
  dock.classList.toggle("is-your-turn", yourTurn);
  dock.classList.toggle("is-pending", Boolean(state.pending));
  const module = state.module || genericModule;
  turnState(yourTurn, legal, module.labels, `${summary.name} · Table 31`); // the title, sound, live region

  const closed = Boolean(state.closed);
  const turnText = closed ? "" : !live ? t("Reconnecting…") : yourTurn ? t("Your turn") : "";
  const retry = !closed && !live && Boolean(state.view); // lost after a first connection
  if (turnBanner.dataset.text !== turnText || turnBanner.dataset.retry !== String(retry)) {
    turnBanner.dataset.text = turnText; // redrawn on a change only (announce.js says it)
    turnBanner.dataset.retry = String(retry);
    fill(turnBanner, turnText ? h("span", { class: "turn-text" }, turnText) : null,
      // the socket waits before each new try: the player may try at once
      retry ? h("button", { type: "button", class: "btn btn-small btn-retry", id: "btn-retry", onclick: () => socket.retryNow() }, t("Retry now")) : null);
  }

  const cannotPlay = seated && !yourTurn && typeof view.table?.cannot_play === "string"
    ? said(view.table.cannot_play_coded, {}, view.table.cannot_play) : null;
  const key = JSON.stringify([legal, seated, Boolean(state.me), view.table?.status, closed, cannotPlay, Boolean(view.table?.can_top_up)]);
  if (key !== state.legalKey || !el.firstChild) {
    state.legalKey = key;
    if (closed) {
      fill(el, h("p", { class: "idle idle-closed" }, t("The table is closed: there is nothing more to play here.")));
    } else if (yourTurn) {
      const inner = h("div", { class: "controls-inner" });
      renderControls(inner, legal, {
        onAct: act,
        labels: module.labels,
        valueLabel: module.valueLabel ? (k, p, v) => module.valueLabel(k, p, v, state.view, moduleCtx(state.view)) : null,
        memory: state.memory,
      });
      const box = h("fieldset", { class: "controls-set" },
        h("legend", { class: "visually-hidden" }, t("Your choices")), inner);
      fill(el, box);
    } else if (!state.me) {
      fill(el, h("p", { class: "idle" }, t("You are watching. Choose a name above to sit down and play.")));
    } else if (!seated) {
      fill(el, h("p", { class: "idle" }, t("You are watching. Pick a free seat (“Sit here”) to play.")));
    } else if (cannotPlay) {
      fill(el, cannotPlayNotice(cannotPlay, { canTopUp: Boolean(view.table?.can_top_up), onTopUp: topUp, onLeave: leave }));
    } else {
      fill(el, h("p", { class: "idle" }, waitingText(view)));
    }
  } else if (!closed && !yourTurn && seated && !cannotPlay) {
    const idle = el.querySelector(".idle");
    if (idle) idle.textContent = waitingText(view);
  }
  renderPresence($("#presence"), view, closed ? [] : whole, { act, disabled: Boolean(state.pending) || !live });
  const set = el.querySelector("fieldset");
  if (set) set.disabled = Boolean(state.pending) || !live;
  // Leaving and adding chips need the server: not while the socket is down.
  for (const button of [$("#btn-leave"), $("#btn-top-up"), ...el.querySelectorAll(".cannot-play button")]) {
    button.disabled = !live && !closed;
    button.title = !live && !closed ? t("Not while the connection is down") : "";
  }
  el.querySelector(".pending-note")?.remove();
  if (state.pending) el.append(h("p", { class: "pending-note", role: "status" }, t("Sending…")));
}

function waitingText(view) {
  const turn = [...turnSeats(view)];
  const ctx = moduleCtx(view);
  if (turn.length) return t("Waiting for {names}…", { names: turn.map(ctx.seatName).join(", ") });
  return view.hand_id ? t("Nothing for you to decide right now.") : t("Waiting for the next hand…");
}

/** " +30 s": your time bank's seconds left, shown on the clock while it is your decision
 *  (docs/protocol/socket.md §5.11). */
function timeBankText(view) {
  const mine = (view?.seats || []).find((s) => s.seat === view.you);
  const yours = (view?.legal || []).some((template) => template?.kind === "time_bank");
  if (!(yours && mine?.time_bank > 0)) return "";
  const more = t("+{n} s", { n: formatNumber(mine.time_bank) });
  return ` ${more}`;
}

/** The decision clock, from the view's deadline (server unix seconds). */
function tick() {
  const el = $("#countdown");
  const deadline = state.view?.deadline;
  const left = typeof deadline === "number" ? deadline - clock.now() : null;
  clockState(state.conn === "open" ? left : null, deadline); // the 5-second warning
  if (left === null || left <= 0 || state.conn !== "open") {
    el.textContent = "";
    el.hidden = true;
    return;
  }
  const secs = Math.ceil(left);
  el.hidden = false;
  el.textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}${timeBankText(state.view)}`;
  el.classList.toggle("urgent", secs <= 5);
}

// ------------------------------------------------------------------ the socket

function onState(message) {
  if (typeof message.version !== "number" || !message.view) return;
  if (!state.freshConnection && message.version < state.version) return; // an older state
  const fresh = state.freshConnection;
  state.freshConnection = false;
  const prev = state.view;
  state.version = message.version;
  state.view = message.view;
  seeView(message.view, state); // the header's bankroll follows
  const closing = message.view.table?.status === "closed"
    && enterClosed(message.view.table.message);
  if (state.pending?.acked && message.version > state.pending.version) clearPending();
  learnNames(message.view, message);
  const ctx = moduleCtx(message.view);
  tellStory(message, ctx, fresh);
  for (const line of noticeLines(prev, message.view, message)) log(line);
  if (closing) {
    state.lastResult = null; // closing voids the hand in play: there is no result to tell
    log(t("The table is closed."), "error");
  }
  if (state.reconnected && Array.isArray(message.story)) {
    state.reconnected = false;
    log(t("Reconnected."));
  }
  renderAll(prev);
  tick();
}

function onStatus(conn, detail, code) {
  if (state.closed) return; // nothing reconnects a closed table
  if (conn === "closed" && code === 4404) {
    enterClosed(null, true);
    log(t("The table is closed or no longer exists."), "error");
    renderAll(state.view);
    return;
  }
  const was = state.conn;
  state.conn = conn;
  const pill = $("#conn");
  pill.dataset.state = conn;
  const text = {
    connecting: t("Connecting…"),
    open: t("Connected"),
    reconnecting:
      typeof detail === "number"
        ? t("Reconnecting… ({n}s)", { n: formatNumber(detail) })
        : typeof detail === "string"
          ? t("Paused: {reason}", { reason: detail })
          : t("Reconnecting…"),
    closed: detail ? t("Disconnected: {reason}", { reason: detail }) : t("Disconnected"),
  }[conn];
  pill.textContent = text;
  page.classList.toggle("is-offline", conn !== "open");
  if (conn === "open") {
    state.stoppedFor = null;
    state.freshConnection = true;
    if (was === "reconnecting") state.reconnected = true; // said after the story it brings
    // An act not yet acknowledged may have been lost with the old socket: send it again with
    // the same id; the server applies it once (docs/protocol.md, "act").
    if (state.pending && !state.pending.acked) {
      const { type, id, version, action } = state.pending;
      socket.send({ type, id, version, action });
    }
  } else if (conn === "reconnecting" && typeof detail === "string") {
    if (state.stoppedFor !== detail) log(detail, "error"); // once, not at every retry
    state.stoppedFor = detail;
  } else if (conn === "reconnecting" && was === "open") log(t("Connection lost; reconnecting…"), "error");
  else if (conn === "closed") toast(text);
  renderControlsArea();
}

// ------------------------------------------------------------------ who you are

async function refreshMe() {
  if (!state.hasSession && !state.me) return; // no cookie: nobody to ask about
  try {
    state.me = await api.me();
  } catch {
    return; // keep what we had; the socket tells us about the table
  }
  showWhoami(state.me);
  chatWhoChanged();
  $("#btn-bot").hidden = Boolean(state.closed) || !mayAddBot(); // the opener is known now
  $("#bot-level-box").hidden = $("#btn-bot").hidden;
  $("#btn-close-table").hidden = Boolean(state.closed) || !state.view || !mayCloseTable(state.view);
}

function askForName() {
  const slot = $("#signin-inline");
  slot.hidden = false;
  renderSignIn(slot, {
    joinCode: page.dataset.joinCode === "required",
    intro: t("You are watching this table. Choose a name to sit down and play:"),
    button: t("Join the table"),
    onSignedIn(player) {
      state.me = player;
      state.hasSession = true;
      slot.hidden = true;
      slot.replaceChildren();
      state.legalKey = null;
      if (state.closed) return;
      socket.reconnect(); // the new cookie identifies you on a fresh socket
      renderAll(state.view);
    },
  });
}

socket.handlers = {
  onStatus,
  onMessage(message) {
    if (onChatMessage(message)) return; // chat.js: the chat panel
    if (message.type === "state") onState(message);
    else if (message.type === "ack") onAck(message);
    else if (message.type === "error") onError(message);
    else if (message.type === "room_switch") followRoom(message, remount); // room.js
    // "pong" and notices need nothing
  },
};

/** A room's page shows the room's new table (room.js): the game's module re-mounted, the
 *  page's table state emptied for the new socket's first state; the log and chat stay. */
async function remount(next) {
  if (state.pending) clearTimeout(state.pending.timer);
  Object.assign(state, {
    view: null, version: -1, freshConnection: true, pending: null, legalKey: null,
    lastResult: null, reconnected: false, closed: null, keepLog: true,
  });
  state.memory.clear();
  knownNames.clear();
  state.module = await loadModule(next.game);
  $("#table-name").textContent = next.name;
  $("#game-title").textContent = next.game_title;
  document.title = `${next.name} · ${next.game_title} · Table 31`;
  const css = $("#game-css");
  if (css) css.href = `/static/css/games/${next.game}.css`;
  for (const link of document.querySelectorAll(".history-link:not(.settle-link):not(.room-hands-link)")) {
    link.href = `/tables/${encodeURIComponent(next.table_id)}/history`;
  }
  $("#game-center").replaceChildren();
  $("#seats").replaceChildren();
  renderOptions();
  renderRoomChooser();
}

async function start() {
  onActs(renderControlsArea, askForName);
  renderOptions();
  $("#btn-leave").addEventListener("click", leave);
  $("#btn-bot").addEventListener("click", addBot);
  $("#btn-close-table").addEventListener("click", closeTable);
  $("#btn-top-up").addEventListener("click", topUp);
  startChat();
  startAlerts();
  startKeyboard($("#controls"), $("#presence"));
  setInterval(tick, 250);
  $("#center").addEventListener("scroll", markScroll, { passive: true });
  refitOnResize();
  state.module = await loadModule(gameId);
  await refreshMe();
  if (!state.me) askForName();
  renderInvite();
  renderRoomChooser();
  socket.connect();
}

start();
