// The review API (app/api/routes/review.py) as the review pages read it: the session cookie
// goes along by itself; in a tab where the host signed in on /admin, the host's token
// (sessionStorage, that tab only) goes along too, so the host can open any hand.
import { chips, fill, h } from "./dom.js";
import { request } from "./http.js";
import { formatDate, t } from "./i18n.js";

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

/** What a page cannot show, as two whole sentences: the reader must sign in to see it
 *  (`signIn`), it is not there (`missing`). Each kind of thing its own sentences, so that a
 *  language words each as it must (no "see {what}" glued from fragments). */
function cannotShow(what) {
  switch (what) {
    case "hand": return { signIn: t("Sign in (in the lobby) to see hand."), missing: t("There is no hand here.") };
    case "these hands":
      return { signIn: t("Sign in (in the lobby) to see these hands."), missing: t("There is no these hands here.") };
    case "chart": return { signIn: t("Sign in (in the lobby) to see chart."), missing: t("There is no chart here.") };
    case "player page":
      return { signIn: t("Sign in (in the lobby) to see player page."), missing: t("There is no player page here.") };
    case "settlement":
      return { signIn: t("Sign in (in the lobby) to see settlement."), missing: t("There is no settlement here.") };
    case "proof for this hand":
      return { signIn: t("Sign in (in the lobby) to see proof for this hand."), missing: t("There is no proof for this hand here.") };
    case "analysis for this hand":
      return {
        signIn: t("Sign in (in the lobby) to see analysis for this hand."),
        missing: t("There is no analysis for this hand here."),
      };
    case "analysis for these hands":
      return {
        signIn: t("Sign in (in the lobby) to see analysis for these hands."),
        missing: t("There is no analysis for these hands here."),
      };
    default: return { signIn: t("Sign in (in the lobby) to see this page."), missing: t("There is nothing here.") };
  }
}

/** Why a page cannot be shown, in words, from an API error. `what` names the thing ("hand",
 *  "these hands", "chart", "player page", "settlement", "proof for this hand", "analysis for
 *  this hand", "analysis for these hands": each worded whole in cannotShow), or gives the two
 *  sentences itself: `{ signIn: t("…"), missing: t("…") }`. */
export function explain(err, what) {
  const words = typeof what === "object" && what ? what : cannotShow(what);
  if (err.status === 401) return words.signIn;
  if (err.status === 403) return t("{reason}.", { reason: err.message });
  if (err.status === 404) return words.missing;
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

/** "21 Nov 2026, 21:04" in the reader's own time zone, as the page's language writes it. */
export function when(iso) {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "–";
  return formatDate(d, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

}

/** A signed amount as a span coloured up or down. */
export function netSpan(n) {
  if (typeof n !== "number") return h("span", { class: "muted" }, "–");
  const text = n > 0 ? `+${chips(n)}` : n < 0 ? `\u2212${chips(-n)}` : "±0";
  return h("span", { class: n > 0 ? "delta-up" : n < 0 ? "delta-down" : "muted" }, text);
}
