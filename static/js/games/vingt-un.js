// Vingt-un (docs/rules.md §3): the central area, each seat's hands side by side, and the log lines.
// View fields used (app/games/vingt_un_view.py): phase (waiting | staking | double | playing |
// dealer), dealer, turn, turn_hand, doubled (null until the call), calls_coded (the dealer's calls
// as codes and values: engine-words.js words them), limits {min_bet, max_bet}, cover (staking),
// pack, pile; per seat: role, state ("dealer" | "in hand" |
// "sitting out" | "waiting"), hands[{cards, stake, state ("playing" | "standing" | "natural" |
// "over" | "settled"), total (when you may know it), result}].
//
// What players expect: up to four hands of a seat side by side, each with its stake; the
// dealer's double call; naturals announced; a hand over 21 turned face down (its first two cards
// never shown to the others).
// Its words are the reader's (static/js/i18n.js); the dealer's calls are the engine's codes,
// worded by engine-words.js and read here to tell which seat dealt.
import { said, VINGT_UN_REASONS } from "../engine-words.js";
import { t } from "../i18n.js";

const IN_HAND = new Set(["staking", "double", "playing", "dealer"]);
const CALLS_SHOWN = 2;
/** Calls the centre need not repeat: stakes (on the seats), the deal, what is announced. */
const QUIET_CALLS = new Set(["vingt-un.stakes", "vingt-un.deals", "vingt-un.natural", "vingt-un.dealer_natural", "vingt-un.double"]);
const STATE_TAGS = {
  natural: [t("natural!"), "vu-tag-natural"],
  over: [t("over 21 · face down"), "status-bust"],
  standing: [t("stands"), ""],
};

/** Why a hand was settled as it was (the engine's reasons, app/games/vingt_un/scoring.py). */
const reasonWords = (reason) => VINGT_UN_REASONS[reason]?.() ?? reason;

const seatOf = (view, n) => (view.seats || []).find((s) => s.seat === n) || null;
const isSeat = (n) => Number.isInteger(n);
const handsOf = (view, n) => {
  const seat = seatOf(view, n);
  return seat && Array.isArray(seat.hands) ? seat.hands : [];
};

/**
 * Who dealt the hand on the table. During a hand that is `dealer`; between hands `dealer` is the
 * next dealer (a natural may have passed the deal) while the seats still hold the last hand, so
 * the last hand's dealer is remembered from the views during it, or read from its first call.
 */
const memory = { dealer: null, announced: new Set() };
function handDealer(view) {
  if (IN_HAND.has(view.phase)) return isSeat(view.dealer) ? view.dealer : null;
  const hasCards = (view.seats || []).some((s) => Array.isArray(s.hands) && s.hands.length);
  if (!hasCards) return isSeat(view.dealer) ? view.dealer : null;
  if (isSeat(memory.dealer) && handsOf(view, memory.dealer).length) return memory.dealer;
  const first = calls(view).find((c) => c.code === "vingt-un.deals" && isSeat(c.values?.seat));
  return first ? first.values.seat : isSeat(view.dealer) ? view.dealer : null;
}
const dealerHand = (view) => {
  const dealer = handDealer(view);
  return isSeat(dealer) ? handsOf(view, dealer)[0] || null : null;
};
const allUp = (hand) => hand && Array.isArray(hand.cards) && hand.cards.length > 0 && hand.cards.every((c) => c.up);

/** The dealer's calls, each a code and its values (docs/protocol/vingt-un.md §9). */
const calls = (view) => (Array.isArray(view.calls_coded) ? view.calls_coded.filter((c) => c && typeof c.code === "string") : []);
const dealerNatural = (view) => calls(view).some((c) => c.code === "vingt-un.dealer_natural");

/** The players dealt into the hand (the dealer excluded), in seat order from the dealer's left. */
function players(view) {
  const dealer = handDealer(view);
  const seats = (view.seats || []).filter((s) => s.seat !== dealer && Array.isArray(s.hands) && s.hands.length);
  const start = isSeat(dealer) ? dealer : 0;
  const count = Math.max(view.table?.max_seats || 0, ...seats.map((s) => s.seat + 1), start + 1);
  return seats.sort((a, b) => ((a.seat - start + count) % count) - ((b.seat - start + count) % count));
}

function headline(view, ctx) {
  const you = (n) => n === view.you;
  const name = (n) => ctx.seatName(n);
  switch (view.phase) {
    case "staking":
      if (you(view.turn)) return t("Look at your card and stake");
      return isSeat(view.turn) ? t("{name} to stake", { name: name(view.turn) }) : t("Stakes");
    case "double":
      return you(view.turn) ? t("Your card: double, or not?") : t("{name} looks at the card: double or not?", { name: name(view.turn) });
    case "playing": {
      if (!isSeat(view.turn)) return t("The players play");
      const count = handsOf(view, view.turn).length;
      if (count > 1 && Number.isInteger(view.turn_hand)) {
        const which = { hand: view.turn_hand + 1, count, name: name(view.turn) };
        return you(view.turn) ? t("Your turn: hand {hand} of {count} — draw or stand", which) : t("{name} to play hand {hand} of {count}", which);
      }
      return you(view.turn) ? t("Your turn — draw or stand") : t("{name} to play", { name: name(view.turn) });
    }
    case "dealer":
      return you(view.turn) ? t("Your cards are shown: draw or stand") : t("{name} shows and draws", { name: name(view.turn) });
    default: {
      const dealer = dealerHand(view);
      if (dealerNatural(view)) return t("The dealer's natural takes the hand");
      if (allUp(dealer) && typeof dealer.total === "number") {
        return dealer.total > 21 ? t("The dealer is over 21") : t("The dealer stands on {total}", { total: dealer.total });
      }
      const ended = (view.seats || []).some((s) => (s.hands || []).some((h) => typeof h.result === "number"));
      if (ended) return t("Hand over");
      if (!isSeat(view.dealer)) return t("Waiting for players");
      return you(view.dealer) ? t("You deal next") : t("{name} deals next", { name: name(view.dealer) });
    }
  }
}

/** Announcements: the double call, the naturals. */
function announcements(view, ctx) {
  const out = [];
  if (view.doubled === true && IN_HAND.has(view.phase)) out.push({ kind: "double", text: t("Double! Every stake is doubled") });
  const dealer = handDealer(view);
  if (dealerNatural(view) && isSeat(dealer)) {
    out.push({ kind: "natural", text: dealer === view.you ? t("You have a natural vingt-un") : t("{name} has a natural vingt-un", { name: ctx.seatName(dealer) }) });
  }
  for (const seat of players(view)) {
    const hand = seat.hands[0];
    if (hand && hand.state === "natural") {
      const values = { name: ctx.seatName(seat.seat), chips: ctx.chips(hand.result) };
      const yours = seat.seat === view.you;
      let text;
      if (typeof hand.result === "number" && hand.result > 0) {
        text = yours ? t("You have a natural vingt-un — paid {chips}", values) : t("{name} has a natural vingt-un — paid {chips}", values);
      } else if (hand.result === 0) {
        text = yours ? t("You have a natural vingt-un — neither pays") : t("{name} has a natural vingt-un — neither pays", values);
      } else text = yours ? t("You have a natural vingt-un") : t("{name} has a natural vingt-un", values);
      out.push({ kind: "natural", seat: seat.seat, text });
    }
  }
  return out;
}

function dealerArea(view, ctx) {
  const { h } = ctx;
  const dealer = handDealer(view);
  if (!isSeat(dealer)) return null;
  const you = dealer === view.you;
  const hand = dealerHand(view);
  const cards = hand && Array.isArray(hand.cards) ? hand.cards : [];
  const label = h("div", { class: "bank-label" },
    h("span", { class: "badge badge-dealer" }, t("Dealer")), " ",
    h("strong", {}, you ? t("You") : ctx.seatName(dealer)),
    view.doubled === true ? h("span", { class: "tag vu-tag-double" }, t("doubled")) : null,
    view.doubled === false && IN_HAND.has(view.phase) ? h("span", { class: "muted small" }, " · ", t("no double")) : null);
  if (!cards.length) return h("div", { class: "bank-area vu-dealer" }, label);
  const known = typeof hand.total === "number" && (allUp(hand) || you);
  const value = known
    ? h("span", { class: `hand-value hand-value-big${hand.total === 21 ? " vu-value-21" : hand.total > 21 ? " vu-value-over" : ""}`,
      title: allUp(hand) ? t("The dealer's total") : t("Your total (only you know it)") },
      hand.total > 21 ? t("{total} · over", { total: hand.total }) : String(hand.total))
    : null;
  let caption = null;
  if (view.phase === "double" && you) caption = t("Double: every stake doubles (and a natural or a win is paid on the doubled stake).");
  else if (view.phase === "staking" || view.phase === "double" || view.phase === "playing") {
    caption = you ? t("Face down: only you see your cards.") : null;
  }
  return h("div", { class: "bank-area vu-dealer" }, label,
    h("div", { class: "bank-cards" }, ctx.cardRow(cards), value),
    caption ? h("p", { class: "muted small vu-caption" }, caption) : null);
}

/** "Ada won 40 (dealer over 21).", "Ada lost 20 (dealer's vingt-un).": won or lost first.
 *  `hand`: "" or " (hand 2)", the hand of a split seat. */
function settleLine(event, who, hand, ctx) {
  const values = { name: who, hand, reason: reasonWords(event.reason), chips: ctx.chips(Math.abs(event.result)) };
  const result = event.result;
  if (typeof event.reason === "string" && event.reason) {
    if (typeof result !== "number") return t("{name}{hand}: settled ({reason}).", values);
    if (result > 0) return t("{name} won {chips}{hand} ({reason}).", values);
    if (result < 0) return t("{name} lost {chips}{hand} ({reason}).", values);
    return t("{name}{hand}: neither wins ({reason}).", values);
  }
  if (typeof result !== "number") return t("{name}{hand}: settled.", values);
  if (result > 0) return t("{name} won {chips}{hand}.", values);
  if (result < 0) return t("{name} lost {chips}{hand}.", values);
  return t("{name}{hand}: neither wins.", values);
}

/** One seat's hands, side by side, each with its stake, total, state and result. */
function handBoxes(seat, view, ctx) {
  const { h } = ctx;
  const hands = Array.isArray(seat.hands) ? seat.hands : [];
  const isDealer = seat.seat === handDealer(view);
  const boxes = hands.map((hand, index) => {
    const active = !isDealer && view.phase === "playing" && view.turn === seat.seat && view.turn_hand === index;
    const state = typeof hand.state === "string" ? hand.state : "";
    const classes = ["vu-hand", `vu-state-${state}`];
    if (active) classes.push("is-active");
    const meta = [];
    if (!isDealer && typeof hand.stake === "number" && hand.stake > 0) {
      meta.push(h("span", { class: "stake", title: view.doubled ? t("Stake (doubled)") : t("Stake") }, t("Stake {chips}", { chips: ctx.chips(hand.stake) })));
    }
    const total = typeof hand.total === "number" && state !== "over"
      ? h("span", { class: "hand-value", title: allUp(hand) ? t("Total") : t("Your total (only you know it)") }, String(hand.total))
      : null;
    const tag = isDealer ? null : STATE_TAGS[state];
    const why = state === "over" ? t("Over 21: the hand is turned face down; its first two cards are never shown") : null;
    if (tag) meta.push(h("span", { class: `tag status ${tag[1]}`, title: why }, tag[0]));
    if (active) meta.push(h("span", { class: "tag vu-tag-turn" }, t("to play")));
    if (typeof hand.result === "number") {
      meta.push(h("span", { class: `delta ${hand.result > 0 ? "delta-up" : hand.result < 0 ? "delta-down" : ""}`, title: t("This hand") }, ctx.signed(hand.result)));
    }
    return h("div", { class: classes.join(" "), dataset: { hand: index, state, stake: hand.stake ?? 0 } },
      hands.length > 1 ? h("span", { class: "vu-hand-no", title: t("Hand {number}", { number: index + 1 }) }, String(index + 1)) : null,
      h("div", { class: "vu-cards" }, ctx.cardRow(hand.cards, { small: true }), total),
      meta.length ? h("div", { class: "hand-meta" }, meta) : null);
  });
  return h("div", { class: "vu-hands", dataset: { count: hands.length } }, boxes);
}

export default {
  labels: { stake: t("Stake"), double: t("Double!"), no_double: t("No double"), split: t("Split"), draw: t("Draw"), stand: t("Stand") },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    if (IN_HAND.has(view.phase) && isSeat(view.dealer)) memory.dealer = view.dealer;
    el.append(h("p", { class: "status-line", "data-testid": "status-line" }, headline(view, ctx)));
    const shown = new Set();
    for (const a of announcements(view, ctx)) {
      const fresh = !memory.announced.has(a.text); // only a new announcement pops up
      el.append(h("p", { class: `vu-announce vu-announce-${a.kind}${fresh ? " is-new" : ""}`, dataset: { announce: a.kind } }, a.text));
      shown.add(a.text);
    }
    memory.announced = shown;
    const dealer = dealerArea(view, ctx);
    if (dealer) el.append(dealer);
    const next = view.dealer;
    if (!IN_HAND.has(view.phase) && isSeat(next) && next !== handDealer(view)) {
      el.append(h("p", { class: "vu-announce vu-announce-deal" },
        next === view.you ? t("The deal passes: you deal next") : t("The deal passes: {name} deals next", { name: ctx.seatName(next) })));
    }

    // Your stake, when the bank cannot cover all the control offers (the server cuts it).
    const range = (view.legal || []).find((tp) => tp.kind === "stake")?.params?.amount;
    if (range && typeof view.cover === "number" && range.max > view.cover) {
      el.append(h("p", { class: "vu-note" }, view.cover > 0
        ? t("The bank covers only {chips} more: a larger stake is cut to that.", { chips: ctx.chips(view.cover) })
        : t("The bank covers nothing more: you cannot stake this hand.")));
    }

    // The dealer's recent calls worth a look (the stakes are on the seats), in the players' names.
    const recent = calls(view).filter((c) => !QUIET_CALLS.has(c.code)).slice(-CALLS_SHOWN).map((c) => said(c, ctx));
    if (recent.length && IN_HAND.has(view.phase)) {
      el.append(h("ul", { class: "messages vu-calls", "aria-label": t("The dealer's calls") }, recent.map((c) => h("li", {}, c))));
    }

    if (view.phase !== "staking" && !(view.phase === "waiting" && !dealerHand(view))) return; // the play needs the room
    const facts = [];
    const limits = view.limits || {};
    if (typeof limits.min_bet === "number") facts.push(t("Stakes {least}–{most}", { least: ctx.chips(limits.min_bet), most: ctx.chips(limits.max_bet) }));
    if (view.phase === "staking" && typeof view.cover === "number") facts.push(t("the bank covers stakes of {chips} more", { chips: ctx.chips(view.cover) }));
    if (typeof view.pack === "number") facts.push(t("Pack {count}", { count: view.pack }));
    if (typeof view.pile === "number" && view.pile > 0) facts.push(t("Pile {count}", { count: view.pile }));
    if (facts.length) el.append(h("p", { class: "facts muted small" }, facts.join(" · ")));
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    // The dealer's hand is drawn large in the middle; a seat shows the players' hands.
    const dealer = handDealer(view);
    if (seat.seat !== dealer && Array.isArray(seat.hands) && seat.hands.length) el.append(handBoxes(seat, view, ctx));
    if (seat.state === "sitting out") el.append(h("span", { class: "tag" }, t("sits out: no cover left")));
    else if (seat.state === "waiting" && IN_HAND.has(view.phase) && seat.seat !== dealer) {
      const least = 4 * (view.limits?.min_bet || 0); // a stake needs four times its size behind it
      el.append(h("span", { class: "tag" }, seat.stack < least ? t("needs {chips} chips to play", { chips: ctx.chips(least) }) : t("plays from the next hand")));
    }
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : t("a card"));
    // the hand of a split seat, after the seat's name or the action: " (hand 2)"
    const which = Number.isInteger(event.hand) && event.hand > 0 ? t("(hand {number})", { number: event.hand + 1 }) : "";
    const hand = which ? ` ${which}` : "";
    const name = who;
    switch (event.kind) {
      case "start": return t("{name} deals.", { name: ctx.seatName(event.dealer) });
      case "deal": return typeof event.card === "string" ? t("Your card: {card}.", { card: card(event.card) }) : null;
      case "stake": return t("{name} stakes {chips}.", { name, chips: ctx.chips(event.amount) });
      case "stake_cut": return t("{name}'s stake is cut to {chips}: the bank covers no more.", { name, chips: ctx.chips(event.stake) });
      case "sit_out": return t("{name} cannot stake: {reason}.", { name, reason: reasonWords(event.reason) });
      case "double": return t("{name} calls “Double!”", { name });
      case "no_double": return null;
      case "show": {
        const cards = (event.cards || []).map(card).join(" ");
        return typeof event.total === "number"
          ? t("{name} shows {cards} ({total}){hand}.", { name, cards, total: event.total, hand })
          : t("{name} shows {cards}{hand}.", { name, cards, hand });
      }
      case "split": return typeof event.stake === "number" ? t("{name} splits, staking {chips}.", { name, chips: ctx.chips(event.stake) }) : t("{name} splits.", { name });
      case "draw": return t("{name} draws {card}{hand}.", { name, card: card(event.card), hand });
      case "over": return t("{name} is over 21{hand} and pays {chips}.", { name, hand, chips: ctx.chips(event.stake) });
      case "stand": return t("{name} stands{hand}.", { name, hand });
      case "dealer_total": return event.total > 21 ? t("The dealer is over 21.") : t("The dealer stands on {total}.", { total: event.total });
      case "settle": return settleLine(event, who, hand, ctx);
      case "natural_paid_by_all": return t("{name} pays {to} {chips} for the natural.", { name, to: ctx.seatName(event.to), chips: ctx.chips(event.amount) });
      case "deal_passes": return t("The deal passes to {name}.", { name });
      default: return undefined;
    }
  },
};
