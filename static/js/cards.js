// Cards drawn as cards (docs/rules.md §0.2): a code is rank + suit ("TH" = ten of hearts),
// "XX" is the joker. In a view a card is {card, up}:
//   {card: "TH", up: true}    face up, everyone sees it;
//   {card: null, up: false}   face down and hidden from you: drawn as a patterned back;
//   {card: "TH", up: false}   face down but yours to see: drawn face up with a "private" marker.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
// a card's name in words, "ten of hearts": its rank's and its suit's words in the page's
// language, put together by "{rank} of {suit}" (a language orders them as it writes them)
const SUIT_NAMES = { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") };
const RANK_NAMES = { A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack"), T: t("ten") };
const CODE = /^(?:[2-9TJQKA][SHDC]|XX)$/;

/** Is `value` a card code (so a choice among codes can be drawn as cards)? */
export const isCardCode = (value) => typeof value === "string" && CODE.test(value);

/** {rank: "10", suit: "♥", red: true, name: "ten of hearts"} for "TH". */
export function parseCard(code) {
  if (code === "XX") return { rank: "★", suit: "", red: false, joker: true, name: t("joker") };
  const r = code[0];
  const s = code[1];
  return {
    rank: r === "T" ? "10" : r,
    suit: SUITS[s] || s,
    red: s === "H" || s === "D",
    joker: false,
    name: t("{rank} of {suit}", { rank: RANK_NAMES[r] || r, suit: SUIT_NAMES[s] || s }),
  };
}

/** A short text form for logs and labels: "10♥". */
export function cardText(code) {
  if (!isCardCode(code)) return "?";
  const c = parseCard(code);
  return c.joker ? t("Joker") : `${c.rank}${c.suit}`;
}

/**
 * The name of a card one presses (a button): its short form, which the button shows, then its
 * words, "10♥ (ten of hearts)", "joker". A button's accessible name holds its visible text
 * (WCAG 2.5.3, "label in name"), so speech control users can say what they see.
 */
export function cardLabel(code) {
  if (!isCardCode(code)) return t("a card");
  const c = parseCard(code);
  return c.joker ? c.name : t("{card} ({name})", { card: `${c.rank}${c.suit}`, name: c.name });
}


/**
 * One card element. `card` is a view card ({card, up}) or a bare code.
 * opts.tag: "button" for a pickable card; opts.small for the compact size.
 */
export function cardEl(card, opts = {}) {
  const view = typeof card === "string" || card === null ? { card, up: card !== null } : card || {};
  const code = isCardCode(view.card) ? view.card : null;
  const tag = opts.tag || "span";
  const classes = ["card"];
  if (opts.small) classes.push("card-small");
  if (!code) {
    classes.push("card-back");
    return h(tag, { class: classes.join(" "), role: tag === "span" ? "img" : null,
      "aria-label": t("face-down card"), title: t("Face-down card") });
  }
  const c = parseCard(code);
  classes.push(c.red ? "card-red" : "card-black");
  if (c.joker) classes.push("card-joker");
  const privateToYou = view.up === false; // face down, but you may see it
  if (privateToYou) classes.push("card-private");
  const name = tag === "button" ? cardLabel(code) : c.name; // a button names what it shows
  const label = privateToYou ? t("{card}, face down (only you see it)", { card: name }) : name;
  return h(tag, { class: classes.join(" "), role: tag === "span" ? "img" : null, "aria-label": label,
    title: label, dataset: { card: code } },
    h("span", { class: "card-corner", "aria-hidden": "true" },
      h("span", { class: "card-rank" }, c.rank), h("span", { class: "card-suit" }, c.suit)),
    h("span", { class: "card-pip", "aria-hidden": "true" }, c.joker ? t("JOKER") : c.suit));
}

/** A row of cards (a hand); an empty row keeps its height so the layout does not jump. */
export function cardRow(cards, opts = {}) {
  const list = Array.isArray(cards) ? cards : [];
  return h("div", { class: `card-row${opts.small ? " card-row-small" : ""}` },
    list.map((c) => cardEl(c, opts)));
}

/** A view value that holds cards ({"card", "up"} or a list of them) as a list; else null. */
export function asCards(value) {
  const isViewCard = (c) => c && typeof c === "object" && "card" in c && (c.card === null || isCardCode(c.card));
  if (isViewCard(value)) return [value];
  if (Array.isArray(value) && value.length && value.every(isViewCard)) return value;
  return null;
}
