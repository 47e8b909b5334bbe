// The header's chip count follows the bankroll without a reload (docs/review.md, "One truth"):
// whenever a table message shows that the reader's own seat or stack changed (a buy-in, a
// top-up, a hand's end, leaving, being stood up) or the table closed, and whenever the page
// comes back into view, the page asks GET /api/me again and redraws the header. The chips of
// a leave or a close are written by the server's database queue just after the message, so
// the page asks once soon and twice more a little later, and draws only what changed.
import { api } from "./api.js";
import { showWhoami } from "./signin.js";

const AGAIN_MS = [250, 1200, 3500];

/**
 * Follow the reader's bankroll. `onMe(player)` gets each fresh answer of GET /api/me that
 * differs from the last (the caller redraws the header with it). Returns `see(view)`, to call
 * with every table view.
 */
export function followBankroll(onMe) {
  let lastKey = null;
  let lastBankroll = null;
  let timers = [];

  async function ask() {
    let me;
    try {
      me = await api.me();
    } catch {
      return; // signed out or offline: the header keeps what it showed
    }
    if (!me || me.bankroll === lastBankroll) return;
    lastBankroll = me.bankroll;
    onMe(me);
  }

  function soon() {
    for (const timer of timers) clearTimeout(timer);
    timers = AGAIN_MS.map((ms) => setTimeout(ask, ms));
  }

  /** What of a view moves the reader's bankroll: their seat, their stack, the table's status. */
  function keyOf(view) {
    const seat = view.you ?? null;
    const mine = (view.seats || []).find((s) => s.seat === seat);
    return JSON.stringify([seat, mine ? mine.stack : null, view.table?.status ?? null, view.hand_id ?? null]);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") soon();
  });

  return {
    see(view) {
      if (!view) return;
      const key = keyOf(view);
      if (lastKey !== null && key !== lastKey) soon();
      lastKey = key;
    },
  };
}

let follower = null;

/** The table page's one call, with each view it gets: a fresh GET /api/me becomes the page's
 *  `state.me` (the buy-in dialog's limit) and the header. */
export function seeView(view, state) {
  follower ||= followBankroll((me) => {
    state.me = me;
    showWhoami(me);
  });
  follower.see(view);
}
