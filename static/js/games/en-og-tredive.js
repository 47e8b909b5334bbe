// En og tredive (docs/rules.md §5): your hand, large, where you pick your discards in order; the
// stock and the discard pile (the top card takeable, every card viewable); the pot; each
// player's bets as chips; the cut for the deal, the deck's cut or knock, the dealing pattern,
// the knock, and how each round and match ended.
// View fields used: phase, turn, dealer, cutter, knocker, pot, bet_unit, stock, discard, cut
// {draws[{seat, cards}], dealer}, deck {cut, pattern}, match {number, round, in, out, knocking},
// status_coded; per seat: role, bets, knocked, hands[{cards, stake, size, value, drawn}].
// Actions go out through ctx.act and always fit a template of `legal` (draw, discard); the dock
// keeps the cut, the deal, the draw and the knock as generated buttons.
//
// Your hand and your discards: en-og-tredive/hand.js; the view's readers and the hand values:
// en-og-tredive/reading.js.
// Its words are the reader's (static/js/i18n.js); how a round ended is the engine's status, a
// code for each line (worded by engine-words.js, read here to tell the lines apart).
import { cardLabel } from "../cards.js";
import { said } from "../engine-words.js";
import { t, tn } from "../i18n.js";
import { handBlock } from "./en-og-tredive/hand.js";
import { cardsOf, chipStack, handOf, handValue, isYou, templateOf, who } from "./en-og-tredive/reading.js";

export { handValue } from "./en-og-tredive/reading.js";

const PATTERNS = {
  "1-1-1": t("One at a time (1-1-1)"), "2-1": t("Two, then one (2-1)"), "1-2": t("One, then two (1-2)"), 3: t("Three at a time"),
};
/** How the deck was dealt, in the deal's line. */
const DEALT = {
  "1-1-1": () => t("dealt one at a time (1-1-1)"), "2-1": () => t("dealt two, then one (2-1)"),
  "1-2": () => t("dealt one, then two (1-2)"), 3: () => t("dealt three at a time"),
};
const BETWEEN = new Set(["between_rounds", "between_matches"]);
/** Between the names of a tie: "Ada and Bob and Cleo". */
const AND_WORD = t("and");
const AND = ` ${AND_WORD} `;
const PILE_FANNED = 9;

/** What the page remembers: the last round's end, the discard pile's list. */
const memory = {
  lastResult: null, // {lines: [text], hands: [{name, cards, value}]}
  pileOpen: false, // the whole discard pile is listed
  pileRound: null, // the round (or the pause after it) the list was opened in
};

// ------------------------------------------------------------------ the headline

function headline(view, ctx) {
  const actor = view.turn;
  const yours = isYou(view, actor);
  // after a knock, the line goes on: " — Ada knocked: last turns"
  let knock = "";
  if (Number.isInteger(view.knocker)) {
    const knocked = isYou(view, view.knocker) ? t("You knocked: last turns") : t("{name} knocked: last turns", { name: ctx.seatName(view.knocker) });
    knock = ` — ${knocked}`;
  }
  const name = Number.isInteger(actor) ? who(view, ctx, actor) : "";
  switch (view.phase) {
    case "cut":
      return yours ? t("Your cut: cut the deck, or knock on it (then it is dealt three at a time)")
        : t("{name} cuts the deck, or knocks on it", { name });
    case "deal":
      return yours ? t("You deal: one or two cards at a time?") : t("{name} deals", { name });
    case "draw": {
      if (!yours) return t("{name} to take a card{knock}", { name, knock });
      return templateOf(view, "knock")
        ? t("Your turn: take the top discard or a card from the stock, or knock{knock}", { knock })
        : t("Your turn: take the top discard or a card from the stock{knock}", { knock });
    }
    case "discard":
      return yours ? t("Your discard: tap the cards — the last picked goes on top{knock}", { knock })
        : t("{name} discards{knock}", { name, knock });
    case "between_rounds":
    case "between_matches": {
      const result = resultOf(view, ctx);
      const won = result?.find((line) => MATCH_WON.has(line.code));
      if (result) return won ? won.text : t("Round over");
      return view.phase === "between_rounds" ? t("Next round in a moment") : t("Waiting for players: two or more with a match's bets");
    }
    default:
      return said(view.status_coded, ctx, view.status);
  }
}

// ------------------------------------------------------------------ the round's end

/** How the last round ended, a line for each of the status's (`en-og-tredive.round_over`:
 *  "Seat 0 knocked", "seat 0 pays 2", "seat 1 is out"), each {code, text}. */
function resultOf(view, ctx) {
  const status = view.status_coded;
  if (!BETWEEN.has(view.phase) || status?.code !== "en-og-tredive.round_over") return null;
  const coded = Array.isArray(status.values?.lines) ? status.values.lines : [];
  const lines = coded.map((line) => ({ code: line?.code, text: said(line, ctx) }));
  if (lines[0]?.code === "en-og-tredive.knocked" && !lines.some((line) => PAYING.has(line.code))) {
    lines.push({ code: null, text: NOBODY_PAYS });
  }
  return lines;
}

/** The line a knock without payment ends on (the client's, among the engine's lines). */
const NOBODY_PAYS = t("Nobody pays");
/** The lines of a round's end that say someone paid (or could not). */
const PAYING = new Set(["en-og-tredive.pays", "en-og-tredive.out", "en-og-tredive.no_bet_left"]);
/** The lines that say the match is won. */
const MATCH_WON = new Set(["en-og-tredive.wins_match", "en-og-tredive.coup_d_etat"]);
/** The lines that say someone is out of the match (or has nothing left to pay with). */
const OUT = new Set(["en-og-tredive.out", "en-og-tredive.no_bet_left"]);

function resultBlock(view, ctx) {
  const { h } = ctx;
  const lines = resultOf(view, ctx);
  if (lines) memory.lastResult = { lines, hands: shownHands(view, ctx) };
  const last = lines ? memory.lastResult : ["cut", "deal"].includes(view.phase) ? memory.lastResult : null;
  if (!last) return null;
  const [title, ...rest] = last.lines;
  const matchOver = last.lines.some((line) => MATCH_WON.has(line.code));
  // After the round the hands go back into the deck: what was shown stays here, in words.
  const hands = lines ? [] : last.hands;
  return h("div", { class: `eot-result${matchOver ? " eot-result-match" : ""}`, role: "status", "data-testid": "eot-result" },
    h("p", { class: "eot-result-title" },
      h("span", { class: "muted small" }, matchOver ? t("Match over:") : lines ? t("Round over:") : t("Last round:"), " "),
      h("strong", {}, title.text)),
    rest.length || hands.length ? h("ul", { class: "eot-result-list" },
      rest.map((line) => h("li", { class: OUT.has(line.code) ? "is-out" : MATCH_WON.has(line.code) ? "is-winner" : "" }, line.text)),
      hands.map((hand) => h("li", { class: "eot-result-hand" }, h("span", { class: "eot-result-name" }, hand.name), ": ",
        hand.cards.map((c, i) => [i ? " " : "", h("span", { class: /[HD]$/.test(c) ? "eot-red" : "" }, ctx.cardText(c))]),
        ` = ${hand.value}`))) : null);
}

/** The hands shown at the round's end (all of them after a knock; the winner's after a 31). */
function shownHands(view, ctx) {
  return (view.seats || []).flatMap((seat) => {
    const hand = handOf(seat);
    const cards = cardsOf(hand);
    if (!cards.length || !cards.every((c) => c.up && typeof c.card === "string")) return [];
    const codes = cards.map((c) => c.card);
    return [{ name: who(view, ctx, seat.seat), cards: codes, value: typeof hand.value === "number" ? hand.value : handValue(codes) }];
  });
}

// ------------------------------------------------------------------ the stock, the pile, the pot

function tableBlock(view, ctx) {
  const { h } = ctx;
  const draw = templateOf(view, "draw");
  const sources = draw?.params?.source?.one_of || [];
  const pile = Array.isArray(view.discard) ? view.discard : [];
  const stockCount = typeof view.stock === "number" ? view.stock : 0;

  const stockCard = ctx.cardEl({ card: null, up: false }, { tag: sources.includes("stock") ? "button" : "span" });
  if (sources.includes("stock")) {
    stockCard.type = "button";
    stockCard.classList.add("eot-takeable");
    stockCard.setAttribute("aria-label", t("Take the top card of the stock"));
    stockCard.title = t("Take the top card of the stock");
    stockCard.dataset.take = "stock";
    stockCard.addEventListener("click", () => ctx.act({ kind: "draw", source: "stock" }));
  }
  const stock = h("div", { class: "eot-stock" },
    h("span", { class: "eot-label" }, t("Stock")),
    stockCount || sources.includes("stock") ? stockCard : h("span", { class: "eot-empty" }, "—"),
    h("span", { class: "eot-count", "data-testid": "eot-stock" }, tn("{n} card", "{n} cards", stockCount)));

  const fanned = pile.slice(-PILE_FANNED);
  const nodes = fanned.map((c, i) => {
    const top = i === fanned.length - 1;
    const takeable = top && sources.includes("discard");
    const node = ctx.cardEl(c, { tag: takeable ? "button" : "span", small: !top });
    if (takeable) {
      node.type = "button";
      node.classList.add("eot-takeable");
      node.setAttribute("aria-label", t("Take {card} from the discard pile", { card: cardLabel(c.card) }));
      node.title = t("Take the top discard");
      node.dataset.take = "discard";
      node.addEventListener("click", () => ctx.act({ kind: "draw", source: "discard" }));
    }
    if (top) node.classList.add("eot-top");
    return node;
  });
  // Every card of the pile may be looked at (§5 step 4); the list stays open across updates
  // until the round ends (then it would cover how it ended) or the next one begins.
  const round = BETWEEN.has(view.phase) ? "between" : view.hand_id;
  if (memory.pileRound !== round) memory.pileOpen = false;
  memory.pileRound = round;
  const under = pile.length > 1
    ? h("details", { class: "eot-pile-all", open: memory.pileOpen, ontoggle: (e) => { memory.pileOpen = e.currentTarget.open; } },
        h("summary", {}, t("All {count}", { count: pile.length })),
        h("div", { class: "eot-pile-list", "aria-label": t("The discard pile, bottom to top") },
          pile.map((c, i) => h("span", { class: `eot-pile-item${i === pile.length - 1 ? " is-top" : ""}` }, ctx.cardEl(c, { small: true })))))
    : null;
  const discard = h("div", { class: "eot-discard" },
    h("span", { class: "eot-label" }, t("Discard pile")),
    h("div", { class: "eot-fan", "data-testid": "eot-pile" }, nodes.length ? nodes : h("span", { class: "eot-empty" }, "—")),
    under || h("span", { class: "eot-count" }, pile.length ? t("top card") : ""));

  const unit = typeof view.bet_unit === "number" && view.bet_unit > 0 ? view.bet_unit : null;
  const pot = typeof view.pot === "number" ? view.pot : 0;
  const potBets = unit ? Math.floor(pot / unit) : 0;
  const potBlock = h("div", { class: "eot-pot", "data-testid": "eot-pot", dataset: { pot } },
    h("span", { class: "eot-label" }, t("Pot")),
    h("div", { class: "eot-chips", "aria-hidden": "true" }, chipStack(h, potBets)),
    h("span", { class: "eot-count" }, h("strong", {}, ctx.chips(pot)), unit && potBets ? [" ", tn("({n} bet)", "({n} bets)", potBets)] : ""),
    unit ? h("span", { class: "eot-count muted" }, t("a bet is {chips}", { chips: ctx.chips(unit) })) : null);
  return h("div", { class: "eot-table" }, stock, discard, potBlock);
}

// ------------------------------------------------------------------ the deal: cut and pattern

function dealLine(view, ctx) {
  const { h } = ctx;
  const parts = [];
  const match = view.match || {};
  if (match.number) parts.push(t("Match {number}, round {round}", { number: match.number, round: match.round }));
  if (Number.isInteger(view.dealer)) {
    parts.push(isYou(view, view.dealer) ? t("You deal") : t("{name} deals", { name: ctx.seatName(view.dealer) }));
  }
  const deck = view.deck || {};
  if (Number.isInteger(view.cutter) && !BETWEEN.has(view.phase)) {
    const yours = isYou(view, view.cutter);
    const name = ctx.seatName(view.cutter);
    if (Number.isInteger(deck.cut)) parts.push(yours ? t("You cut at {cut}", { cut: deck.cut }) : t("{name} cut at {cut}", { name, cut: deck.cut }));
    else if (deck.pattern === "3") parts.push(yours ? t("You knocked on the deck") : t("{name} knocked on the deck", { name }));
    else if (view.phase === "cut") parts.push(yours ? t("You cut") : t("{name} cuts", { name }));
  }
  if (deck.pattern) parts.push(DEALT[deck.pattern] ? DEALT[deck.pattern]() : t("dealt {pattern}", { pattern: deck.pattern }));
  if (match.knocking === false && !BETWEEN.has(view.phase) && match.number) parts.push(t("no bets left: no knocking, the next 31 wins the match"));
  return parts.length ? h("p", { class: "eot-deal muted small", "data-testid": "eot-deal" }, parts.join(" · ")) : null;
}

/** The cut for the first deal, shown while the match's first round is being cut and dealt. */
function cutBlock(view, ctx) {
  const { h } = ctx;
  const cut = view.cut;
  if (!cut || !Array.isArray(cut.draws) || view.match?.round !== 1 || !["cut", "deal"].includes(view.phase)) return null;
  return h("div", { class: "eot-cut", "data-testid": "eot-cut" },
    h("p", { class: "eot-cut-title", title: t("The joker is highest, then A, K, Q … 2; the tied highest cut again") }, t("Cut for the deal: the highest card deals")),
    h("ul", { class: "eot-cut-list" }, cut.draws.map((d) => h("li", { class: d.seat === cut.dealer ? "is-dealer" : "" },
      h("span", { class: "eot-cut-name" }, who(view, ctx, d.seat)),
      h("span", { class: "eot-cut-cards" }, (d.cards || []).map((c) => ctx.cardEl(c, { small: true }))),
      d.seat === cut.dealer ? h("span", { class: "badge badge-dealer" }, t("deals")) : null))));
}

// ------------------------------------------------------------------ facts

function factsBlock(view, ctx) {
  const { h } = ctx;
  const inMatch = new Set(view.match?.in || []);
  const out = view.match?.out || [];
  const parts = [];
  if (out.length) parts.push(t("out of the match: {names}", { names: out.map((n) => who(view, ctx, n)).join(", ") }));
  const waiting = (view.seats || []).filter((s) => s.role === "waiting" && inMatch.size).map((s) => who(view, ctx, s.seat));
  if (waiting.length) parts.push(t("waiting for the next match: {names}", { names: waiting.join(", ") }));
  return parts.length ? h("p", { class: "facts muted small eot-facts" }, parts.join(" · ")) : null;
}

// ------------------------------------------------------------------ the module

export default {
  labels: {
    cut: t("Cut the deck"),
    knock_deck: t("Knock on the deck"),
    deal: t("Deal"),
    draw: t("Take"),
    knock: t("Knock"),
    discard: t("Discard"),
  },

  valueLabel(kind, param, value, view, ctx) {
    if (kind === "deal" && param === "pattern") return PATTERNS[value] || null;
    if (kind === "draw" && param === "source") {
      if (value === "stock") return t("From the stock");
      const pile = view?.discard || [];
      const top = pile.length ? pile[pile.length - 1].card : null;
      return top ? t("The {card} from the pile", { card: ctx.cardText(top) }) : t("From the pile");
    }
    return null;
  },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    const result = resultBlock(view, ctx);
    // The stock, the pile and the pot first: narrow, they fit between the seats at the top of
    // the table; the wider lines (what happens, how the round ended, your hand) come below.
    const root = h("section", { class: "eot", "aria-label": "En og tredive", dataset: { phase: view.phase || "" } },
      tableBlock(view, ctx));
    // At a round's end the result says it all; otherwise one line says who does what.
    if (!(result && BETWEEN.has(view.phase))) {
      root.append(h("p", { class: "status-line eot-status", "data-testid": "status-line" }, headline(view, ctx)));
    }
    for (const block of [result, cutBlock(view, ctx), dealLine(view, ctx), handBlock(view, ctx), factsBlock(view, ctx)]) {
      if (block) root.append(block);
    }
    el.append(root);
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    const bets = typeof seat.bets === "number" ? seat.bets : 0;
    const inMatch = (view.match?.in || []).includes(seat.seat);
    if (inMatch || bets) {
      el.append(h("span", { class: `eot-bets${bets ? "" : " is-empty"}`, title: tn("{n} bet in front", "{n} bets in front", bets), dataset: { bets } },
        h("span", { class: "eot-bet-chips", "aria-hidden": "true" }, chipStack(h, bets, 8)),
        bets ? tn("{n} bet", "{n} bets", bets) : t("no bets left")));
    }
    if (seat.knocked) el.append(h("span", { class: "tag tag-offer eot-knocked" }, t("knocked")));
    if (view.phase === "cut" && seat.seat === view.cutter) el.append(h("span", { class: "tag" }, t("cuts")));
    const cut = view.cut?.draws?.find((d) => d.seat === seat.seat);
    if (cut && view.match?.round === 1 && ["cut", "deal"].includes(view.phase)) {
      el.append(h("span", { class: "eot-seat-cut", title: t("Cut for the deal") }, t("cut"), " ",
        (cut.cards || []).map((c) => h("strong", { class: /[HD]$/.test(c) ? "eot-red" : "" }, ctx.cardText(c))).flatMap((n, i) => (i ? [" ", n] : [n]))));
    }
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : t("a card"));
    const name = who;
    switch (event.kind) {
      case "match": return tn("Match {number}: {n} bet each.", "Match {number}: {n} bets each.", event.bets, { number: event.number, n: event.bets });
      case "cut_for_deal": return t("{name} cuts {card} for the deal.", { name, card: card(event.card) });
      case "cut_tie": return t("A tie: {names} cut again.", { names: (event.seats || []).map(ctx.seatName).join(AND) });
      case "first_dealer": return t("{name} deals first.", { name });
      case "round": return t("Round {round}: {name} deals.", { round: event.round, name: ctx.seatName(event.dealer) });
      case "cut": return t("{name} cuts.", { name });
      case "knock_deck": return t("{name} knocks on the deck: three at a time.", { name });
      case "deal": return t("{name} deals ({pattern}).", { name, pattern: event.pattern });
      case "dealt": return Array.isArray(event.cards) && event.cards.every((c) => typeof c === "string") ? t("Your cards: {cards}.", { cards: event.cards.map(card).join(" ") }) : null;
      case "turn_up": return t("{card} is turned up.", { card: card(event.card) });
      case "draw":
        if (event.source === "discard") return t("{name} takes {card} from the pile.", { name, card: card(event.card) });
        return typeof event.card === "string" ? t("You draw {card}.", { card: card(event.card) }) : t("{name} draws from the stock.", { name });
      case "discard": {
        const cards = (event.cards || []).map(card);
        return cards.length > 1
          ? t("{name} discards {cards} ({top} on top).", { name, cards: cards.join(", "), top: cards.at(-1) })
          : t("{name} discards {cards}.", { name, cards: cards.join(", ") });
      }
      case "knock": return t("{name} knocks.", { name });
      case "show": return t("{name} shows {cards} ({value}).", { name, cards: (event.cards || []).map(card).join(" "), value: event.value });
      case "restock": return t("The pile is turned into a new stock.");
      case "bet_paid": return t("{name} pays a bet into the pot.", { name });
      case "out": return t("{name} is out of the match.", { name });
      case "left_match": {
        if (!event.bets) return t("{name} leaves the match.", { name });
        const bets = tn("{n} bet", "{n} bets", event.bets);
        const chips = tn("{n} chip", "{n} chips", event.chips);
        return t("{name} leaves the match: {bets} ({chips}) go to the pot.", { name, bets, chips });
      }
      case "match_won": return event.how === "coup_d_etat" ? t("{name} wins the match with a coup d'état.", { name }) : t("{name} wins the match.", { name });
      case "round_end": return event.winner !== undefined && event.winner !== null
        ? t("The round is over: {name} wins it.", { name: ctx.seatName(event.winner) })
        : t("The round is over.");
      default: return undefined;
    }
  },
};
