// Greek 31's reading of the view, shared by its modules (static/js/games/greek-31.js and
// greek-31/dealer.js): seats, hands, the dealer of the hand on the table, its outcome, words.
import { t } from "../../i18n.js";

/** The ace rules in words (each a function: the words of the reader's language). */
export const ACE_RULES = {
  at_most_one_low: () => t("one ace may count 1"),
  at_least_one_high: () => t("one ace counts 11"),
  alternating: () => t("aces 1, 11, 1, 11…"),
};

/** "third", "11th", "21st", "22nd", "23rd", "111th": the count of a hand in a deal, as the
 *  reader's language writes it (past ten, the English suffix chooses the message). */
export function ordinal(n) {
  const words = [
    null, () => t("first"), () => t("second"), () => t("third"), () => t("fourth"), () => t("fifth"),
    () => t("sixth"), () => t("seventh"), () => t("eighth"), () => t("ninth"), () => t("tenth"),
  ];
  if (n === 0) return t("zeroth");
  if (n > 0 && n < words.length) return words[n]();
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  if (suffix === "st") return t("{n}st", { n });
  if (suffix === "nd") return t("{n}nd", { n });
  if (suffix === "rd") return t("{n}rd", { n });
  return t("{n}th", { n });
}

/** A hand's label as the engine writes it ("31", "pair of twos", "14", "28", "bust"), in words. */
export function labelWords(label) {
  if (label === "pair of twos") return t("pair of twos");
  if (label === "bust") return t("bust");
  return String(label ?? "");
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

export const standTemplate = (view) => (view.legal || []).find((tp) => tp.kind === "stand") || null;
export const concealChoice = (view) => {
  const spec = standTemplate(view)?.params?.conceal;
  return spec && Array.isArray(spec.one_of) ? spec.one_of : null;
};

export const fourteenWord = (view) => (view.rules?.heath ? t("only a 31 or a pair of twos beats it") : t("only a 31 beats it"));
