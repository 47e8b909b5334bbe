// The table page's live region (templates/table.html #announce, polite): a screen reader says
// when it becomes your turn and what you may do ("Your turn: hit or stand"), and each hand's
// result as the server tells it. The region keeps its last few lines, so a result and the next
// turn that follow each other at once are both said.
import { KIND_LABELS } from "./controls.js";
import { $, h, humanize } from "./dom.js";
import { t } from "./i18n.js";

const KEPT = 4;

/** Say `text` once, politely. */
export function announce(text) {
  const region = $("#announce");
  if (!region || !text) return;
  region.append(h("p", {}, text));
  while (region.children.length > KEPT) region.firstElementChild.remove();
}

/** The choices of `legal` in words: "hit or stand", "bet, fold or knock". */
export function choiceWords(legal, labels = {}) {
  const words = [];
  for (const template of Array.isArray(legal) ? legal : []) {
    const kind = template?.kind;
    if (typeof kind !== "string") continue;
    const word = (labels[kind] || KIND_LABELS[kind] || humanize(kind)).toLowerCase();
    if (!words.includes(word)) words.push(word);
  }
  if (words.length < 2) return words.join("");
  return t("{choices} or {last}", { choices: words.slice(0, -1).join(", "), last: words[words.length - 1] });
}

/** "Your turn: hit or stand" (or "Your turn" when the choices have no words). */
export function turnSentence(legal, labels) {
  const words = choiceWords(legal, labels);
  return words ? t("Your turn: {choices}", { choices: words }) : t("Your turn");
}
