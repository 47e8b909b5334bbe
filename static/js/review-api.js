// The review API (app/api/routes/review.py) as the review pages read it: the session cookie
// goes along by itself; in a tab where the host signed in on /admin, the host's token
// (sessionStorage, that tab only) goes along too, so the host can open any hand.
import { chips, fill, h } from "./dom.js";

const HOST_TOKEN_KEY = "t31_admin_token";

export class ReviewError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function headers() {
  const token = sessionStorage.getItem(HOST_TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function fetchOk(path) {
  let response;
  try {
    response = await fetch(path, { credentials: "same-origin", headers: headers() });
  } catch {
    throw new ReviewError(0, "The server cannot be reached; check your connection.");
  }
  if (!response.ok) {
    let message = `The server answered ${response.status}`;
    try {
      const body = await response.json();
      if (typeof body.detail === "string") message = body.detail;
    } catch {
      /* not JSON */
    }
    throw new ReviewError(response.status, message);
  }
  return response;
}

export async function getJson(path) {
  return (await fetchOk(path)).json();
}

export async function getText(path) {
  return (await fetchOk(path)).text();
}

/** Download what `path` answers as a file named `filename` (works with the host's token). */
export async function download(path, filename) {
  const blob = await (await fetchOk(path)).blob();
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

export const GAME_TITLES = {
  "trianta-ena": "Trianta Ena",
  "greek-31": "Greek 31",
  "vingt-un": "Vingt-un",
  "trente-et-quarante": "Trente et Quarante",
  "en-og-tredive": "En og tredive",
};

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
