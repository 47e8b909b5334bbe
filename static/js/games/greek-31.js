// Greek 31 (docs/rules.md §2): the central area, the seats' extras and the log lines.
// View fields used (app/games/greek_31_view.py): phase, turn, dealer, hands_dealt, dealer_cards,
// dealer_outcome ("bust" | "31" | "14" | "other" | "void"), order, cover, deck, rules {ace_rule,
// heath, min_bet, max_bet, stakes}, last_hand {dealer, outcome, hands[{seat, …}]}, table_over,
// status; per seat: role, note_coded (the engine's note as a code: engine-words.js); per hand:
// cards, stake, dealer, value, label, result, returned_to_deck.
//
// What players expect to see: whose deal it is and how many hands they have dealt; the dealer's
// face-down cards counted for everyone and shown to the dealer; the dealer choosing the card to
// keep face down by clicking it; the 14 and 31 moments; stakes within the bank's cover.
//
// The dealer's area is greek-31/dealer.js; the view's readers both use, greek-31/reading.js.
import { said } from "../engine-words.js";
import { t, tn } from "../i18n.js";
import { dealerArea } from "./greek-31/dealer.js";
import { ACE_RULES, cardsOf, fourteenWord, handDealer, handOf, isSeat, labelWords, outcomeOf, players, seatOf } from "./greek-31/reading.js";

// ------------------------------------------------------------------ the centre

function headline(view, ctx) {
  const you = (n) => n === view.you;
  const dealer = handDealer(view);
  switch (view.phase) {
    case "staking":
      if (you(view.turn)) return t("Your stake");
      return isSeat(view.turn) ? t("{name} to stake", { name: ctx.seatName(view.turn) }) : t("Stakes");
    case "dealer":
      if (you(dealer)) return t("Your draw: draw, or stand");
      return t("{name} draws in secret", { name: ctx.seatName(dealer) });
    case "players":
      if (you(view.turn)) return t("Your turn: draw or stand");
      return isSeat(view.turn) ? t("{name} to draw or stand", { name: ctx.seatName(view.turn) }) : t("The players draw");
    case "settled":
      return ["other", "14"].includes(outcomeOf(view)) ? t("Showdown") : t("Hand over");
    case "over":
      return t("The table is over");
    default:
      if (!isSeat(view.dealer)) return t("Waiting for players");
      return you(view.dealer) ? t("You deal next") : t("{name} deals next", { name: ctx.seatName(view.dealer) });
  }
}

/** The big moments: the dealer's stand on 14 or 31, a bust, a player's 31. */
function moments(view, ctx) {
  const out = [];
  const outcome = outcomeOf(view);
  const dealer = handDealer(view);
  const yours = isSeat(dealer) && dealer === view.you;
  const name = isSeat(dealer) ? ctx.seatName(dealer) : t("The dealer");
  const settled = Boolean(view.last_hand);
  if (outcome === "31") {
    out.push({ kind: "31", text: yours ? t("You stood on 31 and collect every stake") : t("{name} stood on 31 and collects every stake", { name }) });
  } else if (outcome === "14") {
    let text;
    if (settled) text = yours ? t("You stood on 14") : t("{name} stood on 14", { name });
    else if (yours) text = t("You stand on 14: {rule}", { rule: fourteenWord(view) });
    else text = t("{name} stands on 14: {rule}", { name, rule: fourteenWord(view) });
    out.push({ kind: "14", text });
  } else if (outcome === "bust") {
    out.push({ kind: "bust", text: yours ? t("You went over 31 and pay every stake") : t("{name} went over 31 and pays every stake", { name }) });
  } else if (outcome === "void") {
    out.push({ kind: "void", text: t("The deck ran out: the hand is void and every stake goes back") });
  }
  if (settled && isSeat(view.dealer) && view.dealer !== dealer) {
    out.push({ kind: "deal", text: view.dealer === view.you ? t("The deal passes to you") : t("The deal passes to {name}", { name: ctx.seatName(view.dealer) }) });
  }
  for (const { seat, hand } of players(view)) {
    if (hand.result === "31") {
      const paid = typeof hand.stake === "number" && hand.stake > 0 ? ctx.chips(hand.stake) : null;
      const mine = seat === view.you;
      const who = ctx.seatName(seat);
      let text;
      if (paid) text = mine ? t("You hit 31 and are paid {chips}!", { chips: paid }) : t("{name} hits 31 and is paid {chips}!", { name: who, chips: paid });
      else text = mine ? t("You hit 31!") : t("{name} hits 31!", { name: who });
      out.push({ kind: "player31", seat, text });
    }
  }
  return out;
}

/** Why a player's hand won or lost, once the hand is settled ("24 beats 23"). */
function resultText(view, hand) {
  const last = view.last_hand;
  if (!last || !hand) return null;
  const dealerLabel = labelWords(handOf(view, last.dealer)?.label ?? "");
  const mine = labelWords(hand.label ?? String(hand.value ?? ""));
  switch (hand.result) {
    case "won":
      return last.outcome === "bust" ? t("the dealer went over 31") : t("{mine} beats {theirs}", { mine, theirs: dealerLabel });
    case "lost":
      return last.outcome === "31" ? t("the dealer's 31") : t("{mine} against {theirs}", { mine, theirs: dealerLabel });
    case "31":
      return t("paid at once");
    case "returned":
      return t("stake returned");
    default:
      return null;
  }
}

/** Staking: the bank's cover, and why your stake is what it is (docs/rules.md §0.6). */
function stakeNotes(view, ctx) {
  const notes = [];
  if (view.phase !== "staking") return notes;
  const rules = view.rules || {};
  if (typeof view.cover === "number") notes.push(t("The bank covers {chips} more", { chips: ctx.chips(view.cover) }));
  const range = (view.legal || []).find((tp) => tp.kind === "stake")?.params?.amount;
  const me = seatOf(view, view.you);
  if (!range || !me) return notes;
  const maxBet = typeof rules.max_bet === "number" ? rules.max_bet : Infinity;
  const below = typeof rules.min_bet === "number" && range.max < rules.min_bet;
  const most = { chips: ctx.chips(range.max) };
  if (range.max === view.cover && view.cover < Math.min(me.stack, maxBet)) {
    notes.push(below
      ? t("Your stake: at most {chips} (less than the minimum), all the bank can still cover", most)
      : t("Your stake: at most {chips}, all the bank can still cover", most));
  } else if (range.max === me.stack && me.stack < maxBet) {
    notes.push(below
      ? t("Your stake: at most {chips} (less than the minimum), your whole stack", most)
      : t("Your stake: at most {chips}, your whole stack", most));
  }
  return notes;
}

/**
 * The last hand, remembered across views so that it stays readable while the next hand is
 * staked (the server clears `last_hand` at the next deal): which card the dealer had hidden is
 * known only from the views before the showdown.
 */
const memory = { hand: null, hidden: null, revealed: null, last: null, announced: new Set() };

function remember(view, ctx) {
  if (view.hand_id) memory.hand = view.hand_id; // the hand being played, or the one just played
  if (view.phase === "players" && view.dealer_outcome === "other" && isSeat(view.dealer)) {
    const index = cardsOf(handOf(view, view.dealer)).findIndex((c) => !c.up);
    if (index >= 0) memory.hidden = { hand: view.hand_id, dealer: view.dealer, index };
  }
  const last = view.last_hand;
  if (!last || !isSeat(last.dealer)) return;
  const hand = handOf(view, last.dealer);
  const seen = memory.hidden && memory.hidden.hand === memory.hand && memory.hidden.dealer === last.dealer;
  const hidden = seen && last.outcome === "other" ? cardsOf(hand)[memory.hidden.index] : null;
  memory.revealed = hidden ? memory.hidden.index : null;
  const yours = last.dealer === view.you;
  const name = ctx.seatName(last.dealer);
  const label = labelWords(hand?.label ?? "");
  const card = hidden?.card ? ctx.cardText(hidden.card) : null;
  let text;
  if (last.outcome === "bust") text = yours ? t("You went over 31") : t("{name} went over 31", { name });
  else if (last.outcome === "void") text = t("The hand was void");
  else if (card) {
    text = yours
      ? t("You stood on {label}; the hidden card was {card}", { label, card })
      : t("{name} stood on {label}; the hidden card was {card}", { name, label, card });
  } else text = yours ? t("You stood on {label}", { label }) : t("{name} stood on {label}", { name, label });
  memory.last = { text };
}

// ------------------------------------------------------------------ the seats

const RESULT_TAGS = {
  "31": [t("31!"), "g31-tag-31"],
  won: [t("won"), "status-won"],
  lost: [t("lost"), "status-lost"],
  bust: [t("over 31"), "status-bust"],
  stood: [t("stands"), ""],
  "no cover": [t("no stake: no cover left"), "g31-tag-nocover"],
  returned: [t("returned"), ""],
};

/** A settled hand's result in the log (the engine's `settle` results). */
const SETTLE_RESULTS = {
  won: () => t("won"),
  lost: () => t("lost"),
  bust: () => t("bust"),
  "31": () => "31",
  returned: () => t("returned"),
};

/** The engine's reasons for a void hand and a passing deal (app/games/greek_31/table.py). */
const REASONS = {
  "the deck is empty": () => t("the deck is empty"),
  "the dealer has no chips": () => t("the dealer has no chips"),
  "the dealer went over 31": () => t("the dealer went over 31"),
};

// ------------------------------------------------------------------ the module

/** The dealer's cards shown when they stood (the rest face down), until the show reveals
 *  them: the log then names the hidden card. */
let dealerShown = null;

export default {
  labels: { stake: t("Stake"), draw: t("Draw"), stand: t("Stand") },

  valueLabel(kind, param, value, view, ctx) {
    if (kind !== "stand" || param !== "conceal" || !Number.isInteger(value)) return null;
    const card = cardsOf(handOf(view, view.you))[value];
    return card?.card ? t("hide {card}", { card: ctx.cardText(card.card) }) : t("hide card {number}", { number: value + 1 });
  },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    remember(view, ctx);
    el.append(h("p", { class: "status-line", "data-testid": "status-line" }, headline(view, ctx)));

    const shown = new Set();
    for (const moment of moments(view, ctx)) {
      const fresh = !memory.announced.has(moment.text); // only a new moment pops up
      el.append(h("p", { class: `g31-moment g31-moment-${moment.kind}${fresh ? " is-new" : ""}`, "data-moment": moment.kind }, moment.text));
      shown.add(moment.text);
    }
    memory.announced = shown;

    const dealer = dealerArea(view, ctx, memory.revealed);
    if (dealer) el.append(dealer);

    if (memory.last && !view.last_hand && (view.phase === "staking" || view.phase === "waiting")) {
      el.append(h("p", { class: "muted small g31-lasthand", "data-testid": "last-hand" }, t("Last hand: {what}.", { what: memory.last.text })));
    }

    const me = seatOf(view, view.you);
    const notes = stakeNotes(view, ctx);
    if (me?.note && handOf(view, me.seat)?.result === "no cover" && !view.last_hand) notes.push(said(me.note_coded, ctx, me.note));
    for (const { seat, hand } of view.phase === "staking" ? players(view) : []) {
      if (hand.result === "no cover" && seat !== view.you) {
        notes.push(t("{name} cannot stake: the bank cannot cover another stake this hand", { name: ctx.seatName(seat) }));
      }
    }
    if (notes.length) el.append(h("ul", { class: "messages g31-notes" }, notes.map((n) => h("li", {}, n))));

    if (view.phase !== "staking" && view.phase !== "waiting") return; // the play needs the room
    const rules = view.rules || {};
    const facts = [];
    if (typeof rules.min_bet === "number") {
      const most = rules.max_bet === null || rules.max_bet === undefined ? t("stack") : ctx.chips(rules.max_bet);
      facts.push(t("Stakes {least}–{most}", { least: ctx.chips(rules.min_bet), most }));
    }
    if (rules.heath) facts.push(t("Heath's version"));
    if (typeof view.deck === "number" && view.deck > 0) facts.push(t("Deck {count}", { count: view.deck }));
    const aces = ACE_RULES[rules.ace_rule] ? t("Aces: {rule}", { rule: ACE_RULES[rules.ace_rule]() }) : null;
    if (facts.length) el.append(h("p", { class: "facts muted small", title: aces }, facts.join(" · ")));
  },

  /** The seat's badge: DEALER on `view.dealer` alone, as the centre says (dealerArea). */
  seatRole(seat, view) {
    if (seat.seat === view.dealer) return "dealer";
    return seat.role === "dealer" ? "player" : seat.role;
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    const n = seat.seat;
    const dealer = handDealer(view);
    const live = Array.isArray(seat.hands) && seat.hands.length > 0;
    const hand = handOf(view, n);
    if (n === view.dealer) { // the seat with the badge (seatRole)
      const dealt = typeof view.hands_dealt === "number" ? view.hands_dealt : 0;
      if (view.hand_id && dealt > 0) el.append(h("span", { class: "tag g31-tag-deal" }, t("hand {number} of the deal", { number: dealt })));
    }
    if (n === dealer) {
      if (view.phase === "dealer" && n !== view.you) {
        const count = typeof view.dealer_cards === "number" ? view.dealer_cards : cardsOf(hand).length;
        el.append(h("span", { class: "tag g31-tag-drawing" }, tn("drawing · {n} card unseen", "drawing · {n} cards unseen", count)));
      }
      if (live && view.phase === "players" && view.dealer_outcome === "other") {
        el.append(h("span", { class: "tag g31-tag-hidden" }, t("1 card hidden")));
      }
    }
    // Between hands the seats hold no cards: show the hand just played, as it ended.
    if (!live && hand && view.last_hand) {
      el.append(h("div", { class: "g31-last" },
        ctx.cardRow(hand.cards, { small: true }),
        hand.label ? h("span", { class: "hand-value", title: t("Last hand") }, labelWords(hand.label)) : null));
    }
    if (hand && n !== dealer && RESULT_TAGS[hand.result] && (live || view.last_hand)) {
      const [text, cls] = RESULT_TAGS[hand.result];
      el.append(h("span", { class: `tag status ${cls}`, dataset: { result: hand.result } }, text));
      const why = resultText(view, hand);
      if (why) el.append(h("span", { class: "g31-why small" }, why));
    }
    if (hand?.returned_to_deck) el.append(h("span", { class: "tag" }, t("cards back under the deck")));
    // The engine's note on a seat: a stake cut to the cover (while staking), or no cover at all.
    const noteNow = view.phase === "staking" && hand?.result !== "no cover"; // the tag says that
    if (typeof seat.note === "string" && seat.note && n !== view.you && noteNow) {
      el.append(h("p", { class: "hand-note g31-seat-note" }, said(seat.note_coded, ctx, seat.note)));
    }
    if (seat.role === "waiting") el.append(h("span", { class: "tag" }, t("plays from the next hand")));
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : t("a card"));
    const name = who;
    switch (event.kind) {
      case "first_dealer": return t("{name} deals first.", { name });
      case "hand": return t("{name} deals (hand {number} of the deal).", { name, number: event.hand_of_deal });
      case "deal": return t("{name} gets {card}.", { name, card: card(event.card) });
      case "stake": return t("{name} stakes {chips}.", { name, chips: ctx.chips(event.amount) });
      case "no_cover": return t("{name} cannot stake: the dealer covers no more.", { name });
      case "dealer_draw": return typeof event.card === "string" ? t("You draw {card} face down.", { card: card(event.card) }) : t("{name} draws a card face down.", { name });
      case "stand": {
        if (event.concealed === undefined) {
          return event.value ? t("{name} stands on {value}.", { name, value: labelWords(event.value) }) : t("{name} stands.", { name });
        }
        dealerShown = { seat: event.seat, cards: event.cards || [] };
        const cards = (event.cards || []).map(card).join(" ") || t("nothing");
        return event.concealed
          ? t("{name} stands, showing {cards} and {hidden} face down.", { name, cards, hidden: event.concealed })
          : t("{name} stands, showing {cards}.", { name, cards });
      }
      case "draw": return t("{name} draws {card}.", { name, card: card(event.card) });
      case "show": {
        const shown = dealerShown && dealerShown.seat === event.seat ? dealerShown.cards : null;
        const hidden = shown ? (event.cards || []).filter((c) => !shown.includes(c)) : [];
        dealerShown = null;
        const value = labelWords(event.value);
        if (hidden.length) {
          return tn("The hidden card is {cards}: {name} has {value}.", "The hidden cards are {cards}: {name} has {value}.", hidden.length,
            { cards: hidden.map(card).join(" "), name, value });
        }
        const cards = (event.cards || []).map(card).join(" ");
        return event.value ? t("{name} shows {cards} ({value}).", { name, cards, value }) : t("{name} shows {cards}.", { name, cards });
      }
      case "settle": {
        const values = { name, chips: ctx.chips(Math.abs(event.amount)), result: SETTLE_RESULTS[event.result]?.() ?? event.result };
        if (event.amount > 0) return t("{name} wins {chips} ({result}).", values);
        return event.amount < 0 ? t("{name} loses {chips} ({result}).", values) : t("{name} keeps {chips} ({result}).", values);
      }
      case "gather": return null;
      case "void": return t("The hand is void: {reason}.", { reason: REASONS[event.reason]?.() ?? event.reason });
      case "deal_passes": return event.reason
        ? t("The deal passes to {name} ({reason}).", { name, reason: REASONS[event.reason]?.() ?? event.reason })
        : t("The deal passes to {name}.", { name });
      case "table_over": return t("{name} holds every chip: the table is over.", { name });
      default: return undefined;
    }
  },
};
