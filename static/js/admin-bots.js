// The host's page (static/js/admin.js): the bots' bank, the one account every bot buys in from
// and brings its stack home to (GET /api/admin/bots), and the host's grant to it
// (POST /api/admin/bots, "fund_bots" in the host's log).
import { $, chips, toast } from "./dom.js";
import { t, tn } from "./i18n.js";

/** The bank's balance, and the bots at tables with the chips on their stacks. */
export function renderBots(bank) {
  $("#bots-balance").textContent = chips(bank.bots);
  $("#bots-seated").textContent = bank.seated
    ? tn("{n} bot seated, with {chips} chips at their tables", "{n} bots seated, with {chips} chips at their tables",
        bank.seated, { chips: chips(bank.at_tables) })
    : t("no bot seated");
}

/** The form's submit: check the amount, grant it, say what the bank holds now. */
export function fundBotsForm({ host, busy, fieldError, refreshAll }) {
  return async (event) => {
    event.preventDefault();
    const error = $("#bots-error");
    error.textContent = "";
    const amount = Number($("#bots-amount").value);
    const reason = $("#bots-reason").value.trim() || t("host top-up");
    if (!Number.isInteger(amount) || amount <= 0) return fieldError(error, "#bots-amount", t("The chips: a whole number above zero."));
    await busy(event.target, async () => {
      const bank = await host.fundBots(amount, reason);
      toast(t("The bots' bank now holds {chips} chips.", { chips: chips(bank.bots) }), "info");

      $("#bots-amount").value = "";
      await refreshAll();
    }, error);
  };
}
