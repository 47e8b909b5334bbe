// Trente et Quarante (RULES.md §4): the tableau and its four chances, the two rows, the dealer's
// calls, prison, the betting window's clock, standing bettors.
// View fields used: phase, coup, bettors[{seat, name, stack, role, free_chips, stakes[{chance,
// amount, insured, premium}], prison[{id, chance, amount, level}], done}], tableau{chance:
// {stakes, prison}}, rows{noir, rouge: {cards, total}}, calls[{fr, en}], result{winner, colour,
// tie, void}, history, un_apres[{seat, chance, amount}], shoe, limits, deadline, legal, table.
//
// Chips go down by tapping a chance: a chip-value selector sets how much one tap adds. Every
// action sent (ctx.act) fits a template of `legal`: stake, remove, insure and move_prison from
// the tableau and the prison list, share or prison from the un après panel; the dock keeps
// "done" (its stake and un après controls are hidden while the tableau is on the page).
//
// The reveal: the view has a dealt coup whole (rows, totals, calls, settled stacks), but the page
// turns the cards one by one as the dealer does; each row's total shows as its last card lands,
// the calls and the result after the last card, the settlement (the "Hand settled" box, stacks and
// their changes, prison, the result in the log) after the call. What is shown is worked out from
// the time since the page saw the coup dealt (memory.reveal), so any view drawn meanwhile (the
// next window opening, a reconnection) shows the same moment: nothing replays, nothing is lost.
import { clock } from "../api.js";

const CHANCES = ["rouge", "noir", "couleur", "inverse"];
const FRENCH = { rouge: "Rouge", noir: "Noir", couleur: "Couleur", inverse: "Inverse" };
const ENGLISH = { rouge: "red", noir: "black", couleur: "colour", inverse: "inverse" };
const OPPOSITE = { rouge: "noir", noir: "rouge", couleur: "inverse", inverse: "couleur" };
const DENOMINATIONS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000];
const MAX_CHIPS = 6;
const HISTORY_SHOWN = 12;
const PILLS_SHOWN = 3;

/** What the page remembers between views: the chip chosen, the stakes of the last window. */
const memory = {
  chip: null,
  window: null, // {coup, stakes: [{seat, name, chance, amount, insured}]}: the last window's stakes
  dealt: null, // the coup whose rows were last drawn (a coup seen dealt is revealed once)
  reveal: null, // the coup being revealed (planReveal), until its settlement shows
  logLines: null, // {coup, lines}: the log's lines of a coup just dealt, said as it is revealed
  clockStart: new Map(), // deadline → when the page first saw it (for the clock's bar)
};

// ------------------------------------------------------------------ the reveal

/** The reveal's pace (ms). The whole coup shows in under 3 s however many cards it takes. */
const REVEAL = {
  step: 180, // from one card to the next
  span: 1500, // at most from the first card to the last (long rows turn faster)
  rowPause: 250, // after Noir's last card, before Rouge's first
  flip: 300, // a card turning over (teq-turn in the CSS)
  call: 250, // from the last card down to the call
  settle: 450, // from the call to the settlement
};

/** The moments of a coup's reveal, from when the page saw it dealt. */
function planReveal(coup, rows) {
  const noir = rows.noir.cards?.length || 0;
  const count = noir + (rows.rouge.cards?.length || 0);
  const step = count > 1 ? Math.min(REVEAL.step, REVEAL.span / (count - 1)) : 0;
  const at = (i) => i * step + (i >= noir ? REVEAL.rowPause : 0);
  const cards = Array.from({ length: count }, (_, i) => at(i));
  const noirDown = noir ? at(noir - 1) + REVEAL.flip : 0;
  const rougeDown = count > noir ? at(count - 1) + REVEAL.flip : noirDown;
  const call = rougeDown + REVEAL.call;
  return {
    coup, start: performance.now(), cards, noir: noirDown, rouge: rougeDown, call, done: call + REVEAL.settle,
    lines: [], logged: false, anchor: null, held: [], timer: null,
  };
}

/** Where the reveal of `coup`'s rows stands now: "deal-noir" (Noir's cards turning),
 *  "deal-rouge" (Noir's total shown, Rouge's cards turning), "totals", "called" (the result is
 *  called, the settlement is next); null once all is shown (or for rows not being revealed). */
function revealStage(coup, now = performance.now()) {
  const r = memory.reveal;
  if (!r || r.coup !== coup) return null;
  const t = now - r.start;
  if (t >= r.done) return null;
  if (t < r.noir) return "deal-noir";
  if (t < r.rouge) return "deal-rouge";
  return t < r.call ? "totals" : "called";
}

/** The coup whose rows a view shows: while stakes are taken, the last one. */
const rowsCoupOf = (view) => (view.phase === "betting" ? view.coup - 1 : view.coup);

/** A new coup's rows are on the table: reveal them if the page saw them dealt. */
function noteDeal(view) {
  const coup = rowsCoupOf(view);
  const seen = memory.dealt;
  memory.dealt = coup;
  if (seen === null || seen === coup || !view.rows?.noir || !view.rows?.rouge) return;
  finishReveal(); // a reveal still running (it cannot be, at this pace) ends at once
  memory.reveal = planReveal(coup, view.rows);
  if (memory.logLines?.coup === coup) {
    memory.reveal.lines = memory.logLines.lines;
    memory.logLines = null;
    holdResultLines(memory.reveal);
  }
}

/** Set the page to the reveal's moment, and come back at the next one. Idempotent. */
function syncReveal() {
  const r = memory.reveal;
  if (r) clearTimeout(r.timer);
  const stage = r ? revealStage(r.coup) : null;
  const root = document.querySelector("section.teq");
  if (root) markStage(root, stage);
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

function markStage(root, stage) {
  if (stage) root.dataset.reveal = stage;
  else delete root.dataset.reveal;
  root.classList.toggle("is-called", stage === null || stage === "called");
}

/** The reveal is over: the log says the coup, the settlement's lines show. */
function finishReveal() {
  const r = memory.reveal;
  if (!r) return;
  clearTimeout(r.timer);
  memory.reveal = null;
  logCoup(r);
  for (const li of r.held) li.classList.remove("teq-held");
  const root = document.querySelector("section.teq");
  if (root) markStage(root, null);
}

// The log: the coup's lines (the rows, the calls) are written when it is called, in the log's
// order and time, just after "Rien ne va plus."; the lines the table wrote after that one (the
// hand's result) wait for the settlement.

function logEntries() {
  return [...(document.getElementById("log")?.children || [])];
}

function holdResultLines(r) {
  const entries = logEntries(); // newest first
  const at = entries.findIndex((li) => li.textContent.trim().endsWith("Rien ne va plus."));
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
  const anchor = logEntries().find((li) => li.textContent.trim().endsWith("Rien ne va plus.")) || null;
  writeLines(pending.lines, anchor);
}

/** Lines into the log after `anchor` (an entry of it), oldest first, at its time. */
function writeLines(lines, anchor) {
  const list = document.getElementById("log");
  if (!list || !lines.length) return;
  const placed = anchor && anchor.parentElement === list;
  const stamp = (placed && anchor.querySelector("time")?.textContent)
    || new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
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

// ------------------------------------------------------------------ reading the view

const bettorsOf = (view) => (Array.isArray(view.bettors) ? view.bettors : view.seats || []);
const mine = (view) => bettorsOf(view).find((b) => b.seat === view.you) || null;
const templates = (view, kind) => (view.legal || []).filter((t) => t.kind === kind);
const choices = (template, param) => (template && template.params?.[param]?.one_of) || [];

function nameOf(bettor, view, ctx) {
  if (bettor.seat === view.you) return "You";
  if (typeof bettor.name === "string") return bettor.name;
  return bettor.role === "standing" ? `Standing bettor ${bettor.seat}` : ctx.seatName(bettor.seat);
}

/** "Ada (bot)" → "Ada": the tableau is narrow. */
const shortName = (name) => {
  const first = String(name).split(/\s+/)[0] || String(name);
  return first.length > 9 ? `${first.slice(0, 8)}…` : first;
};

function stakeTemplate(view, chance) {
  return templates(view, "stake").find((t) => choices(t, "chance").includes(chance)) || null;
}

function freeStake(bettor, chance) {
  return (bettor?.stakes || []).find((s) => s.chance === chance) || null;
}

/** The chip values offered: the smallest stake, then usual denominations up to the largest. */
function chipValues(limits) {
  const least = Number.isInteger(limits?.min_stake) ? limits.min_stake : 1;
  const most = Number.isInteger(limits?.max_stake) ? limits.max_stake : least * 100;
  return [least, ...DENOMINATIONS.filter((d) => d > least && d <= most)].slice(0, MAX_CHIPS);
}

function currentChip(view) {
  const values = chipValues(view.limits);
  if (!values.includes(memory.chip)) memory.chip = values[0];
  return memory.chip;
}

/** How a stake of the last window fared in the coup shown (null while it is not known). */
function outcome(stake, view) {
  const result = view.result;
  if (!result) return null;
  if (result.void) return { text: "void: returned", delta: 0, tone: "even" };
  if (result.tie === "apres") return { text: "après: stands off", delta: 0, tone: "even" };
  if (result.tie === "un_apres") {
    if (stake.insured) return { text: "insured: untouched", delta: 0, tone: "even" };
    const waiting = (view.un_apres || []).some((u) => u.seat === stake.seat && u.chance === stake.chance);
    if (waiting) return { text: "share or prison?", delta: null, tone: "wait" };
    const held = bettorsOf(view).find((b) => b.seat === stake.seat)?.prison || [];
    if (held.some((p) => p.chance === stake.chance && p.amount === stake.amount && p.level === 1)) {
      return { text: "in prison", delta: null, tone: "wait" };
    }
    return { text: "shared", delta: -(stake.amount - Math.floor(stake.amount / 2)), tone: "lose" };
  }
  const won = stake.chance === result.winner || stake.chance === result.colour;
  return won ? { text: "wins", delta: stake.amount, tone: "win" } : { text: "loses", delta: -stake.amount, tone: "lose" };
}

/** The stakes to draw on the tableau: the window's own, or after the deal those it settled. */
function shownStakes(view, ctx) {
  if (view.phase === "betting" || view.phase === "un_apres") {
    // In the window the stakes are the bettors' own; at an un après they wait on the tableau.
    return bettorsOf(view).flatMap((b) => (b.stakes || []).map((s) => {
      const stake = { seat: b.seat, name: nameOf(b, view, ctx), chance: s.chance, amount: s.amount, insured: s.insured };
      return { ...stake, result: view.phase === "un_apres" ? outcome(stake, view) : null };
    }));
  }
  if (memory.window && memory.window.coup === view.coup && view.result) {
    return memory.window.stakes.map((s) => ({ ...s, name: s.seat === view.you ? "You" : s.name, result: outcome(s, view) }));
  }
  return [];
}

function winning(view) {
  const r = view.result;
  return r && !r.void && !r.tie ? new Set([r.winner, r.colour]) : new Set();
}

// ------------------------------------------------------------------ acting

function stakeBy(view, ctx, chance, delta) {
  const template = stakeTemplate(view, chance);
  const stake = freeStake(mine(view), chance);
  const current = stake ? stake.amount : 0;
  if (delta < 0) {
    const lower = current + delta;
    if (lower >= (template?.params.amount.min ?? Infinity)) ctx.act({ kind: "stake", chance, amount: lower });
    else if (templates(view, "remove").some((t) => choices(t, "chance").includes(chance))) ctx.act({ kind: "remove", chance });
    return;
  }
  const target = stakeTarget(template, current, delta);
  if (target !== null) ctx.act({ kind: "stake", chance, amount: target });
}

/** The stake one tap makes: the current one plus a chip, within the template's range. */
function stakeTarget(template, current, chip) {
  if (!template) return null;
  const { min, max } = template.params.amount;
  const target = Math.min(max, Math.max(min, current + chip));
  return target > current || (current === 0 && target >= min) ? target : null;
}

/** Why a chance cannot take a chip from you now (the zone's tooltip). */
function whyNot(view, chance) {
  const me = mine(view);
  if (view.you === null || view.you === undefined) return "Sit down or bet standing to stake.";
  if (view.phase !== "betting") return "Stakes open with the next coup (Faites vos jeux).";
  if (me?.done) return "You said your stakes are set for this coup.";
  if (freeStake(me, OPPOSITE[chance])) return `You hold a stake on ${FRENCH[OPPOSITE[chance]]}: remove it to stake on ${FRENCH[chance]}.`;
  if (freeStake(me, chance)) return "Your stake here is at its limit (the table's, your chips' or the house's cover).";
  return "Your chips or the house's cover leave no room for a stake here.";
}

// ------------------------------------------------------------------ drawing

function headline(view, ctx) {
  const { h } = ctx;
  const calls = Array.isArray(view.calls) ? view.calls : [];
  let fr = "";
  let en = "";
  let tone = "";
  if (view.phase === "betting") {
    fr = "Faites vos jeux";
    en = typeof view.deadline === "number" ? "Place your stakes: the window closes when the clock runs out" : "Place your stakes: the clock starts with the first stake";
    tone = "open";
  } else if (view.phase === "un_apres") {
    fr = "Un après";
    en = "31 and 31: each uninsured stake is shared with the house or goes to prison";
    tone = "apres";
  } else if (view.rows && calls.length) {
    const result = calls[calls.length - 1];
    fr = result.fr;
    en = result.en;
    tone = "result";
  } else {
    fr = "Messieurs, faites vos jeux";
    en = bettorsOf(view).length ? "The next coup opens in a moment" : "Waiting for bettors: sit down or bet standing";
  }
  const timer = view.phase === "betting" && typeof view.deadline === "number" ? clockBar(h, view.deadline, "Rien ne va plus in") : null;
  // While the coup is revealed, the dealer's "Rien ne va plus" stands until the call.
  const revealing = view.phase !== "betting" && revealStage(rowsCoupOf(view)) !== null;
  return h("div", { class: `teq-head teq-head-${tone || "idle"}`, "data-testid": "teq-headline" },
    revealing ? h("div", { class: "teq-until-call" },
      h("p", { class: "teq-call teq-call-pending", lang: "fr" }, "Rien ne va plus"),
      h("p", { class: "teq-call-en" }, "No more stakes: the cards are turned")) : null,
    h("p", { class: `teq-call${revealing ? " teq-when-called" : ""}`, lang: "fr" }, fr),
    h("p", { class: `teq-call-en${revealing ? " teq-when-called" : ""}` }, en),
    timer, callsBlock(view, ctx));
}

function rowsBlock(view, ctx) {
  const { h } = ctx;
  const rows = view.rows;
  if (!rows || !rows.noir || !rows.rouge) return null;
  const wins = winning(view);
  // While the coup is revealed each card turns at its moment: one still to come waits face
  // down, one turning goes on from where it was (a negative delay), one down is drawn as it is.
  const r = revealStage(rowsCoupOf(view)) !== null ? memory.reveal : null;
  const elapsed = r ? performance.now() - r.start : 0;
  let order = 0;
  const row = (name) => {
    const data = rows[name];
    const cards = (data.cards || []).map((c) => {
      const card = ctx.cardEl(c, { small: true });
      const delay = r ? r.cards[order] - elapsed : -Infinity;
      if (delay > -REVEAL.flip) {
        card.classList.add("teq-dealt");
        card.style.animationDelay = `${Math.round(delay)}ms`;
      }
      order += 1;
      return card;
    });
    return h("div", { class: `teq-row teq-row-${name}${wins.has(name) ? " is-win" : ""}`, dataset: { row: name } },
      h("span", { class: "teq-row-name", lang: "fr" }, FRENCH[name]),
      h("div", { class: "card-row card-row-small teq-row-cards" }, cards),
      h("span", { class: "hand-value teq-total", title: `${FRENCH[name]} total`, dataset: { total: data.total } }, String(data.total)));
  };
  const calls = Array.isArray(view.calls) ? view.calls : [];
  const lastCall = view.phase === "betting" && calls.length
    ? h("span", { class: "teq-reveal-call" }, ` · ${calls[calls.length - 1].fr}`) : null;
  const caption = view.phase === "betting" ? `Last coup (${view.coup - 1})` : `Coup ${view.coup}`;
  return h("div", { class: "teq-rows", "aria-label": "The two rows" },
    h("div", { class: "teq-caption" }, h("span", { class: "muted" }, caption, lastCall), scoreCard(view, ctx)),
    row("noir"), row("rouge"));
}

function callsBlock(view, ctx) {
  const { h } = ctx;
  const calls = Array.isArray(view.calls) ? view.calls : [];
  if (!calls.length || view.phase === "betting") return null;
  // The last call (the result) is the headline itself; these are the calls before it.
  const all = [{ fr: "Rien ne va plus", en: "No more stakes" }, ...calls.slice(0, -1)];
  return h("ol", { class: "teq-calls teq-when-called", "aria-label": "The dealer's calls", "data-testid": "teq-calls" },
    all.map((c) => h("li", {}, h("span", { class: "teq-fr", lang: "fr" }, String(c.fr)), " ", h("span", { class: "teq-en" }, String(c.en)))));
}

function zone(view, ctx, chance, stakes) {
  const { h } = ctx;
  const me = mine(view);
  const stake = freeStake(me, chance);
  const chip = currentChip(view);
  const template = stakeTemplate(view, chance);
  const target = view.phase === "betting" ? stakeTarget(template, stake ? stake.amount : 0, chip) : null;
  const total = view.tableau?.[chance]?.stakes ?? 0;
  const prison = view.tableau?.[chance]?.prison ?? 0;
  const wins = winning(view);
  const classes = [`teq-zone`, `teq-${chance}`];
  if (stake) classes.push("is-mine");
  if (view.phase !== "betting" && wins.size) classes.push(wins.has(chance) ? "is-win" : "is-lose");
  const label = target !== null
    ? `${FRENCH[chance]} (${ENGLISH[chance]}): stake ${ctx.chips(target)}${stake ? ` (now ${ctx.chips(stake.amount)})` : ""}`
    : `${FRENCH[chance]} (${ENGLISH[chance]}): ${whyNot(view, chance)}`;
  const hit = h("button", {
    type: "button", class: "teq-hit", disabled: target === null, dataset: { chance },
    "aria-label": label, title: target !== null ? `Tap to stake ${ctx.chips(target)} on ${FRENCH[chance]}` : whyNot(view, chance),
    onclick: () => stakeBy(view, ctx, chance, chip),
  },
    h("span", { class: "teq-zone-mark", "aria-hidden": "true" }),
    h("span", { class: "teq-zone-name", lang: "fr" }, FRENCH[chance]),
    h("span", { class: "teq-zone-en" }, ENGLISH[chance]),
    h("span", { class: "teq-zone-total", title: "Free stakes on this chance, everyone's" }, total ? ctx.chips(total) : ""));

  const here = stakes.filter((s) => s.chance === chance);
  // Yours first; then up to a few others, the rest counted.
  here.sort((a, b) => (b.seat === view.you) - (a.seat === view.you) || b.amount - a.amount);
  const hidden = here.splice(PILLS_SHOWN);
  const pills = here.map((s) => h("span", {
    class: `teq-pill${s.seat === view.you ? " teq-pill-you" : ""}${s.result ? ` teq-pill-${s.result.tone}` : ""}`,
    dataset: { seat: s.seat, amount: s.amount },
    title: `${s.name}: ${ctx.chips(s.amount)} on ${FRENCH[chance]}${s.insured ? ", insured" : ""}${s.result ? ` — ${s.result.text}` : ""}`,
  },
    h("span", { class: "teq-pill-chip", "aria-hidden": "true" }),
    h("span", { class: "teq-pill-name" }, shortName(s.name)), " ",
    h("strong", {}, ctx.chips(s.amount)),
    s.insured ? h("span", { class: "teq-insured", title: "insured", "aria-label": "insured" }, "✓") : null,
    s.result ? h("span", { class: "teq-pill-delta teq-reveal-call" }, ` ${s.result.delta ? ctx.signed(s.result.delta) : s.result.text}`) : null));
  if (hidden.length) {
    pills.push(h("span", { class: "teq-pill", title: hidden.map((s) => `${s.name} ${ctx.chips(s.amount)}`).join(", ") },
      `+${hidden.length} more`));
  }
  if (prison) {
    pills.push(h("span", { class: "teq-pill teq-pill-prison teq-reveal-settle", title: "Stakes in prison on this chance" },
      h("span", { class: "teq-prison-word" }, "prison"), " ", ctx.chips(prison)));
  }

  const tools = [];
  if (stake && view.phase === "betting" && !me?.done) {
    tools.push(h("button", { type: "button", class: "btn btn-chip teq-tool", dataset: { tool: "lower", chance },
      title: `Take ${ctx.chips(chip)} off`, "aria-label": `Lower the ${FRENCH[chance]} stake by ${ctx.chips(chip)}`,
      onclick: () => stakeBy(view, ctx, chance, -chip) }, `−${ctx.chips(chip)}`));
    if (templates(view, "remove").some((t) => choices(t, "chance").includes(chance))) {
      tools.push(h("button", { type: "button", class: "btn btn-chip teq-tool", dataset: { tool: "remove", chance },
        "aria-label": `Remove the ${FRENCH[chance]} stake`, title: "Remove this stake",
        onclick: () => ctx.act({ kind: "remove", chance }) }, "✕"));
    }
    if (templates(view, "insure").some((t) => choices(t, "chance").includes(chance))) {
      const premium = Math.ceil(stake.amount / 100);
      tools.push(h("button", { type: "button", class: "btn btn-chip teq-tool", dataset: { tool: "insure", chance },
        title: `Insurance: 1% of the stake (${ctx.chips(premium)}), paid to the house; an un après then leaves this stake untouched`,
        "aria-label": `Insure the ${FRENCH[chance]} stake for ${ctx.chips(premium)}`,
        onclick: () => ctx.act({ kind: "insure", chance }) }, `Insure ${ctx.chips(premium)}`));
    }
  }
  return h("div", { class: classes.join(" "), dataset: { chance } },
    hit,
    h("div", { class: "teq-pills" }, pills),
    tools.length ? h("div", { class: "teq-tools" }, tools) : null);
}

function chipSelector(view, ctx) {
  const { h } = ctx;
  const me = mine(view);
  if (!me || view.phase !== "betting" || me.done) return null;
  const chip = currentChip(view);
  const values = chipValues(view.limits);
  return h("div", { class: "teq-chips", role: "group", "aria-label": "Chip value: how much one tap stakes" },
    h("span", { class: "teq-chips-label muted small" }, "Chip"),
    values.map((v) => h("button", {
      type: "button", class: `teq-chip${v === chip ? " is-on" : ""}`, "aria-pressed": String(v === chip),
      dataset: { chip: v }, title: `Each tap on a chance stakes ${ctx.chips(v)} more`,
      onclick: (event) => {
        memory.chip = v;
        const group = event.currentTarget.parentElement;
        for (const b of group.querySelectorAll(".teq-chip")) {
          const on = Number(b.dataset.chip) === v;
          b.classList.toggle("is-on", on);
          b.setAttribute("aria-pressed", String(on));
        }
        refreshZones(view, ctx, event.currentTarget.closest(".teq"));
      },
    }, ctx.chips(v))),
    h("span", { class: "teq-free small", title: "Your chips not yet at stake" },
      "Free ", h("strong", { class: "teq-stack teq-reveal-settle" }, ctx.chips(me.free_chips ?? me.stack))));
}

/** After another chip is chosen: the zones' labels and tools say the new amounts. */
function refreshZones(view, ctx, root) {
  const tableau = root?.querySelector(".teq-tableau");
  if (!tableau) return;
  tableau.replaceWith(tableauBlock(view, ctx));
}

function tableauBlock(view, ctx) {
  const stakes = shownStakes(view, ctx);
  return ctx.h("div", { class: "teq-tableau", "aria-label": "The tableau: tap a chance to stake", "data-testid": "teq-tableau" },
    CHANCES.map((c) => zone(view, ctx, c, stakes)));
}

function unApresBlock(view, ctx) {
  const { h } = ctx;
  if (view.phase !== "un_apres") return null;
  const pending = Array.isArray(view.un_apres) ? view.un_apres : [];
  const levels = view.limits?.max_apres;
  const yours = pending.filter((u) => u.seat === view.you);
  const can = (kind, chance) => templates(view, kind).some((t) => choices(t, "chance").includes(chance));
  const others = new Map();
  for (const u of pending.filter((x) => x.seat !== view.you)) {
    const name = bettorName(view, ctx, u.seat);
    others.set(name, [...(others.get(name) || []), `${FRENCH[u.chance] || u.chance} ${ctx.chips(u.amount)}`]);
  }
  return h("div", { class: "teq-apres teq-when-called", role: "region", "aria-label": "Un après: share or prison", "data-testid": "teq-apres" },
    h("p", { class: "teq-apres-title" }, h("strong", { lang: "fr" }, "Un après"),
      " — both rows made 31. Insured stakes are untouched; the owner of every other stake chooses:"),
    h("ul", { class: "teq-apres-rules" },
      h("li", {}, h("strong", {}, "Share"), ": half the stake (rounded down) comes back now; the house keeps the rest."),
      h("li", {}, h("strong", {}, "Prison"), `: the whole stake stays on its chance, level 1${levels ? ` of ${levels}` : ""}. `,
        "If that chance wins the next coup the stake comes back (without winnings); if it loses, the stake is lost. ",
        "No choice before the clock runs out: prison.")),
    typeof view.deadline === "number" ? clockBar(h, view.deadline, "Prison by default in") : null,
    yours.length
      ? h("ul", { class: "teq-apres-list" }, yours.map((u) => {
          const name = FRENCH[u.chance] || u.chance;
          const back = Math.floor(u.amount / 2);
          return h("li", { class: "is-you", dataset: { chance: u.chance } },
            h("span", {}, "Your ", h("strong", {}, ctx.chips(u.amount)), ` on ${name}:`),
            can("share", u.chance) ? h("button", { type: "button", class: "btn btn-small btn-neutral", dataset: { apres: "share", chance: u.chance },
              onclick: () => ctx.act({ kind: "share", chance: u.chance }) }, `Share: ${ctx.chips(back)} back`) : null,
            can("prison", u.chance) ? h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { apres: "prison", chance: u.chance },
              onclick: () => ctx.act({ kind: "prison", chance: u.chance }) }, `Prison: ${ctx.chips(u.amount)} stays on ${name}`) : null);
        }))
      : null,
    others.size
      ? h("p", { class: "teq-apres-others muted" }, "Choosing: ",
          [...others].map(([name, list], i) => [i ? "; " : "", h("strong", {}, name), ` (${list.join(", ")})`]))
      : null);
}

/** A bar that empties until `deadline`, with "<label> N s" on it. */
function clockBar(h, deadline, label) {
  return h("div", { class: "teq-clock", dataset: { deadline: String(deadline), label }, role: "timer", "aria-label": label },
    h("span", { class: "teq-clock-bar" }), h("span", { class: "teq-clock-text" }, ""));
}

function bettorName(view, ctx, seat) {
  const b = bettorsOf(view).find((x) => x.seat === seat);
  return b ? nameOf(b, view, ctx) : ctx.seatName(seat);
}

function prisonBlock(view, ctx) {
  const { h } = ctx;
  const held = bettorsOf(view).flatMap((b) => (b.prison || []).map((p) => ({ ...p, seat: b.seat, name: nameOf(b, view, ctx) })));
  if (!held.length) return null;
  const moves = new Map(templates(view, "move_prison").map((t) => [choices(t, "stake")[0], choices(t, "to")]));
  const levels = view.limits?.max_apres;
  return h("div", { class: "teq-prison teq-reveal-settle", role: "region", "aria-label": "Stakes in prison", "data-testid": "teq-prison" },
    h("p", { class: "teq-section-title" }, h("span", { lang: "fr" }, "En prison"),
      h("span", { class: "muted small" }, " · freed when its chance wins, lost when it loses")),
    h("ul", { class: "teq-prison-list" }, held.map((p) => {
      const to = moves.get(p.id) || [];
      return h("li", { class: p.seat === view.you ? "is-you" : "", dataset: { stake: p.id } },
        h("strong", {}, p.name), ` ${ctx.chips(p.amount)} on `, h("span", { class: `teq-word teq-word-${p.chance}` }, FRENCH[p.chance] || p.chance),
        h("span", { class: "teq-level", title: "Prison level: each un après puts it one deeper; a win moves it one up" },
          `level ${p.level}${levels ? `/${levels}` : ""}`),
        to.length ? h("span", { class: "teq-move" }, h("span", { class: "muted small" }, "move to"),
          to.map((c) => h("button", { type: "button", class: "btn btn-chip", dataset: { moveTo: c },
            onclick: () => ctx.act({ kind: "move_prison", stake: p.id, to: c }) }, FRENCH[c] || c))) : null);
    })));
}

function standingBlock(view, ctx) {
  const { h } = ctx;
  const standing = bettorsOf(view).filter((b) => b.role === "standing");
  const t = view.table || {};
  const seated = view.you !== null && view.you !== undefined;
  const room = typeof t.standing_room === "number" ? t.standing_room : 0;
  const canStand = !seated && room > 0 && t.status !== "closed";
  if (!standing.length && !canStand) return null;
  const tableSeats = Number.isInteger(t.table_seats) ? t.table_seats : 7;
  const taken = new Set(bettorsOf(view).map((b) => b.seat));
  const onStand = () => {
    // Standing positions are seat numbers from the table's seats up; with no seat free the
    // server picks one itself (seat null).
    const free = Array.isArray(t.free_seats) && t.free_seats.length > 0;
    let place = null;
    if (free) for (place = tableSeats; taken.has(place); place += 1);
    ctx.sit(place, "Bet standing");
  };
  return h("div", { class: "teq-standing", role: "region", "aria-label": "Standing bettors" },
    h("p", { class: "teq-section-title" }, "Standing",
      h("span", { class: "muted small" }, ` · ${standing.length} bettor${standing.length === 1 ? "" : "s"} behind the seats`)),
    standing.length
      ? h("ul", { class: "teq-standing-list" }, standing.map((b) => h("li", { class: b.seat === view.you ? "is-you" : "", dataset: { seat: b.seat, stack: b.stack } },
          h("strong", {}, nameOf(b, view, ctx)), " ", h("span", { class: "muted teq-stack teq-reveal-settle" }, ctx.chips(b.stack)),
          (b.stakes || []).map((s) => h("span", { class: `teq-mini teq-mini-${s.chance}` }, `${FRENCH[s.chance]} ${ctx.chips(s.amount)}`)))))
      : null,
    canStand ? h("button", { type: "button", class: "btn btn-small btn-sit teq-stand", "data-testid": "bet-standing", onclick: onStand },
      "Bet standing") : null);
}

function scoreCard(view, ctx) {
  const { h } = ctx;
  const history = Array.isArray(view.history) ? view.history.slice(-HISTORY_SHOWN) : [];
  if (!history.length) return null;
  // The coup being revealed is the card's last entry (a void coup has none): it waits for the call.
  const waits = revealStage(rowsCoupOf(view)) !== null && !view.result?.void;
  return h("span", { class: "teq-score", "aria-label": "The last coups, oldest first" },
    history.map((r, i) => {
      const extra = waits && i === history.length - 1 ? " teq-reveal-call" : "";
      if (r.tie) return h("span", { class: `teq-score-tie${extra}`, title: `${r.noir}–${r.rouge}: ${r.tie === "un_apres" ? "un après" : "après"}` }, "=");
      const text = `${r.winner === "rouge" ? "R" : "N"}${r.colour === "couleur" ? "c" : "i"}`;
      return h("span", { class: `teq-score-${r.winner}${extra}`, title: `Noir ${r.noir}, Rouge ${r.rouge}: ${FRENCH[r.winner]} and ${FRENCH[r.colour]}` }, text);
    }));
}

function factsBlock(view, ctx) {
  const { h } = ctx;
  const l = view.limits || {};
  const parts = [];
  if (Number.isInteger(l.min_stake)) {
    parts.push(h("span", { title: "The table's limits per chance; the house must also cover every stake (a stake it cannot cover is refused)" },
      `Limits ${ctx.chips(l.min_stake)}–${ctx.chips(l.max_stake)} a chance (within the house's cover)`));
  }
  if (l.insurance) parts.push("insurance 1%");
  if (l.max_apres) parts.push(`prison ${l.max_apres} levels`);
  if (view.shoe && typeof view.shoe.cards_left === "number" && view.shoe.cards_left) parts.push(`shoe ${view.shoe.cards_left}`);
  return h("p", { class: "facts muted small teq-facts" }, parts.flatMap((part, i) => (i ? [" · ", part] : [part])));
}

// ------------------------------------------------------------------ the clock

setInterval(() => {
  for (const el of document.querySelectorAll(".teq-clock[data-deadline]")) {
    const deadline = Number(el.dataset.deadline);
    if (!memory.clockStart.has(deadline)) {
      if (memory.clockStart.size > 50) memory.clockStart.clear();
      memory.clockStart.set(deadline, clock.now());
    }
    const start = memory.clockStart.get(deadline);
    const left = Math.max(0, deadline - clock.now());
    const whole = Math.max(1, deadline - start);
    el.querySelector(".teq-clock-bar").style.width = `${Math.min(100, (left / whole) * 100).toFixed(1)}%`;
    const label = el.dataset.label || "";
    el.querySelector(".teq-clock-text").textContent = left > 0 ? `${label} ${Math.ceil(left)} s` : label.replace(/ in$/, "");
    el.classList.toggle("is-urgent", left <= 5);
  }
}, 250);

// ------------------------------------------------------------------ the module

function remember(view, ctx) {
  if (view.phase === "betting") {
    memory.window = {
      coup: view.coup,
      stakes: bettorsOf(view).flatMap((b) => (b.stakes || []).map((s) => ({
        seat: b.seat, name: nameOf(b, { ...view, you: null }, ctx), chance: s.chance, amount: s.amount, insured: s.insured,
      }))),
    };
  }
}

function stakeLines(prev, view, ctx) {
  const lines = [];
  const before = new Map(bettorsOf(prev).map((b) => [b.seat, b]));
  for (const b of bettorsOf(view)) {
    const old = before.get(b.seat);
    const who = nameOf(b, { ...view, you: null }, ctx);
    if (view.phase === "betting" && prev.phase === "betting") {
      for (const chance of CHANCES) {
        const a = freeStake(old, chance);
        const n = freeStake(b, chance);
        if (!a && n) lines.push(`${who} stakes ${ctx.chips(n.amount)} on ${FRENCH[chance]}.`);
        else if (a && !n) lines.push(`${who} takes the ${FRENCH[chance]} stake back.`);
        else if (a && n && a.amount !== n.amount) lines.push(`${who} changes ${FRENCH[chance]} to ${ctx.chips(n.amount)}.`);
        if (a && n && !a.insured && n.insured) lines.push(`${who} insures ${FRENCH[chance]} (${ctx.chips(n.premium)}).`);
      }
      if (!old?.done && b.done && old) lines.push(`${who}: stakes set.`);
    }
    const oldPrison = new Map((old?.prison || []).map((p) => [p.id, p]));
    for (const p of b.prison || []) {
      const was = oldPrison.get(p.id);
      if (was && was.chance !== p.chance) lines.push(`${who} moves ${ctx.chips(p.amount)} in prison from ${FRENCH[was.chance]} to ${FRENCH[p.chance]}.`);
      if (!was && prev.phase === "un_apres") lines.push(`${who} puts ${ctx.chips(p.amount)} on ${FRENCH[p.chance]} in prison.`);
    }
  }
  if (prev.phase === "un_apres") {
    for (const u of prev.un_apres || []) {
      const still = (view.un_apres || []).some((x) => x.seat === u.seat && x.chance === u.chance);
      const jailed = bettorsOf(view).find((b) => b.seat === u.seat)?.prison?.some((p) => p.chance === u.chance && p.level === 1);
      if (!still && !jailed) lines.push(`${bettorName({ ...prev, you: null }, ctx, u.seat)} shares the ${FRENCH[u.chance]} stake: ${ctx.chips(Math.floor(u.amount / 2))} back.`);
    }
  }
  return lines;
}

export default {
  labels: {
    done: "My stakes are set",
    share: "Share (half back)",
    prison: "Prison",
    stake: "Stake",
    remove: "Remove stake",
    insure: "Insure (1%)",
    move_prison: "Move from prison",
  },

  valueLabel(kind, param, value, view) {
    if (param === "chance" || param === "to") {
      const name = FRENCH[value] || null;
      if (!name) return null;
      if ((kind === "share" || kind === "prison") && view) {
        const u = (view.un_apres || []).find((x) => x.seat === view.you && x.chance === value);
        if (u) return kind === "share" ? `${name} ${u.amount}: ${Math.floor(u.amount / 2)} back` : `${name} ${u.amount}`;
      }
      return name;
    }
    return null;
  },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    remember(view, ctx);
    noteDeal(view);
    const root = h("section", { class: "teq", "aria-label": "Trente et Quarante", dataset: { phase: view.phase } },
      h("div", { class: "teq-top" }, headline(view, ctx), rowsBlock(view, ctx)));
    for (const block of [unApresBlock(view, ctx), chipSelector(view, ctx), tableauBlock(view, ctx),
      prisonBlock(view, ctx), standingBlock(view, ctx), factsBlock(view, ctx)]) {
      if (block) root.append(block);
    }
    markStage(root, revealStage(rowsCoupOf(view)));
    el.append(root);
    syncReveal();
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    const b = bettorsOf(view).find((x) => x.seat === seat.seat) || seat;
    for (const s of b.stakes || []) {
      el.append(h("span", { class: `teq-mini teq-mini-${s.chance}`, title: `${ctx.chips(s.amount)} on ${FRENCH[s.chance]}${s.insured ? ", insured" : ""}` },
        `${FRENCH[s.chance]} ${ctx.chips(s.amount)}${s.insured ? " ✓" : ""}`));
    }
    for (const p of b.prison || []) {
      el.append(h("span", { class: "teq-mini teq-mini-prison teq-reveal-settle", title: `In prison on ${FRENCH[p.chance]}, level ${p.level}` },
        `${FRENCH[p.chance]} ${ctx.chips(p.amount)} · prison ${p.level}`));
    }
    if (view.phase === "betting" && b.done) el.append(h("span", { class: "tag" }, "set"));
    if ((view.un_apres || []).some((u) => u.seat === seat.seat)) el.append(h("span", { class: "tag tag-offer teq-reveal-call" }, "choosing"));
  },

  describeChanges(prev, view, ctx) {
    const lines = [];
    if (!prev) return lines;
    lines.push(...stakeLines(prev, view, ctx));
    if (view.phase === "betting" && prev.phase !== "betting") lines.push(`Faites vos jeux — coup ${view.coup}.`);
    const dealt = prev.phase === "betting" && view.phase !== "betting" && view.rows;
    if (dealt) {
      lines.push("Rien ne va plus.");
      // The rows and the calls are written as the coup is revealed (after "Rien ne va plus.").
      const coupLines = [];
      for (const name of ["noir", "rouge"]) {
        const row = view.rows[name];
        coupLines.push(`${FRENCH[name]}: ${(row.cards || []).map((c) => ctx.cardText(c.card)).join(" ")} = ${row.total}.`);
      }
      for (const c of view.calls || []) coupLines.push(`« ${c.fr} » — ${c.en}.`);
      memory.logLines = { coup: view.coup, lines: coupLines };
    }
    return lines;
  },
};
