// En og tredive's reading of the view, its hand values (docs/rules.md §5) and its bets drawn as chips,
// shared by its modules (static/js/games/en-og-tredive.js and en-og-tredive/hand.js).
import { t } from "../../i18n.js";

export const seatOf = (view, n) => (view.seats || []).find((s) => s.seat === n) || null;
export const handOf = (seat) => (seat && Array.isArray(seat.hands) && seat.hands.length ? seat.hands[0] : null);
export const templateOf = (view, kind) => (view.legal || []).find((tp) => tp.kind === kind) || null;
export const cardsOf = (hand) => (hand && Array.isArray(hand.cards) ? hand.cards : []);
export const isYou = (view, n) => n !== null && n !== undefined && n === view.you;

export function who(view, ctx, n, { capital = true } = {}) {
  if (isYou(view, n)) return capital ? t("You") : t("you");
  return ctx.seatName(n);
}

// ------------------------------------------------------------------ hand values (docs/rules.md §5)

const points = (card) => (card[0] === "A" ? 11 : "TJQK".includes(card[0]) ? 10 : Number(card[0]));

/** A hand's value: its best suit; the joker adds the best card that suit still lacks. */
export function handValue(cards) {
  const joker = cards.includes("XX");
  const suits = new Set(cards.filter((c) => c !== "XX").map((c) => c[1]));
  if (!suits.size) return joker ? 11 : 0;
  let best = 0;
  for (const suit of suits) {
    const held = cards.filter((c) => c !== "XX" && c[1] === suit);
    let total = held.reduce((sum, c) => sum + points(c), 0);
    if (joker) total += held.some((c) => c[0] === "A") ? 10 : 11;
    best = Math.max(best, total);
  }
  return best;
}

/** `n` bets as a stack of chips (at most `max` drawn). */
export function chipStack(h, n, max = 12) {
  const shown = Math.min(n, max);
  return [...Array(shown)].map((_, i) => h("span", { class: "eot-chip", style: `--i: ${i}` }));
}
