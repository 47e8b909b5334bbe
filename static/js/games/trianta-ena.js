// Trianta Ena (docs/rules.md §1): the central area and the log lines.
// View fields used: phase, banker, turn, up_card, bank, min_bet, max_bet, stock, discard,
// offer {seat, vacant}, messages, status; per seat: place; per hand: cards, stake, bet, status,
// value, natural, note.
// The generic client draws the seats, cards and controls; this module only explains the round.

const ACTIVE = new Set(["betting", "playing"]);
const LIMIT = 31; // above it a hand is bust (a bust hand's value is its lowest total)

function handOf(view, seatNo) {
  const seat = (view.seats || []).find((s) => s.seat === seatNo);
  return seat && Array.isArray(seat.hands) && seat.hands.length ? seat.hands[0] : null;
}

/** The banker's hand of the current (or last) round. After the bank has changed hands between
 *  rounds the new banker's last hand was a player's: the bank has no cards until the next deal. */
function bankerHand(view) {
  const hand = Number.isInteger(view.banker) ? handOf(view, view.banker) : null;
  return hand && hand.status === "banker" ? hand : null;
}

/** The players dealt into the current (or last) round, with their hands, in seat order (the
 *  order of places, which still holds the last round's players after a change of bank). */
function players(view) {
  const place = (s) => (Number.isInteger(s.place) ? s.place : s.seat);
  return (view.seats || [])
    .filter((s) => Array.isArray(s.hands) && s.hands.length && s.hands[0].status !== "banker")
    .sort((a, b) => place(a) - place(b))
    .map((s) => ({ seat: s.seat, hand: s.hands[0] }));
}

/** One line that says what the table waits for, with names instead of seat numbers. */
function headline(view, ctx) {
  const you = (seat) => seat === view.you;
  const name = (seat) => (you(seat) ? "you" : ctx.seatName(seat));
  switch (view.phase) {
    case "betting": {
      const waiting = players(view).filter((p) => p.hand.status === "deciding").map((p) => name(p.seat));
      return waiting.length ? `Betting — waiting for ${waiting.join(", ")}` : "Betting is closing";
    }
    case "playing":
      if (Number.isInteger(view.turn)) return you(view.turn) ? "Your turn: hit or stand" : `${ctx.seatName(view.turn)} to act`;
      return "The banker plays";
    case "bank_offer": {
      const seat = view.offer?.seat;
      if (!Number.isInteger(seat)) return "The bank is being offered";
      return `${you(seat) ? "You are" : `${ctx.seatName(seat)} is`} offered the bank`;
    }
    case "no_banker":
      return "No banker: the table waits for a player to take the bank";
    default:
      // a friends' table waits for Ready (the dock counts them): nothing is "about to be dealt"
      if (view.table?.waiting_for_ready) return "Waiting for everyone to be ready";
      return typeof view.status === "string" ? view.status : "";
  }
}

function settledLines(view) {
  // After a round the last hands stay on the table until the next deal (hand_id is null).
  // (After a change of bank, or once the banker has left, the players' notes still tell it.)
  if (view.hand_id || ACTIVE.has(view.phase)) return [];
  return players(view)
    .filter((p) => typeof p.hand.note === "string" && p.hand.note)
    .map((p) => ({ seat: p.seat, text: p.hand.note, status: p.hand.status }));
}

/** Hand by hand within one round (the same hand id, or the round that just ended). */

export default {
  labels: { accept_bank: "Take the bank", decline_bank: "Decline the bank", bet: "Bet", fold: "Fold" },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    el.append(h("p", { class: "status-line", "data-testid": "status-line" }, headline(view, ctx)));

    // The bank: the banker's hand, large (the up card alone while players bet).
    const banker = bankerHand(view);
    const cards = banker && Array.isArray(banker.cards) && banker.cards.length ? banker.cards
      : view.up_card && ACTIVE.has(view.phase) ? [view.up_card] : [];
    if (Number.isInteger(view.banker)) {
      const value = banker && typeof banker.value === "number" && cards.length > 1 && cards.every((c) => c.up)
        ? h("span", { class: "hand-value hand-value-big", title: "The banker's hand" }, String(banker.value)) : null;
      el.append(h("div", { class: "bank-area" },
        h("div", { class: "bank-label" },
          h("span", { class: "badge badge-banker" }, "Banker"), " ",
          h("strong", {}, view.banker === view.you ? "You" : ctx.seatName(view.banker)),
          typeof view.bank === "number" ? h("span", { class: "muted" }, ` · bank ${ctx.chips(view.bank)}`) : null,
          banker?.natural ? h("span", { class: "tag tag-natural" }, "natural") : null,
          value && banker.value > LIMIT ? h("span", { class: "tag" }, "bust") : null),
        h("div", { class: "bank-cards" }, ctx.cardRow(cards), value)));
    }

    const settled = settledLines(view);
    if (settled.length) {
      el.append(h("ul", { class: "round-result", "aria-label": "The round's settlement" },
        settled.map((line) => h("li", { class: `status-${line.status}` },
          h("strong", {}, line.seat === view.you ? "You" : ctx.seatName(line.seat)), `: ${line.text}`))));
    }

    if (Array.isArray(view.messages) && view.messages.length) {
      el.append(h("ul", { class: "messages" }, view.messages.map((m) => h("li", {}, String(m)))));
    }

    const facts = [];
    if (typeof view.min_bet === "number") {
      facts.push(`Bets ${ctx.chips(view.min_bet)}–${view.max_bet === null || view.max_bet === undefined ? "stack" : ctx.chips(view.max_bet)}`);
    }
    if (typeof view.stock === "number") facts.push(`Stock ${view.stock}`);
    if (typeof view.discard === "number") facts.push(`Discards ${view.discard}`);
    if (facts.length) el.append(h("p", { class: "facts muted small" }, facts.join(" · ")));
  },

  renderSeatExtras(seat, view, el, ctx) {
    // the bank's total at risk this round: what it covers, not a stake of the banker's
    const bank = seat.seat === view.banker ? bankerHand(view) : null;
    if (bank && typeof bank.covers === "number" && bank.covers > 0) {
      el.append(ctx.h("span", { class: "stake bank-covers" }, `Bank covers ${ctx.chips(bank.covers)}`));
    }
    if (view.offer && view.offer.seat === seat.seat) {
      el.append(ctx.h("span", { class: "tag tag-offer" }, "offered the bank"));
    }
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : "a card");
    switch (event.kind) {
      case "round": return `A round: ${ctx.seatName(event.banker)} banks ${ctx.chips(event.bank)}.`;
      case "deal": return event.up ? `${who}: ${card(event.card)} up.` : (typeof event.card === "string" ? `Your card: ${card(event.card)}.` : null);
      case "bet": return `${who} bets ${ctx.chips(event.amount)}.`;
      case "fold": return `${who} folds.`;
      case "stake": return `${who} stakes ${ctx.chips(event.amount)}.`;
      case "stake_cut": return `${who}: the bank covers ${ctx.chips(event.stake)} of ${ctx.chips(event.bet)}.`;
      case "stake_refused": return `${who}: the bank covers none of ${ctx.chips(event.bet)}.`;
      case "hit": return `${who} hits: ${card(event.card)}.`;
      case "stand": return event.automatic ? `${who} stands${event.natural ? " with a natural" : " on 31"}.` : `${who} stands.`;
      case "bust": return `${who} goes bust with ${event.value}.`;
      case "show": return `${who} shows ${card(event.card)}.`;
      case "banker_draw": return `The banker draws ${card(event.card)}.`;
      case "banker_stands": return `The banker stands on ${event.value}${event.natural ? " (a natural)" : ""}.`;
      case "banker_bust": return `The banker goes bust with ${event.value}.`;
      case "settle": return `${who}: ${event.result === "won" ? "Won" : "Lost"} ${ctx.chips(event.amount)}${event.reason ? ` (${ctx.humanize(event.reason).toLowerCase()})` : ""}.`;
      case "round_end": return `The round is over: the bank holds ${ctx.chips(event.bank)} (${ctx.signed(event.bank_result)}).`;
      case "reshuffle": return "The cards are shuffled again.";
      case "bank_taken": return `${who} holds the bank.`;
      case "bank_offered": return `The bank is offered to ${who}.`;
      case "bank_accepted": return `${who} takes the bank.`;
      case "bank_declined": return `${who} declines the bank.`;
      case "bank_ended": return `${who}'s bank ends${event.reason === "broke" ? ": it is empty" : event.reason === "left" ? ": the banker left" : ""}.`;
      default: return undefined;
    }
  },
};
