// Each player's own chat controls (docs/protocol/identity.md §4.3, "GET/PUT/DELETE
// /api/me/blocks"): Block and Unblock a person for yourself only (the server then sends you none
// of their chat messages and reactions, at any table; nobody else is affected or told), and the
// "Chat off" switch, this browser's own setting (localStorage), which hides the chat panel, its
// count of new messages and the reactions at the seats.
import { $, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { request } from "./http.js";
import { state } from "./table-context.js";

const OFF_KEY = "t31.chat_off";
const blocks = { list: [], loaded: false };

function me() {
  return state.me?.player_id || null;
}

export function isBlocked(playerId) {
  return blocks.list.some((b) => b.player_id === playerId);
}

/** Whether this browser has the chat off. */
export function chatOff() {
  try {
    return localStorage.getItem(OFF_KEY) === "1";
  } catch {
    return false;
  }
}

function setChatOff(off) {
  try {
    if (off) localStorage.setItem(OFF_KEY, "1");
    else localStorage.removeItem(OFF_KEY);
  } catch {
    // a browser that keeps nothing: the switch lasts as long as the page
  }
  renderChatOff(off);
}

function renderChatOff(off = chatOff()) {
  const box = $("#chat-box");
  const button = $("#btn-chat");
  if (box) box.hidden = off;
  if (button) {
    button.setAttribute("aria-checked", String(!off));
    const word = button.querySelector(".switch-state");
    if (word) word.textContent = off ? t("off") : t("on");
  }
}

/** The "Chat" switch and the caller's blocks (read once signed in). */
export function startChatControls() {
  const button = $("#btn-chat");
  button?.addEventListener("click", () => setChatOff(!chatOff()));
  renderChatOff();
  loadBlocks();
}

/** Read the caller's blocks (again: signed in since). */
export async function loadBlocks() {
  if (!me()) return;
  try {
    const answer = await request("GET", "/api/me/blocks");
    blocks.list = Array.isArray(answer?.blocks) ? answer.blocks : [];
    blocks.loaded = true;
  } catch {
    return;
  }
  renderBlocked();
}

function note(text) {
  const el = $("#chat-note");
  if (!el) return;
  el.textContent = text || "";
  el.dataset.kind = "error";
  el.hidden = !text;
}

async function change(method, playerId, name) {
  try {
    const answer = await request(method, `/api/me/blocks/${encodeURIComponent(playerId)}`);
    blocks.list = Array.isArray(answer?.blocks) ? answer.blocks : [];
  } catch (err) {
    note(err.message || t("The server refused."));
    return;
  }
  if (method === "PUT") {
    // what they wrote before goes too; the server sends nothing of theirs from now on
    for (const el of document.querySelectorAll(`#chat-list .chat-line[data-player="${CSS.escape(playerId)}"]`)) el.remove();
    $("#chat-blocked-status").textContent = t("You blocked {name}: you no longer see their messages.", { name });
  } else {
    $("#chat-blocked-status").textContent = t("You unblocked {name}.", { name });
  }
  renderBlocked();
}

/** The Block button of a chat line by someone else (signed in only). */
export function blockButton(message) {
  if (!me() || !message.player_id || message.player_id === me()) return null;
  return h("button", {
    type: "button", class: "btn-link chat-block", dataset: { player: message.player_id },
    title: t("Hide {name}'s messages and reactions from you (only you)", { name: message.name }),
    "aria-label": t("Block {name} for yourself", { name: message.name }),
    onclick: () => change("PUT", message.player_id, message.name),
  }, t("Block"));
}

function renderBlocked() {
  const box = $("#chat-blocked");
  if (!box) return;
  box.hidden = blocks.list.length === 0;
  fill(box,
    h("span", { class: "chat-muted-label" }, t("Blocked by you:"), " "),
    blocks.list.map((b) => h("span", { class: "chat-muted-person" },
      b.name,
      h("button", {
        type: "button", class: "btn-link chat-unblock", "aria-label": t("Unblock {name}", { name: b.name }),
        onclick: () => change("DELETE", b.player_id, b.name),
      }, t("Unblock")))));
}
