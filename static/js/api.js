// The REST API (PROTOCOL.md "Identity", "Games and tables"). Same origin: the session cookie
// (httponly t31_token) goes along by itself, so no token is handled in JavaScript.

export class ApiError extends Error {
  constructor(status, message, field = null, body = null) {
    super(message);
    this.status = status;
    this.field = field; // e.g. "options.min_bet" on a 422 from POST /api/tables
    this.body = body;
  }
}

/** Server time minus browser time, in seconds (deadlines are server unix times). */
export const clock = { offset: 0, now: () => Date.now() / 1000 + clock.offset };

function noteServerTime(response) {
  // The Date header has a one-second resolution: only trust it for a clear skew.
  const date = Date.parse(response.headers.get("date") || "");
  if (Number.isNaN(date)) return;
  const offset = (date - Date.now()) / 1000;
  clock.offset = Math.abs(offset) > 2 ? offset : 0;
}

/** The message people should read, from any error body FastAPI produces. */
function messageOf(body, status) {
  if (body && typeof body.message === "string") return body.message;
  const detail = body && body.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((d) => String(d.msg || "").replace(/^Value error, /, "")).join("; ");
  }
  return `The server answered ${status}`;
}

function fieldOf(body) {
  if (body && typeof body.field === "string") return body.field;
  const first = body && Array.isArray(body.detail) ? body.detail[0] : null;
  if (first && Array.isArray(first.loc)) return first.loc.filter((p) => p !== "body").join(".");
  return null;
}

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "The server cannot be reached; check your connection.");
  }
  noteServerTime(response);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, messageOf(data, response.status), fieldOf(data), data);
  return data;
}

export const api = {
  /** The signed-in player, or null when not signed in (401). */
  async me() {
    try {
      return await request("GET", "/api/me");
    } catch (err) {
      if (err.status === 401) return null;
      throw err;
    }
  },
  signIn: (name, joinCode) =>
    request("POST", "/api/session", joinCode ? { name, join_code: joinCode } : { name }),
  games: () => request("GET", "/api/games"),
  tables: () => request("GET", "/api/tables"),
  /** One table; `invite` (a private table's invite code) lets an invited visitor see it. */
  table: (id, invite) =>
    request("GET", `/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`),
  openTable: (game, name, options, isPrivate = false) =>
    request("POST", "/api/tables", isPrivate ? { game, name, options, private: true } : { game, name, options }),
  addBot: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/bots`, {}),
  /** A personal recovery link for another device: {code, link}; a new one cancels the old. */
  recoveryLink: () => request("POST", "/api/me/recovery", {}),
  recover: (code) => request("POST", "/api/session/recover", { code }),
};
