// Words for players. Some texts come from the server as the engines wrote them for the record
// ("discard TH", "Seat 3 splits", "You need 1 chips", "when_ready"); the pages show them in the
// words they use everywhere else: a card as "10♥", a seat by its player's name, "1 chip", a key
// as words. tests/browser/test_wording_browser.py walks every event of every game through them.
import { cardText } from "./cards.js";
import { t, tc } from "./i18n.js";

const CARD_CODE = /\b(?:[2-9TJQKA][SHDC]|XX)\b/g;
const SEAT = /\b([Ss])eat (\d+)('s)?/g;
const ONE_CHIPS = /(^|[^\d,.])1 chips\b/g;
const KEY = /\b[a-z]+(?:_[a-z]+)+\b/g;

/** "discard TH, 2S" → "discard 10♥, 2♠". */
export function cardsInWords(text) {
  return String(text).replace(CARD_CODE, (code) => cardText(code));
}

/** "Seat 3 splits" → "Ada splits", when `seatName` knows seat 3's player (else as it was). */
export function seatsInWords(text, seatName) {
  return String(text).replace(SEAT, (match, _s, n, poss) => {
    const name = typeof seatName === "function" ? seatName(Number(n)) : null;
    return typeof name === "string" && name && !/^Seat \d+$/.test(name) ? `${name}${poss || ""}` : match;
  });
}

/** "You need 1 chips" → "You need 1 chip". */
export function chipsInWords(text) {
  return String(text).replace(ONE_CHIPS, "$11 chip");
}

/** "when_ready" → "when ready": a key the server wrote, read as words. */
export function keysInWords(text) {
  return String(text).replace(KEY, (key) => key.replace(/_/g, " "));
}

/** A server's text as a player reads it: cards, seats and "1 chip" (a key is left alone: a
 *  player's name may hold "_"). */
export function forPlayers(text, seatName) {
  return chipsInWords(seatsInWords(cardsInWords(text), seatName));
}

/** A chat reaction's key in words ("thumbs_up" → "thumbs up"; app/runtime/chat.py REACTIONS). */
const REACTION_WORDS = {
  thumbs_up: t("thumbs up"),
  clap: t("clap"),
  laugh: t("laugh"),
  wow: t("wow"),
  sad: t("sad"),
  party: t("party"),
};

export function reactionWords(key) {
  const text = String(key || "");
  return Object.hasOwn(REACTION_WORDS, text) ? REACTION_WORDS[text] : text.replace("_", " ");
}

/** The words of a code a view sends for people to read: a phase, a seat's role, a hand's
 *  status (app/games/*: view.py). A game's own words (banco, après, prison…) are marked like
 *  the others, for the translators to keep or translate as players say them; a code not
 *  listed reads as its key in words ("no_banker" → "No banker"). */
const CODE_WORDS = {
  // phases
  waiting: t("Waiting"),
  staking: t("Staking"),
  betting: t("Betting"),
  playing: t("Playing"),
  players: t("Players"),
  dealer: t("Dealer"),
  // a phase's name, where a button says the same English as a verb (controls.js)
  double: tc("phase", "Double"),
  draw: tc("phase", "Draw"),
  deal: tc("phase", "Deal"),
  dealing: t("Dealing"),
  cut: tc("phase", "Cut"),
  cover: t("Cover"),
  close: t("Close"),
  discard: tc("phase", "Discard"),
  stand: t("Stand"),
  fold: t("Fold"),
  settled: t("Settled"),
  over: t("Over"),
  no_banker: t("No banker"),
  bank_offer: t("Bank offer"),
  un_apres: t("Un apres"), // the game's own word, as its key reads
  between_rounds: t("Between rounds"),
  between_matches: t("Between matches"),
  // roles and a seat's state
  banker: t("Banker"),
  player: t("Player"),
  out: t("Out"),
  "sitting out": t("Sitting out"),
  "in hand": t("In hand"),
  // a hand's status
  deciding: t("Deciding"),
  folded: t("Folded"),
  bet: tc("hand status", "Bet"), // has bet (the button "Bet" is a verb)
  refused: t("Refused"),
  stood: t("Stood"),
  standing: t("Standing"),
  bust: t("Bust"),
  won: t("Won"),
  lost: t("Lost"),
  natural: t("Natural"),
};

/** "no_banker" → "No banker", in the page's language when the code is one of CODE_WORDS. */
export function codeWords(code) {
  const key = String(code ?? "");
  if (Object.hasOwn(CODE_WORDS, key)) return CODE_WORDS[key];
  const text = key.replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
