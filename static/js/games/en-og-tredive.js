// En og tredive (docs/rules.md §5): your hand, large, where you pick your discards in order; the
// stock and the discard pile (the top card takeable, every card viewable); the pot; each
// player's bets as chips; the cut for the deal, the deck's cut or knock, the dealing pattern,
// the knock, and how each round and match ended.
// View fields used: phase, turn, dealer, cutter, knocker, pot, bet_unit, stock, discard, cut
// {draws[{seat, cards}], dealer}, deck {cut, pattern}, match {number, round, in, out, knocking},
// status; per seat: role, bets, knocked, hands[{cards, stake, size, value, drawn}].
// Actions go out through ctx.act and always fit a template of `legal` (draw, discard); the dock
// keeps the cut, the deal, the draw and the knock as generated buttons.
//
// Your hand and your discards: en-og-tredive/hand.js; the view's readers and the hand values:
// en-og-tredive/reading.js.
import { cardLabel } from "../cards.js";
import { handBlock } from "./en-og-tredive/hand.js";
import { cardsOf, chipStack, handOf, handValue, isYou, templateOf, who, withNames } from "./en-og-tredive/reading.js";

export { handValue } from "./en-og-tredive/reading.js";

const PATTERNS = { "1-1-1": "One at a time (1-1-1)", "2-1": "Two, then one (2-1)", "1-2": "One, then two (1-2)", 3: "Three at a time" };
const BETWEEN = new Set(["between_rounds", "between_matches"]);
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
  const knock = Number.isInteger(view.knocker) ? ` — ${who(view, ctx, view.knocker)} knocked: last turns` : "";
  switch (view.phase) {
    case "cut":
      return yours ? "Your cut: cut the deck, or knock on it (then it is dealt three at a time)"
        : `${who(view, ctx, actor)} cuts the deck, or knocks on it`;
    case "deal":
      return yours ? "You deal: one or two cards at a time?" : `${who(view, ctx, actor)} deals`;
    case "draw": {
      if (!yours) return `${who(view, ctx, actor)} to take a card${knock}`;
      const canKnock = Boolean(templateOf(view, "knock"));
      return `Your turn: take the top discard or a card from the stock${canKnock ? ", or knock" : ""}${knock}`;
    }
    case "discard":
      return yours ? `Your discard: tap the cards — the last picked goes on top${knock}`
        : `${who(view, ctx, actor)} discards${knock}`;
    case "between_rounds":
    case "between_matches": {
      const result = resultOf(view, ctx);
      if (result) return result.find((line) => /wins? the match/.test(line)) || "Round over";
      return view.phase === "between_rounds" ? "Next round in a moment" : "Waiting for players: two or more with a match's bets";
    }
    default:
      return typeof view.status === "string" ? withNames(view.status, view, ctx) : "";
  }
}

// ------------------------------------------------------------------ the round's end

/** The last round's end, from the status ("Seat 0 knocked; seat 0 pays 2; seat 1 is out"). */
function resultOf(view, ctx) {
  if (!BETWEEN.has(view.phase) || typeof view.status !== "string") return null;
  if (/^(Next round|Waiting for players)$/.test(view.status)) return null;
  const lines = view.status.split(/;\s*/).map((part) => fixVerb(withNames(part, view, ctx)
    .replace(/ pays (\d+)$/, (_, n) => ` pays ${Number(n) === 1 ? "one bet" : `${n} bets`} into the pot`)));
  if (/ knocked$/.test(lines[0]) && !lines.some((line) => / into the pot$| out$| no bet left$/.test(line))) lines.push("Nobody pays");
  return lines;
}

/** "You pays one bet" → "You pay one bet"; "You is out" → "You are out"; and so on. */
function fixVerb(line) {
  return line
    .replace(/^You pays /, "You pay ").replace(/^You is /, "You are ").replace(/^You shows /, "You show ")
    .replace(/^You wins /, "You win ").replace(/^You has /, "You have ").replace(/^You knocked/, "You knocked");
}

function resultBlock(view, ctx) {
  const { h } = ctx;
  const lines = resultOf(view, ctx);
  if (lines) memory.lastResult = { lines, hands: shownHands(view, ctx) };
  const last = lines ? memory.lastResult : ["cut", "deal"].includes(view.phase) ? memory.lastResult : null;
  if (!last) return null;
  const [title, ...rest] = last.lines;
  const matchOver = last.lines.some((l) => /wins? the match/.test(l));
  // After the round the hands go back into the deck: what was shown stays here, in words.
  const hands = lines ? [] : last.hands;
  return h("div", { class: `eot-result${matchOver ? " eot-result-match" : ""}`, role: "status", "data-testid": "eot-result" },
    h("p", { class: "eot-result-title" }, h("span", { class: "muted small" }, matchOver ? "Match over: " : lines ? "Round over: " : "Last round: "), h("strong", {}, title)),
    rest.length || hands.length ? h("ul", { class: "eot-result-list" },
      rest.map((line) => h("li", { class: / out$| no bet left$/.test(line) ? "is-out" : /match/.test(line) ? "is-winner" : "" }, line)),
      hands.map((hand) => h("li", { class: "eot-result-hand" }, `${hand.name}: `,
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
    stockCard.setAttribute("aria-label", "Take the top card of the stock");
    stockCard.title = "Take the top card of the stock";
    stockCard.dataset.take = "stock";
    stockCard.addEventListener("click", () => ctx.act({ kind: "draw", source: "stock" }));
  }
  const stock = h("div", { class: "eot-stock" },
    h("span", { class: "eot-label" }, "Stock"),
    stockCount || sources.includes("stock") ? stockCard : h("span", { class: "eot-empty" }, "—"),
    h("span", { class: "eot-count", "data-testid": "eot-stock" }, `${stockCount} card${stockCount === 1 ? "" : "s"}`));

  const fanned = pile.slice(-PILE_FANNED);
  const nodes = fanned.map((c, i) => {
    const top = i === fanned.length - 1;
    const takeable = top && sources.includes("discard");
    const node = ctx.cardEl(c, { tag: takeable ? "button" : "span", small: !top });
    if (takeable) {
      node.type = "button";
      node.classList.add("eot-takeable");
      node.setAttribute("aria-label", `Take ${cardLabel(c.card)} from the discard pile`);
      node.title = "Take the top discard";
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
        h("summary", {}, `All ${pile.length}`),
        h("div", { class: "eot-pile-list", "aria-label": "The discard pile, bottom to top" },
          pile.map((c, i) => h("span", { class: `eot-pile-item${i === pile.length - 1 ? " is-top" : ""}` }, ctx.cardEl(c, { small: true })))))
    : null;
  const discard = h("div", { class: "eot-discard" },
    h("span", { class: "eot-label" }, "Discard pile"),
    h("div", { class: "eot-fan", "data-testid": "eot-pile" }, nodes.length ? nodes : h("span", { class: "eot-empty" }, "—")),
    under || h("span", { class: "eot-count" }, pile.length ? "top card" : ""));

  const unit = typeof view.bet_unit === "number" && view.bet_unit > 0 ? view.bet_unit : null;
  const pot = typeof view.pot === "number" ? view.pot : 0;
  const potBets = unit ? Math.floor(pot / unit) : 0;
  const potBlock = h("div", { class: "eot-pot", "data-testid": "eot-pot", dataset: { pot } },
    h("span", { class: "eot-label" }, "Pot"),
    h("div", { class: "eot-chips", "aria-hidden": "true" }, chipStack(h, potBets)),
    h("span", { class: "eot-count" }, h("strong", {}, ctx.chips(pot)), unit && potBets ? ` (${potBets} bet${potBets === 1 ? "" : "s"})` : ""),
    unit ? h("span", { class: "eot-count muted" }, `a bet is ${ctx.chips(unit)}`) : null);
  return h("div", { class: "eot-table" }, stock, discard, potBlock);
}

// ------------------------------------------------------------------ the deal: cut and pattern

function dealLine(view, ctx) {
  const { h } = ctx;
  const parts = [];
  const match = view.match || {};
  if (match.number) parts.push(`Match ${match.number}, round ${match.round}`);
  const s = (n) => (isYou(view, n) ? "" : "s");
  if (Number.isInteger(view.dealer)) parts.push(`${who(view, ctx, view.dealer)} deal${s(view.dealer)}`);
  const deck = view.deck || {};
  if (Number.isInteger(view.cutter) && !BETWEEN.has(view.phase)) {
    if (Number.isInteger(deck.cut)) parts.push(`${who(view, ctx, view.cutter)} cut at ${deck.cut}`);
    else if (deck.pattern === "3") parts.push(`${who(view, ctx, view.cutter)} knocked on the deck`);
    else if (view.phase === "cut") parts.push(`${who(view, ctx, view.cutter)} cut${s(view.cutter)}`);
  }
  if (deck.pattern) parts.push(`dealt ${PATTERNS[deck.pattern] ? PATTERNS[deck.pattern].toLowerCase() : deck.pattern}`);
  if (match.knocking === false && !BETWEEN.has(view.phase) && match.number) parts.push("no bets left: no knocking, the next 31 wins the match");
  return parts.length ? h("p", { class: "eot-deal muted small", "data-testid": "eot-deal" }, parts.join(" · ")) : null;
}

/** The cut for the first deal, shown while the match's first round is being cut and dealt. */
function cutBlock(view, ctx) {
  const { h } = ctx;
  const cut = view.cut;
  if (!cut || !Array.isArray(cut.draws) || view.match?.round !== 1 || !["cut", "deal"].includes(view.phase)) return null;
  return h("div", { class: "eot-cut", "data-testid": "eot-cut" },
    h("p", { class: "eot-cut-title", title: "The joker is highest, then A, K, Q … 2; the tied highest cut again" }, "Cut for the deal: the highest card deals"),
    h("ul", { class: "eot-cut-list" }, cut.draws.map((d) => h("li", { class: d.seat === cut.dealer ? "is-dealer" : "" },
      h("span", { class: "eot-cut-name" }, who(view, ctx, d.seat)),
      h("span", { class: "eot-cut-cards" }, (d.cards || []).map((c) => ctx.cardEl(c, { small: true }))),
      d.seat === cut.dealer ? h("span", { class: "badge badge-dealer" }, "deals") : null))));
}

// ------------------------------------------------------------------ facts

function factsBlock(view, ctx) {
  const { h } = ctx;
  const inMatch = new Set(view.match?.in || []);
  const out = view.match?.out || [];
  const parts = [];
  if (out.length) parts.push(`out of the match: ${out.map((n) => who(view, ctx, n)).join(", ")}`);
  const waiting = (view.seats || []).filter((s) => s.role === "waiting" && inMatch.size).map((s) => who(view, ctx, s.seat));
  if (waiting.length) parts.push(`waiting for the next match: ${waiting.join(", ")}`);
  return parts.length ? h("p", { class: "facts muted small eot-facts" }, parts.join(" · ")) : null;
}

// ------------------------------------------------------------------ the module

export default {
  labels: {
    cut: "Cut the deck",
    knock_deck: "Knock on the deck",
    deal: "Deal",
    draw: "Take",
    knock: "Knock",
    discard: "Discard",
  },

  valueLabel(kind, param, value, view, ctx) {
    if (kind === "deal" && param === "pattern") return PATTERNS[value] || null;
    if (kind === "draw" && param === "source") {
      if (value === "stock") return "From the stock";
      const pile = view?.discard || [];
      const top = pile.length ? pile[pile.length - 1].card : null;
      return top ? `The ${ctx.cardText(top)} from the pile` : "From the pile";
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
      el.append(h("span", { class: `eot-bets${bets ? "" : " is-empty"}`, title: `${bets} bet${bets === 1 ? "" : "s"} in front`, dataset: { bets } },
        h("span", { class: "eot-bet-chips", "aria-hidden": "true" }, chipStack(h, bets, 8)),
        bets ? `${bets} bet${bets === 1 ? "" : "s"}` : "no bets left"));
    }
    if (seat.knocked) el.append(h("span", { class: "tag tag-offer eot-knocked" }, "knocked"));
    if (view.phase === "cut" && seat.seat === view.cutter) el.append(h("span", { class: "tag" }, "cuts"));
    const cut = view.cut?.draws?.find((d) => d.seat === seat.seat);
    if (cut && view.match?.round === 1 && ["cut", "deal"].includes(view.phase)) {
      el.append(h("span", { class: "eot-seat-cut", title: "Cut for the deal" }, "cut ",
        (cut.cards || []).map((c) => h("strong", { class: /[HD]$/.test(c) ? "eot-red" : "" }, ctx.cardText(c))).flatMap((n, i) => (i ? [" ", n] : [n]))));
    }
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : "a card");
    switch (event.kind) {
      case "match": return `Match ${event.number}: ${event.bets} bets each.`;
      case "cut_for_deal": return `${who} cuts ${card(event.card)} for the deal.`;
      case "cut_tie": return `A tie: ${(event.seats || []).map(ctx.seatName).join(" and ")} cut again.`;
      case "first_dealer": return `${who} deals first.`;
      case "round": return `Round ${event.round}: ${ctx.seatName(event.dealer)} deals.`;
      case "cut": return `${who} cuts.`;
      case "knock_deck": return `${who} knocks on the deck: three at a time.`;
      case "deal": return `${who} deals (${event.pattern}).`;
      case "dealt": return Array.isArray(event.cards) && event.cards.every((c) => typeof c === "string") ? `Your cards: ${event.cards.map(card).join(" ")}.` : null;
      case "turn_up": return `${card(event.card)} is turned up.`;
      case "draw": return event.source === "discard" ? `${who} takes ${card(event.card)} from the pile.` : typeof event.card === "string" ? `You draw ${card(event.card)}.` : `${who} draws from the stock.`;
      case "discard": {
        const cards = (event.cards || []).map(card);
        return `${who} discards ${cards.join(", ")}${cards.length > 1 ? ` (${cards.at(-1)} on top)` : ""}.`;
      }
      case "knock": return `${who} knocks.`;
      case "show": return `${who} shows ${(event.cards || []).map(card).join(" ")} (${event.value}).`;
      case "restock": return "The pile is turned into a new stock.";
      case "bet_paid": return `${who} pays a bet into the pot.`;
      case "out": return `${who} is out of the match.`;
      case "left_match": {
        const bets = event.bets === 1 ? "1 bet" : `${event.bets} bets`;
        const chips = event.chips === 1 ? "1 chip" : `${event.chips} chips`;
        return event.bets ? `${who} leaves the match: ${bets} (${chips}) go to the pot.` : `${who} leaves the match.`;
      }
      case "match_won": return `${who} wins the match${event.how === "coup_d_etat" ? " with a coup d'état" : ""}.`;
      case "round_end": return `The round is over${event.winner !== undefined && event.winner !== null ? `: ${ctx.seatName(event.winner)} wins it` : ""}.`;
      default: return undefined;
    }
  },
};
