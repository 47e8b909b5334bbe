// The table socket /ws/tables/{id} (PROTOCOL.md "The table socket"), with automatic
// reconnection. The session cookie authenticates it (same origin). On every (re)connection the
// server sends the current state at once, so nothing is replayed here: a state is a full view.

const PING_MS = 20000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

/** Close codes after which trying again cannot help. */
const FINAL_CODES = new Map([
  [4404, "This table does not exist any more."],
  [1008, "The server closed the connection (policy)."],
]);

export class TableSocket {
  /**
   * handlers: onMessage(message), onStatus(state, detail, code) with state one of
   * "connecting" | "open" | "reconnecting" | "closed" (`code`: the close code, for "closed").
   */
  constructor(tableId, handlers, invite = null) {
    // A private table's invite code travels with the socket too (the server checks it).
    const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    // When the tab comes back or the network returns, try at once instead of waiting.
    window.addEventListener("online", () => this.retryNow());
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
      this.handlers.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return; // an old socket replaced by reconnect()
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.stopped) return;
      const final = FINAL_CODES.get(event.code);
      if (final) {
        this.stopped = true;
        this.handlers.onStatus("closed", event.reason || final, event.code);
        return;
      }
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const delay = base / 2 + Math.random() * base; // jitter, so a restarted server is not stampeded
    this.attempt += 1;
    this.handlers.onStatus("reconnecting", Math.round(delay / 1000));
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
    const old = this.ws;
    this.ws = null;
    if (old && old.readyState <= WebSocket.OPEN) old.close(1000, "the table is closed");
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
