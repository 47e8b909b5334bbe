// Carrying a player to another device (README "Who may come in"): the lobby's "Use on another
// device" control, recoveryControl(me). It asks the server for a personal recovery link
// (POST /api/me/recovery) and shows the link and the code to copy. The /recover page that
// redeems them is the server's (templates/recover.html, app/api/routes/admin_page.py).
import { api } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { t } from "./i18n.js";

/** A sentence's parts: its text, each {name} in it replaced by the node `nodes[name]` (a
 *  sentence with markup inside stays one message). */
function placed(text, nodes) {
  return text.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && Object.hasOwn(nodes, name) ? nodes[name] : part;
  });
}

/** The words of each row to copy, whole sentences each. */
function rowWords(testid) {
  return testid === "link"
    ? { label: t("Link"), copy: t("Copy the link"), copied: t("Link copied."), select: t("Select the link and copy it.") }
    : { label: t("Code"), copy: t("Copy the code"), copied: t("Code copied."), select: t("Select the code and copy it.") };
}

async function copyText(text, words, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(words.copied, "info");
  } catch {
    input?.focus();
    input?.select();
    toast(words.select, "warn");
  }
}

function copyRow(value, testid) {
  const id = `recovery-${testid}`;
  const words = rowWords(testid);
  const input = h("input", {
    id, class: "invite-link", readonly: true, value, spellcheck: "false",
    "data-testid": id, onfocus: (e) => e.target.select(),
  });
  const copy = h("button", { type: "button", class: "btn btn-small", "aria-label": words.copy,
    onclick: () => copyText(value, words, input) }, t("Copy"));
  return h("div", { class: "recovery-row" },
    h("label", { class: "small muted", for: id }, words.label),
    h("div", { class: "invite-row" }, input, copy));
}

/** The "Use on another device" control for the signed-in player `me`. */
export function recoveryControl(me) {
  const result = h("div", { class: "recovery-result", id: "recovery-result", "aria-live": "polite" });
  const error = h("p", { class: "field-error", role: "alert" });
  const button = h("button", { type: "button", class: "btn btn-small", id: "recovery-make" }, t("Use on another device"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    try {
      const { code, link } = await api.recoveryLink();
      const absolute = new URL(link, location.origin).href;
      fill(result,
        h("p", { class: "help" }, ...placed(
          t("Open this link on your other device to continue as {name} there, with the same bankroll (or type the code at {page}). Keep it to yourself: anyone with it can play as you. It works once. Making a new one cancels the old."),
          { name: h("strong", {}, me.name), page: h("code", {}, new URL("/recover", location.origin).href) })),
        copyRow(absolute, "link"),
        copyRow(code, "code"));
      button.textContent = t("Make a new link");
    } catch (err) {
      error.textContent = err.status === 401 ? t("Choose a name first.") : err.message;
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "recovery", id: "recovery" }, button, error, result);
}
