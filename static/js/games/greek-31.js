// Greek 31 (docs/rules.md §2): the central area, the seats' extras and the log lines.
// View fields used (app/games/greek_31_view.py): phase, turn, dealer, hands_dealt, dealer_cards,
// dealer_outcome ("bust" | "31" | "14" | "other" | "void"), order, cover, deck, rules {ace_rule,
// heath, min_bet, max_bet, stakes}, last_hand {dealer, outcome, hands[{seat, …}]}, table_over,
// status; per seat: role, note; per hand: cards, stake, dealer, value, label, result,
// returned_to_deck.
//
// What players expect to see: whose deal it is and how many hands they have dealt; the dealer's
// face-down cards counted for everyone and shown to the dealer; the dealer choosing the card to
// keep face down by clicking it; the 14 and 31 moments; stakes within the bank's cover.
//
// The dealer's area is greek-31/dealer.js; the view's readers both use, greek-31/reading.js.
import { dealerArea } from "./greek-31/dealer.js";
import { ACE_RULES, cardsOf, fourteenWord, handDealer, handOf, isSeat, outcomeOf, players, seatOf, who } from "./greek-31/reading.js";

// ------------------------------------------------------------------ the centre

function headline(view, ctx) {
  const you = (n) => n === view.you;
  const dealer = handDealer(view);
  switch (view.phase) {
    case "staking":
      if (you(view.turn)) return "Your stake";
      return isSeat(view.turn) ? `${ctx.seatName(view.turn)} to stake` : "Stakes";
    case "dealer":
      if (you(dealer)) return "Your draw: draw, or stand";
      return `${ctx.seatName(dealer)} draws in secret`;
    case "players":
      if (you(view.turn)) return "Your turn: draw or stand";
      return isSeat(view.turn) ? `${ctx.seatName(view.turn)} to draw or stand` : "The players draw";
    case "settled":
      return ["other", "14"].includes(outcomeOf(view)) ? "Showdown" : "Hand over";
    case "over":
      return "The table is over";
    default:
      if (!isSeat(view.dealer)) return "Waiting for players";
      return `${you(view.dealer) ? "You deal" : `${ctx.seatName(view.dealer)} deals`} next`;
  }
}

/** The big moments: the dealer's stand on 14 or 31, a bust, a player's 31. */
function moments(view, ctx) {
  const out = [];
  const outcome = outcomeOf(view);
  const dealer = handDealer(view);
  const dealerName = isSeat(dealer) ? who(view, ctx, dealer, true) : "The dealer";
  const settled = Boolean(view.last_hand);
  if (outcome === "31") {
    out.push({ kind: "31", text: `${dealerName} stood on 31 and ${dealer === view.you ? "collect" : "collects"} every stake` });
  } else if (outcome === "14") {
    const stands = dealer === view.you ? "stand" : "stands";
    out.push({ kind: "14", text: settled ? `${dealerName} stood on 14` : `${dealerName} ${stands} on 14: ${fourteenWord(view)}` });
  } else if (outcome === "bust") {
    out.push({ kind: "bust", text: `${dealerName} went over 31 and ${dealer === view.you ? "pay" : "pays"} every stake` });
  } else if (outcome === "void") {
    out.push({ kind: "void", text: "The deck ran out: the hand is void and every stake goes back" });
  }
  if (settled && isSeat(view.dealer) && view.dealer !== dealer) {
    out.push({ kind: "deal", text: `The deal passes to ${who(view, ctx, view.dealer)}` });
  }
  for (const { seat, hand } of players(view)) {
    if (hand.result === "31") {
      const paid = typeof hand.stake === "number" && hand.stake > 0 ? ` and ${seat === view.you ? "are" : "is"} paid ${ctx.chips(hand.stake)}` : "";
      out.push({ kind: "player31", seat, text: `${who(view, ctx, seat, true)} ${seat === view.you ? "hit" : "hits"} 31${paid}!` });
    }
  }
  return out;
}

/** Why a player's hand won or lost, once the hand is settled ("24 beats 23"). */
function resultText(view, hand) {
  const last = view.last_hand;
  if (!last || !hand) return null;
  const dealerLabel = handOf(view, last.dealer)?.label ?? "";
  const mine = hand.label ?? String(hand.value ?? "");
  switch (hand.result) {
    case "won":
      return last.outcome === "bust" ? "the dealer went over 31" : `${mine} beats ${dealerLabel}`;
    case "lost":
      return last.outcome === "31" ? "the dealer's 31" : `${mine} against ${dealerLabel}`;
    case "31":
      return "paid at once";
    case "returned":
      return "stake returned";
    default:
      return null;
  }
}

/** Staking: the bank's cover, and why your stake is what it is (docs/rules.md §0.6). */
function stakeNotes(view, ctx) {
  const notes = [];
  if (view.phase !== "staking") return notes;
  const rules = view.rules || {};
  if (typeof view.cover === "number") notes.push(`The bank covers ${ctx.chips(view.cover)} more`);
  const range = (view.legal || []).find((t) => t.kind === "stake")?.params?.amount;
  const me = seatOf(view, view.you);
  if (!range || !me) return notes;
  const maxBet = typeof rules.max_bet === "number" ? rules.max_bet : Infinity;
  const below = typeof rules.min_bet === "number" && range.max < rules.min_bet ? " (less than the minimum)" : "";
  if (range.max === view.cover && view.cover < Math.min(me.stack, maxBet)) {
    notes.push(`Your stake: at most ${ctx.chips(range.max)}${below}, all the bank can still cover`);
  } else if (range.max === me.stack && me.stack < maxBet) {
    notes.push(`Your stake: at most ${ctx.chips(range.max)}${below}, your whole stack`);
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
  const name = who(view, ctx, last.dealer, true);
  const label = hand?.label ?? "";
  let text;
  if (last.outcome === "bust") text = `${name} went over 31`;
  else if (last.outcome === "void") text = "The hand was void";
  else text = `${name} stood on ${label}`;
  if (hidden?.card) text += `; the hidden card was ${ctx.cardText(hidden.card)}`;
  memory.last = { text };
}

// ------------------------------------------------------------------ the seats

const RESULT_TAGS = {
  "31": ["31!", "g31-tag-31"],
  won: ["won", "status-won"],
  lost: ["lost", "status-lost"],
  bust: ["over 31", "status-bust"],
  stood: ["stands", ""],
  "no cover": ["no stake: no cover left", "g31-tag-nocover"],
  returned: ["returned", ""],
};

// ------------------------------------------------------------------ the module

/** The dealer's cards shown when they stood (the rest face down), until the show reveals
 *  them: the log then names the hidden card. */
let dealerShown = null;

export default {
  labels: { stake: "Stake", draw: "Draw", stand: "Stand" },

  valueLabel(kind, param, value, view, ctx) {
    if (kind !== "stand" || param !== "conceal" || !Number.isInteger(value)) return null;
    const card = cardsOf(handOf(view, view.you))[value];
    return card?.card ? `hide ${ctx.cardText(card.card)}` : `hide card ${value + 1}`;
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
      el.append(h("p", { class: "muted small g31-lasthand", "data-testid": "last-hand" }, `Last hand: ${memory.last.text}.`));
    }

    const me = seatOf(view, view.you);
    const notes = stakeNotes(view, ctx);
    if (me?.note && handOf(view, me.seat)?.result === "no cover" && !view.last_hand) notes.push(String(me.note));
    for (const { seat, hand } of view.phase === "staking" ? players(view) : []) {
      if (hand.result === "no cover" && seat !== view.you) notes.push(`${ctx.seatName(seat)} cannot stake: the bank cannot cover another stake this hand`);
    }
    if (notes.length) el.append(h("ul", { class: "messages g31-notes" }, notes.map((n) => h("li", {}, n))));

    if (view.phase !== "staking" && view.phase !== "waiting") return; // the play needs the room
    const rules = view.rules || {};
    const facts = [];
    if (typeof rules.min_bet === "number") {
      facts.push(`Stakes ${ctx.chips(rules.min_bet)}–${rules.max_bet === null || rules.max_bet === undefined ? "stack" : ctx.chips(rules.max_bet)}`);
    }
    if (rules.heath) facts.push("Heath's version");
    if (typeof view.deck === "number" && view.deck > 0) facts.push(`Deck ${view.deck}`);
    const aces = ACE_RULES[rules.ace_rule] ? `Aces: ${ACE_RULES[rules.ace_rule]}` : null;
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
      if (view.hand_id && dealt > 0) el.append(h("span", { class: "tag g31-tag-deal" }, `hand ${dealt} of the deal`));
    }
    if (n === dealer) {
      if (view.phase === "dealer" && n !== view.you) {
        const count = typeof view.dealer_cards === "number" ? view.dealer_cards : cardsOf(hand).length;
        el.append(h("span", { class: "tag g31-tag-drawing" }, `drawing · ${count} card${count === 1 ? "" : "s"} unseen`));
      }
      if (live && view.phase === "players" && view.dealer_outcome === "other") {
        el.append(h("span", { class: "tag g31-tag-hidden" }, "1 card hidden"));
      }
    }
    // Between hands the seats hold no cards: show the hand just played, as it ended.
    if (!live && hand && view.last_hand) {
      el.append(h("div", { class: "g31-last" },
        ctx.cardRow(hand.cards, { small: true }),
        hand.label ? h("span", { class: "hand-value", title: "Last hand" }, String(hand.label)) : null));
    }
    if (hand && n !== dealer && RESULT_TAGS[hand.result] && (live || view.last_hand)) {
      const [text, cls] = RESULT_TAGS[hand.result];
      el.append(h("span", { class: `tag status ${cls}`, dataset: { result: hand.result } }, text));
      const why = resultText(view, hand);
      if (why) el.append(h("span", { class: "g31-why small" }, why));
    }
    if (hand?.returned_to_deck) el.append(h("span", { class: "tag" }, "cards back under the deck"));
    // The engine's note on a seat: a stake cut to the cover (while staking), or no cover at all.
    const noteNow = view.phase === "staking" && hand?.result !== "no cover"; // the tag says that
    if (typeof seat.note === "string" && seat.note && n !== view.you && noteNow) {
      el.append(h("p", { class: "hand-note g31-seat-note" }, seat.note));
    }
    if (seat.role === "waiting") el.append(h("span", { class: "tag" }, "plays from the next hand"));
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : "a card");
    switch (event.kind) {
      case "first_dealer": return `${who} deals first.`;
      case "hand": return `${who} deals (hand ${event.hand_of_deal} of the deal).`;
      case "deal": return `${who} gets ${card(event.card)}.`;
      case "stake": return `${who} stakes ${ctx.chips(event.amount)}.`;
      case "no_cover": return `${who} cannot stake: the dealer covers no more.`;
      case "dealer_draw": return typeof event.card === "string" ? `You draw ${card(event.card)} face down.` : `${who} draws a card face down.`;
      case "stand":
        if (event.concealed !== undefined) dealerShown = { seat: event.seat, cards: event.cards || [] };
        return event.concealed !== undefined
        ? `${who} stands, showing ${(event.cards || []).map(card).join(" ") || "nothing"}${event.concealed ? ` and ${event.concealed} face down` : ""}.`
        : `${who} stands${event.value ? ` on ${event.value}` : ""}.`;
      case "draw": return `${who} draws ${card(event.card)}.`;
      case "show": {
        const shown = dealerShown && dealerShown.seat === event.seat ? dealerShown.cards : null;
        const hidden = shown ? (event.cards || []).filter((c) => !shown.includes(c)) : [];
        dealerShown = null;
        if (hidden.length) {
          return `The hidden card${hidden.length > 1 ? "s are" : " is"} ${hidden.map(card).join(" ")}: ${who} has ${event.value}.`;
        }
        return `${who} shows ${(event.cards || []).map(card).join(" ")}${event.value ? ` (${event.value})` : ""}.`;
      }
      case "settle": return `${who} ${event.amount > 0 ? "wins" : event.amount < 0 ? "loses" : "keeps"} ${ctx.chips(Math.abs(event.amount))} (${event.result}).`;
      case "gather": return null;
      case "void": return `The hand is void: ${event.reason}.`;
      case "deal_passes": return `The deal passes to ${who}${event.reason ? ` (${event.reason})` : ""}.`;
      case "table_over": return `${who} holds every chip: the table is over.`;
      default: return undefined;
    }
  },
};
