// Trente et Quarante's reveal (static/js/games/trente-et-quarante.js): the view has a dealt coup
// whole (rows, totals, calls, settled stacks), but the page turns the cards one by one as the
// dealer does; each row's total shows as its last card lands, the calls and the result after the
// last card, the settlement (the "Hand settled" box, the stacks' new figures and their changes,
// prison, the result in the log) after the call. What is shown is worked out from the time since
// the page saw the coup dealt (memory.current), so any view drawn meanwhile (the next window
// opening, a reconnection) shows the same moment: nothing replays, nothing is lost. The stacks
// always show a figure: while the coup is revealed, each bettor's stack from before the deal;
// from the settlement on (and whenever no coup is revealed), the view's.
import { chips } from "../../dom.js";
import { formatTime } from "../../i18n.js";
import { rienNeVaPlus } from "./common.js";

/** What the reveal remembers between views. */
const memory = {
  dealt: null, // the coup whose rows were last drawn (a coup seen dealt is revealed once)
  current: null, // the coup being revealed (planReveal), until its settlement shows
  logLines: null, // {coup, lines}: the log's lines of a coup just dealt, said as it is revealed
};

/** The reveal's pace (ms). The whole coup shows in under 3 s however many cards it takes. */
export const REVEAL = {
  step: 180, // from one card to the next
  span: 1500, // at most from the first card to the last (long rows turn faster)
  rowPause: 250, // after Noir's last card, before Rouge's first
  flip: 300, // a card turning over (teq-turn in the CSS)
  call: 250, // from the last card down to the call
  settle: 450, // from the call to the settlement
};

/** A reader who asks for no motion (prefers-reduced-motion) sees each coup whole at once. */
const still = () => Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);

/** The moments of a coup's reveal, from when the page saw it dealt (all at once, for a reader
 *  who asks for no motion). */
function planReveal(coup, rows) {
  const noir = rows.noir.cards?.length || 0;
  const count = noir + (rows.rouge.cards?.length || 0);
  const step = count > 1 ? Math.min(REVEAL.step, REVEAL.span / (count - 1)) : 0;
  const at = (i) => i * step + (i >= noir ? REVEAL.rowPause : 0);
  const cards = Array.from({ length: count }, (_, i) => at(i));
  const noirDown = noir ? at(noir - 1) + REVEAL.flip : 0;
  const rougeDown = count > noir ? at(count - 1) + REVEAL.flip : noirDown;
  const call = rougeDown + REVEAL.call;
  if (still()) {
    return {
      coup, start: performance.now(), cards: cards.map(() => 0), noir: 0, rouge: 0, call: 0, done: 0,
      lines: [], logged: false, anchor: null, held: [], timer: null, before: new Map(),
    };
  }
  return {
    coup, start: performance.now(), cards, noir: noirDown, rouge: rougeDown, call, done: call + REVEAL.settle,
    lines: [], logged: false, anchor: null, held: [], timer: null, before: new Map(),
  };
}

/** Where the reveal of `coup`'s rows stands now: "deal-noir" (Noir's cards turning),
 *  "deal-rouge" (Noir's total shown, Rouge's cards turning), "totals", "called" (the result is
 *  called, the settlement is next); null once all is shown (or for rows not being revealed). */
export function revealStage(coup, now = performance.now()) {
  const r = memory.current;
  if (!r || r.coup !== coup) return null;
  const t = now - r.start;
  if (t >= r.done) return null;
  if (t < r.noir) return "deal-noir";
  if (t < r.rouge) return "deal-rouge";
  return t < r.call ? "totals" : "called";
}

/** The coup whose rows a view shows: while stakes are taken, the last one. */
export const rowsCoupOf = (view) => (view.phase === "betting" ? view.coup - 1 : view.coup);

/** Each bettor's stack in a view (seated and standing). */
/** A new coup's rows are on the table: reveal them if the page saw them dealt. `before`: the
 *  stacks of the view drawn before this one, shown until the settlement. */
export function noteDeal(view, before) {
  const coup = rowsCoupOf(view);
  const seen = memory.dealt;
  memory.dealt = coup;
  if (seen === null || seen === coup || !view.rows?.noir || !view.rows?.rouge) return;
  finishReveal(); // a reveal still running (it cannot be, at this pace) ends at once
  memory.current = planReveal(coup, view.rows);
  memory.current.before = before;
  if (memory.logLines?.coup === coup) {
    memory.current.lines = memory.logLines.lines;
    memory.logLines = null;
    holdResultLines(memory.current);
  }
}

/** Set the page to the reveal's moment, and come back at the next one. Idempotent. */
export function syncReveal() {
  const r = memory.current;
  if (r) clearTimeout(r.timer);
  const stage = r ? revealStage(r.coup) : null;
  const root = document.querySelector("section.teq");
  if (root) markStage(root, stage);
  showStacks();
  if (memory.logLines) flushLogLines(); // a coup's lines that no reveal took
  if (!r) return;
  if (stage === "called") logCoup(r);
  if (stage === null) {
    finishReveal();
    return;
  }
  const t = performance.now() - r.start;
  const next = [r.noir, r.rouge, r.call, r.done].find((moment) => moment > t);
  r.timer = setTimeout(syncReveal, Math.max(0, next - t) + 15);
}

export function markStage(root, stage) {
  if (stage) root.dataset.reveal = stage;
  else delete root.dataset.reveal;
  root.classList.toggle("is-called", stage === null || stage === "called");
}

/** The reveal is over: the log says the coup, the settlement's lines show. */
function finishReveal() {
  const r = memory.current;
  if (!r) return;
  clearTimeout(r.timer);
  memory.current = null;
  logCoup(r);
  for (const li of r.held) li.classList.remove("teq-held");
  const root = document.querySelector("section.teq");
  if (root) markStage(root, null);
  showStacks();
}

/** The figure a bettor's stack shows: while a coup is revealed (until its settlement) the
 *  stack from before the deal, so that the stacks do not tell the result before the cards;
 *  otherwise the view's. A stack is never left without a figure. */
export function stackShown(seat, stack) {
  const r = memory.current;
  const before = r && revealStage(r.coup) !== null ? r.before : null;
  return before?.has(seat) ? before.get(seat) : stack;
}

/** The stacks drawn on the page, set to the figures of the reveal's moment (stackShown): the
 *  seats keep each view's own figure in data-stack. */
function showStacks() {
  const places = [
    ...[...document.querySelectorAll(".seat-taken[data-seat]")].map((el) => [el, el.querySelector(".stack-value")]),
    ...[...document.querySelectorAll(".teq-standing-list li[data-seat]")].map((el) => [el, el.querySelector(".teq-stack")]),
  ];
  for (const [el, value] of places) {
    if (!value || el.dataset.stack === "") continue;
    const figure = stackShown(Number(el.dataset.seat), Number(el.dataset.stack));
    value.textContent = chips(figure);
  }
}

// A page in the background may run its timers late (the browser throttles them): back in view,
// it shows the reveal's moment at once.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) syncReveal();
});

// The log: the coup's lines (the rows, the calls) are written when it is called, in the log's
// order and time, just after "Rien ne va plus."; the lines the table wrote after that one (the
// hand's result) wait for the settlement.

function logEntries() {
  return [...(document.getElementById("log")?.children || [])];
}

function holdResultLines(r) {
  const entries = logEntries(); // newest first
  const at = entries.findIndex((li) => li.textContent.trim().endsWith(rienNeVaPlus()));
  if (at < 0) return;
  r.anchor = entries[at];
  r.held = entries.slice(0, at);
  for (const li of r.held) li.classList.add("teq-held");
}

function logCoup(r) {
  if (r.logged) return;
  r.logged = true;
  writeLines(r.lines, r.anchor);
}

function flushLogLines() {
  const pending = memory.logLines;
  memory.logLines = null;
  const anchor = logEntries().find((li) => li.textContent.trim().endsWith(rienNeVaPlus())) || null;
  writeLines(pending.lines, anchor);
}

/** Lines into the log after `anchor` (an entry of it), oldest first, at its time. */
function writeLines(lines, anchor) {
  const list = document.getElementById("log");
  if (!list || !lines.length) return;
  const placed = anchor && anchor.parentElement === list;
  const stamp = (placed && anchor.querySelector("time")?.textContent)
    || formatTime(new Date(), { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  let newest = placed ? anchor : null;
  for (const text of lines) {
    const time = document.createElement("time");
    time.textContent = stamp;
    const li = document.createElement("li");
    li.append(time, " ", text);
    if (newest) newest.before(li);
    else list.prepend(li);
    newest = li;
  }
}

/** The reveal in progress (its plan: when each card turns), or null. */
export const currentReveal = () => memory.current;

/** The log's lines of a coup just dealt (its rows, its calls): written as it is revealed. */
export function queueCoupLines(coup, lines) {
  memory.logLines = { coup, lines };
}
