// The review API (app/api/routes/review.py) as the review pages read it: the session cookie
// goes along by itself; in a tab where the host signed in on /admin, the host's token
// (sessionStorage, that tab only) goes along too, so the host can open any hand.
import { chips, fill, h } from "./dom.js";
import { request } from "./http.js";

const HOST_TOKEN_KEY = "t31_admin_token";

/** The host's token, in a tab where the host signed in on /admin. */
function headers() {
  const token = sessionStorage.getItem(HOST_TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export const getJson = (path) => request("GET", path, { headers: headers() });

export const getText = (path) => request("GET", path, { headers: headers(), read: "text" });

/** Download what `path` answers as a file named `filename` (works with the host's token). */
export async function download(path, filename) {
  const blob = await request("GET", path, { headers: headers(), read: "blob" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A notice in the page's banner (e.g. "this hand is shared with its players"). */
export function showBanner(text, strong = false) {
  const banner = document.getElementById("banner");
  if (!banner) return;
  banner.hidden = false;
  banner.className = `banner${strong ? " banner-strong" : ""}`;
  fill(banner, text);
}

/** Why a page cannot be shown, in words, from an API error. */
export function explain(err, what) {
  if (err.status === 401) return `Sign in (in the lobby) to see ${what}.`;
  if (err.status === 403) return `${err.message}.`;
  if (err.status === 404) return `There is no ${what} here.`;
  return err.message;
}

/** Every game's title by its id, as the server gave the page (its `game-titles` data); a page
 *  without it names games by their ids. */
export const GAME_TITLES = readGameTitles();

function readGameTitles() {
  const data = typeof document === "undefined" ? null : document.getElementById("game-titles");
  try {
    return data ? JSON.parse(data.textContent) : {};
  } catch {
    return {};
  }
}

/** "21 Nov 2026, 21:04" in the reader's own time zone. */
export function when(iso) {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "–";
  return d.toLocaleString([], { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** A signed amount as a span coloured up or down. */
export function netSpan(n) {
  if (typeof n !== "number") return h("span", { class: "muted" }, "–");
  const text = n > 0 ? `+${chips(n)}` : n < 0 ? `\u2212${chips(-n)}` : "±0";
  return h("span", { class: n > 0 ? "delta-up" : n < 0 ? "delta-down" : "muted" }, text);
}
