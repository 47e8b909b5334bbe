// Trente et Quarante's words and its reading of the view, shared by the game's modules
// (static/js/games/trente-et-quarante.js and the modules of this folder).
// The chances' French names and the dealer's French calls are the game's own words, shown as
// French (lang="fr") in every language; beside them, the reader's words (static/js/i18n.js).
import { t } from "../../i18n.js";

export const CHANCES = ["rouge", "noir", "couleur", "inverse"];
export const FRENCH = { rouge: "Rouge", noir: "Noir", couleur: "Couleur", inverse: "Inverse" };
/** The log's line of the dealer's "Rien ne va plus" (the coup's lines are written after it). */
export const rienNeVaPlus = () => t("Rien ne va plus.");

/** Each chance in the reader's words, beside its French name. */
export const ENGLISH = { rouge: t("red"), noir: t("black"), couleur: t("colour"), inverse: t("inverse") };
export const OPPOSITE = { rouge: "noir", noir: "rouge", couleur: "inverse", inverse: "couleur" };

export const bettorsOf = (view) => (Array.isArray(view.bettors) ? view.bettors : view.seats || []);
export const mine = (view) => bettorsOf(view).find((b) => b.seat === view.you) || null;
export const templates = (view, kind) => (view.legal || []).filter((tp) => tp.kind === kind);
export const choices = (template, param) => (template?.params?.[param]?.one_of) || [];

export function nameOf(bettor, view, ctx) {
  if (bettor.seat === view.you) return t("You");
  if (typeof bettor.name === "string") return bettor.name;
  return bettor.role === "standing" ? t("Standing bettor {seat}", { seat: bettor.seat }) : ctx.seatName(bettor.seat);
}

/** The dealer's calls beside the French (the engine's English, app/games/trente_et_quarante),
 *  in the reader's words; a call not known here, as the engine wrote it. */
const CALLS = {
  "Place your stakes": () => t("Place your stakes"),
  "No more stakes": () => t("No more stakes"),
  "A tie on 31 (un après)": () => t("A tie on 31 (un après)"),
  "A tie (après): no stake moves": () => t("A tie (après): no stake moves"),
  "Red and colour win": () => t("Red and colour win"),
  "Red and inverse win": () => t("Red and inverse win"),
  "Black and colour win": () => t("Black and colour win"),
  "Black and inverse win": () => t("Black and inverse win"),
  "Void coup: the shoe ran out": () => t("Void coup: the shoe ran out"),
};
/** The totals called by their last digit ("Seven… Two"); 40 is "Forty". */
const TOTALS = {
  One: () => t("One"), Two: () => t("Two"), Three: () => t("Three"), Four: () => t("Four"), Five: () => t("Five"),
  Six: () => t("Six"), Seven: () => t("Seven"), Eight: () => t("Eight"), Nine: () => t("Nine"), Forty: () => t("Forty"),
};

export function callWords(en) {
  const text = String(en ?? "");
  if (Object.hasOwn(CALLS, text)) return CALLS[text]();
  const totals = /^(\w+)… (\w+)$/.exec(text);
  if (totals && TOTALS[totals[1]] && TOTALS[totals[2]]) {
    return t("{noir}… {rouge}", { noir: TOTALS[totals[1]](), rouge: TOTALS[totals[2]]() });
  }
  return text;
}

/** "Ada (bot)" → "Ada": the tableau is narrow. */
export const shortName = (name) => {
  const first = String(name).split(/\s+/)[0] || String(name);
  return first.length > 9 ? `${first.slice(0, 8)}…` : first;
};

/** The chances the coup shown made win (none on a tie or a void coup). */
export function winning(view) {
  const r = view.result;
  return r && !r.void && !r.tie ? new Set([r.winner, r.colour]) : new Set();
}
