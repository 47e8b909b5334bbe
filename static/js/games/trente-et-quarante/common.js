// Trente et Quarante's words and its reading of the view, shared by the game's modules
// (static/js/games/trente-et-quarante.js and the modules of this folder).

export const CHANCES = ["rouge", "noir", "couleur", "inverse"];
export const FRENCH = { rouge: "Rouge", noir: "Noir", couleur: "Couleur", inverse: "Inverse" };
export const ENGLISH = { rouge: "red", noir: "black", couleur: "colour", inverse: "inverse" };
export const OPPOSITE = { rouge: "noir", noir: "rouge", couleur: "inverse", inverse: "couleur" };

export const bettorsOf = (view) => (Array.isArray(view.bettors) ? view.bettors : view.seats || []);
export const mine = (view) => bettorsOf(view).find((b) => b.seat === view.you) || null;
export const templates = (view, kind) => (view.legal || []).filter((t) => t.kind === kind);
export const choices = (template, param) => (template?.params?.[param]?.one_of) || [];

export function nameOf(bettor, view, ctx) {
  if (bettor.seat === view.you) return "You";
  if (typeof bettor.name === "string") return bettor.name;
  return bettor.role === "standing" ? `Standing bettor ${bettor.seat}` : ctx.seatName(bettor.seat);
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
