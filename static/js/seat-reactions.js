// Reactions at the seat (docs/protocol/socket.md §5.9): a reaction from a seated person shows
// for a few seconds in a bubble by the sender's seat, on everyone's page, beside its line in the
// chat list. The bubbles live in a layer of their own over the felt (#seat-bubbles), so the
// seats' own redraws never wipe them; each is said once, politely, by screen readers
// (#announce). The server sends no reaction of a person this player blocks (app/runtime/blocks.py),
// so none is shown. With the chat off (static/js/chat-blocks.js) no bubble is shown either.
// prefers-reduced-motion: the bubble appears and goes without moving (static/css/chat.css).
import { announce } from "./announce.js";
import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { reactionWords } from "./words.js";

export const BUBBLE_MS = 4000;

/** Show `message` (a `reaction` frame) by its sender's seat; `emoji` is its face. */
export function showAtSeat(message, emoji, chatOff) {
  if (chatOff || !Number.isInteger(message.seat)) return;
  const layer = $("#seat-bubbles");
  const seat = document.querySelector(`#seats .seat[data-seat="${message.seat}"]`);
  if (!layer || !seat) return;
  const label = reactionWords(message.reaction);
  const name = typeof message.name === "string" ? message.name : t("Seat {n}", { n: message.seat });
  layer.querySelector(`.seat-bubble[data-seat="${message.seat}"]`)?.remove(); // the newest only
  const bubble = h("div", {
    class: "seat-bubble", dataset: { seat: message.seat, reaction: message.reaction || "" },
    title: t("{name}: {reaction}", { name, reaction: label }),
  }, h("span", { role: "img", "aria-label": t("{name} reacts: {reaction}", { name, reaction: label }) }, emoji || label));
  // at the seat's top right corner, wherever the layout put the seat (an oval, a phone's grid)
  const box = seat.getBoundingClientRect();
  const origin = layer.getBoundingClientRect();
  bubble.style.left = `${Math.round(box.right - origin.left - 12)}px`;
  bubble.style.top = `${Math.round(box.top - origin.top)}px`;
  layer.append(bubble);
  announce(t("{name} reacts: {reaction}", { name, reaction: label }));
  setTimeout(() => bubble.remove(), BUBBLE_MS);
}
