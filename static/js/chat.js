// The table's chat panel (docs/protocol/socket.md §5.9): the messages, the reactions bar, the
// box to write in, and, for the table's opener (over the socket) or the host (over REST with
// the host's token), mute and remove. Every text goes in as text (dom.js's h), never as HTML:
// a message is whatever its writer typed.
import { blockButton, chatOff, loadBlocks, startChatControls } from "./chat-blocks.js";
import { $, fill, h } from "./dom.js";
import { request } from "./http.js";
import { formatNumber, formatTime, t, tn } from "./i18n.js";
import { showAtSeat } from "./seat-reactions.js";
import { socket, state, tableId } from "./table-context.js";
import { reactionWords } from "./words.js";

const MAX_CHARS = 200;
const SHOWN_LIMIT = 150; // lines in the panel (the server keeps 100 messages; reactions come too)
const CHAT_TYPES = new Set(["chat_history", "chat", "reaction", "chat_removed", "mutes"]);
const CHAT_CODES = new Set(["muted", "not_allowed", "no_such_message"]);
const ANSWER_CODES = new Set(["bad_message", "rate_limited", "unauthorized"]);
const ANSWER_MS = 4000; // one of these this soon after a chat message was sent is its answer

const chat = {
  messages: new Map(), // id -> message
  muted: [],
  reactions: {},
  canModerate: false,
  unread: 0,
  sentAt: 0,
};

/** The host's token, when this tab holds it (the admin page keeps it in sessionStorage). */
function hostToken() {
  try {
    return sessionStorage.getItem("t31_admin_token") || "";
  } catch {
    return "";
  }
}

function me() {
  return state.me?.player_id || null;
}

/** The opener moderates over the socket; the host (this tab holds the token) over REST. */
function mayModerate() {
  return chat.canModerate || Boolean(hostToken());
}

function isMuted(playerId) {
  return chat.muted.some((m) => m.player_id === playerId);
}

function clock(at) {
  const when = typeof at === "number" ? new Date(at * 1000) : new Date();
  return formatTime(when, { hour: "2-digit", minute: "2-digit" });
}

// ------------------------------------------------------------------ the panel

/** Build the panel in `#chat-box` (a <details>: closed at first on a phone). */
export function startChat() {
  const box = $("#chat-box");
  if (!box) return;
  if (window.matchMedia("(max-width: 760px)").matches) box.open = false;
  box.addEventListener("toggle", () => {
    if (box.open) {
      chat.unread = 0;
      renderCount();
      scrollToEnd();
    }
  });
  const input = $("#chat-input");
  input.maxLength = MAX_CHARS;
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  input.addEventListener("input", renderLeft);
  // on a phone the panel is at the end of the table's scrolling box: keep the box in view
  input.addEventListener("focus", () => $("#chat-form").scrollIntoView({ block: "nearest" }));
  renderReactions();
  renderMuted();
  renderWriter();
  startChatControls(); // Block, Unblock and Chat off: each player's own (chat-blocks.js)
}

function renderCount() {
  const count = $("#chat-unread");
  count.hidden = chat.unread === 0;
  count.textContent = chat.unread ? tn("{n} new", "{n} new", chat.unread) : "";
}

function renderLeft() {
  const left = MAX_CHARS - [...$("#chat-input").value].length;
  const el = $("#chat-left");
  el.textContent = left < 40 ? tn("{n} left", "{n} left", left) : "";
  el.classList.toggle("chat-left-over", left < 0);
}

/** The note under the box: why a message was refused, or that you are muted. */
function note(text, kind = "error") {
  const el = $("#chat-note");
  el.textContent = text || "";
  el.dataset.kind = kind;
  el.hidden = !text;
}

function renderWriter() {
  const input = $("#chat-input");
  const button = $("#chat-send");
  const signedIn = Boolean(state.me);
  const muted = signedIn && isMuted(me());
  // a muted person may still try: the server refuses, and its words are shown
  input.disabled = !signedIn;
  button.disabled = !signedIn;
  $("#chat-reactions").querySelectorAll("button").forEach((b) => { b.disabled = !signedIn; });
  input.placeholder = !signedIn ? t("Choose a name to chat") : muted ? t("You are muted at this table") : t("Say something…");
  if (muted) note(t("You are muted at this table: your messages are not sent."), "muted");
  else if ($("#chat-note").dataset.kind === "muted") note("");
}

function renderReactions() {
  const bar = $("#chat-reactions");
  const entries = Object.entries(chat.reactions);
  bar.hidden = entries.length === 0;
  fill(bar, entries.map(([key, emoji]) =>
    h("button", {
      type: "button", class: "btn btn-quiet chat-react", dataset: { reaction: key },
      title: reactionWords(key), "aria-label": t("React: {reaction}", { reaction: reactionWords(key) }),
      onclick: () => react(key),
    }, emoji)));
}

function renderMuted() {
  const box = $("#chat-muted");
  box.hidden = chat.muted.length === 0;
  const moderator = mayModerate();
  fill(box,
    h("span", { class: "chat-muted-label" }, t("Muted:"), " "),
    chat.muted.map((m) => h("span", { class: "chat-muted-person" },
      m.name,
      moderator ? h("button", { type: "button", class: "btn-link chat-unmute", onclick: () => moderate("unmute", m.player_id) }, t("Unmute")) : null)));
}

function line(message) {
  const mine = message.player_id === me();
  const moderator = mayModerate();
  const tools = moderator
    ? h("span", { class: "chat-tools" },
      h("button", { type: "button", class: "btn-link chat-remove", title: t("Remove this message for everyone"), onclick: () => remove(message.id) }, t("Remove")),
      !mine && !isMuted(message.player_id)
        ? h("button", { type: "button", class: "btn-link chat-mute", title: t("Mute {name} at this table", { name: message.name }), onclick: () => moderate("mute", message.player_id) }, t("Mute"))
        : null)
    : null;
  return h("li", { class: `chat-line${mine ? " chat-mine" : ""}`, dataset: { id: message.id, player: message.player_id } },
    h("time", {}, clock(message.at)), " ",
    h("strong", { class: "chat-name" }, message.name),
    message.seat === null || message.seat === undefined ? h("span", { class: "chat-seat" }, " ", t("(watching)")) : null,
    ": ",
    h("span", { class: "chat-text" }, message.text),
    tools,
    mine ? null : blockButton(message));
}

function nearEnd(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 40;
}

function scrollToEnd() {
  const list = $("#chat-list");
  list.scrollTop = list.scrollHeight;
}

function append(el) {
  const list = $("#chat-list");
  const follow = nearEnd(list);
  $("#chat-empty").hidden = true;
  list.append(el);
  while (list.children.length > SHOWN_LIMIT) list.firstElementChild.remove();
  if (follow) scrollToEnd();
  if (!$("#chat-box").open) {
    chat.unread += 1;
    renderCount();
  }
}

/** Each message's line again, in place (the reactions between them stay). */
function redrawLines() {
  for (const el of $("#chat-list").querySelectorAll(".chat-line[data-id]")) {
    const message = chat.messages.get(Number(el.dataset.id));
    if (message) el.replaceWith(line(message));
  }
}

function renderAllLines() {
  const list = $("#chat-list");
  fill(list, [...chat.messages.values()].map(line));
  $("#chat-empty").hidden = chat.messages.size > 0;
  scrollToEnd();
}

// ------------------------------------------------------------------ sending

function send() {
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  if ([...text].length > MAX_CHARS) {
    note(t("A message is at most {n} characters.", { n: formatNumber(MAX_CHARS) }));
    return;
  }
  if (!socket.send({ type: "chat", text })) {
    note(t("Not connected: your message was not sent."));
    return;
  }
  chat.sentAt = Date.now();
  note("");
  input.value = "";
  renderLeft();
}

function react(key) {
  if (socket.send({ type: "react", reaction: key })) chat.sentAt = Date.now();
  else note(t("Not connected: your reaction was not sent."));
}

async function moderate(kind, playerId) {
  if (chat.canModerate) {
    socket.send({ type: kind, player_id: playerId });
    chat.sentAt = Date.now();
    return;
  }
  const base = `/api/tables/${encodeURIComponent(tableId)}/chat/mutes`;
  try {
    await (kind === "mute"
      ? request("POST", base, { body: { player_id: playerId }, headers: { Authorization: `Bearer ${hostToken()}` } })
      : request("DELETE", `${base}/${encodeURIComponent(playerId)}`, { headers: { Authorization: `Bearer ${hostToken()}` } }));
  } catch (err) {
    note(err.message || t("The server refused."));
  }
}

async function remove(id) {
  if (chat.canModerate) {
    socket.send({ type: "remove_chat", id });
    chat.sentAt = Date.now();
    return;
  }
  try {
    await request("DELETE", `/api/tables/${encodeURIComponent(tableId)}/chat/messages/${id}`, {
      headers: { Authorization: `Bearer ${hostToken()}` },
    });
  } catch (err) {
    note(err.message || t("The server refused."));
  }
}

// ------------------------------------------------------------------ the socket's messages

/** The table page routes every socket message here first: true if it was the chat's. */
export function onChatMessage(message) {
  if (!CHAT_TYPES.has(message.type) || !$("#chat-box")) return false;
  if (message.type === "chat_history") {
    chat.messages = new Map((Array.isArray(message.messages) ? message.messages : []).map((m) => [m.id, m]));
    chat.muted = Array.isArray(message.muted) ? message.muted : [];
    chat.reactions = message.reactions && typeof message.reactions === "object" ? message.reactions : {};
    chat.canModerate = message.can_moderate === true;
    renderReactions();
    renderMuted();
    renderAllLines();
  } else if (message.type === "chat" && message.message) {
    chat.messages.set(message.message.id, message.message);
    while (chat.messages.size > SHOWN_LIMIT) chat.messages.delete(chat.messages.keys().next().value);
    append(line(message.message));
  } else if (message.type === "reaction") {
    const emoji = chat.reactions[message.reaction] || "";
    append(h("li", { class: "chat-line chat-reaction" },
      h("time", {}, clock(message.at)), " ",
      h("strong", { class: "chat-name" }, message.name), " ",
      h("span", { class: "chat-emoji", role: "img", "aria-label": reactionWords(message.reaction) }, emoji)));
    showAtSeat(message, emoji, chatOff()); // and a bubble by the sender's seat
  } else if (message.type === "chat_removed") {
    chat.messages.delete(message.id);
    $("#chat-list").querySelector(`.chat-line[data-id="${Number(message.id)}"]`)?.remove();
  } else if (message.type === "mutes") {
    chat.muted = Array.isArray(message.muted) ? message.muted : [];
    renderMuted();
    redrawLines(); // the Mute buttons follow who is muted
  }
  renderWriter();
  return true;
}

/** A refusal the chat answers in its own panel (muted, a text refused, too fast): true if
 *  it was the chat's. Others are the table page's. */
export function onChatError(message) {
  if (!$("#chat-box")) return false;
  const answer = ANSWER_CODES.has(message.code) && !message.id && Date.now() - chat.sentAt < ANSWER_MS;
  if (!CHAT_CODES.has(message.code) && !answer) return false;
  const text = typeof message.message === "string" ? message.message : t("Refused ({code})", { code: message.code });
  note(text[0].toUpperCase() + text.slice(1), message.code === "muted" ? "muted" : "error");
  if (!$("#chat-box").open) $("#chat-box").open = true;
  $("#chat-note").scrollIntoView({ block: "nearest" });
  return true;
}

/** Who you are changed (signed in): the box to write in follows. */
export function chatWhoChanged() {
  if ($("#chat-box")) {
    renderWriter();
    loadBlocks();
  }
}
