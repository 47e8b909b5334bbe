// A hand's steps in the reader's words: the replay's step titles ("Ada: bet 20", "Basil
// (timer): stand", "Clio sits down with 300 chips") and the analysis's options ("stake 20 on
// rouge"), worded from what the record holds (the step's `seat`, `by`, `action`, `roster`,
// `amount`; docs/protocol/review.md), never from the server's English `label`.
//
// Each action is one whole phrase a kind and its parameters (each game's actions:
// docs/protocol/<game>.md): in English the very words of the server's label
// (app/review/steps.py action_text), a card as "10♥", a number as the page's language writes
// it. The games' own words stay as the record writes them (Trente et Quarante's chances:
// rouge, noir, couleur, inverse).
import { cardText, isCardCode } from "./cards.js";
import { formatNumber, t, tc, tn } from "./i18n.js";
import { codeWords } from "./words.js";

/** Greek 31's dealer stands keeping one card face down: its index, in words. */
const CONCEALING = [
  () => t("stand, concealing the first card"),
  () => t("stand, concealing the second card"),
  () => t("stand, concealing the third card"),
  () => t("stand, concealing the fourth card"),
  () => t("stand, concealing the fifth card"),
  () => t("stand, concealing the sixth card"),
  () => t("stand, concealing the seventh card"),
  () => t("stand, concealing the eighth card"),
];

const number = (value) => (typeof value === "number" ? formatNumber(value) : String(value));

/** Cards as the page draws them in text: "6♦, 2♠". */
const cardsText = (cards) => (Array.isArray(cards) ? cards : [cards])
  .map((code) => (isCardCode(code) ? cardText(code) : String(code))).join(", ");

/** Trente et Quarante's kinds that take a chance ("the stake on rouge") or a stake in prison
 *  by its id ("stake 3"). */
const ON_CHANCE = {
  remove: (chance) => t("remove the stake on {chance}", { chance }),
  insure: (chance) => t("insure the stake on {chance}", { chance }),
  share: (chance) => t("share the stake on {chance}", { chance }),
  prison: (chance) => t("prison the stake on {chance}", { chance }),
};
const ON_STAKE = {
  remove: (stake) => t("remove stake {stake}", { stake }),
  insure: (stake) => t("insure stake {stake}", { stake }),
  share: (stake) => t("share stake {stake}", { stake }),
  prison: (stake) => t("prison stake {stake}", { stake }),
};

/** One of ON_CHANCE's kinds in words: on its chance, else its stake in prison. */
function onStake(kind, p) {
  if (p.chance !== undefined) return ON_CHANCE[kind](String(p.chance));
  if (p.stake !== undefined) return ON_STAKE[kind](String(p.stake));
  return null;
}

/** Each kind's phrase, from its parameters (`p`, those that are not null); null when the
 *  parameters are not the ones the kind is known with. */
const PHRASES = {
  bet: (p) => (p.amount !== undefined ? t("bet {amount}", { amount: number(p.amount) }) : t("bet")),
  fold: () => t("fold"),
  hit: () => t("hit"),
  stand: (p) => {
    if (p.conceal === undefined) return t("stand");
    const known = Number.isInteger(p.conceal) ? CONCEALING[p.conceal] : undefined;
    return known ? known() : t("stand, concealing card {card}", { card: String(p.conceal) });
  },
  accept_bank: () => t("accept bank"),
  decline_bank: () => t("decline bank"),
  stake: (p) => {
    if (p.amount === undefined) return p.chance === undefined ? t("stake") : null;
    const amount = number(p.amount);
    return p.chance !== undefined
      ? t("stake {amount} on {chance}", { amount, chance: String(p.chance) })
      : t("stake {amount}", { amount });
  },
  draw: (p) => {
    if (p.source === undefined) return t("draw");
    if (p.source === "stock") return t("draw from the stock");
    if (p.source === "discard") return t("draw from the discard pile");
    return null;
  },
  double: () => t("double"),
  no_double: () => t("no double"),
  split: (p) => (p.amount !== undefined ? t("split {amount}", { amount: number(p.amount) }) : t("split")),
  discard: (p) => {
    const cards = p.cards === undefined ? [] : [p.cards].flat();
    return cards.length ? t("discard {cards}", { cards: cardsText(cards) }) : t("discard");
  },
  knock: () => t("knock"),
  knock_deck: () => t("knock deck"),
  cut: (p) => (p.position !== undefined ? t("cut at {position}", { position: number(p.position) }) : t("cut")),
  deal: (p) => (p.pattern !== undefined ? t("deal {pattern}", { pattern: String(p.pattern) }) : t("deal")),
  remove: (p) => onStake("remove", p),
  insure: (p) => onStake("insure", p),
  move_prison: (p) => (p.stake !== undefined && p.to !== undefined
    ? t("move prison stake {stake} to {to}", { stake: String(p.stake), to: String(p.to) })
    : null),
  done: () => t("done"),
  share: (p) => onStake("share", p),
  prison: (p) => onStake("prison", p),
  close: () => tc("action", "close"), // the timer closes the betting (Trente et Quarante)
};

/** The parameters each kind is known with: a kind given another is worded generically. */
const PARAMS = {
  bet: ["amount"], stand: ["conceal"], stake: ["amount", "chance"], draw: ["source"],
  split: ["amount"], discard: ["cards"], cut: ["position"], deal: ["pattern"],
  remove: ["chance", "stake"], insure: ["chance", "stake"], move_prison: ["stake", "to"],
  share: ["chance", "stake"], prison: ["chance", "stake"],
};

/** An action in words, as a step title or an analysis's option says it: "bet 20", "stake 20
 *  on rouge", "stand, concealing the first card", "discard 6♦, 2♠". A kind or a parameter
 *  this does not know reads as its key and values ("vote for game x"). */
export function actionWords(action) {
  const kind = String(action?.kind ?? "?");
  const params = Object.fromEntries(Object.entries(action || {})
    .filter(([name, value]) => name !== "kind" && value !== null && value !== undefined));
  const known = Object.hasOwn(PHRASES, kind)
    && Object.keys(params).every((name) => (PARAMS[kind] || []).includes(name));
  const phrase = known ? PHRASES[kind](params) : null;
  if (phrase !== null) return phrase;
  const words = Object.entries(params).map(([name, value]) => `${name.replace(/_/g, " ")} ${paramText(value)}`);
  return [codeWords(kind).toLowerCase(), ...words].join(" ");
}

function paramText(value) {
  if (Array.isArray(value)) return cardsText(value);
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  return isCardCode(value) ? cardText(value) : number(value);
}

/** Is `name` a bot's own name, which says so already ("Ada (bot)": app/core/names.py)? */
const BOT_NAME = /\(bot\)$/;

/** A step of the replay in words (docs/protocol/review.md: the step's `seat`, `by`,
 *  `action`, `roster`, `amount`): "The deal", "Ada: bet 20", "Basil (timer): stand",
 *  "Clio sits down with 300 chips". `seatName(n)` names a seat's player. */
export function stepWords(step, seatName) {
  if (!Number.isInteger(step?.seat)) return t("The deal");
  const who = seatName(step.seat);
  const amount = Number.isInteger(step.amount) ? step.amount : null;
  switch (step.roster) {
    case "sit":
      return amount === null ? t("{who} sits down", { who })
        : tn("{who} sits down with {n} chip", "{who} sits down with {n} chips", amount, { who });
    case "top_up":
      return amount === null ? t("{who} adds chips", { who })
        : tn("{who} adds {n} chip", "{who} adds {n} chips", amount, { who });
    case "leave":
      return t("{who} stands up", { who });
    default:
      break;
  }
  const action = actionWords(step.action || {});
  if (step.by === "timeout") return t("{who} (timer): {action}", { who, action });
  if (step.by === "bot" && !BOT_NAME.test(String(who))) return t("{who} (bot): {action}", { who, action });
  return t("{who}: {action}", { who, action });
}
