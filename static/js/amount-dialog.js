// The amount dialog of the table page (templates/table.html #amount-dialog): a buy-in, a
// top-up. Resolves with a whole number within its limits, or null when cancelled.
import { $, chips } from "./dom.js";
import { t } from "./i18n.js";

/** Ask for an amount from `min` to `max` (a fixed one when they are equal). */
export function askAmount({ title, help, min, max, value, label, confirm }) {
  const dialog = $("#amount-dialog");
  const input = $("#amount-input");
  const error = $("#amount-error");
  $("#amount-title").textContent = title;
  $("#amount-help").textContent = help;
  $("#amount-label").textContent = label;
  $("#amount-ok").textContent = confirm;
  error.textContent = "";
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  const fixed = min === max;
  input.readOnly = fixed;
  $("#amount-row").hidden = fixed;
  return new Promise((resolve) => {
    const form = $("#amount-form");
    const done = (result) => {
      form.removeEventListener("submit", onSubmit);
      $("#amount-cancel").removeEventListener("click", onCancel);
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      resolve(result);
    };
    const onSubmit = (event) => {
      event.preventDefault();
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < min || n > max) {
        error.textContent = t("A whole number from {min} to {max}, please.", { min: chips(min), max: chips(max) });
        input.focus();
        return;
      }
      done(n);
    };
    const onCancel = (event) => {
      event?.preventDefault();
      done(null);
    };
    form.addEventListener("submit", onSubmit);
    $("#amount-cancel").addEventListener("click", onCancel);
    dialog.addEventListener("cancel", onCancel);
    dialog.showModal();
    (fixed ? $("#amount-ok") : input).focus();
    if (!fixed) input.select();
  });
}

