// The replay page (/hands/{id}): a finished hand step by step, the table drawn as it stood
// after each step, with the cards as the reader was entitled to see them then.
//
// The steps come from GET /api/hands/{id}/replay: each carries the engine's own view for the
// reader's seat (the code the live table sends), dressed as the live table dresses it. The
// drawing is the live table's: seats.js draws the seats and hands, cards.js the cards, and the
// game's module (static/js/games/<id>.js, the table page's interface) the centre of the felt;
// each step's events are put in words by story.js with the module's describeEvent, as the live
// table's log is, and the result is the record's (the server's, docs/protocol.md §6.6).
import { chipWords, decisionTable, getAnalysis, handSummary, noAnalysis } from "./analysis.js";
import { api } from "./api.js";
import { asCards, cardEl, cardRow, cardText, isCardCode } from "./cards.js";
import { $, chips, fill, h, humanize, signed } from "./dom.js";
import { said } from "./engine-words.js";
import { fitTable, markScroll, refitOnResize } from "./felt-layout.js";
import { formatNumber, formatTime, t, tn } from "./i18n.js";
import { download, explain, getJson, showBanner } from "./review-api.js";
import { renderSeats } from "./seats.js";
import { showWhoami } from "./signin.js";
import { stepWords } from "./step-words.js";
import { describe, renderResultBox, resultDeltas } from "./story.js";

const page = $("#table-page");
const handId = page.dataset.handId;
const PLAY_MS = 900;

const state = { data: null, index: 0, timer: null, module: null, me: null, decisions: new Map() };

// ------------------------------------------------------------------ the game's drawing

/** For a game without its own module: its status line, card fields and simple facts. */
const fallbackModule = {
  renderCenter(view, el, ctx) {
    if (typeof view.status === "string") el.append(ctx.h("p", { class: "status-line" }, said(view.status_coded, ctx, view.status)));
    const skip = new Set(["table_id", "game", "hand_id", "phase", "you", "seats", "legal", "deadline", "table", "status", "status_coded", "turn", "order"]);
    const facts = ctx.h("p", { class: "facts" });
    for (const [key, value] of Object.entries(view)) {
      if (skip.has(key) || value === null || value === undefined) continue;
      const cards = asCards(value);
      if (cards) {
        el.append(ctx.h("div", { class: "center-cards" }, ctx.h("span", { class: "muted small" }, ctx.humanize(key)), ctx.cardRow(cards)));
      } else if (["string", "number", "boolean"].includes(typeof value)) {
        facts.append(ctx.h("span", { class: "fact" }, ctx.h("span", { class: "muted" }, `${ctx.humanize(key)} `), String(value)));
      }
    }
    if (facts.childNodes.length) el.append(facts);
  },
};

async function loadModule(game) {
  if (!/^[a-z0-9-]+$/.test(game)) return fallbackModule;
  try {
    const mod = await import(`./games/${game}.js`);
    return mod.default && typeof mod.default.renderCenter === "function" ? mod.default : fallbackModule;
  } catch {
    return fallbackModule;
  }
}

function ctxFor(view) {
  const names = new Map((view.seats || []).map((s) => [s.seat, s.name]));
  for (const s of state.data?.seats || []) if (!names.has(s.seat)) names.set(s.seat, s.name);
  return {
    h, fill, chips, signed, humanize, cardEl, cardRow, cardText,
    seatName: (n) => (typeof names.get(n) === "string" ? names.get(n) : t("Seat {seat}", { seat: n })),
    you: view.you,
    view,
    live: false,
  };
}

// ------------------------------------------------------------------ drawing one step

/** The games' phases (their views' `phase`) in words; one not listed, as its key. */
const PHASES = {
  waiting: () => t("Waiting"),
  betting: () => t("Betting"),
  playing: () => t("Playing"),
  bank_offer: () => t("Bank offer"),
  no_banker: () => t("No banker"),
  staking: () => t("Staking"),
  dealer: () => t("Dealer"),
  players: () => t("Players"),
  settled: () => t("Settled"),
  over: () => t("Over"),
  double: () => t("Double"),
  cut: () => t("Cut"),
  deal: () => t("Deal"),
  draw: () => t("Draw"),
  discard: () => t("Discard"),
  between_rounds: () => t("Between rounds"),
  between_matches: () => t("Between matches"),
  un_apres: () => t("Un après"),
};

function phaseWords(phase) {
  return Object.hasOwn(PHASES, phase) ? PHASES[phase]() : humanize(phase);
}

function render() {
  const { data, index } = state;
  const step = data.steps[index];
  const view = step.view;
  const ctx = ctxFor(view);
  const module = state.module || fallbackModule;
  const last = index === data.steps.length - 1;

  $("#phase").textContent = phaseWords(view.phase || "");
  const center = $("#game-center");
  center.replaceChildren();
  try {
    module.renderCenter(view, center, ctx);
  } catch (err) {
    console.error("renderCenter failed", err);
    center.replaceChildren();
    fallbackModule.renderCenter(view, center, ctx);
  }
  const deltas = last ? resultDeltas(data.result, view) : null;
  renderSeats($("#seats"), view, { canSit: false, onSit() {}, deltas, module, ctx });
  renderSettlementBox(last);
  // the seats kept apart and the centre fitted between them, as on the live table
  fitTable();
  markScroll();

  const when = typeof step.t === "number" ? new Date(step.t * 1000) : null;
  const stamp = when ? formatTime(when, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : null;
  const label = stepLabel(step);
  fill($("#step-label"), h("strong", {}, label),
    stamp ? h("span", { class: "muted small" }, " · ", h("time", { datetime: when.toISOString() }, stamp)) : null);
  const steps = { step: formatNumber(index + 1), count: formatNumber(data.steps.length) };
  $("#step-count").textContent = t("Step {step} of {count}", steps);
  $("#slider").value = String(index);
  $("#slider").setAttribute("aria-valuetext", t("Step {step} of {count}: {label}", { ...steps, label }));
  $("#btn-first").disabled = $("#btn-back").disabled = index === 0;
  $("#btn-last").disabled = $("#btn-forward").disabled = last;
  renderStepEvents(step, index, ctx, module);
  renderStepAnalysis(index);

  const list = $("#steps-list");
  for (const item of list.children) {
    const current = Number(item.dataset.index) === index;
    item.classList.toggle("is-current", current);
    if (current) {
      item.setAttribute("aria-current", "step");
      keepInView(list, item);
    } else item.removeAttribute("aria-current");
  }
  history.replaceState(null, "", `#step=${index}`);
}

/** Scroll the steps list (only the list, never the page) so that `item` shows. */
function keepInView(list, item) {
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - (list.clientHeight - item.offsetHeight) / 2);
  }
}

function renderSettlementBox(last) {
  const box = $("#settlement");
  if (!last || !state.data.result) {
    box.hidden = true;
    return;
  }
  renderResultBox(box, state.data.result, { h, fill, signed, title: t("Hand settled"), view: null });
}

/** What happened in this step: the game module's log lines, and the events' cards. */
function renderStepEvents(step, index, ctx, module) {
  const lines = step.events.flatMap((event) => describe(event, module, ctx));
  if (index === state.data.steps.length - 1 && state.data.result) {
    lines.push(...describe({ kind: "hand_end", result: state.data.result }, module, ctx));
  }
  const events = step.events.map((event) => eventLine(event, ctx));
  fill($("#step-events"),
    lines.length ? h("ul", { class: "step-lines" }, lines.map((l) => h("li", {}, l))) : null,
    events.length ? h("details", { class: "step-raw" },
      h("summary", {}, t("The events as recorded ({count})", { count: formatNumber(events.length) })),
      h("ul", { class: "event-list", translate: "no" }, events)) : null);
}

/** One event as the record holds it, for the curious: its kind and fields are the record's
 *  own keys and values (docs/protocol.md §12), data in no language (the lines above word the
 *  same events in the reader's); a seat by its player's name, cards drawn as cards. */
function eventLine(event, ctx) {
  const parts = [h("code", { class: "event-kind" }, String(event.kind || "?"))];
  if (Number.isInteger(event.seat)) parts.push(" · ", ctx.seatName(event.seat));
  const cards = [];
  for (const key of ["card", "cards"]) {
    const value = event[key];
    if (value === undefined) continue;
    for (const code of Array.isArray(value) ? value : [value]) {
      if (code === null || isCardCode(code)) cards.push(code);
    }
  }
  if (cards.length) parts.push(" ", cardRow(cards.map((c) => (c === null ? { card: null, up: false } : { card: c, up: true })), { small: true }));
  for (const key of ["amount", "value", "total", "result", "reason", "commit"]) {
    if (event[key] !== undefined && event[key] !== null) {
      const text = key === "commit" ? `${String(event[key]).slice(0, 12)}…` : String(event[key]);
      parts.push(" ", h("code", { class: "muted small" }, `${key} ${text}`));
    }
  }
  return h("li", { class: "event" }, parts);
}

/** A step's title in the reader's words, from what the step records ("Ada: discard 10♥"; a
 *  seat by its player's name): static/js/step-words.js. */
function stepLabel(step) {
  return stepWords(step, seatName);
}

// ------------------------------------------------------------------ the analysis

/** A seat's player by name, as the replay names them. */
function seatName(n) {
  const seat = (state.data?.seats || []).find((s) => s.seat === n);
  return seat?.name || t("Seat {seat}", { seat: n });
}

/** At a step that was a decision: its options with their odds, the best, what was given up. */
function renderStepAnalysis(index) {
  const box = $("#step-analysis");
  const decision = state.decisions.get(index);
  box.hidden = !decision;
  if (decision) fill(box, decisionTable(decision, seatName));
  else box.replaceChildren();
}

/** The hand's analysis (GET /api/hands/{id}/analysis): the summary in the side column, each
 *  decision at its step, and the steps list marked. Computed on the server if it was not yet:
 *  the page goes on meanwhile. */
async function loadAnalysis() {
  const box = $("#analysis-summary");
  let body;
  try {
    body = await getAnalysis(`/api/hands/${encodeURIComponent(handId)}/analysis`,
      () => fill(box, h("p", { class: "muted small" }, t("The analysis is busy; asking again in a moment…"))));
  } catch (err) {
    fill(box, h("p", { class: "muted small", id: "analysis-none" }, noAnalysis(err)));
    return;
  }
  state.decisions = new Map(body.decisions.map((d) => [d.step, d]));
  fill(box, handSummary(body, seatName));
  for (const item of $("#steps-list").children) {
    const decision = state.decisions.get(Number(item.dataset.index));
    if (!decision) continue;
    const mark = decision.chose_best
      ? h("span", { class: "tag tag-best", title: t("The best option") }, t("best"))
      : h("span", { class: "tag tag-given-up", title: t("Chips given up in expectation") }, `\u2212${chipWords(decision.given_up)}`);
    item.querySelector(".step-jump")?.append(" ", mark);
  }
  renderStepAnalysis(state.index);
}

// ------------------------------------------------------------------ the side panels

function renderStepsList() {
  const list = $("#steps-list");
  fill(list, state.data.steps.map((step, i) =>
    h("li", { dataset: { index: i } },
      h("button", { type: "button", class: "step-jump", onclick: () => go(i) },
        h("span", { class: "step-no" }, String(i + 1)), " ", stepLabel(step)))));
}

/** The engines' accounts (app/games/core/accounts.py): "the pot", "the house", "Ada's bets",
 *  "Ada's prison" (Trente et Quarante's); another kind as its key. */
const ACCOUNTS = {
  house: { the: () => t("the house"), of: (name) => t("{name}'s house", { name }) },
  pot: { the: () => t("the pot"), of: (name) => t("{name}'s pot", { name }) },
  bets: { the: () => t("the bets"), of: (name) => t("{name}'s bets", { name }) },
  prison: { the: () => t("the prison"), of: (name) => t("{name}'s prison", { name }) },
};

function renderResult() {
  const data = state.data;
  const names = new Map(data.seats.map((s) => [s.seat, s.name]));
  const accountName = (account) => {
    const [kind, seat] = String(account).split(":");
    const who = seat !== undefined && names.has(Number(seat)) ? names.get(Number(seat)) : null;
    if (kind === "seat") return who || account;
    const known = ACCOUNTS[kind];
    if (who) return known ? known.of(who) : t("{name}'s {account}", { name: who, account: kind });
    return known ? known.the() : t("the {account}", { account: kind });
  };
  fill($("#result"),
    h("table", { class: "data compact", id: "result-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Seat")), h("th", { scope: "col", class: "num" }, t("Before")),
        h("th", { scope: "col", class: "num" }, t("After")), h("th", { scope: "col", class: "num" }, t("Net")))),
      h("tbody", {}, data.seats.map((s) => h("tr", { class: s.seat === data.viewer_seat ? "is-you" : "" },
        h("td", {}, h("a", { href: `/players/${encodeURIComponent(s.player_id)}` }, s.name), s.bot ? h("span", { class: "tag tag-bot" }, t("bot")) : null),
        h("td", { class: "num" }, chips(s.stack_before)), h("td", { class: "num" }, chips(s.stack_after)),
        h("td", { class: `num ${s.net > 0 ? "delta-up" : s.net < 0 ? "delta-down" : ""}` }, signed(s.net)))))),
    data.settlement.length
      ? h("details", { class: "transfers" }, h("summary", {}, t("Chip movements ({count})", { count: formatNumber(data.settlement.length) })),
          h("ol", { class: "event-list" }, data.settlement.map((move) =>
            h("li", {}, t("{from} → {to}: {chips}", { from: accountName(move.from), to: accountName(move.to), chips: chips(move.amount) }), " ",
              // why, as the engine said it ("stake lost (tie)"), in the reader's words (its code)
              h("span", { class: "muted small" }, said(move.reason_coded, {}, move.reason))))))
      : h("p", { class: "muted small" }, t("No chips moved.")));
}

function renderShoes() {
  const shoes = state.data.shoes || [];
  const line = (shoe) => h("li", {},
    h("span", { class: "mono small", title: shoe.commit }, `${shoe.commit.slice(0, 16)}…`), " ",
    h("span", { class: "muted small" }, shoe.made_in_this_hand
      ? t("shuffled during this hand; committed before its first card")
      : t("in play when the hand began; committed when it was shuffled")));
  fill($("#proof-shoes"),
    shoes.length
      ? [h("span", {}, t("The shoes this hand drew from (SHA-256 of each seed):")), h("ul", { class: "event-list" }, shoes.map(line))]
      : t("This hand drew from no shuffled shoe."));
}

async function verifyShuffle() {
  const out = $("#proof-result");
  const button = $("#btn-verify");
  button.disabled = true;
  fill(out, h("p", { class: "muted small" }, t("Checking…")));
  try {
    const proof = await getJson(`/api/hands/${encodeURIComponent(handId)}/verify`);
    const headline = {
      verified: t("Verified: the deal came from the committed shuffle."),
      failed: t("FAILED: the record does not match the published shuffle."),
      not_yet_revealed: t("Not yet revealed: the shoe is still in play; its seed is published when it is retired."),
    }[proof.status] || proof.status;
    fill(out,
      h("p", { class: `proof-status proof-${proof.status}`, "data-status": proof.status }, headline),
      h("ul", { class: "event-list" }, proof.checks.map((c) =>
        h("li", { class: c.ok === false ? "delta-down" : "" }, c.ok === true ? "✓ " : c.ok === false ? "✗ " : "… ",
          h("strong", {}, c.check_words || c.check), ` — ${c.detail_words || c.detail}`))),
      proof.shoes.filter((s) => s.revealed && s.order).map((s) =>
        h("details", { class: "shoe-order" },
          h("summary", {}, t("Shoe {commit}…: seed and deal order", { commit: s.commit.slice(0, 12) })),
          h("p", { class: "mono small" }, t("commit {commit}", { commit: s.commit })),
          h("p", { class: "mono small" }, t("seed {seed}", { seed: s.seed })),
          Number.isInteger(s.dealt_before_hand)
            ? h("p", { class: "muted small" }, tn("{n} cards were dealt from it before this hand.", "{n} cards were dealt from it before this hand.", s.dealt_before_hand))
            : null,
          h("p", { class: "mono small order" }, s.order.map((c, i) => h("span", { class: Number.isInteger(s.dealt_before_hand) && i < s.dealt_before_hand ? "muted" : "" }, `${cardText(c)} `))))));
  } catch (err) {
    fill(out, h("p", { class: "delta-down" }, explain(err, "proof for this hand")));
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ moving through the hand

function go(index) {
  const n = state.data.steps.length;
  state.index = Math.max(0, Math.min(n - 1, index));
  if (state.index === n - 1) stop();
  render();
}

function play() {
  if (state.timer) return stop();
  if (state.index >= state.data.steps.length - 1) state.index = 0;
  state.timer = setInterval(() => go(state.index + 1), PLAY_MS);
  const button = $("#btn-play");
  button.textContent = t("❚❚ Pause");
  button.setAttribute("aria-label", t("Pause"));
  render();
}

function stop() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  const button = $("#btn-play");
  button.textContent = t("▶ Play");
  button.setAttribute("aria-label", t("Play"));
}

function wireControls() {
  $("#btn-first").addEventListener("click", () => { stop(); go(0); });
  $("#btn-back").addEventListener("click", () => { stop(); go(state.index - 1); });
  $("#btn-play").addEventListener("click", play);
  $("#btn-forward").addEventListener("click", () => { stop(); go(state.index + 1); });
  $("#btn-last").addEventListener("click", () => { stop(); go(state.data.steps.length - 1); });
  $("#slider").addEventListener("input", (event) => { stop(); go(Number(event.target.value)); });
  $("#btn-verify").addEventListener("click", verifyShuffle);
  $("#btn-export").addEventListener("click", () =>
    download(`/api/hands/${encodeURIComponent(handId)}/export`, `hand-${handId}.json`).catch((err) => showBanner(err.message)));
  $("#btn-copy").addEventListener("click", async () => {
    const input = $("#share-link");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") && event.target.id !== "slider") return;
    const keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in keys && event.target.id !== "slider") {
      event.preventDefault();
      stop();
      go(state.index + keys[event.key]);
    } else if (event.key === "Home" && event.target.id !== "slider") {
      stop();
      go(0);
    } else if (event.key === "End" && event.target.id !== "slider") {
      stop();
      go(state.data.steps.length - 1);
    } else if (event.key === " " && !event.target.closest("button")) {
      event.preventDefault();
      play();
    }
  });
}

// ------------------------------------------------------------------ start

async function start() {
  try {
    state.me = await api.me();
  } catch {
    state.me = null;
  }
  showWhoami(state.me);
  if (state.me) {
    const me = $("#link-me");
    me.href = `/players/${encodeURIComponent(state.me.player_id)}`;
    me.hidden = false;
  }
  if (page.dataset.status === "void") {
    // a void hand has nothing to replay: the page itself says who sat and why (docs/review.md)
    const historyLink = $("#link-history");
    historyLink.href = `/tables/${encodeURIComponent(page.dataset.tableId)}/history`;
    historyLink.hidden = false;
    return;
  }
  let data;
  try {
    data = await getJson(`/api/hands/${encodeURIComponent(handId)}/replay`);
  } catch (err) {
    showBanner(explain(err, "hand"), true);
    return;
  }
  state.data = data;
  state.module = await loadModule(data.game);
  const named = { table: data.table_name || t("Table"), number: data.number, game: data.game_title };
  $("#table-name").textContent = t("{table} · hand {number}", named);
  document.title = t("{table} · hand {number} · {game} · Table 31", named);
  const historyLink = $("#link-history");
  historyLink.href = `/tables/${encodeURIComponent(data.table_id)}/history`;
  historyLink.hidden = false;
  $("#share-link").value = `${location.origin}/hands/${handId}`;
  if (data.viewer_seat === null) {
    showBanner(t("You see this hand as a spectator would: no one's hidden cards."));
  }
  $("#slider").max = String(data.steps.length - 1);
  renderStepsList();
  renderResult();
  renderShoes();
  wireControls();
  $("#replay").hidden = false;
  $("#center").addEventListener("scroll", markScroll, { passive: true });
  refitOnResize(markScroll);
  const wanted = /step=(\d+)/.exec(location.hash);
  go(wanted ? Number(wanted[1]) : 0);
  loadAnalysis();
}

start();
