// Tiny DOM helpers. Every piece of text goes in through text nodes, never innerHTML:
// player names and server messages may contain markup and must show as text.
import { formatNumber, t } from "./i18n.js";

/**
 * h("button", {class: "btn", onclick: fn, dataset: {seat: 2}, "aria-label": "…"}, "text", node)
 * Strings and numbers among the children become text nodes; null/undefined/false are skipped;
 * arrays are flattened.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    // styles through the CSSOM, never a style attribute: the Content-Security-Policy
    // (style-src 'self') refuses those
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key === "style") el.style.cssText = String(value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key in el && typeof value !== "string") el[key] = value; // disabled, value, hidden…
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace an element's content with `children` (same rules as h). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** 1234 → "1,234" in English, "1.234" in Danish (chips are whole numbers; the page's locale). */
export function chips(n) {
  return typeof n === "number" ? formatNumber(n) : "–";
}

/** +20 / −20 / ±0, with a real minus sign. */
export function signed(n) {
  if (n > 0) return `+${chips(n)}`;
  if (n < 0) return `\u2212${chips(-n)}`;
  return "±0";
}

/** "ace_rule" → "Ace rule" */
export function humanize(key) {
  const text = String(key).replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A toast in the page's assertive live region; errors stay longer. */
export function toast(message, kind = "error", ms = kind === "error" ? 7000 : 3500) {
  const host = document.getElementById("toasts");
  if (!host) return;
  const close = h("button", { type: "button", class: "toast-close", "aria-label": t("Dismiss") }, "×");
  const item = h("div", { class: `toast toast-${kind}` }, h("span", {}, message), close);
  const remove = () => item.remove();
  close.addEventListener("click", remove);
  host.appendChild(item);
  while (host.children.length > 4) host.firstElementChild.remove();
  setTimeout(remove, ms);
}
