// A list of hands, newest first, paged by cursor (GET …/hands?before=NEXT): filters by game
// and dates, each row with the game, when, who sat, and the reader's result; "Older hands"
// fetches the next page after the last row.
import { fill, h } from "./dom.js";
import { HttpError } from "./http.js";
import { t } from "./i18n.js";
import { GAME_TITLES, explain, getJson, netSpan, when } from "./review-api.js";

/**
 * Render a hand list into `host`.
 * opts: {endpoint: "/api/tables/T/hands", games: [ids] (the filter's choices, [] for none),
 *        dates: false to leave the date filter out (a list whose endpoint has none),
 *        tables: true to mark where one table's hands end (a room's list, table after table),
 *        resultKey: "your_net" | "player_net", resultLabel, empty: "No hands yet.",
 *        params: {name: value} sent with every page (e.g. a private table's invite)}
 */
/** Whether a hand list's shown rows are filtered: the filter as it was when last submitted
 *  (this listens before the list does, on the way down to its form). */
export function filterTracker(list) {
  let filtered = false;
  list.addEventListener("submit", () => {
    filtered = [...list.querySelectorAll(".list-filters select, .list-filters input")].some((el) => el.value);
  }, true);
  return () => filtered;
}

export function handList(host, opts) {
  const gameSelect = opts.games.length > 1
    ? h("select", { id: "filter-game", "aria-label": t("Game") },
        h("option", { value: "" }, t("All games")),
        opts.games.map((g) => h("option", { value: g }, GAME_TITLES[g] || g)))
    : null;
  const dates = opts.dates !== false;
  const since = h("input", { type: "date", id: "filter-since", "aria-label": t("From (date)") });
  const until = h("input", { type: "date", id: "filter-until", "aria-label": t("To (date, included)") });
  const apply = h("button", { type: "submit", class: "btn btn-small btn-neutral" }, t("Show"));
  const form = h("form", { class: "list-filters", role: "search", hidden: !gameSelect && !dates },
    gameSelect ? h("label", {}, h("span", { class: "muted small" }, t("Game"), " "), gameSelect) : null,
    dates ? h("label", {}, h("span", { class: "muted small" }, t("From"), " "), since) : null,
    dates ? h("label", {}, h("span", { class: "muted small" }, t("To"), " "), until) : null,
    apply);
  const body = h("tbody");
  const table = h("table", { class: "data hand-table", id: "hands-table" },
    h("caption", { class: "visually-hidden" }, t("Hands, newest first")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("Hand")), h("th", { scope: "col" }, t("Game")), h("th", { scope: "col" }, t("Ended")),
      h("th", { scope: "col" }, t("Who sat")), h("th", { scope: "col", class: "num" }, opts.resultLabel || t("Your result")))),
    body);
  const more = h("button", { type: "button", class: "btn btn-small btn-neutral", id: "btn-older", hidden: true }, t("Older hands"));
  const status = h("p", { class: "muted small", "aria-live": "polite" });
  fill(host, form, h("div", { class: "table-scroll" }, table), h("div", { class: "list-foot" }, more, status));

  let next = null;
  let loading = false;
  let lastTable = null; // the table of the row above the next one (a room's list marks a change)

  function query() {
    const params = new URLSearchParams({ ...(opts.params || {}), limit: String(opts.limit || 25) });
    if (gameSelect?.value) params.set("game", gameSelect.value);
    if (since.value) params.set("since", since.value);
    if (until.value) params.set("until", until.value);
    if (next) params.set("before", next);
    return `${opts.endpoint}?${params}`;
  }

  async function load(reset) {
    if (loading) return;
    loading = true;
    if (reset) {
      next = null;
      lastTable = null;
      body.replaceChildren();
    }
    status.textContent = t("Loading…");
    try {
      const page = await getJson(query());
      for (const row of page.hands) {
        const tr = rowOf(row, opts);
        if (opts.tables && lastTable !== null && row.table_id !== lastTable) tr.classList.add("table-break");
        lastTable = row.table_id;
        body.append(tr);
      }
      next = page.next;
      more.hidden = !next;
      status.textContent = body.children.length ? "" : opts.empty || t("No hands yet.");
    } catch (err) {
      status.textContent = err instanceof HttpError ? explain(err, "these hands") : String(err);
    } finally {
      loading = false;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load(true);
  });
  more.addEventListener("click", () => load(false));
  return load(true);
}

function rowOf(row, opts) {
  const result = row[opts.resultKey || "your_net"];
  // a void hand opens too: its page says who sat and why it is void (docs/review.md)
  const href = `/hands/${encodeURIComponent(row.hand_id)}`;
  const link = row.status === "finished"
    ? h("a", { href, class: "hand-link" }, `#${row.number}`)
    : h("a", { href, class: "hand-link is-void", title: t("A void hand: every stake was returned") },
      t("#{number} (void)", { number: row.number }));
  return h("tr", { dataset: { handId: row.hand_id } },
    h("td", {}, link),
    h("td", {}, GAME_TITLES[row.game] || row.game),
    h("td", {}, h("time", { datetime: row.ended_at || "" }, when(row.ended_at))),
    h("td", { class: "who" }, row.players.map((p, i) => [i ? ", " : "",
      h("a", { href: `/players/${encodeURIComponent(p.player_id)}` }, p.name)])),
    h("td", { class: "num" }, result === null || result === undefined ? h("span", { class: "muted" }, "–") : netSpan(result)));
}

