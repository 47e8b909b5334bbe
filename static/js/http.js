// Every call the pages make to the server's HTTP API (docs/protocol.md §3 to §4.5, the review and host APIs) goes through `request`: one way to send a body, one way to
// read the answer, one error with the server's own words. The session cookie (httponly
// t31_token) goes along by itself (same origin), so no token is handled in JavaScript, except the
// host's (the admin page passes it as a header). The words this module writes itself (no
// answer, a refusal without words) are in the reader's language (i18n.js); the server words
// its own refusals in the reader's language.
import { t } from "./i18n.js";

export class HttpError extends Error {
  constructor(status, message, field = null, body = null) {
    super(message);
    this.status = status; // 0: the server could not be reached
    this.field = field; // e.g. "options.min_bet" on a 422 from POST /api/tables
    this.body = body;
  }
}

export const UNREACHABLE = t("The server cannot be reached; check your connection.");

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
  const detail = body?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail.map((d) => String(d.msg || "").replace(/^Value error, /, "")).join("; ");
  }
  return t("The server answered {status}", { status });

}

function fieldOf(body) {
  if (body && typeof body.field === "string") return body.field;
  const first = body && Array.isArray(body.detail) ? body.detail[0] : null;
  if (first && Array.isArray(first.loc)) return first.loc.filter((p) => p !== "body").join(".");
  return null;
}

async function jsonOf(response) {
  try {
    return await response.json();
  } catch {
    return null; // no body, or not JSON
  }
}

/**
 * One call. `body` (when given) goes as JSON; `headers` are added (the host's token);
 * `credentials` is "same-origin" unless the caller goes by a token alone ("omit"); `read` says
 * what to return: "json" (null for an empty body), "text" or "blob". A refusal throws an
 * HttpError with the server's words (and the field it names); no answer at all, status 0.
 */
export async function request(method, path, { body, headers = {}, credentials = "same-origin", read = "json" } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials,
      headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new HttpError(0, UNREACHABLE);
  }
  noteServerTime(response);
  if (!response.ok) {
    const data = await jsonOf(response);
    throw new HttpError(response.status, messageOf(data, response.status), fieldOf(data), data);
  }
  if (read === "text") return response.text();
  if (read === "blob") return response.blob();
  return jsonOf(response);
}
