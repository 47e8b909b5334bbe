// What a game's module is, the generic module that plays a game without one, and loading one.
//
// ─── The game-module interface ──────────────────────────────────────────────────────────────
// Everything game-specific lives in static/js/games/<game-id>.js, loaded by the game's id
// (the file name IS the registration). A module's default export is an object:
//
//   export default {
//     // Required. Fill `el` (emptied before each call) with the game's central area: the
//     // banker's up card, the pot, the discard pile, the status line, the last settlement…
//     // Must tolerate missing fields; build DOM with ctx.h (text only, never innerHTML).
//     renderCenter(view, el, ctx) {},
//
//     // Optional. Extra lines in one seat's box (the generic box already shows name, stack,
//     // role badge, connected dot, bot/you/leaving tags and each hand's cards, stake, value,
//     // status and note).
//     renderSeatExtras(seat, view, el, ctx) {},
//
//     // Optional. The figure a seat's stack shows, when it is not yet the view's (a coup
//     // being revealed shows the stacks from before its deal until its settlement).
//     stackShown(seat, view) { return seat.stack; },
//
//     // Optional. The words of one of the game's events for the table log and the replay
//     // (docs/protocol.md §6.6, §12): a line, a list of lines, null (say nothing), or
//     // undefined (the plain words of story.js). The server sends the events; the page never
//     // works out what happened from two views.
//     describeEvent(event, ctx) { return "Bob bets 20."; },
//
//     // Optional. Button labels by action kind (merged over controls.js KIND_LABELS), and
//     // a label for one param value (null: the default, a card code is drawn as "10♥").
//     labels: { accept_bank: "Take the bank" },
//     valueLabel(kind, param, value, view, ctx) { return null; },
//   };
//
// ctx = {h, fill, chips, signed, humanize, cardEl, cardRow, cardText,
//        seatName(seatNo) → the seated player's name or "Seat N", you: your seat or null,
//        optionLabel(key) → a table option's name in the page's language (the table page),
//        (a module's words go through t/tn of static/js/i18n.js, as docs/i18n.md says;
//        humanize is for keys only: its words are English)
//        view: the view, live: true on the table page (false in the replay),
//        act(action) → sends one action that fits `legal` (as the controls do),
//        sit(seat, title?) → the buy-in dialog, then sits at `seat` (null: any free seat)}.
// A game without a module gets `genericModule` below (status, messages and any card fields).
// ────────────────────────────────────────────────────────────────────────────────────────────

import { asCards } from "./cards.js";
import { h } from "./dom.js";
import { said } from "./engine-words.js";
import { codeWords } from "./words.js";

const KNOWN_KEYS = new Set([
  "table_id", "game", "hand_id", "phase", "you", "seats", "legal", "deadline", "table",
  "status", "status_coded", "messages", "messages_coded", "turn", "order",
]);

/** For a game without its own module: status, messages, card fields and simple values. */
export const genericModule = {
  renderCenter(view, el, ctx) {
    if (typeof view.status === "string") el.append(ctx.h("p", { class: "status-line" }, said(view.status_coded, ctx, view.status)));
    const facts = ctx.h("p", { class: "facts" });
    const cardBlocks = [];
    for (const [key, value] of Object.entries(view)) {
      if (KNOWN_KEYS.has(key) || value === null || value === undefined) continue;
      const cards = asCards(value);
      if (cards) {
        cardBlocks.push(ctx.h("div", { class: "center-cards" },
          ctx.h("span", { class: "muted small" }, codeWords(key)), ctx.cardRow(cards)));
      } else if (["string", "number", "boolean"].includes(typeof value)) {
        facts.append(ctx.h("span", { class: "fact" }, ctx.h("span", { class: "muted" }, `${codeWords(key)} `),
          typeof value === "number" ? ctx.chips(value) : String(value)));
      }
    }
    el.append(...cardBlocks);
    messagesList(view, el, ctx);
    if (facts.childNodes.length) el.append(facts);
  },
};

/** The view's `messages`, each worded from its code (`messages_coded`) where it has one. */
function messagesList(view, el, ctx) {
  const messages = Array.isArray(view.messages) ? view.messages : [];
  const coded = Array.isArray(view.messages_coded) ? view.messages_coded : [];
  if (!messages.length) return;
  el.append(h("ul", { class: "messages" }, messages.map((m, i) => (typeof m === "string" ? h("li", {}, said(coded[i], ctx, m)) : null))));
}

/** The game's module (static/js/games/<id>.js), or the generic one. */
export async function loadModule(id) {
  if (!/^[a-z0-9-]+$/.test(id)) return genericModule;
  try {
    const mod = await import(`./games/${id}.js`);
    return mod.default && typeof mod.default.renderCenter === "function" ? mod.default : genericModule;
  } catch {
    return genericModule; // no module for this game yet: the generic one plays it fine
  }
}

