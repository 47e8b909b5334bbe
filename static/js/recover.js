// Carrying a player to another device (README "Who may come in").
//
// Two halves of one feature:
// - recoveryControl(me): the lobby's "Use on another device" control. It asks the server for a
//   personal recovery link (POST /api/me/recovery) and shows the link and the code to copy.
// - the /recover page (runs only when #recover-page is on the page): reads ?code=, redeems it
//   (POST /api/session/recover), which sets this device's cookie, then goes to the lobby.
import { api } from "./api.js";
import { $, fill, h, toast } from "./dom.js";
import { showWhoami } from "./signin.js";

// ------------------------------------------------------------------ the lobby's control

async function copyText(text, what, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} copied.`, "info");
  } catch {
    input?.focus();
    input?.select();
    toast(`Select the ${what.toLowerCase()} and copy it.`, "warn");
  }
}

function copyRow(label, value, testid) {
  const id = `recovery-${testid}`;
  const input = h("input", {
    id, class: "invite-link", readonly: true, value, spellcheck: "false",
    "data-testid": id, onfocus: (e) => e.target.select(),
  });
  const copy = h("button", { type: "button", class: "btn btn-small", "aria-label": `Copy the ${label.toLowerCase()}`,
    onclick: () => copyText(value, label, input) }, "Copy");
  return h("div", { class: "recovery-row" },
    h("label", { class: "small muted", for: id }, label),
    h("div", { class: "invite-row" }, input, copy));
}

/** The "Use on another device" control for the signed-in player `me`. */
export function recoveryControl(me) {
  const result = h("div", { class: "recovery-result", id: "recovery-result", "aria-live": "polite" });
  const error = h("p", { class: "field-error", role: "alert" });
  const button = h("button", { type: "button", class: "btn btn-small", id: "recovery-make" }, "Use on another device");
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    try {
      const { code, link } = await api.recoveryLink();
      const absolute = new URL(link, location.origin).href;
      fill(result,
        h("p", { class: "help" },
          "Open this link on your other device to continue as ", h("strong", {}, me.name),
          " there, with the same bankroll (or type the code at ", h("code", {}, new URL("/recover", location.origin).href),
          "). Keep it to yourself: anyone with it can play as you. It works once. Making a new one cancels the old."),
        copyRow("Link", absolute, "link"),
        copyRow("Code", code, "code"));
      button.textContent = "Make a new link";
    } catch (err) {
      error.textContent = err.status === 401 ? "Choose a name first." : err.message;
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "recovery", id: "recovery" }, button, error, result);
}

// ------------------------------------------------------------------ the /recover page

function status(...children) {
  fill($("#recover-status"), ...children);
}

async function redeem(code) {
  const form = $("#recover-form");
  const error = $("#recover-error");
  const submit = $("#recover-submit");
  error.textContent = "";
  submit.disabled = true;
  status(h("p", { class: "muted" }, "Checking the recovery link…"));
  try {
    const player = await api.recover(code);
    showWhoami(player);
    status(h("p", {}, "Welcome back, ", h("strong", {}, player.name), ". Taking you to the lobby…"));
    form.hidden = true;
    location.replace("/");
  } catch (err) {
    status(h("p", { class: "field-error", id: "recover-message" }, err.message),
      err.status === 404
        ? h("p", { class: "muted small" }, "Make a new link on your other device (in the lobby, \u201cUse on another device\u201d) and open it here, or paste its code below.")
        : null);
    form.hidden = false;
    $("#recover-code").value = code;
    error.textContent = "";
  } finally {
    submit.disabled = false;
  }
}

async function startRecoverPage() {
  const code = (new URLSearchParams(location.search).get("code") || "").trim();
  const form = $("#recover-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("#recover-code").value.trim();
    if (!typed) {
      $("#recover-error").textContent = "Paste the code from your other device.";
      $("#recover-code").focus();
      return;
    }
    redeem(typed);
  });
  let me = null;
  try {
    me = await api.me();
  } catch {
    me = null;
  }
  showWhoami(me);
  if (!code) {
    status(h("p", {}, "Paste the recovery code made on your other device (lobby, \u201cUse on another device\u201d)."));
    form.hidden = false;
    $("#recover-code").focus();
    return;
  }
  if (me) {
    // This device already is someone: say so before it becomes the link's player.
    const go = h("button", { type: "button", class: "btn btn-primary", id: "recover-switch" }, "Continue with the link");
    go.addEventListener("click", () => redeem(code));
    status(
      h("p", {}, "This browser is signed in as ", h("strong", {}, me.name),
        ". The link makes it the player it was made for; to come back to ", h("strong", {}, me.name),
        " later you would need their own recovery link."),
      h("div", { class: "recover-buttons" }, go, h("a", { class: "btn btn-quiet", href: "/" }, "Stay as ", me.name)));
    return;
  }
  redeem(code);
}

if (document.getElementById("recover-page")) startRecoverPage();
