// Keys at the table. Each choice of `legal` shown in the controls (#controls, built by
// controls.js; then the table's own, Ready, Deal now, Sit out, I'm back: #presence) gets a key: a letter by its kind (H hit, S stand, B bet or stake, K knock, D deal
// or draw, F fold…; KIND_KEYS), or, when the kind has none or its letter is taken, a digit 1–9
// in the order of the buttons. A choice among values (one button per value) numbers its values.
// The key is shown on its button (a small key cap, data-key; aria-keyshortcuts for screen
// readers) and listed on the "?" overlay (#keys-dialog). A letter presses its button; for a
// choice that needs an amount or cards, it moves to the first field, where Enter confirms.
// No key does anything while a person types in a field (the chat, an amount) or a dialog is
// open; Escape closes a dialog (the browser's own) and leaves a field of the controls.
import { $, h } from "./dom.js";
import { t } from "./i18n.js";

export const KIND_KEYS = {
  hit: "H", stand: "S", bet: "B", stake: "B", fold: "F", knock: "K", knock_deck: "K",
  deal: "D", draw: "D", double: "O", no_double: "N", split: "P", discard: "X", cut: "C",
  accept_bank: "A", decline_bank: "N", insure: "I", remove: "R", done: "E",
  share: "S", prison: "P", move_prison: "M", call: "L",
  // the table's own (static/js/presence.js): after the game's, which take their letters first
  ready: "R", deal_now: "D", sit_in: "I", sit_out: "U", time_bank: "T",
};

/** Each kind of KIND_KEYS in words, as the overlay lists them (the games' own words, knock and
 *  prison, marked like the rest). */
const KIND_WORDS = {
  hit: t("hit"), stand: t("stand"), bet: t("bet"), stake: t("stake"), fold: t("fold"), knock: t("knock"),
  knock_deck: t("knock deck"), deal: t("deal"), draw: t("draw"), double: t("double"), no_double: t("no double"),
  split: t("split"), discard: t("discard"), cut: t("cut"), accept_bank: t("accept bank"),
  decline_bank: t("decline bank"), insure: t("insure"), remove: t("remove"), done: t("done"), share: t("share"),
  prison: t("prison"), move_prison: t("move prison"), call: t("call"), ready: t("ready"), deal_now: t("deal now"),
  sit_in: t("sit in"), sit_out: t("sit out"), time_bank: t("time bank"),
};

/** The page's other keys, for the overlay (each key's name as the reader's keyboards print it). */
const PAGE_KEYS = [
  ["?", t("Show this list of keys")],
  [t("Esc"), t("Close a dialog; leave an amount or a field of your choices")],
  [t("Enter"), t("Confirm the amount you typed (a bet, a stake, a buy-in)")],
  [t("Tab"), t("Move to the next button or field (Shift+Tab: back)")],
  [t("Space"), t("Press the focused button")],
];

const keyed = new Map(); // key → {el, label, focusFirst}

const TYPING = /^(?:text|search|email|number|password|tel|url|date|time)$/;

/** Is the person typing (a text field, a number, a text area, a select)? */
function typing(el) {
  if (!el || el === document.body) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  return el.tagName === "INPUT" && TYPING.test(el.type || "text");
}

/** The controls' choices, each with the button it presses and the field it starts from. */
function choices(root, extra) {
  const found = [];
  for (const box of root.querySelectorAll(".action")) {
    const kind = box.dataset.kind || "";
    // A choice a game makes on the table itself (En og tredive's discards, picked in your hand)
    // hides its dock form: its key goes to the table's button (data-key-for), and starts from
    // its first card while nothing is picked.
    const standIn = box.getClientRects().length ? null : document.querySelector(`[data-key-for="${kind}"]`);
    if (standIn) {
      const group = standIn.closest("[role=group]");
      found.push({ kind, button: standIn, field: null, start: group?.querySelector("button.pickable") || null,
        label: () => standIn.textContent });
      continue;
    }
    const form = box.querySelector("form");
    if (form) {
      const submit = form.querySelector("button[type=submit]");
      const first = form.querySelector("input:not([type=range]), select, button.pickable");
      found.push({ kind, button: submit, field: first, label: () => submit.textContent });
      continue;
    }
    const buttons = [...box.querySelectorAll("button")];
    if (buttons.length === 1) {
      found.push({ kind, button: buttons[0], field: null, label: () => buttons[0].textContent });
    } else {
      const title = box.querySelector(".action-title")?.textContent || "";
      for (const button of buttons) {
        found.push({ kind: null, button, field: null, label: () => t("{choice}: {value}", { choice: title, value: button.textContent }) });
      }
    }
  }
  for (const button of extra ? extra.querySelectorAll("button[data-kind]") : []) {
    found.push({ kind: button.dataset.kind, button, field: null, label: () => button.textContent });
  }
  return found;
}

/** Give each choice in `root` (then in `extra`, the table's own buttons) its key and show it on
 *  the button. */
export function assignKeys(root, extra = null) {
  keyed.clear();
  const list = choices(root, extra);
  const rest = [];
  for (const choice of list) {
    const letter = choice.kind ? KIND_KEYS[choice.kind] : null;
    if (letter && !keyed.has(letter)) keyed.set(letter, choice);
    else rest.push(choice);
  }
  let digit = 1;
  for (const choice of rest) {
    if (digit > 9) break;
    keyed.set(String(digit), choice);
    digit += 1;
  }
  for (const choice of list) {
    choice.button.removeAttribute("data-key");
    choice.button.removeAttribute("aria-keyshortcuts");
  }
  for (const [key, choice] of keyed) {
    choice.button.dataset.key = key;
    choice.button.setAttribute("aria-keyshortcuts", key);
  }
}

function press(choice) {
  const { button, field } = choice;
  if (!button.isConnected || button.closest("fieldset:disabled")) return;
  if (field) {
    field.focus();
    if (field.select) field.select();
    return;
  }
  if (!button.disabled) button.click();
  else if (choice.start?.isConnected) choice.start.focus();
}

// ------------------------------------------------------------------ the overlay

function fillOverlay() {
  const now = $("#keys-now");
  const rows = [...keyed].map(([key, choice]) =>
    h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, key)), h("td", {}, choice.label().trim())));
  now.replaceChildren(...(rows.length ? rows
    : [h("tr", {}, h("td", { colspan: "2", class: "muted" }, t("Nothing to decide right now: the keys of your choices show here and on their buttons when it is your turn.")))]));
  const kinds = new Map();
  for (const [kind, key] of Object.entries(KIND_KEYS)) {
    if (!kinds.has(key)) kinds.set(key, []);
    kinds.get(key).push(KIND_WORDS[kind] || kind.replaceAll("_", " "));
  }
  $("#keys-kinds").replaceChildren(...[...kinds].map(([key, names]) =>
    h("li", {}, h("kbd", {}, key), " ", names.join(", "))),
    h("li", { class: "keys-digits" }, h("kbd", {}, "1"), "–", h("kbd", {}, "9"),
      " ", t("the other choices, in the order of their buttons")));
  $("#keys-page").replaceChildren(...PAGE_KEYS.map(([key, what]) =>
    h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, key)), h("td", {}, what))));
}

/** Open the list of keys; closing it (Escape, Close) puts the focus back where it was. */
export function openKeys() {
  const dialog = $("#keys-dialog");
  if (!dialog || dialog.open) return;
  const back = document.activeElement;
  fillOverlay();
  dialog.addEventListener("close", () => {
    if (back?.isConnected && typeof back.focus === "function") back.focus();
  }, { once: true });
  dialog.showModal();
  $("#keys-close").focus();
}

// ------------------------------------------------------------------ listening

const FOCUSABLE = "button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex='-1'])";

/** Tab and Shift+Tab go round the open dialog's fields and buttons, never out of it. */
function keepFocusIn(dialog, event) {
  const inside = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  if (!inside.length) return;
  const first = inside[0];
  const last = inside[inside.length - 1];
  const at = document.activeElement;
  if (event.shiftKey && (at === first || !dialog.contains(at))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (at === last || !dialog.contains(at))) {
    event.preventDefault();
    first.focus();
  }
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  const dialog = document.querySelector("dialog[open]");
  if (dialog) {
    // The dialog has the keys: Tab stays in it, Escape closes it (the browser's own).
    if (event.key === "Tab") keepFocusIn(dialog, event);
    return;
  }
  const target = event.target;
  if (typing(target)) {
    // Escape leaves a field of the controls, so the letters work again.
    if (event.key === "Escape" && target.closest("#controls")) {
      event.preventDefault();
      target.blur();
    }
    return;
  }
  if (event.key === "?") {
    event.preventDefault();
    openKeys();
    return;
  }
  if (event.key.length !== 1) return;
  const choice = keyed.get(event.key.toUpperCase());
  if (!choice) return;
  event.preventDefault();
  press(choice);
}

/** Listen for keys; keep the keys in step with the controls (`root`, rebuilt on each turn) and
 *  the table's own buttons (`extra`). */
export function startKeyboard(root, extra = null) {
  const assign = () => assignKeys(root, extra);
  assign();
  const watch = new MutationObserver(assign);
  // the table's centre too: a game's own button for a choice is redrawn there (data-key-for)
  for (const el of [root, extra, $("#game-center")].filter(Boolean)) watch.observe(el, { childList: true, subtree: true });
  document.addEventListener("keydown", onKey);
  $("#btn-keys")?.addEventListener("click", openKeys);
  $("#keys-close")?.addEventListener("click", () => $("#keys-dialog").close());
}
