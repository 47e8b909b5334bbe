// Choosing a name (POST /api/session), shared by the lobby and the table page.
import { api } from "./api.js";
import { chips, fill, h } from "./dom.js";
import { t } from "./i18n.js";

/** Show "Signed in as …" in the top bar (the name as text, never markup). */
export function showWhoami(player) {
  const slot = document.getElementById("whoami");
  if (!slot) return;
  if (!player) {
    fill(slot, h("span", { class: "muted" }, t("Not signed in")));
    return;
  }
  fill(
    slot,
    h("span", { class: "whoami-label" }, t("Signed in as"), " "),
    h("a", { class: "whoami-link", href: `/players/${encodeURIComponent(player.player_id)}`, title: t("Your page: bankroll, sessions, hands") },
      h("strong", { class: "whoami-name", "data-testid": "whoami-name" }, player.name)),
    typeof player.bankroll === "number"
      ? h("span", { class: "bankroll", title: t("Your bankroll (chips not at a table)"), "data-testid": "whoami-bankroll" }, " · ", t("{chips} chips", { chips: chips(player.bankroll) }))
      : null,
  );
}

/**
 * A name form in `slot`. `onSignedIn(player)` runs after the server accepted the name.
 * `joinCode`: show the join-code field (the server was set up with one).
 */
export function renderSignIn(slot, { joinCode = false, onSignedIn, intro, button = t("Choose this name") }) {
  const nameInput = h("input", {
    id: "signin-name", name: "name", maxlength: "24", autocomplete: "nickname",
    required: true, placeholder: t("Your name"), "aria-describedby": "signin-help",
  });
  const codeInput = joinCode
    ? h("input", { id: "signin-code", name: "join_code", autocomplete: "off", required: true, placeholder: t("Join code") })
    : null;
  const error = h("p", { class: "field-error", id: "signin-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn btn-primary", id: "signin-submit" }, button);
  const form = h(
    "form",
    { class: "signin-form", novalidate: true },
    intro ? h("p", { class: "signin-intro" }, intro) : null,
    h("div", { class: "signin-row" },
      h("label", { class: "visually-hidden", for: "signin-name" }, t("Your name")),
      nameInput,
      codeInput ? h("label", { class: "visually-hidden", for: "signin-code" }, t("Join code")) : null,
      codeInput,
      submit),
    h("p", { class: "muted small", id: "signin-help" },
      t("1 to 24 letters, digits, spaces and . ' - _ — this is how others see you.")),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      error.textContent = t("Please choose a name.");
      nameInput.focus();
      return;
    }
    submit.disabled = true;
    error.textContent = "";
    try {
      const player = await api.signIn(name, codeInput ? codeInput.value.trim() : null);
      showWhoami(player);
      onSignedIn(player);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  });
  fill(slot, form);
  return form;
}
