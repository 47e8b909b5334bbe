// The table page's buttons for a seat and the table: sit down (with a buy-in), add chips, leave,
// add a bot, close the table; who may see the last two.
import { askAmount } from "./amount-dialog.js";
import { api } from "./api.js";
import { $, chips, toast } from "./dom.js";
import { said } from "./engine-words.js";
import { t } from "./i18n.js";
import { log, socket, state, summary, tableId } from "./table-context.js";

export async function sit(seat, title = t("Sit in seat {n}", { n: seat })) {
  const limits = state.view?.table?.buy_in || summary.buy_in || { min: 1, max: 1 };
  const bankroll = typeof state.me?.bankroll === "number" ? state.me.bankroll : null;
  const max = bankroll === null ? limits.max : Math.min(limits.max, bankroll);
  if (max < limits.min) {
    toast(t("The buy-in here is at least {min} chips; your bankroll holds {bankroll}.", { min: chips(limits.min), bankroll: chips(bankroll) }));
    return;
  }
  const fixed = limits.min === limits.max;
  const suggested = Math.min(max, Math.max(limits.min, bankroll === null ? limits.min : Math.floor(bankroll / 2)));
  const values = { min: chips(limits.min), max: chips(max), bankroll: chips(bankroll) };
  let help;
  if (fixed) {
    help = bankroll === null
      ? t("The buy-in at this seat is exactly {min} chips, taken from your bankroll.", values)
      : t("The buy-in at this seat is exactly {min} chips, taken from your bankroll ({bankroll}).", values);
  } else {
    help = bankroll === null
      ? t("Bring {min} to {max} chips from your bankroll.", values)
      : t("Bring {min} to {max} chips from your bankroll ({bankroll}).", values);
  }
  const amount = await askAmount({
    title,
    help,
    min: limits.min, max: fixed ? limits.min : max, value: fixed ? limits.min : suggested,
    label: t("Buy-in"), confirm: fixed ? t("Sit down for {min}", values) : t("Sit down"),
  });
  if (amount === null) return;
  if (!socket.send({ type: "sit", seat, buy_in: amount })) toast(t("Not connected: try again in a moment."));
}

export async function topUp() {
  const bankroll = typeof state.me?.bankroll === "number" ? state.me.bankroll : 0;
  if (bankroll < 1) {
    toast(t("Your bankroll is empty."));
    return;
  }
  // the table may cap a top-up (Trianta Ena: up to its buy-in): `table.top_up_max`
  const cap = state.view?.table?.top_up_max;
  const max = typeof cap === "number" && cap > 0 ? Math.min(bankroll, cap) : bankroll;
  const values = { bankroll: chips(bankroll), max: chips(max) };
  const amount = await askAmount({
    title: t("Add chips"),
    help: max < bankroll
      ? t("From your bankroll ({bankroll} chips) to your stack at this table: up to {max} now.", values)
      : t("From your bankroll ({bankroll} chips) to your stack at this table.", values),
    min: 1, max, value: Math.min(max, 100), label: t("Chips"), confirm: t("Add chips"),
  });
  if (amount !== null && !socket.send({ type: "top_up", amount })) toast(t("Not connected: try again in a moment."));
}

export async function leave() {
  // what leaving costs beyond the stack going home (En og tredive: the bets left in the pot,
  // docs/rules.md §5.12) is said before the player confirms
  const cost = state.view?.table?.leave_cost;
  if (cost) {
    const ok = await askAmount({
      title: t("Leave the table?"),
      help: said(state.view.table.leave_cost_coded, {}, cost),
      min: 0, max: 0, value: 0, label: "", confirm: t("Leave table"),
    });
    if (ok === null) return;
  }
  if (socket.send({ type: "leave" })) log(t("You asked to leave: you stand up at the next moment the rules allow."));
  else toast(t("Not connected: try again in a moment."));
}

/** The host's token, when this tab holds it (the admin page keeps it in sessionStorage). */
function hostToken() {
  try {
    return sessionStorage.getItem("t31_admin_token") || "";
  } catch {
    return "";
  }
}

/** Only the table's opener and the host may seat a bot: nobody else sees the button. */
/** The table's host: its opener unless the role was handed on (docs/protocol/socket.md §5.13). */
function tableHost() {
  return state.view?.table?.host?.player_id ?? summary.host_id ?? summary.created_by;
}

export function mayAddBot() {
  return Boolean(hostToken()) || Boolean(state.me && state.me.player_id === tableHost());
}

/** The table's host may close the table once no other person sits at it (bots do not count). */
export function mayCloseTable(view) {
  if (!state.me || state.me.player_id !== tableHost()) return false;
  return !(view.seats || []).some((s) => s.player_id && !s.bot && s.player_id !== state.me.player_id);
}

let closeArmed = 0;

export async function closeTable() {
  const button = $("#btn-close-table");
  if (!closeArmed) {
    // a second click confirms: closing ends the table for everyone
    closeArmed = setTimeout(() => { closeArmed = 0; button.textContent = t("Close table"); }, 5000);
    button.textContent = t("Click again to close for good");
    return;
  }
  clearTimeout(closeArmed);
  closeArmed = 0;
  button.disabled = true;
  try {
    await api.closeTable(tableId);
  } catch (err) {
    toast(err.message);
    button.textContent = t("Close table");
  } finally {
    button.disabled = false;
  }
}

export async function addBot() {
  const button = $("#btn-bot");
  button.disabled = true;
  try {
    const opener = state.me && state.me.player_id === summary.created_by;
    const level = $("#bot-level").value;
    const result = opener || !hostToken() ? await api.addBot(tableId, level) : await api.hostAddBot(tableId, hostToken(), level);
    toast(botSat(level, result.seat), "info");
  } catch (err) {
    toast(err.status === 401 ? t("Choose a name first.") : err.message);
  } finally {
    button.disabled = false;
  }
}

/** "A steady bot sat down in seat 3." (the levels of #bot-level, templates/table.html). */
function botSat(level, seat) {
  if (level === "best") return t("A best bot sat down in seat {n}.", { n: seat });
  if (level === "random") return t("A random bot sat down in seat {n}.", { n: seat });
  if (level === "steady") return t("A steady bot sat down in seat {n}.", { n: seat });
  return t("A {level} bot sat down in seat {n}.", { level, n: seat });
}
