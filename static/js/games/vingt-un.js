// Vingt-un (docs/rules.md §3): the central area, each seat's hands side by side, and the log lines.
// View fields used (app/games/vingt_un_view.py): phase (waiting | staking | double | playing |
// dealer), status, dealer, turn, turn_hand, doubled (null until the call), calls, limits {min_bet,
// max_bet}, cover (staking), pack, pile; per seat: role, state ("dealer" | "in hand" |
// "sitting out" | "waiting"), hands[{cards, stake, state ("playing" | "standing" | "natural" |
// "over" | "settled"), total (when you may know it), result}].
//
// What players expect: up to four hands of a seat side by side, each with its stake; the
// dealer's double call; naturals announced; a hand over 21 turned face down (its first two cards
// never shown to the others).

const IN_HAND = new Set(["staking", "double", "playing", "dealer"]);
const CALLS_SHOWN = 2;
/** Calls the centre need not repeat: stakes (on the seats), the deal, what is announced. */
const QUIET_CALLS = / stakes \d+$| deals$|natural vingt-un$|^Double!$/;
const STATE_TAGS = {
  natural: ["natural!", "vu-tag-natural"],
  over: ["over 21 · face down", "status-bust"],
  standing: ["stands", ""],
};

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
  const first = calls(view).map((c) => /^Seat (\d+) deals$/.exec(c)).find(Boolean);
  return first ? Number(first[1]) : isSeat(view.dealer) ? view.dealer : null;
}
const dealerHand = (view) => {
  const dealer = handDealer(view);
  return isSeat(dealer) ? handsOf(view, dealer)[0] || null : null;
};
const allUp = (hand) => hand && Array.isArray(hand.cards) && hand.cards.length > 0 && hand.cards.every((c) => c.up);

/** The dealer's calls name seats by number; say the players' names instead. */
function named(text, ctx) {
  return String(text).replace(/\b([Ss])eat (\d+)('s)?/g, (match, _s, n, poss) => {
    const name = ctx.seatName(Number(n));
    return name.startsWith("Seat ") ? match : `${name}${poss || ""}`;
  });
}

const calls = (view) => (Array.isArray(view.calls) ? view.calls.filter((c) => typeof c === "string") : []);
const dealerNatural = (view) => calls(view).some((c) => /dealer has a natural/i.test(c));

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
      if (you(view.turn)) return "Look at your card and stake";
      return isSeat(view.turn) ? `${name(view.turn)} to stake` : "Stakes";
    case "double":
      return you(view.turn) ? "Your card: double, or not?" : `${name(view.turn)} looks at the card: double or not?`;
    case "playing": {
      if (!isSeat(view.turn)) return "The players play";
      const count = handsOf(view, view.turn).length;
      const which = count > 1 && Number.isInteger(view.turn_hand) ? ` hand ${view.turn_hand + 1} of ${count}` : "";
      return you(view.turn) ? `Your turn${which ? `:${which}` : ""} — draw or stand` : `${name(view.turn)} to play${which}`;
    }
    case "dealer":
      return you(view.turn) ? "Your cards are shown: draw or stand" : `${name(view.turn)} shows and draws`;
    default: {
      const dealer = dealerHand(view);
      if (dealerNatural(view)) return "The dealer's natural takes the hand";
      if (allUp(dealer) && typeof dealer.total === "number") {
        return dealer.total > 21 ? "The dealer is over 21" : `The dealer stands on ${dealer.total}`;
      }
      const ended = (view.seats || []).some((s) => (s.hands || []).some((h) => typeof h.result === "number"));
      if (ended) return "Hand over";
      return isSeat(view.dealer) ? `${you(view.dealer) ? "You deal" : `${name(view.dealer)} deals`} next` : "Waiting for players";
    }
  }
}

/** Announcements: the double call, the naturals. */
function announcements(view, ctx) {
  const out = [];
  if (view.doubled === true && IN_HAND.has(view.phase)) out.push({ kind: "double", text: "Double! Every stake is doubled" });
  const dealer = handDealer(view);
  if (dealerNatural(view) && isSeat(dealer)) {
    out.push({ kind: "natural", text: `${dealer === view.you ? "You have" : `${ctx.seatName(dealer)} has`} a natural vingt-un` });
  }
  for (const seat of players(view)) {
    const hand = seat.hands[0];
    if (hand && hand.state === "natural") {
      const paid = typeof hand.result === "number" && hand.result > 0 ? ` — paid ${ctx.chips(hand.result)}` : hand.result === 0 ? " — neither pays" : "";
      out.push({ kind: "natural", seat: seat.seat, text: `${seat.seat === view.you ? "You have" : `${ctx.seatName(seat.seat)} has`} a natural vingt-un${paid}` });
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
    h("span", { class: "badge badge-dealer" }, "Dealer"), " ",
    h("strong", {}, you ? "You" : ctx.seatName(dealer)),
    view.doubled === true ? h("span", { class: "tag vu-tag-double" }, "doubled") : null,
    view.doubled === false && IN_HAND.has(view.phase) ? h("span", { class: "muted small" }, " · no double") : null);
  if (!cards.length) return h("div", { class: "bank-area vu-dealer" }, label);
  const known = typeof hand.total === "number" && (allUp(hand) || you);
  const value = known
    ? h("span", { class: `hand-value hand-value-big${hand.total === 21 ? " vu-value-21" : hand.total > 21 ? " vu-value-over" : ""}`,
      title: allUp(hand) ? "The dealer's total" : "Your total (only you know it)" }, hand.total > 21 ? `${hand.total} · over` : String(hand.total))
    : null;
  let caption = null;
  if (view.phase === "double" && you) caption = "Double: every stake doubles (and a natural or a win is paid on the doubled stake).";
  else if (view.phase === "staking" || view.phase === "double" || view.phase === "playing") {
    caption = you ? "Face down: only you see your cards." : null;
  }
  return h("div", { class: "bank-area vu-dealer" }, label,
    h("div", { class: "bank-cards" }, ctx.cardRow(cards), value),
    caption ? h("p", { class: "muted small vu-caption" }, caption) : null);
}

/** "Ada won 40 (dealer over 21).", "Ada lost 20 (dealer's vingt-un).": won or lost first. */
function settleLine(event, who, hand, ctx) {
  const reason = typeof event.reason === "string" && event.reason ? ` (${event.reason})` : "";
  const result = event.result;
  if (typeof result !== "number") return `${who}${hand}: settled${reason}.`;
  if (result > 0) return `${who} won ${ctx.chips(result)}${hand}${reason}.`;
  if (result < 0) return `${who} lost ${ctx.chips(-result)}${hand}${reason}.`;
  return `${who}${hand}: neither wins${reason}.`;
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
      meta.push(h("span", { class: "stake", title: view.doubled ? "Stake (doubled)" : "Stake" }, `Stake ${ctx.chips(hand.stake)}`));
    }
    const total = typeof hand.total === "number" && state !== "over"
      ? h("span", { class: "hand-value", title: allUp(hand) ? "Total" : "Your total (only you know it)" }, String(hand.total))
      : null;
    const tag = isDealer ? null : STATE_TAGS[state];
    const why = state === "over" ? "Over 21: the hand is turned face down; its first two cards are never shown" : null;
    if (tag) meta.push(h("span", { class: `tag status ${tag[1]}`, title: why }, tag[0]));
    if (active) meta.push(h("span", { class: "tag vu-tag-turn" }, "to play"));
    if (typeof hand.result === "number") {
      meta.push(h("span", { class: `delta ${hand.result > 0 ? "delta-up" : hand.result < 0 ? "delta-down" : ""}`, title: "This hand" }, ctx.signed(hand.result)));
    }
    return h("div", { class: classes.join(" "), dataset: { hand: index, state, stake: hand.stake ?? 0 } },
      hands.length > 1 ? h("span", { class: "vu-hand-no", title: `Hand ${index + 1}` }, String(index + 1)) : null,
      h("div", { class: "vu-cards" }, ctx.cardRow(hand.cards, { small: true }), total),
      meta.length ? h("div", { class: "hand-meta" }, meta) : null);
  });
  return h("div", { class: "vu-hands", dataset: { count: hands.length } }, boxes);
}

export default {
  labels: { stake: "Stake", double: "Double!", no_double: "No double", split: "Split", draw: "Draw", stand: "Stand" },

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
      el.append(h("p", { class: "vu-announce vu-announce-deal" }, `The deal passes: ${next === view.you ? "you deal" : `${ctx.seatName(next)} deals`} next`));
    }

    // Your stake, when the bank cannot cover all the control offers (the server cuts it).
    const range = (view.legal || []).find((t) => t.kind === "stake")?.params?.amount;
    if (range && typeof view.cover === "number" && range.max > view.cover) {
      el.append(h("p", { class: "vu-note" }, view.cover > 0
        ? `The bank covers only ${ctx.chips(view.cover)} more: a larger stake is cut to that.`
        : "The bank covers nothing more: you cannot stake this hand."));
    }

    // The dealer's recent calls worth a look (the stakes are on the seats), in the players' names.
    const recent = calls(view).filter((c) => !QUIET_CALLS.test(c)).slice(-CALLS_SHOWN).map((c) => named(c, ctx));
    if (recent.length && IN_HAND.has(view.phase)) {
      el.append(h("ul", { class: "messages vu-calls", "aria-label": "The dealer's calls" }, recent.map((c) => h("li", {}, c))));
    }

    if (view.phase !== "staking" && !(view.phase === "waiting" && !dealerHand(view))) return; // the play needs the room
    const facts = [];
    const limits = view.limits || {};
    if (typeof limits.min_bet === "number") facts.push(`Stakes ${ctx.chips(limits.min_bet)}–${ctx.chips(limits.max_bet)}`);
    if (view.phase === "staking" && typeof view.cover === "number") facts.push(`the bank covers stakes of ${ctx.chips(view.cover)} more`);
    if (typeof view.pack === "number") facts.push(`Pack ${view.pack}`);
    if (typeof view.pile === "number" && view.pile > 0) facts.push(`Pile ${view.pile}`);
    if (facts.length) el.append(h("p", { class: "facts muted small" }, facts.join(" · ")));
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    // The dealer's hand is drawn large in the middle; a seat shows the players' hands.
    const dealer = handDealer(view);
    if (seat.seat !== dealer && Array.isArray(seat.hands) && seat.hands.length) el.append(handBoxes(seat, view, ctx));
    if (seat.state === "sitting out") el.append(h("span", { class: "tag" }, "sits out: no cover left"));
    else if (seat.state === "waiting" && IN_HAND.has(view.phase) && seat.seat !== dealer) {
      const least = 4 * (view.limits?.min_bet || 0); // a stake needs four times its size behind it
      el.append(h("span", { class: "tag" }, seat.stack < least ? `needs ${ctx.chips(least)} chips to play` : "plays from the next hand"));
    }
  },

  describeEvent(event, ctx) {
    const who = Number.isInteger(event.seat) ? ctx.seatName(event.seat) : "";
    const card = (c) => (typeof c === "string" ? ctx.cardText(c) : "a card");
    const hand = Number.isInteger(event.hand) && event.hand > 0 ? ` (hand ${event.hand + 1})` : "";
    switch (event.kind) {
      case "start": return `${ctx.seatName(event.dealer)} deals.`;
      case "deal": return typeof event.card === "string" ? `Your card: ${card(event.card)}.` : null;
      case "stake": return `${who} stakes ${ctx.chips(event.amount)}.`;
      case "stake_cut": return `${who}'s stake is cut to ${ctx.chips(event.stake)}: the bank covers no more.`;
      case "sit_out": return `${who} cannot stake: ${event.reason}.`;
      case "double": return `${who} calls “Double!”`;
      case "no_double": return null;
      case "show": return `${who} shows ${(event.cards || []).map(card).join(" ")}${typeof event.total === "number" ? ` (${event.total})` : ""}${hand}.`;
      case "split": return `${who} splits${typeof event.stake === "number" ? `, staking ${ctx.chips(event.stake)}` : ""}.`;
      case "draw": return `${who} draws ${typeof event.card === "string" ? card(event.card) : "a card"}${hand}.`;
      case "over": return `${who} is over 21${hand} and pays ${ctx.chips(event.stake)}.`;
      case "stand": return `${who} stands${hand}.`;
      case "dealer_total": return event.total > 21 ? "The dealer is over 21." : `The dealer stands on ${event.total}.`;
      case "settle": return settleLine(event, who, hand, ctx);
      case "natural_paid_by_all": return `${who} pays ${ctx.seatName(event.to)} ${ctx.chips(event.amount)} for the natural.`;
      case "deal_passes": return `The deal passes to ${who}.`;
      default: return undefined;
    }
  },
};
