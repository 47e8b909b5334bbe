// Greek 31 (RULES.md §2): the central area, the seats' extras and the log lines.
// View fields used (app/games/greek_31_view.py): phase, turn, dealer, hands_dealt, dealer_cards,
// dealer_outcome ("bust" | "31" | "14" | "other" | "void"), order, cover, deck, rules {ace_rule,
// heath, min_bet, max_bet, stakes}, last_hand {dealer, outcome, hands[{seat, …}]}, table_over,
// status; per seat: role, note; per hand: cards, stake, dealer, value, label, result,
// returned_to_deck.
//
// What players expect to see: whose deal it is and how many hands they have dealt; the dealer's
// face-down cards counted for everyone and shown to the dealer; the dealer choosing the card to
// keep face down by clicking it; the 14 and 31 moments; stakes within the bank's cover.

const ACE_RULES = {
  at_most_one_low: "one ace may count 1",
  at_least_one_high: "one ace counts 11",
  alternating: "aces 1, 11, 1, 11…",
};

const ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
/** "third", "11th", "21st", "22nd", "23rd", "111th": past ten, the English suffix. */
function ordinal(n) {
  if (n >= 0 && n < ORDINALS.length) return ORDINALS[n];
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

const seatOf = (view, n) => (view.seats || []).find((s) => s.seat === n) || null;
const isSeat = (n) => Number.isInteger(n);
const cardsOf = (hand) => (hand && Array.isArray(hand.cards) ? hand.cards : []);

/** The hand a seat holds now, or (between hands) the one it held in the hand just played. */
function handOf(view, n) {
  const seat = seatOf(view, n);
  if (seat && Array.isArray(seat.hands) && seat.hands.length) return seat.hands[0];
  const last = view.last_hand;
  if (last && Array.isArray(last.hands)) return last.hands.find((hand) => hand.seat === n) || null;
  return null;
}

/** The dealer of the hand on the table (the last one, between hands). */
function handDealer(view) {
  if (view.last_hand && isSeat(view.last_hand.dealer)) return view.last_hand.dealer;
  return isSeat(view.dealer) ? view.dealer : null;
}

/** The players of the hand on the table, in seat order, with their hands. */
function players(view) {
  if (view.last_hand && Array.isArray(view.last_hand.hands)) {
    return view.last_hand.hands.filter((hand) => !hand.dealer).map((hand) => ({ seat: hand.seat, hand }));
  }
  return (Array.isArray(view.order) ? view.order : []).map((seat) => ({ seat, hand: handOf(view, seat) }))
    .filter((p) => p.hand);
}

/** The outcome of the dealer's draw, now or in the hand just played. */
const outcomeOf = (view) => (view.last_hand ? view.last_hand.outcome : view.dealer_outcome) || null;

const standTemplate = (view) => (view.legal || []).find((t) => t.kind === "stand") || null;
const concealChoice = (view) => {
  const spec = standTemplate(view)?.params?.conceal;
  return spec && Array.isArray(spec.one_of) ? spec.one_of : null;
};

const fourteenWord = (view) => (view.rules?.heath ? "only a 31 or a pair of twos beats it" : "only a 31 beats it");

/** "Ada" or "you". */
function who(view, ctx, n, capital = false) {
  if (n === view.you) return capital ? "You" : "you";
  return ctx.seatName(n);
}

// ------------------------------------------------------------------ the centre

function headline(view, ctx) {
  const you = (n) => n === view.you;
  const dealer = handDealer(view);
  switch (view.phase) {
    case "staking":
      if (you(view.turn)) return "Your stake";
      return isSeat(view.turn) ? `${ctx.seatName(view.turn)} to stake` : "Stakes";
    case "dealer":
      if (you(dealer)) return "Your draw: draw, or stand";
      return `${ctx.seatName(dealer)} draws in secret`;
    case "players":
      if (you(view.turn)) return "Your turn: draw or stand";
      return isSeat(view.turn) ? `${ctx.seatName(view.turn)} to draw or stand` : "The players draw";
    case "settled":
      return ["other", "14"].includes(outcomeOf(view)) ? "Showdown" : "Hand over";
    case "over":
      return "The table is over";
    default:
      if (!isSeat(view.dealer)) return "Waiting for players";
      return `${you(view.dealer) ? "You deal" : `${ctx.seatName(view.dealer)} deals`} next`;
  }
}

/** The big moments: the dealer's stand on 14 or 31, a bust, a player's 31. */
function moments(view, ctx) {
  const out = [];
  const outcome = outcomeOf(view);
  const dealer = handDealer(view);
  const dealerName = isSeat(dealer) ? who(view, ctx, dealer, true) : "The dealer";
  const settled = Boolean(view.last_hand);
  if (outcome === "31") {
    out.push({ kind: "31", text: `${dealerName} stood on 31 and ${dealer === view.you ? "collect" : "collects"} every stake` });
  } else if (outcome === "14") {
    const stands = dealer === view.you ? "stand" : "stands";
    out.push({ kind: "14", text: settled ? `${dealerName} stood on 14` : `${dealerName} ${stands} on 14: ${fourteenWord(view)}` });
  } else if (outcome === "bust") {
    out.push({ kind: "bust", text: `${dealerName} went over 31 and ${dealer === view.you ? "pay" : "pays"} every stake` });
  } else if (outcome === "void") {
    out.push({ kind: "void", text: "The deck ran out: the hand is void and every stake goes back" });
  }
  if (settled && isSeat(view.dealer) && view.dealer !== dealer) {
    out.push({ kind: "deal", text: `The deal passes to ${who(view, ctx, view.dealer)}` });
  }
  for (const { seat, hand } of players(view)) {
    if (hand.result === "31") {
      const paid = typeof hand.stake === "number" && hand.stake > 0 ? ` and ${seat === view.you ? "are" : "is"} paid ${ctx.chips(hand.stake)}` : "";
      out.push({ kind: "player31", seat, text: `${who(view, ctx, seat, true)} ${seat === view.you ? "hit" : "hits"} 31${paid}!` });
    }
  }
  return out;
}

/** The dealer's hand, large: backs for the others while it is hidden, clickable to conceal. */
function dealerArea(view, ctx) {
  const { h } = ctx;
  const dealer = handDealer(view);
  if (!isSeat(dealer)) return null;
  const you = dealer === view.you;
  const hand = handOf(view, dealer);
  const cards = cardsOf(hand);
  const inHand = ["staking", "dealer", "players"].includes(view.phase) || Boolean(view.last_hand);
  const dealt = typeof view.hands_dealt === "number" ? view.hands_dealt : 0;
  const thisHand = view.last_hand || view.hand_id ? dealt : dealt + 1;
  const label = h("div", { class: "bank-label" },
    h("span", { class: "badge badge-dealer" }, "Dealer"), " ",
    h("strong", {}, you ? "You" : ctx.seatName(dealer)),
    thisHand > 0 ? h("span", { class: "muted", "data-testid": "deal-count" },
      view.last_hand || view.hand_id
        ? ` · ${ordinal(thisHand)} hand of ${you ? "your" : "the"} deal`
        : ` · deals next: ${ordinal(thisHand)} hand of ${you ? "your" : "the"} deal`) : null);
  if (!inHand || (!cards.length && view.phase === "staking")) {
    return h("div", { class: "bank-area g31-dealer" }, label);
  }

  const conceal = you && view.phase === "dealer" ? concealChoice(view) : null;
  const row = h("div", { class: "card-row g31-dealer-cards", "data-testid": "dealer-cards" });
  cards.forEach((card, index) => {
    const pick = conceal && conceal.includes(index) && card.card;
    const node = ctx.cardEl(card, pick ? { tag: "button" } : {});
    node.dataset.index = String(index);
    const hiddenNow = !card.up && (view.phase === "players" || view.phase === "dealer") && view.dealer_outcome === "other";
    const wasHidden = view.last_hand && view.last_hand.outcome === "other" && memory.revealed === index;
    if (hiddenNow || wasHidden) {
      node.classList.add(hiddenNow ? "g31-concealed" : "g31-revealed");
      node.append(h("span", { class: "g31-hidden-tag", "aria-hidden": "true" }, hiddenNow ? "hidden" : "was hidden"));
    }
    if (pick) {
      node.type = "button";
      node.classList.add("pickable", "g31-pick");
      node.setAttribute("aria-label", `Stand and keep ${ctx.cardText(card.card)} face down`);
      node.title = `Stand and keep ${ctx.cardText(card.card)} face down`;
      node.append(h("span", { class: "g31-pick-tag", "aria-hidden": "true" }, "hide"));
      node.addEventListener("click", () => (typeof ctx.act === "function" ? ctx.act({ kind: "stand", conceal: index }) : chooseConceal(index)));
      node.addEventListener("mouseenter", () => markConceal(index, true));
      node.addEventListener("mouseleave", () => markConceal(index, false));
      node.addEventListener("focus", () => markConceal(index, true));
      node.addEventListener("blur", () => markConceal(index, false));
    }
    row.append(node);
  });

  const known = typeof hand?.value === "number" || hand?.label === "bust";
  const value = known
    ? h("span", { class: `hand-value hand-value-big${hand.label === "31" || hand.label === "14" || hand.label === "pair of twos" ? " g31-value-hot" : ""}`,
      title: you && !view.last_hand && view.dealer_outcome !== "31" && view.dealer_outcome !== "14" && view.dealer_outcome !== "bust"
        ? "Your hand (only you know it)" : "The dealer's hand" },
      hand.label === "bust" ? "bust" : String(hand.label ?? hand.value))
    : null;

  let caption = null;
  const count = cards.length;
  const cardsWord = `${count} card${count === 1 ? "" : "s"}`;
  if (view.phase === "dealer") {
    if (you && conceal) {
      caption = count === 1 ? "To stand, click your card: it stays face down."
        : "To stand, click the card to keep face down: the others see the rest.";
    } else if (you && standTemplate(view)) {
      caption = hand?.label === "31" ? "You hold 31: stand to show it and collect every stake."
        : `You hold ${hand?.label}: stand to show it — ${fourteenWord(view)}.`;
    } else if (you) caption = "Only you see these cards.";
    else caption = `${cardsWord} drawn, seen by the dealer alone`;
  } else if (view.phase === "players" && view.dealer_outcome === "other") {
    caption = you ? "Marked hidden: face down until the showdown." : `${cardsWord}: one kept face down until the showdown`;
  }
  return h("div", { class: "bank-area g31-dealer" }, label,
    h("div", { class: "bank-cards" }, row, value),
    caption ? h("p", { class: "muted small g31-caption", "data-testid": "dealer-caption" }, caption) : null);
}

/** Without ctx.act: stand concealing card `index` through the generated control for it. */
function chooseConceal(index) {
  const action = document.querySelector('#controls .action[data-kind="stand"]');
  if (!action) return;
  const button = action.querySelector(`button[data-value="${index}"]`);
  if (button) {
    button.click();
    return;
  }
  // More than six cards: the controls show a select and one button.
  const select = action.querySelector('select[data-param="conceal"]');
  const submit = action.querySelector("button[type=submit]");
  if (select && submit && select.options[index]) {
    select.value = select.options[index].value; // the options follow one_of: 0, 1, 2…
    submit.click();
    return;
  }
  // One card: the only choice is fixed, and the button says so ("Stand · hide 9♦").
  action.querySelector('button[data-kind="stand"]')?.click();
}

/** Hovering a card lights its control and the other way round. */
function markConceal(index, on) {
  for (const el of document.querySelectorAll(`#controls .action[data-kind="stand"] button[data-value="${index}"], .g31-dealer-cards [data-index="${index}"]`)) {
    el.classList.toggle("g31-marked", on);
  }
}

/** Hovering a "hide 9♦" control lifts that card in the middle. */
function onControlHover(event) {
  const target = event.target instanceof Element ? event.target : null;
  const button = target ? target.closest('#controls .action[data-kind="stand"] button[data-value]') : null;
  if (!button) return;
  const card = document.querySelector(`.g31-dealer-cards [data-index="${button.dataset.value}"]`);
  if (card) card.classList.toggle("g31-marked", event.type === "mouseover");
}
document.addEventListener("mouseover", onControlHover);
document.addEventListener("mouseout", onControlHover);

/** Why a player's hand won or lost, once the hand is settled ("24 beats 23"). */
function resultText(view, hand) {
  const last = view.last_hand;
  if (!last || !hand) return null;
  const dealerLabel = handOf(view, last.dealer)?.label ?? "";
  const mine = hand.label ?? String(hand.value ?? "");
  switch (hand.result) {
    case "won":
      return last.outcome === "bust" ? "the dealer went over 31" : `${mine} beats ${dealerLabel}`;
    case "lost":
      return last.outcome === "31" ? "the dealer's 31" : `${mine} against ${dealerLabel}`;
    case "31":
      return "paid at once";
    case "returned":
      return "stake returned";
    default:
      return null;
  }
}

/** Staking: the bank's cover, and why your stake is what it is (RULES.md §0 "Banks"). */
function stakeNotes(view, ctx) {
  const notes = [];
  if (view.phase !== "staking") return notes;
  const rules = view.rules || {};
  if (typeof view.cover === "number") notes.push(`The bank covers ${ctx.chips(view.cover)} more`);
  const range = (view.legal || []).find((t) => t.kind === "stake")?.params?.amount;
  const me = seatOf(view, view.you);
  if (!range || !me) return notes;
  const maxBet = typeof rules.max_bet === "number" ? rules.max_bet : Infinity;
  const below = typeof rules.min_bet === "number" && range.max < rules.min_bet ? " (less than the minimum)" : "";
  if (range.max === view.cover && view.cover < Math.min(me.stack, maxBet)) {
    notes.push(`Your stake: at most ${ctx.chips(range.max)}${below}, all the bank can still cover`);
  } else if (range.max === me.stack && me.stack < maxBet) {
    notes.push(`Your stake: at most ${ctx.chips(range.max)}${below}, your whole stack`);
  }
  return notes;
}

/**
 * The last hand, remembered across views so that it stays readable while the next hand is
 * staked (the server clears `last_hand` at the next deal): which card the dealer had hidden is
 * known only from the views before the showdown.
 */
const memory = { hand: null, hidden: null, revealed: null, last: null, announced: new Set() };

function remember(view, ctx) {
  if (view.hand_id) memory.hand = view.hand_id; // the hand being played, or the one just played
  if (view.phase === "players" && view.dealer_outcome === "other" && isSeat(view.dealer)) {
    const index = cardsOf(handOf(view, view.dealer)).findIndex((c) => !c.up);
    if (index >= 0) memory.hidden = { hand: view.hand_id, dealer: view.dealer, index };
  }
  const last = view.last_hand;
  if (!last || !isSeat(last.dealer)) return;
  const hand = handOf(view, last.dealer);
  const seen = memory.hidden && memory.hidden.hand === memory.hand && memory.hidden.dealer === last.dealer;
  const hidden = seen && last.outcome === "other" ? cardsOf(hand)[memory.hidden.index] : null;
  memory.revealed = hidden ? memory.hidden.index : null;
  const name = who(view, ctx, last.dealer, true);
  const label = hand?.label ?? "";
  let text;
  if (last.outcome === "bust") text = `${name} went over 31`;
  else if (last.outcome === "void") text = "The hand was void";
  else text = `${name} stood on ${label}`;
  if (hidden && hidden.card) text += `; the hidden card was ${ctx.cardText(hidden.card)}`;
  memory.last = { text };
}

// ------------------------------------------------------------------ the seats

const RESULT_TAGS = {
  "31": ["31!", "g31-tag-31"],
  won: ["won", "status-won"],
  lost: ["lost", "status-lost"],
  bust: ["over 31", "status-bust"],
  stood: ["stands", ""],
  "no cover": ["no stake: no cover left", "g31-tag-nocover"],
  returned: ["returned", ""],
};

// ------------------------------------------------------------------ the module

export default {
  labels: { stake: "Stake", draw: "Draw", stand: "Stand" },

  valueLabel(kind, param, value, view, ctx) {
    if (kind !== "stand" || param !== "conceal" || !Number.isInteger(value)) return null;
    const card = cardsOf(handOf(view, view.you))[value];
    return card && card.card ? `hide ${ctx.cardText(card.card)}` : `hide card ${value + 1}`;
  },

  renderCenter(view, el, ctx) {
    const { h } = ctx;
    remember(view, ctx);
    el.append(h("p", { class: "status-line", "data-testid": "status-line" }, headline(view, ctx)));

    const shown = new Set();
    for (const moment of moments(view, ctx)) {
      const fresh = !memory.announced.has(moment.text); // only a new moment pops up
      el.append(h("p", { class: `g31-moment g31-moment-${moment.kind}${fresh ? " is-new" : ""}`, "data-moment": moment.kind }, moment.text));
      shown.add(moment.text);
    }
    memory.announced = shown;

    const dealer = dealerArea(view, ctx);
    if (dealer) el.append(dealer);

    if (memory.last && !view.last_hand && (view.phase === "staking" || view.phase === "waiting")) {
      el.append(h("p", { class: "muted small g31-lasthand", "data-testid": "last-hand" }, `Last hand: ${memory.last.text}.`));
    }

    const me = seatOf(view, view.you);
    const notes = stakeNotes(view, ctx);
    if (me && me.note && handOf(view, me.seat)?.result === "no cover" && !view.last_hand) notes.push(String(me.note));
    for (const { seat, hand } of view.phase === "staking" ? players(view) : []) {
      if (hand.result === "no cover" && seat !== view.you) notes.push(`${ctx.seatName(seat)} cannot stake: the bank cannot cover another stake this hand`);
    }
    if (notes.length) el.append(h("ul", { class: "messages g31-notes" }, notes.map((n) => h("li", {}, n))));

    if (view.phase !== "staking" && view.phase !== "waiting") return; // the play needs the room
    const rules = view.rules || {};
    const facts = [];
    if (typeof rules.min_bet === "number") {
      facts.push(`Stakes ${ctx.chips(rules.min_bet)}–${rules.max_bet === null || rules.max_bet === undefined ? "stack" : ctx.chips(rules.max_bet)}`);
    }
    if (rules.heath) facts.push("Heath's version");
    if (typeof view.deck === "number" && view.deck > 0) facts.push(`Deck ${view.deck}`);
    const aces = ACE_RULES[rules.ace_rule] ? `Aces: ${ACE_RULES[rules.ace_rule]}` : null;
    if (facts.length) el.append(h("p", { class: "facts muted small", title: aces }, facts.join(" · ")));
  },

  renderSeatExtras(seat, view, el, ctx) {
    const { h } = ctx;
    const n = seat.seat;
    const dealer = handDealer(view);
    const live = Array.isArray(seat.hands) && seat.hands.length > 0;
    const hand = handOf(view, n);
    if (n === dealer) {
      const dealt = typeof view.hands_dealt === "number" ? view.hands_dealt : 0;
      if (view.hand_id && dealt > 0) el.append(h("span", { class: "tag g31-tag-deal" }, `hand ${dealt} of the deal`));
      if (view.phase === "dealer" && n !== view.you) {
        const count = typeof view.dealer_cards === "number" ? view.dealer_cards : cardsOf(hand).length;
        el.append(h("span", { class: "tag g31-tag-drawing" }, `drawing · ${count} card${count === 1 ? "" : "s"} unseen`));
      }
      if (live && view.phase === "players" && view.dealer_outcome === "other") {
        el.append(h("span", { class: "tag g31-tag-hidden" }, "1 card hidden"));
      }
    }
    // Between hands the seats hold no cards: show the hand just played, as it ended.
    if (!live && hand && view.last_hand) {
      el.append(h("div", { class: "g31-last" },
        ctx.cardRow(hand.cards, { small: true }),
        hand.label ? h("span", { class: "hand-value", title: "Last hand" }, String(hand.label)) : null));
    }
    if (hand && n !== dealer && RESULT_TAGS[hand.result] && (live || view.last_hand)) {
      const [text, cls] = RESULT_TAGS[hand.result];
      el.append(h("span", { class: `tag status ${cls}`, dataset: { result: hand.result } }, text));
      const why = resultText(view, hand);
      if (why) el.append(h("span", { class: "g31-why small" }, why));
    }
    if (hand && hand.returned_to_deck) el.append(h("span", { class: "tag" }, "cards back under the deck"));
    // The engine's note on a seat: a stake cut to the cover (while staking), or no cover at all.
    const noteNow = view.phase === "staking" && hand?.result !== "no cover"; // the tag says that
    if (typeof seat.note === "string" && seat.note && n !== view.you && noteNow) {
      el.append(h("p", { class: "hand-note g31-seat-note" }, seat.note));
    }
    if (seat.role === "waiting") el.append(h("span", { class: "tag" }, "plays from the next hand"));
  },

  describeChanges(prev, view, ctx) {
    const lines = [];
    if (!prev) return lines;
    const name = (n) => ctx.seatName(n);
    const passes = view.last_hand && !prev.last_hand ? view.dealer !== view.last_hand.dealer // at the end of a hand
      : !view.last_hand && !prev.last_hand && isSeat(prev.dealer) && view.dealer !== prev.dealer; // a dealer left
    if (passes && isSeat(view.dealer)) lines.push(`The deal passes to ${name(view.dealer)}.`);
    const sameHand = prev.hand_id && (view.hand_id === prev.hand_id || !view.hand_id);
    if (view.hand_id && view.hand_id !== prev.hand_id && isSeat(view.dealer)) {
      lines.push(`${name(view.dealer)} deals (hand ${view.hands_dealt || 1} of the deal).`);
    }
    if (!sameHand) return lines;
    const dealer = handDealer(view);
    // Stakes and the players' draws.
    for (const { seat, hand } of players(view)) {
      const before = handOf(prev, seat);
      if (!before) continue;
      const player = name(seat);
      if (!before.stake && hand.stake) lines.push(`${player} stakes ${ctx.chips(hand.stake)}.`);
      if (before.result !== "no cover" && hand.result === "no cover") lines.push(`${player} cannot stake: the bank's cover has run out.`);
      const added = cardsOf(hand).slice(cardsOf(before).length);
      for (const card of added) if (card.card) lines.push(`${player} draws ${ctx.cardText(card.card)}${hand.label && card === added[added.length - 1] ? ` (${hand.label})` : ""}.`);
      if (before.result !== hand.result) {
        const stoodAtShowdown = !before.result && prev.phase === "players" && (hand.result === "won" || hand.result === "lost");
        if (hand.result === "stood" || stoodAtShowdown) lines.push(`${player} stands on ${hand.label}.`);
        if (hand.result === "bust") lines.push(`${player} goes over 31 and loses ${ctx.chips(hand.stake)}.`);
        if (hand.result === "31") lines.push(`${player} hits 31 and is paid ${ctx.chips(hand.stake)}!`);
        if (hand.result === "won" && before.result !== "31") lines.push(`${player} wins ${ctx.chips(hand.stake)}.`);
        if (hand.result === "lost") lines.push(`${player} loses ${ctx.chips(hand.stake)}.`);
      }
    }
    // The dealer's draw and stand.
    const count = typeof view.dealer_cards === "number" && !view.last_hand ? view.dealer_cards : cardsOf(handOf(view, dealer)).length;
    const countBefore = typeof prev.dealer_cards === "number" ? prev.dealer_cards : 0;
    if (prev.phase === "dealer" && count > countBefore) lines.push(`${name(dealer)} draws a card (${count} in hand).`);
    const outcome = outcomeOf(view);
    const outcomeBefore = prev.last_hand ? prev.last_hand.outcome : prev.dealer_outcome;
    if (outcome !== outcomeBefore) {
      const dealerHand = handOf(view, dealer);
      if (outcome === "31") lines.push(`${name(dealer)} stands on 31 and collects every stake!`);
      if (outcome === "14") lines.push(`${name(dealer)} stands on 14: ${fourteenWord(view)}.`);
      if (outcome === "bust") lines.push(`${name(dealer)} goes over 31 and pays every stake.`);
      if (outcome === "void") lines.push("The deck ran out: the hand is void.");
      if (outcome === "other") {
        const shown = cardsOf(dealerHand).filter((c) => c.up && c.card).map((c) => ctx.cardText(c.card));
        lines.push(shown.length ? `${name(dealer)} stands, showing ${shown.join(" ")} and keeping one card face down.`
          : `${name(dealer)} stands on one card, kept face down.`);
      }
    }
    if (view.last_hand && !prev.last_hand && outcome === "other") {
      const dealerHand = handOf(view, dealer);
      const hidden = cardsOf(handOf(prev, dealer)).findIndex((c) => !c.up);
      const card = cardsOf(dealerHand)[hidden];
      if (card && card.card) lines.push(`The hidden card is ${ctx.cardText(card.card)}: ${name(dealer)} has ${dealerHand.label}.`);
    }
    return lines;
  },
};
