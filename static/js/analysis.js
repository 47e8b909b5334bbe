// The analysis on the review pages (docs/review.md, "The analysis"): at a replay's step that
// was a decision, each option with the deciding player's chances and the chips it expected,
// the best marked and what the chosen one gave up; a hand's summary per player; an evening's
// summary where its hands are listed.
//
// The server decides who reads what (GET /api/hands/{id}/analysis: the reader's own decisions,
// another's only where every card it used was shown to them); this draws what it answers.
// Figures estimated by simulation read "≈", with their 95% interval (±).
import { fill, h } from "./dom.js";
import { HttpError } from "./http.js";
import { formatNumber, t, tn } from "./i18n.js";
import { explain, getJson } from "./review-api.js";
import { actionWords } from "./step-words.js";

const BUSY_RETRY_MS = 5000;
const BUSY_RETRIES = 12;
const PENDING_POLL_MS = 4000;
const PENDING_POLLS = 30;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET an analysis; while the server is busy (503: too many readers wait for analyses), ask
 *  again a little later. `onBusy()` is told each time it waits. */
export async function getAnalysis(path, onBusy) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await getJson(path);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 503 || attempt >= BUSY_RETRIES) throw err;
      onBusy?.();
      await sleep(BUSY_RETRY_MS);
    }
  }
}

// ------------------------------------------------------------------ numbers in words

// Every figure as the page's language writes it (formatNumber: "42.3%" / "42,3 %"), without
// grouping where the figures never had it.

/** The estimates' confidence level, "95%" ("95 %" in French). */
const LEVEL = formatNumber(0.95, { style: "percent" });

/** `x` with exactly `places` decimals, in the page's locale: 1.5 → "1.50" / "1,50". */
function decimals(x, places) {
  return formatNumber(x, { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: false });
}

/** 0.4231 → "42.3%"; an estimate "≈ 42.3%". */
export function percent(p, exact = true) {
  const text = formatNumber(Math.round(p * 1000) / 1000, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return exact ? text : `≈ ${text}`;
}

/** Chips with two decimals and a real sign: "+0.42", "−1.50", "±0.00". */
export function chipsSigned(x) {
  const rounded = Math.round(x * 100) / 100;
  if (rounded === 0) return `±${decimals(0, 2)}`;
  return `${rounded > 0 ? "+" : "\u2212"}${decimals(Math.abs(rounded), 2)}`;
}

/** Chips given up rounded as they are shown: whole from 10, one decimal from 1, else two. */
function roundedPlain(x) {
  const places = x >= 10 ? 0 : x >= 1 ? 1 : 2;
  return Number(x.toFixed(places));
}

/** Chips given up, as few decimals as they need: "12", "1.5", "0.35". */
export function chipsPlain(x) {
  return formatNumber(roundedPlain(x), { maximumFractionDigits: 2, useGrouping: false });
}

/** "1.5 chips", "1 chip": chips given up, in words. */
export function chipWords(x) {
  return tn("{n} chip", "{n} chips", roundedPlain(x), { n: chipsPlain(x) });
}

/** Decisions counted, in words (a hand's seat, an evening's player: `decisions`, `best`,
 *  `given_up`): "23 of 25 decisions best; 12 chips given up in expectation". */
export function tallyWords({ decisions, best, given_up: givenUp }) {
  if (!decisions) return t("No decision analysed");
  const values = { best: formatNumber(best) };
  if (!(givenUp >= 0.005)) {
    return tn("{best} of {n} decision best; nothing given up in expectation",
      "{best} of {n} decisions best; nothing given up in expectation", decisions, values);
  }
  const chips = chipWords(givenUp);
  return tn("{best} of {n} decision best; {chips} given up in expectation",
    "{best} of {n} decisions best; {chips} given up in expectation", decisions, { ...values, chips });
}

/** An option's expected chips: "+0.42" exact; "≈ +0.42 ± 0.05" estimated. */
export function evText(option) {
  if (option.exact || !option.interval) return chipsSigned(option.ev);
  const [low, high] = option.interval.ev;
  return `≈ ${chipsSigned(option.ev)} ± ${decimals((high - low) / 2, 2)}`;
}

// ------------------------------------------------------------------ one decision

/** The options of one decision as a table (caption, column and row headers), and in a
 *  sentence what the choice gave up. `seatName(n)` names a seat's player. */
export function decisionTable(decision, seatName) {
  const who = seatName(decision.seat);
  const label = (option) => actionWords(option.action);
  const exact = decision.options.every((o) => o.exact);
  const rows = decision.options.map((option, i) => {
    const best = i === decision.best;
    const chosen = i === decision.chosen;
    return h("tr", { class: [best ? "is-best" : "", chosen ? "is-chosen" : ""].join(" ").trim() || null,
      dataset: { option: i } },
      h("th", { scope: "row" }, label(option),
        best ? h("span", { class: "tag tag-best" }, t("best")) : null,
        chosen ? h("span", { class: "tag tag-chosen" }, t("chosen")) : null),
      h("td", { class: "num" }, percent(option.win, option.exact)),
      h("td", { class: "num" }, percent(option.tie, option.exact)),
      h("td", { class: "num" }, percent(option.lose, option.exact)),
      h("td", { class: `num ${option.ev > 0.005 ? "delta-up" : option.ev < -0.005 ? "delta-down" : ""}` }, evText(option)));
  });
  const chosen = decision.options[decision.chosen];
  const best = decision.options[decision.best];
  let verdict;
  if (decision.chosen === decision.best) {
    verdict = t("{who} chose {option}: the best option.", { who, option: label(chosen) });
  } else if (decision.chose_best) {
    verdict = t("{who} chose {option}: as good as {best} within the figures' margin.",
      { who, option: label(chosen), best: label(best) });
  } else {
    verdict = t("{who} chose {option}: {chips} given up in expectation against {best}.",
      { who, option: label(chosen), chips: chipWords(decision.given_up), best: label(best) });
  }
  const samples = decision.options.find((o) => !o.exact)?.samples;
  return h("div", { class: "decision-analysis", dataset: { step: decision.step } },
    h("div", { class: "table-scroll" },
      h("table", { class: "data compact analysis-table" },
        h("caption", {}, t("{who}'s options", { who })),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("Option")),
          h("th", { scope: "col", class: "num" }, t("Win")),
          h("th", { scope: "col", class: "num" }, t("Tie")),
          h("th", { scope: "col", class: "num" }, t("Lose")),
          h("th", { scope: "col", class: "num" }, t("Expected (chips)")))),
        h("tbody", {}, rows))),
    h("p", { class: `analysis-verdict ${decision.chose_best ? "" : "delta-down"}`.trim() }, verdict),
    h("p", { class: "muted small" }, exact
      ? t("Exact: worked out over every card still unseen.")
      : samples
        ? tn("≈ estimated by playing each option out {n} time; ± is the {level} interval of the chips expected.",
            "≈ estimated by playing each option out {n} times; ± is the {level} interval of the chips expected.", samples, { level: LEVEL })
        : t("≈ estimated by playing each option out; ± is the {level} interval of the chips expected.", { level: LEVEL })),
    decision.note ? h("p", { class: "muted small analysis-note" }, decision.note_words || decision.note) : null);
}

// ------------------------------------------------------------------ a hand's summary

/** Each seat's decisions in the hand, as a table; and what was left out, in words. */
export function handSummary(body, seatName) {
  const parts = [];
  if (body.summary.length) {
    parts.push(h("div", { class: "table-scroll" },
      h("table", { class: "data compact", id: "analysis-summary-table" },
        h("caption", { class: "visually-hidden" }, t("Decisions in this hand, per player")),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col", class: "num" }, t("Best")),
          h("th", { scope: "col", class: "num" }, t("Given up")))),
        h("tbody", {}, body.summary.map((row) => h("tr", { class: row.seat === body.viewer_seat ? "is-you" : "", dataset: { seat: row.seat } },
          h("th", { scope: "row" }, row.name || seatName(row.seat)),
          h("td", { class: "num" }, bestOf(row)),
          h("td", { class: "num" }, chipsPlain(row.given_up))))))));
    const mine = body.summary.find((row) => row.seat === body.viewer_seat);
    if (mine) parts.unshift(h("p", { class: "analysis-line", id: "analysis-you" }, t("You: {text}.", { text: tallyWords(mine) })));
  } else {
    parts.push(h("p", { class: "muted small" },
      t("No decision in this hand to show you: nobody had a real choice, or only choices whose cards you never saw.")));
  }
  if (body.withheld) {
    parts.push(h("p", { class: "muted small", id: "analysis-withheld" },
      tn("{n} of the others' decision is not shown: it used cards you were never shown.",
        "{n} of the others' decisions are not shown: they used cards you were never shown.", body.withheld)));
  }
  parts.push(h("p", { class: "muted small analysis-legend" },
    t("Best: the option with the most chips expected; given up: the chips a choice expected less than the best.")));
  return parts;
}

/** "3 of 5": a player's best decisions of their decisions. */
function bestOf(row) {
  return t("{best} of {decisions}", { best: formatNumber(row.best), decisions: formatNumber(row.decisions) });
}

/** Why there is no analysis to show, in words. */
export function noAnalysis(err) {
  if (err instanceof HttpError && err.status === 409) {
    const why = err.message.replace(/^this hand has no analysis: /, "");
    return t("{reason}.", { reason: `${why.charAt(0).toUpperCase()}${why.slice(1)}` });
  }
  if (err instanceof HttpError && err.status === 503) return t("The analysis is busy: reload the page in a little while.");
  return explain(err, "analysis for this hand");
}

// ------------------------------------------------------------------ an evening

/** The evening's summary into `host`: the reader's own decisions, then each player's (those
 *  the reader may read). While hands are still being analysed it asks again a little later;
 *  `path()` gives the address (it may change with a list's filter). */
export function eveningSummary(host, path) {
  let turn = 0;
  async function load(polls) {
    const mine = ++turn;
    let body;
    try {
      body = await getJson(path());
    } catch (err) {
      if (mine === turn) fill(host, h("p", { class: "muted small" }, explain(err, "analysis for these hands")));
      return;
    }
    if (mine !== turn) return;
    fill(host, eveningParts(body));
    if (body.pending && polls < PENDING_POLLS) {
      setTimeout(() => { if (mine === turn) load(polls + 1); }, PENDING_POLL_MS);
    }
  }
  load(0);
  return () => load(0);
}

function eveningParts(body) {
  const parts = [];
  if (body.you) {
    parts.push(h("p", { class: "analysis-line", id: "evening-you" },
      body.you.decisions ? t("Your decisions: {text}.", { text: tallyWords(body.you) }) : t("No decision of yours analysed in these hands yet.")));
  }
  if (body.players.length) {
    parts.push(h("div", { class: "table-scroll" },
      h("table", { class: "data compact", id: "evening-table" },
        h("caption", { class: "visually-hidden" }, t("Decisions per player in these hands")),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col", class: "num" }, t("Best")),
          h("th", { scope: "col", class: "num" }, t("Given up (chips)")))),
        h("tbody", {}, body.players.map((p) => h("tr", { dataset: { player: p.player_id } },
          h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(p.player_id)}` }, p.name)),
          h("td", { class: "num" }, bestOf(p)),
          h("td", { class: "num" }, chipsPlain(p.given_up))))))));
  }
  const notes = [];
  if (body.pending) notes.push(tn("{n} hand is still being analysed.", "{n} hands are still being analysed.", body.pending));
  if (body.unanalysable) notes.push(tn("{n} hand has no analysis.", "{n} hands have no analysis.", body.unanalysable));
  if (body.withheld) {
    notes.push(tn("{n} of the others' decisions are not counted: they used cards you were never shown.",
      "{n} of the others' decisions are not counted: they used cards you were never shown.", body.withheld));
  }
  if (body.more) notes.push(tn("Only the newest {n} hands are counted.", "Only the newest {n} hands are counted.", body.hands));
  if (!body.hands) notes.push(body.you ? t("No finished hand of yours here yet.") : t("No finished hand here yet."));

  if (notes.length) parts.push(h("p", { class: "muted small", id: "evening-notes" }, notes.join(" ")));
  return parts;
}
