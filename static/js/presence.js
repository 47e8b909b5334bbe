// Ready to deal and sitting out at a friends' table (docs/protocol/socket.md §5.10): the
// table's own actions of `legal` (ready, deal_now, sit_out, sit_in) as their own buttons beside the
// game's choices, who is ready and who sits out on the seats, and the opener's "Stand up" on a
// seat that has been sitting out. Nothing here knows a game's rules.
import { askAmount } from "./amount-dialog.js";
import { h } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";

/** The table's own action kinds: never a decision of the game, never "your turn". */
export const TABLE_KINDS = new Set(["ready", "deal_now", "sit_out", "sit_in", "time_bank"]);

/** The game's choices of `legal` (what makes it your turn), without the table's own. */
export function gameChoices(legal) {
  return (Array.isArray(legal) ? legal : []).filter((template) => !TABLE_KINDS.has(template?.kind));
}

const LABELS = { ready: t("Ready"), deal_now: t("Deal now"), sit_out: t("Sit out"), sit_in: t("I'm back"), time_bank: t("More time") };
const TITLES = {
  ready: t("Tell the table you are ready for the first hand"),
  deal_now: t("Deal the first hand now, ready or not (you opened this table)"),
  sit_out: t("Keep your seat and your chips but be dealt nothing until you come back"),
  sit_in: t("Be dealt in again from the next hand"),
  time_bank: t("Add up to 15 seconds to this decision from your time bank"),
};

function yourSeat(view) {
  return (view.seats || []).find((s) => s.seat === view.you) || null;
}

/**
 * Fill `el` (the dock's presence line) for `view`: the wait for Ready and its buttons, why you
 * sit out, and the Sit out / I'm back toggle. `legal` is the view's whole list; `act` sends an
 * action; `disabled` while one is being sent or the socket is down.
 */
export function renderPresence(el, view, legal, { act, disabled }) {
  const kinds = new Set((Array.isArray(legal) ? legal : []).map((template) => template.kind));
  const table = view.table || {};
  const mine = yourSeat(view);
  const parts = [];
  if (table.waiting_for_ready) {
    const seats = (view.seats || []).filter((s) => !s.sitting_out);
    const ready = seats.filter((s) => s.ready || s.bot).length;
    parts.push(h("p", { class: "presence-text", role: "status" },
      h("strong", {}, t("Waiting for everyone to be ready")),
      seats.length ? " · " : "",
      seats.length ? tn("{n} of {seated} ready", "{n} of {seated} ready", ready, { seated: formatNumber(seats.length) }) : ""));
  }
  if (mine?.sitting_out) {
    parts.push(h("p", { class: "presence-text presence-away", role: "status" },
      typeof mine.sitting_out_reason === "string" && mine.sitting_out_reason
        ? mine.sitting_out_reason
        : t("You are sitting out: you keep your seat and your chips and are dealt nothing.")));
  } else if (mine?.sitting_out_next) {
    parts.push(h("p", { class: "presence-text", role: "status" },
      t("You sit out as soon as your game lets you (after the hand you play in).")));
  }
  const buttons = ["time_bank", "ready", "deal_now", "sit_in", "sit_out"].filter((k) => kinds.has(k)).map((kind) =>
    h("button", {
      type: "button",
      class: `btn ${kind === "ready" || kind === "sit_in" ? "btn-primary" : "btn-quiet"} btn-small btn-presence`,
      dataset: { kind },
      title: TITLES[kind],
      disabled: Boolean(disabled),
      onclick: () => act({ kind }),
      // the time bank's seconds left, said with the button (docs/protocol/socket.md §5.11)
      "aria-label": kind === "time_bank"
        ? tn("More time: {n} second left in your time bank", "More time: {n} seconds left in your time bank", mine?.time_bank ?? 0)
        : null,
    }, LABELS[kind], kind === "time_bank"
      ? h("span", { class: "time-bank-left" }, " ", t("(+{n} s)", { n: formatNumber(Math.min(15, mine?.time_bank ?? 0)) }))
      : null));
  if (buttons.length) parts.push(h("div", { class: "presence-buttons", role: "group", "aria-label": t("At the table") }, buttons));
  el.hidden = parts.length === 0;
  el.replaceChildren(...parts);
}

function minutesAway(seat, now) {
  return typeof seat.sitting_out_since === "number" ? Math.max(0, Math.floor((now - seat.sitting_out_since) / 60)) : 0;
}

/**
 * The seat's presence marks: "ready" while the table waits for Ready, "sitting out" (and for
 * how long), and, for the table's opener, a "Stand up" button on a seat sitting out.
 * opts: {standUp(seat, minutes) | null, now: server Unix seconds}
 */
export function seatPresence(seat, view, opts = {}) {
  const out = [];
  if (view.table?.waiting_for_ready && seat.ready && !seat.sitting_out) {
    out.push(h("span", { class: "tag tag-ready", title: t("Ready for the first hand") }, "✓ ", t("ready")));
  }
  if (seat.sitting_out) {
    const minutes = minutesAway(seat, opts.now ?? Date.now() / 1000);
    out.push(h("span", { class: "tag tag-sitting-out", title: seat.sitting_out_reason || t("Sitting out") },
      minutes ? t("away {n} min", { n: formatNumber(minutes) }) : t("away")));
    if (typeof opts.standUp === "function" && seat.seat !== view.you) {
      out.push(h("button", {
        type: "button", class: "btn btn-quiet btn-tiny btn-stand-up", dataset: { seat: seat.seat },
        title: t("Stand this player up: their chips go back to their bankroll"),
        onclick: () => askStandUp(seat, minutes, opts.standUp),
      }, t("Stand up")));
    }
  } else if (seat.sitting_out_next) {
    out.push(h("span", { class: "tag tag-sitting-next" }, t("sits out next")));
  }
  return out;
}

async function askStandUp(seat, minutes, standUp) {
  const name = typeof seat.name === "string" ? seat.name : t("Seat {n}", { n: seat.seat });
  const chosen = await askAmount({
    title: t("Stand {name} up", { name }),
    help: tn(
      "{name} has been sitting out for {n} minute. Stand them up only if they have been away at least this long (their chips go back to their bankroll):",
      "{name} has been sitting out for {n} minutes. Stand them up only if they have been away at least this long (their chips go back to their bankroll):",
      minutes, { name }),
    min: 0, max: 1440, value: Math.min(minutes, 5), label: t("Minutes away"), confirm: t("Stand up"),
  });
  if (chosen !== null) standUp(seat.seat, chosen);
}
