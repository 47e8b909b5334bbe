// Trianta Ena (docs/rules.md §1): the central area and the log lines.
// View fields used: phase, banker, turn, up_card, bank, min_bet, max_bet, stock, discard,
// offer {seat, vacant}, messages_coded, status_coded; per seat: place; per hand: cards, stake,
// bet, status, value, natural, note_coded (the engine's sentences as codes: engine-words.js).
// The generic client draws the seats, cards and controls; this module only explains the round.
// Its words are the reader's (static/js/i18n.js); the game's own (the bank, a natural) are
// marked for the translators, who keep them where players do.
import { said, TRIANTA_REASONS } from "../engine-words.js";
import { t, tc } from "../i18n.js";

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
  // "you" as the table waits for you (an object: dig, toi, te, εσένα), not the seat's tag
  const you = (seat) => seat === view.you;
  const name = (seat) => (you(seat) ? tc("waited for", "you") : ctx.seatName(seat));
  switch (view.phase) {
    case "betting": {
      const waiting = players(view).filter((p) => p.hand.status === "deciding").map((p) => name(p.seat));
      return waiting.length ? t("Betting — waiting for {names}", { names: waiting.join(", ") }) : t("Betting is closing");
    }
    case "playing":
      if (Number.isInteger(view.turn)) return you(view.turn) ? t("Your turn: hit or stand") : t("{name} to act", { name: ctx.seatName(view.turn) });
      return t("The banker plays");
    case "bank_offer": {
      const seat = view.offer?.seat;
      if (!Number.isInteger(seat)) return t("The bank is being offered");
      return you(seat) ? t("You are offered the bank") : t("{name} is offered the bank", { name: ctx.seatName(seat) });
    }
    case "no_banker":
      return t("No banker: the table waits for a player to take the bank");
    default:
      // a friends' table waits for Ready (the dock counts them): nothing is "about to be dealt"
      if (view.table?.waiting_for_ready) return t("Waiting for everyone to be ready");
      return said(view.status_coded, ctx, view.status);
  }
}

function settledLines(view, ctx) {
  // After a round the last hands stay on the table until the next deal (hand_id is null).
  // (After a change of bank, or once the banker has left, the players' notes still tell it.)
  if (view.hand_id || ACTIVE.has(view.phase)) return [];
  return players(view)
    .filter((p) => typeof p.hand.note === "string" && p.hand.note)
    .map((p) => ({ seat: p.seat, text: said(p.hand.note_coded, ctx, p.hand.note), status: p.hand.status }));
}

/** Hand by hand within one round (the same hand id, or the round that just ended). */

export default {
  labels: { accept_bank: t("Take the bank"), decline_bank: t("Decline the bank"), bet: t("Bet"), fold: t("Fold") },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    el.append(h("p", { class: "status-line", "data-testid": "status-line" }, headline(view, ctx)));

    // The bank: the banker's hand, large (the up card alone while players bet).
    const banker = bankerHand(view);
    const cards = banker && Array.isArray(banker.cards) && banker.cards.length ? banker.cards
      : view.up_card && ACTIVE.has(view.phase) ? [view.up_card] : [];
    if (Number.isInteger(view.banker)) {
      const value = banker && typeof banker.value === "number" && cards.length > 1 && cards.every((c) => c.up)
        ? h("span", { class: "hand-value hand-value-big", title: t("The banker's hand") }, String(banker.value)) : null;
      el.append(h("div", { class: "bank-area" },
        h("div", { class: "bank-label" },
          h("span", { class: "badge badge-banker" }, t("Banker")), " ",
          h("strong", {}, view.banker === view.you ? t("You") : ctx.seatName(view.banker)),
          typeof view.bank === "number" ? h("span", { class: "muted" }, " · ", t("bank {chips}", { chips: ctx.chips(view.bank) })) : null,
          banker?.natural ? h("span", { class: "tag tag-natural" }, t("natural")) : null,
          value && banker.value > LIMIT ? h("span", { class: "tag" }, t("bust")) : null),
        h("div", { class: "bank-cards" }, ctx.cardRow(cards), value)));
    }

    const settled = settledLines(view, ctx);
    if (settled.length) {
      el.append(h("ul", { class: "round-result", "aria-label": t("The round's settlement") },
        settled.map((line) => h("li", { class: `status-${line.status}` },
          h("strong", {}, line.seat === view.you ? t("You") : ctx.seatName(line.seat)), ": ", line.text))));
    }

    const messages = Array.isArray(view.messages_coded) ? view.messages_coded : [];
    if (messages.length) {
      el.append(h("ul", { class: "messages" }, messages.map((m) => h("li", {}, said(m, ctx)))));
    }

    const facts = [];
    if (typeof view.min_bet === "number") {
      const most = view.max_bet === null || view.max_bet === undefined ? t("stack") : ctx.chips(view.max_bet);
      facts.push(t("Bets {least}–{most}", { least: ctx.chips(view.min_bet), most }));
    }
    if (typeof view.stock === "number") facts.push(t("Stock {count}", { count: view.stock }));
    if (typeof view.discard === "number") facts.push(t("Discards {count}", { count: view.discard }));
    if (facts.length) el.append(h("p", { class: "facts muted small" }, facts.join(" · ")));
  },

  renderSeatExtras(seat, view, el, ctx) {
    // the bank's total at risk this round: what it covers, not a stake of the banker's
    const bank = seat.seat === view.banker ? bankerHand(view) : null;
    if (bank && typeof bank.covers === "number" && bank.covers > 0) {
      el.append(ctx.h("span", { class: "stake bank-covers" }, t("Bank covers {chips}", { chips: ctx.chips(bank.covers) })));
    }
    if (view.offer && view.offer.seat === seat.seat) {
      el.append(ctx.h("span", { class: "tag tag-offer" }, t("offered the bank")));
    }
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : t("a card"));
    const name = who;
    switch (event.kind) {
      case "round": return t("A round: {name} banks {chips}.", { name: ctx.seatName(event.banker), chips: ctx.chips(event.bank) });
      case "deal": return event.up ? t("{name}: {card} up.", { name, card: card(event.card) }) : (typeof event.card === "string" ? t("Your card: {card}.", { card: card(event.card) }) : null);
      case "bet": return t("{name} bets {chips}.", { name, chips: ctx.chips(event.amount) });
      case "fold": return t("{name} folds.", { name });
      case "stake": return t("{name} stakes {chips}.", { name, chips: ctx.chips(event.amount) });
      case "stake_cut": return t("{name}: the bank covers {stake} of {bet}.", { name, stake: ctx.chips(event.stake), bet: ctx.chips(event.bet) });
      case "stake_refused": return t("{name}: the bank covers none of {bet}.", { name, bet: ctx.chips(event.bet) });
      case "hit": return t("{name} hits: {card}.", { name, card: card(event.card) });
      case "stand":
        if (!event.automatic) return t("{name} stands.", { name });
        return event.natural ? t("{name} stands with a natural.", { name }) : t("{name} stands on 31.", { name });
      case "bust": return t("{name} goes bust with {value}.", { name, value: event.value });
      case "show": return t("{name} shows {card}.", { name, card: card(event.card) });
      case "banker_draw": return t("The banker draws {card}.", { card: card(event.card) });
      case "banker_stands": return event.natural
        ? t("The banker stands on {value} (a natural).", { value: event.value })
        : t("The banker stands on {value}.", { value: event.value });
      case "banker_bust": return t("The banker goes bust with {value}.", { value: event.value });
      case "settle": {
        const chips = ctx.chips(event.amount);
        const won = event.result === "won";
        if (!event.reason) return won ? t("{name}: Won {chips}.", { name, chips }) : t("{name}: Lost {chips}.", { name, chips });
        const reason = TRIANTA_REASONS[event.reason]?.() ?? ctx.humanize(event.reason).toLowerCase();
        return won ? t("{name}: Won {chips} ({reason}).", { name, chips, reason }) : t("{name}: Lost {chips} ({reason}).", { name, chips, reason });
      }
      case "round_end": return t("The round is over: the bank holds {chips} ({result}).", { chips: ctx.chips(event.bank), result: ctx.signed(event.bank_result) });
      case "reshuffle": return t("The cards are shuffled again.");
      case "bank_taken": return t("{name} holds the bank.", { name });
      case "bank_offered": return t("The bank is offered to {name}.", { name });
      case "bank_accepted": return t("{name} takes the bank.", { name });
      case "bank_declined": return t("{name} declines the bank.", { name });
      case "bank_ended":
        if (event.reason === "broke") return t("{name}'s bank ends: it is empty.", { name });
        if (event.reason === "left") return t("{name}'s bank ends: the banker left.", { name });
        return t("{name}'s bank ends.", { name });
      default: return undefined;
    }
  },
};
