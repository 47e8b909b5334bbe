// Acting at the table: one decision in flight at a time, its ack awaited, a refusal told in
// words (docs/protocol.md §5.4). The page says how to redraw its controls and ask for a name.
import { onChatError } from "./chat.js";
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { log, socket, state } from "./table-context.js";

const ACK_TIMEOUT_MS = 8000;
const hooks = { redraw: () => {}, signIn: () => {} };

/** What acting needs of the page: redraw the controls, ask a signed-out person for a name. */
export function onActs(redraw, signIn) {
  hooks.redraw = redraw;
  hooks.signIn = signIn;
}

function newId() {
  state.counter += 1;
  return `c-${Date.now().toString(36)}-${state.counter}`;
}

export function act(action) {
  if (state.pending) return; // one decision at a time; the buttons are disabled anyway
  const message = { type: "act", id: newId(), version: state.version, action };
  if (!socket.send(message)) {
    toast(t("Not connected: your action was not sent. Reconnecting…"));
    return;
  }
  state.pending = { ...message, acked: false, timer: setTimeout(noAnswer, ACK_TIMEOUT_MS) };
  hooks.redraw();
}

function noAnswer() {
  if (!state.pending || state.pending.acked) return;
  toast(t("The server has not answered your action yet; check the table and try again."));
  clearPending();
}

export function clearPending() {
  if (state.pending) clearTimeout(state.pending.timer);
  state.pending = null;
  hooks.redraw();
}

export function onAck(message) {
  if (state.pending && message.id === state.pending.id) {
    state.pending.acked = true;
    clearTimeout(state.pending.timer);
    // The new state follows the ack at once; keep the buttons disabled until it arrives.
  }
}

export function onError(message) {
  if (onChatError(message)) return; // the chat's refusals are told in its panel
  const text = typeof message.message === "string" ? message.message : t("Refused ({code})", { code: message.code });
  if (state.pending && message.id && message.id === state.pending.id) clearPending();
  if (message.code === "stale_version") {
    toast(t("{reason} — the table is up to date again.", { reason: text }), "warn");
    socket.send({ type: "resync", version: state.version });
  } else if (message.code === "unauthorized") {
    toast(text);
    hooks.signIn();
  } else toast(text);
  log(t("Refused: {reason}", { reason: text }), "error");
}
