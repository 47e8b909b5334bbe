// Greek 31's reading of the view, shared by its modules (static/js/games/greek-31.js and
// greek-31/dealer.js): seats, hands, the dealer of the hand on the table, its outcome, words.

export const ACE_RULES = {
  at_most_one_low: "one ace may count 1",
  at_least_one_high: "one ace counts 11",
  alternating: "aces 1, 11, 1, 11…",
};

export const ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
/** "third", "11th", "21st", "22nd", "23rd", "111th": past ten, the English suffix. */
export function ordinal(n) {
  if (n >= 0 && n < ORDINALS.length) return ORDINALS[n];
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

export const seatOf = (view, n) => (view.seats || []).find((s) => s.seat === n) || null;
export const isSeat = (n) => Number.isInteger(n);
export const cardsOf = (hand) => (hand && Array.isArray(hand.cards) ? hand.cards : []);

/** The hand a seat holds now, or (between hands) the one it held in the hand just played. */
export function handOf(view, n) {
  const seat = seatOf(view, n);
  if (seat && Array.isArray(seat.hands) && seat.hands.length) return seat.hands[0];
  const last = view.last_hand;
  if (last && Array.isArray(last.hands)) return last.hands.find((hand) => hand.seat === n) || null;
  return null;
}

/** The dealer of the hand on the table (the last one, between hands). */
export function handDealer(view) {
  if (view.last_hand && isSeat(view.last_hand.dealer)) return view.last_hand.dealer;
  return isSeat(view.dealer) ? view.dealer : null;
}

/** The players of the hand on the table, in seat order, with their hands. */
export function players(view) {
  if (view.last_hand && Array.isArray(view.last_hand.hands)) {
    return view.last_hand.hands.filter((hand) => !hand.dealer).map((hand) => ({ seat: hand.seat, hand }));
  }
  return (Array.isArray(view.order) ? view.order : []).map((seat) => ({ seat, hand: handOf(view, seat) }))
    .filter((p) => p.hand);
}

/** The outcome of the dealer's draw, now or in the hand just played. */
export const outcomeOf = (view) => (view.last_hand ? view.last_hand.outcome : view.dealer_outcome) || null;

export const standTemplate = (view) => (view.legal || []).find((t) => t.kind === "stand") || null;
export const concealChoice = (view) => {
  const spec = standTemplate(view)?.params?.conceal;
  return spec && Array.isArray(spec.one_of) ? spec.one_of : null;
};

export const fourteenWord = (view) => (view.rules?.heath ? "only a 31 or a pair of twos beats it" : "only a 31 beats it");

/** "Ada" or "you". */
export function who(view, ctx, n, capital = false) {
  if (n === view.you) return capital ? "You" : "you";
  return ctx.seatName(n);
}
