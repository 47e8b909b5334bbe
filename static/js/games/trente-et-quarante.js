// Trente et Quarante (docs/rules.md §4): the tableau and its four chances, the two rows, the dealer's
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
// This module draws the centre (the call, the rows, the score card) and the seats' extras, and
// puts the game's events in words. In trente-et-quarante/: the tableau (tableau.js), the reveal
// of a dealt coup card by card (reveal.js), the panels below the tableau: un après, prison,
// standing bettors, the clocks (panels.js), and the words and view readers they share
// (common.js).
import { t } from "../i18n.js";
import { FRENCH, bettorsOf, callWords, rienNeVaPlus, winning } from "./trente-et-quarante/common.js";
import { clockBar, prisonBlock, standingBlock, unApresBlock } from "./trente-et-quarante/panels.js";
import { chipSelector, rememberWindow, tableauBlock } from "./trente-et-quarante/tableau.js";
import {
  REVEAL, currentReveal, markStage, noteDeal, queueCoupLines, revealStage, rowsCoupOf, stackShown, syncReveal,
} from "./trente-et-quarante/reveal.js";

const HISTORY_SHOWN = 12;

/** What the page remembers between views: the coup's log as its events come, the stacks of the
 *  last view. */
const memory = {
  coupLog: null, // {rows, totals, calls}: the coup's cards and calls, from its events
  stacks: new Map(), // seat → stack, as the last view drawn had them
};

// ------------------------------------------------------------------ drawing

function headline(view, ctx) {
  const { h } = ctx;
  const calls = Array.isArray(view.calls) ? view.calls : [];
  let fr = "";
  let en = "";
  let tone = "";
  if (view.phase === "betting") {
    fr = "Faites vos jeux";
    en = typeof view.deadline === "number" ? t("Place your stakes: the window closes when the clock runs out") : t("Place your stakes: the clock starts with the first stake");
    tone = "open";
  } else if (view.phase === "un_apres") {
    fr = "Un après";
    en = t("31 and 31: each uninsured stake is shared with the house or goes to prison");
    tone = "apres";
  } else if (view.rows && calls.length) {
    const result = calls[calls.length - 1];
    fr = result.fr;
    en = callWords(result.en);
    tone = "result";
  } else {
    fr = "Messieurs, faites vos jeux";
    en = bettorsOf(view).length ? t("The next coup opens in a moment") : t("Waiting for bettors: sit down or bet standing");
  }
  const timer = view.phase === "betting" && typeof view.deadline === "number"
    ? clockBar(h, view.deadline, t("Rien ne va plus in {seconds} s"), t("Rien ne va plus")) : null;
  // While the coup is revealed, the dealer's "Rien ne va plus" stands until the call.
  const revealing = view.phase !== "betting" && revealStage(rowsCoupOf(view)) !== null;
  return h("div", { class: `teq-head teq-head-${tone || "idle"}`, "data-testid": "teq-headline" },
    revealing ? h("div", { class: "teq-until-call" },
      h("p", { class: "teq-call teq-call-pending", lang: "fr" }, "Rien ne va plus"),
      h("p", { class: "teq-call-en" }, t("No more stakes: the cards are turned"))) : null,
    h("p", { class: `teq-call${revealing ? " teq-when-called" : ""}`, lang: "fr" }, fr),
    h("p", { class: `teq-call-en${revealing ? " teq-when-called" : ""}` }, en),
    timer, callsBlock(view, ctx));
}

function rowsBlock(view, ctx) {
  const { h } = ctx;
  const rows = view.rows;
  if (!rows?.noir || !rows.rouge) return null;
  const wins = winning(view);
  // While the coup is revealed each card turns at its moment: one still to come waits face
  // down, one turning goes on from where it was (a negative delay), one down is drawn as it is.
  const r = revealStage(rowsCoupOf(view)) !== null ? currentReveal() : null;
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
      h("span", { class: "hand-value teq-total", title: t("{row} total", { row: FRENCH[name] }), dataset: { total: data.total } }, String(data.total)));
  };
  const calls = Array.isArray(view.calls) ? view.calls : [];
  const lastCall = view.phase === "betting" && calls.length
    ? h("span", { class: "teq-reveal-call" }, " · ", h("span", { lang: "fr" }, calls[calls.length - 1].fr)) : null;
  const caption = view.phase === "betting" ? t("Last coup ({number})", { number: view.coup - 1 }) : t("Coup {number}", { number: view.coup });
  return h("div", { class: "teq-rows", "aria-label": t("The two rows") },
    h("div", { class: "teq-caption" }, h("span", { class: "muted" }, caption, lastCall), scoreCard(view, ctx)),
    row("noir"), row("rouge"));
}

function callsBlock(view, ctx) {
  const { h } = ctx;
  const calls = Array.isArray(view.calls) ? view.calls : [];
  if (!calls.length || view.phase === "betting") return null;
  // The last call (the result) is the headline itself; these are the calls before it.
  const all = [{ fr: "Rien ne va plus", en: "No more stakes" }, ...calls.slice(0, -1)];
  return h("ol", { class: "teq-calls teq-when-called", "aria-label": t("The dealer's calls"), "data-testid": "teq-calls" },
    all.map((c) => h("li", {}, h("span", { class: "teq-fr", lang: "fr" }, String(c.fr)), " ", h("span", { class: "teq-en" }, callWords(c.en)))));
}

function scoreCard(view, ctx) {
  const { h } = ctx;
  const history = Array.isArray(view.history) ? view.history.slice(-HISTORY_SHOWN) : [];
  if (!history.length) return null;
  // The coup being revealed is the card's last entry (a void coup has none): it waits for the call.
  const waits = revealStage(rowsCoupOf(view)) !== null && !view.result?.void;
  return h("span", { class: "teq-score", "aria-label": t("The last coups, oldest first") },
    history.map((r, i) => {
      const extra = waits && i === history.length - 1 ? " teq-reveal-call" : "";
      if (r.tie) {
        const totals = { noir: r.noir, rouge: r.rouge };
        return h("span", { class: `teq-score-tie${extra}`, title: r.tie === "un_apres" ? t("{noir}–{rouge}: un après", totals) : t("{noir}–{rouge}: après", totals) }, "=");
      }
      const text = `${r.winner === "rouge" ? "R" : "N"}${r.colour === "couleur" ? "c" : "i"}`;
      return h("span", { class: `teq-score-${r.winner}${extra}`,
        title: t("Noir {noir}, Rouge {rouge}: {winner} and {colour}", { noir: r.noir, rouge: r.rouge, winner: FRENCH[r.winner], colour: FRENCH[r.colour] }) }, text);
    }));
}

function factsBlock(view, ctx) {
  const { h } = ctx;
  const l = view.limits || {};
  const parts = [];
  if (Number.isInteger(l.min_stake)) {
    parts.push(h("span", { title: t("The table's limits per chance; the house must also cover every stake (a stake it cannot cover is refused)") },
      t("Limits {least}–{most} a chance (within the house's cover)", { least: ctx.chips(l.min_stake), most: ctx.chips(l.max_stake) })));
  }
  if (l.insurance) parts.push(t("insurance 1%"));
  if (l.max_apres) parts.push(t("prison {levels} levels", { levels: l.max_apres }));
  if (view.shoe && typeof view.shoe.cards_left === "number" && view.shoe.cards_left) parts.push(t("shoe {count}", { count: view.shoe.cards_left }));
  return h("p", { class: "facts muted small teq-facts" }, parts.flatMap((part, i) => (i ? [" · ", part] : [part])));
}

// ------------------------------------------------------------------ the module

/** The dock's hints, drawn by the game's stylesheet (static/css/games/trente-et-quarante.css,
 *  `content: var(--teq-hint-…)`) beside the table's controls: the words in the reader's
 *  language, set once on the page as CSS strings. */
function setDockHints() {
  const page = document.getElementById("table-page");
  if (!page || page.dataset.teqHints) return;
  const hints = {
    "--teq-hint-choose": t("Choose a chip, then tap a chance on the tableau to stake it."),
    "--teq-hint-change": t("Tap the tableau to change your stakes, or:"),
    "--teq-hint-apres": t("Un après: share or prison? Choose on the table above."),
  };
  for (const [name, words] of Object.entries(hints)) page.style.setProperty(name, JSON.stringify(words));
  page.dataset.teqHints = "set";
}

/** Each bettor's stack in a view (seated and standing). */
const stacksOf = (view) => new Map(bettorsOf(view).filter((b) => typeof b.stack === "number").map((b) => [b.seat, b.stack]));

export default {
  labels: {
    done: t("My stakes are set"),
    share: t("Share (half back)"),
    prison: t("Prison"),
    stake: t("Stake"),
    remove: t("Remove stake"),
    insure: t("Insure (1%)"),
    move_prison: t("Move from prison"),
  },

  valueLabel(kind, param, value, view) {
    if (param === "chance" || param === "to") {
      const name = FRENCH[value] || null;
      if (!name) return null;
      if ((kind === "share" || kind === "prison") && view) {
        const u = (view.un_apres || []).find((x) => x.seat === view.you && x.chance === value);
        if (u) return kind === "share" ? t("{chance} {amount}: {back} back", { chance: name, amount: u.amount, back: Math.floor(u.amount / 2) }) : `${name} ${u.amount}`;
      }
      return name;
    }
    return null;
  },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    setDockHints();
    rememberWindow(view, ctx);
    const before = memory.stacks;
    memory.stacks = stacksOf(view);
    noteDeal(view, before);
    const root = h("section", { class: "teq", "aria-label": t("Trente et Quarante"), dataset: { phase: view.phase } },
      h("div", { class: "teq-top" }, headline(view, ctx), rowsBlock(view, ctx)));
    for (const block of [unApresBlock(view, ctx), chipSelector(view, ctx), tableauBlock(view, ctx),
      prisonBlock(view, ctx), standingBlock(view, ctx), factsBlock(view, ctx)]) {
      if (block) root.append(block);
    }
    markStage(root, revealStage(rowsCoupOf(view)));
    el.append(root);
    syncReveal();
  },

  stackShown(seat) {
    return stackShown(seat.seat, seat.stack);
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    const b = bettorsOf(view).find((x) => x.seat === seat.seat) || seat;
    for (const s of b.stakes || []) {
      const on = { chips: ctx.chips(s.amount), chance: FRENCH[s.chance] };
      el.append(h("span", { class: `teq-mini teq-mini-${s.chance}`, title: s.insured ? t("{chips} on {chance}, insured", on) : t("{chips} on {chance}", on) },
        h("span", { lang: "fr" }, FRENCH[s.chance]), ` ${ctx.chips(s.amount)}${s.insured ? " ✓" : ""}`));
    }
    for (const p of b.prison || []) {
      el.append(h("span", { class: "teq-mini teq-mini-prison teq-reveal-settle", title: t("In prison on {chance}, level {level}", { chance: FRENCH[p.chance], level: p.level }) },
        t("{chance} {chips} · prison {level}", { chance: FRENCH[p.chance], chips: ctx.chips(p.amount), level: p.level })));
    }
    if (view.phase === "betting" && b.done) el.append(h("span", { class: "tag" }, t("set")));
    if ((view.un_apres || []).some((u) => u.seat === seat.seat)) el.append(h("span", { class: "tag tag-offer teq-reveal-call" }, t("choosing")));
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const chance = (c) => FRENCH[c] || c;
    switch (event.kind) {
      case "faites_vos_jeux": return t("Faites vos jeux — coup {number}.", { number: event.coup });
      case "burn": return null;
      case "stake": return t("{name} stakes {chips} on {chance}.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "remove": return t("{name} takes the {chance} stake back.", { name: who, chance: chance(event.chance) });
      case "insure": return t("{name} insures {chance} ({chips}).", { name: who, chance: chance(event.chance), chips: ctx.chips(event.premium) });
      case "move_prison": return t("{name} moves a stake in prison from {from} to {to}.", { name: who, from: chance(event.chance), to: chance(event.to) });
      case "done": return t("{name}: stakes set.", { name: who });
      case "rien_ne_va_plus":
        memory.coupLog = { rows: { noir: [], rouge: [] }, totals: {}, calls: [] };
        return rienNeVaPlus();
      case "card":
      case "call": {
        // The rows and the calls: written as the coup is revealed (after "Rien ne va plus.")
        // on the live table; at once in the replay.
        memory.coupLog ??= { rows: { noir: [], rouge: [] }, totals: {}, calls: [] };
        const log = memory.coupLog;
        let line;
        if (event.kind === "card") {
          log.rows[event.row] ??= [];
          log.rows[event.row].push(event.card);
          log.totals[event.row] = event.total;
          line = t("{row}: {card} ({total}).", { row: chance(event.row), card: ctx.cardText(event.card), total: event.total });
        } else {
          line = t("« {fr} » — {call}.", { fr: event.fr, call: callWords(event.en) });
          log.calls.push(line);
        }
        if (!ctx.live) return line;
        const lines = ["noir", "rouge"].filter((r) => log.rows[r]?.length)
          .map((r) => t("{row}: {cards} = {total}.", { row: FRENCH[r], cards: log.rows[r].map(ctx.cardText).join(" "), total: log.totals[r] }));
        const view = ctx.view || {};
        queueCoupLines(rowsCoupOf(view), [...lines, ...log.calls]);
        return null;
      }
      case "un_apres_choice": return t("Un après: {names} to choose: share or prison.", { names: (event.seats || []).map(ctx.seatName).join(", ") });
      case "share": return t("{name} shares the {chance} stake: {chips} back.", { name: who, chance: chance(event.chance), chips: ctx.chips(event.returned) });
      case "prison": return t("{name} puts {chips} on {chance} in prison.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "prison_up": return t("{name}'s {chips} in prison on {chance} moves up a level.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "prison_freed": return t("{name}'s {chips} on {chance} is freed from prison.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "prison_lost": return t("{name}'s {chips} in prison on {chance} is lost.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "prison_deeper": return t("{name}'s {chips} on {chance} goes deeper in prison.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "prison_shared": return t("{name}'s {chips} in prison on {chance} is shared.", { name: who, chips: ctx.chips(event.amount), chance: chance(event.chance) });
      case "prison_returned": return t("{name}'s {chips} in prison comes back (end of the shoe).", { name: who, chips: ctx.chips(event.amount) });
      default: return undefined;
    }
  },
};
