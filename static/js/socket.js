// The table socket /ws/tables/{id} (docs/protocol.md §5), with automatic
// reconnection. The session cookie authenticates it (same origin). On every (re)connection the
// server sends the current state at once, so nothing is replayed here: a state is a full view.
import { t } from "./i18n.js";

const PING_MS = 20000;
/** After a drop the socket asks again after at most these waits (each one jittered down to
 * half of it, never above it): the back-off stops at 3 s, so a network that comes back is
 * found within 3 s, and at once when the page regains focus or goes online. */
const BACKOFF_MS = [500, 1000, 2000, 3000];

/** 4409: this node does not serve the table (it moved, or is moving, to another node of a
 * cluster; docs/protocol/cluster.md). Asking again goes through the front to its owner: soon,
 * not as a failure, so the backoff is not used up. While the table is still between owners
 * the same answer comes back: the pause doubles from ~250 ms to at most 2 s, until a message
 * comes (the node that says 4409 has accepted the socket first: "open" does not mean served). */
const ANOTHER_NODE = 4409;
const MOVED_MS = 250;
const MOVED_MAX_MS = 2000;

/** 4503: the table stopped because the server could not save what was played; it is
 * rebuilt from what was saved once the server can save again (docs/protocol/socket.md §3).
 * The reason is said, and the socket asks again every few seconds, without using up the
 * backoff, until the table is back. */
const UNAVAILABLE = 4503;
const UNAVAILABLE_MS = 2000;

/** 4301: the room this table was played in moved to another table; the `room_switch` message
 * just before says which (docs/protocol/socket.md §5.12). Not retried: the room page opens the
 * new table's socket (retarget). */
const ROOM_SWITCH = 4301;

/** A socket that has said nothing this long after it was asked for is given up and asked for
 * again, as after a drop: the server sends the state the moment it lets a socket in, so a
 * handshake or a first state lost on the way (a proxy, a server stalled under load) would
 * otherwise leave the page "Connecting…" for good. */
export const FIRST_MESSAGE_MS = 10000;

/** Close codes after which trying again cannot help (with what the page says of each). */
const FINAL_CODES = new Map([
  [4404, t("This table does not exist any more.")],
  [1008, t("The server closed the connection (policy).")],
]);

export class TableSocket {
  /**
   * handlers: onMessage(message), onStatus(state, detail, code) with state one of
   * "connecting" | "open" | "reconnecting" | "closed" (`code`: the close code, for "closed").
   */
  constructor(tableId, handlers, invite = null) {
    // A private table's invite code travels with the socket too (the server checks it).
    this.invite = invite;
    this.url = socketUrl(tableId, invite);
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.moved = 0; // 4409s in a row (ANOTHER_NODE)
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.silenceTimer = null;
    // When the tab comes back, the window regains focus or the network returns, try at once
    // instead of waiting.
    window.addEventListener("online", () => this.retryNow());
    window.addEventListener("focus", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.retryNow();
    });
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.handlers.onStatus(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.silent(ws), FIRST_MESSAGE_MS);
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.handlers.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // the server only sends JSON; ignore anything else
      }
      clearTimeout(this.silenceTimer);
      this.moved = 0; // served: a node that closes with 4409 accepts first, but says nothing
      this.handlers.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return; // an old socket replaced by reconnect()
      clearInterval(this.pingTimer);
      clearTimeout(this.silenceTimer);
      this.ws = null;
      if (this.stopped) return;
      const final = FINAL_CODES.get(event.code);
      if (final) {
        this.stopped = true;
        this.handlers.onStatus("closed", event.reason || final, event.code);
        return;
      }
      if (event.code === ROOM_SWITCH) {
        this.handlers.onStatus("reconnecting");
        return; // the room page retargets the socket to the room's new table
      }
      if (event.code === ANOTHER_NODE) {
        this.askAgain();
        return;
      }
      if (event.code === UNAVAILABLE) {
        this.handlers.onStatus("reconnecting", event.reason || t("The server cannot save right now."));
        this.retryTimer = setTimeout(() => this.connect(), UNAVAILABLE_MS / 2 + Math.random() * UNAVAILABLE_MS);
        return;
      }
      this.scheduleRetry();
    });
  }

  /** No word on ``ws`` since it was asked for (FIRST_MESSAGE_MS): drop it, ask again. */
  silent(ws) {
    if (ws !== this.ws || this.stopped) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    ws.close();
    this.scheduleRetry();
  }

  scheduleRetry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    // jitter, so a restarted server is not stampeded: from half the wait to the whole of it
    const delay = base / 2 + (Math.random() * base) / 2;
    this.attempt += 1;
    this.handlers.onStatus("reconnecting", Math.round(delay / 1000));
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** The table is served by another node: connect again soon (ANOTHER_NODE). */
  askAgain() {
    const base = Math.min(MOVED_MS * 2 ** this.moved, MOVED_MAX_MS);
    const delay = base + Math.random() * base; // jitter: a node's sockets do not all come at once
    this.moved += 1;
    this.handlers.onStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.retryTimer !== null && !this.stopped) this.connect();
  }

  /** Stop for good: close the socket and never reconnect (the table was closed). */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    clearInterval(this.pingTimer);
    clearTimeout(this.silenceTimer);
    const old = this.ws;
    this.ws = null;
    if (old && old.readyState <= WebSocket.OPEN) old.close(1000, "the table is closed");
  }

  /** A room moved to table `tableId`: this socket serves that table from now on. */
  retarget(tableId) {
    this.url = socketUrl(tableId, this.invite);
    this.reconnect();
  }

  /** Close and open again (after signing in, so the new cookie is used). */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close(1000, "reconnecting");
    this.attempt = 0;
    this.connect();
  }

  /** Send one message; false when the socket is not open (the caller tells the player). */
  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}

function socketUrl(tableId, invite) {
  // A private table's invite code travels with the socket too (the server checks it).
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
}
