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
import { explain, getJson } from "./review-api.js";
import { forPlayers } from "./words.js";

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

/** 0.4231 → "42.3%"; an estimate "≈ 42.3%". */
export function percent(p, exact = true) {
  const text = `${(Math.round(p * 1000) / 10).toFixed(1)}%`;
  return exact ? text : `≈ ${text}`;
}

/** Chips with two decimals and a real sign: "+0.42", "−1.50", "±0.00". */
export function chipsSigned(x) {
  const rounded = Math.round(x * 100) / 100;
  if (rounded === 0) return "±0.00";
  return `${rounded > 0 ? "+" : "\u2212"}${Math.abs(rounded).toFixed(2)}`;
}

/** Chips given up, as few decimals as they need: "12", "1.5", "0.35". */
export function chipsPlain(x) {
  if (x >= 10) return x.toFixed(0);
  const text = x >= 1 ? x.toFixed(1) : x.toFixed(2);
  return text.replace(/\.?0+$/, "") || "0";
}

/** "1.5 chips", "1 chip": chips given up, in words. */
export function chipWords(x) {
  const text = chipsPlain(x);
  return `${text} ${text === "1" ? "chip" : "chips"}`;
}

/** An option's expected chips: "+0.42" exact; "≈ +0.42 ± 0.05" estimated. */
export function evText(option) {
  if (option.exact || !option.interval) return chipsSigned(option.ev);
  const [low, high] = option.interval.ev;
  return `≈ ${chipsSigned(option.ev)} ± ${((high - low) / 2).toFixed(2)}`;
}

// ------------------------------------------------------------------ one decision

/** The options of one decision as a table (caption, column and row headers), and in a
 *  sentence what the choice gave up. `seatName(n)` names a seat's player. */
export function decisionTable(decision, seatName) {
  const who = seatName(decision.seat);
  const label = (option) => forPlayers(option.label || option.action.kind, seatName);
  const exact = decision.options.every((o) => o.exact);
  const rows = decision.options.map((option, i) => {
    const best = i === decision.best;
    const chosen = i === decision.chosen;
    return h("tr", { class: [best ? "is-best" : "", chosen ? "is-chosen" : ""].join(" ").trim() || null,
      dataset: { option: i } },
      h("th", { scope: "row" }, label(option),
        best ? h("span", { class: "tag tag-best" }, "best") : null,
        chosen ? h("span", { class: "tag tag-chosen" }, "chosen") : null),
      h("td", { class: "num" }, percent(option.win, option.exact)),
      h("td", { class: "num" }, percent(option.tie, option.exact)),
      h("td", { class: "num" }, percent(option.lose, option.exact)),
      h("td", { class: `num ${option.ev > 0.005 ? "delta-up" : option.ev < -0.005 ? "delta-down" : ""}` }, evText(option)));
  });
  const chosen = decision.options[decision.chosen];
  const best = decision.options[decision.best];
  let verdict;
  if (decision.chosen === decision.best) {
    verdict = `${who} chose ${label(chosen)}: the best option.`;
  } else if (decision.chose_best) {
    verdict = `${who} chose ${label(chosen)}: as good as ${label(best)} within the figures' margin.`;
  } else {
    verdict = `${who} chose ${label(chosen)}: ${chipWords(decision.given_up)} given up in expectation against ${label(best)}.`;
  }
  const samples = decision.options.find((o) => !o.exact)?.samples;
  return h("div", { class: "decision-analysis", dataset: { step: decision.step } },
    h("div", { class: "table-scroll" },
      h("table", { class: "data compact analysis-table" },
        h("caption", {}, `${who}'s options`),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Option"),
          h("th", { scope: "col", class: "num" }, "Win"),
          h("th", { scope: "col", class: "num" }, "Tie"),
          h("th", { scope: "col", class: "num" }, "Lose"),
          h("th", { scope: "col", class: "num" }, "Expected (chips)"))),
        h("tbody", {}, rows))),
    h("p", { class: `analysis-verdict ${decision.chose_best ? "" : "delta-down"}`.trim() }, verdict),
    h("p", { class: "muted small" }, exact
      ? "Exact: worked out over every card still unseen."
      : `≈ estimated by playing each option out${samples ? ` ${samples.toLocaleString("en-US")} times` : ""}; ± is the 95% interval of the chips expected.`),
    decision.note ? h("p", { class: "muted small" }, forPlayers(decision.note, seatName)) : null);
}

// ------------------------------------------------------------------ a hand's summary

/** Each seat's decisions in the hand, as a table; and what was left out, in words. */
export function handSummary(body, seatName) {
  const parts = [];
  if (body.summary.length) {
    parts.push(h("div", { class: "table-scroll" },
      h("table", { class: "data compact", id: "analysis-summary-table" },
        h("caption", { class: "visually-hidden" }, "Decisions in this hand, per player"),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Player"),
          h("th", { scope: "col", class: "num" }, "Best"),
          h("th", { scope: "col", class: "num" }, "Given up"))),
        h("tbody", {}, body.summary.map((row) => h("tr", { class: row.seat === body.viewer_seat ? "is-you" : "", dataset: { seat: row.seat } },
          h("th", { scope: "row" }, row.name || seatName(row.seat)),
          h("td", { class: "num" }, `${row.best} of ${row.decisions}`),
          h("td", { class: "num" }, chipsPlain(row.given_up))))))));
    const mine = body.summary.find((row) => row.seat === body.viewer_seat);
    if (mine) parts.unshift(h("p", { class: "analysis-line", id: "analysis-you" }, `You: ${mine.text}.`));
  } else {
    parts.push(h("p", { class: "muted small" }, "No decision in this hand to show you: nobody had a real choice, or only choices whose cards you never saw."));
  }
  if (body.withheld) {
    parts.push(h("p", { class: "muted small", id: "analysis-withheld" },
      `${body.withheld} of the others' ${body.withheld === 1 ? "decision is" : "decisions are"} not shown: ${body.withheld === 1 ? "it" : "they"} used cards you were never shown.`));
  }
  parts.push(h("p", { class: "muted small" }, "Best: the option with the most chips expected; given up: the chips a choice expected less than the best."));
  return parts;
}

/** Why there is no analysis to show, in words. */
export function noAnalysis(err) {
  if (err instanceof HttpError && err.status === 409) {
    const why = err.message.replace(/^this hand has no analysis: /, "");
    return `${why.charAt(0).toUpperCase()}${why.slice(1)}.`;
  }
  if (err instanceof HttpError && err.status === 503) return "The analysis is busy: reload the page in a little while.";
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
      body.you.decisions ? `Your decisions: ${body.you.text}.` : "No decision of yours analysed in these hands yet."));
  }
  if (body.players.length) {
    parts.push(h("div", { class: "table-scroll" },
      h("table", { class: "data compact", id: "evening-table" },
        h("caption", { class: "visually-hidden" }, "Decisions per player in these hands"),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Player"),
          h("th", { scope: "col", class: "num" }, "Best"),
          h("th", { scope: "col", class: "num" }, "Given up (chips)"))),
        h("tbody", {}, body.players.map((p) => h("tr", { dataset: { player: p.player_id } },
          h("th", { scope: "row" }, h("a", { href: `/players/${encodeURIComponent(p.player_id)}` }, p.name)),
          h("td", { class: "num" }, `${p.best} of ${p.decisions}`),
          h("td", { class: "num" }, chipsPlain(p.given_up))))))));
  }
  const notes = [];
  if (body.pending) notes.push(`${body.pending} ${body.pending === 1 ? "hand is" : "hands are"} still being analysed.`);
  if (body.unanalysable) notes.push(`${body.unanalysable} ${body.unanalysable === 1 ? "hand has" : "hands have"} no analysis.`);
  if (body.withheld) notes.push(`${body.withheld} of the others' decisions are not counted: they used cards you were never shown.`);
  if (body.more) notes.push(`Only the newest ${body.hands} hands are counted.`);
  if (!body.hands) notes.push(body.you ? "No finished hand of yours here yet." : "No finished hand here yet.");
  if (notes.length) parts.push(h("p", { class: "muted small", id: "evening-notes" }, notes.join(" ")));
  return parts;
}
