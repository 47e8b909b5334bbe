// The host's page (static/js/admin.js): the bots' bank, the one account every bot buys in from
// and brings its stack home to (GET /api/admin/bots), and the host's grant to it
// (POST /api/admin/bots, "fund_bots" in the host's log).
import { $, chips, toast } from "./dom.js";

/** The bank's balance, and the bots at tables with the chips on their stacks. */
export function renderBots(bank) {
  $("#bots-balance").textContent = chips(bank.bots);
  $("#bots-seated").textContent = bank.seated
    ? `${bank.seated} bot${bank.seated === 1 ? "" : "s"} seated, with ${chips(bank.at_tables)} chips at their tables`
    : "no bot seated";
}

/** The form's submit: check the amount, grant it, say what the bank holds now. */
export function fundBotsForm({ host, busy, fieldError, refreshAll }) {
  return async (event) => {
    event.preventDefault();
    const error = $("#bots-error");
    error.textContent = "";
    const amount = Number($("#bots-amount").value);
    const reason = $("#bots-reason").value.trim() || "host top-up";
    if (!Number.isInteger(amount) || amount <= 0) return fieldError(error, "#bots-amount", "The chips: a whole number above zero.");
    await busy(event.target, async () => {
      const bank = await host.fundBots(amount, reason);
      toast(`The bots' bank now holds ${chips(bank.bots)} chips.`, "info");
      $("#bots-amount").value = "";
      await refreshAll();
    }, error);
  };
}
