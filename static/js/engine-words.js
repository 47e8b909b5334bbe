// The engines' sentences in the reader's words (the table's own notices come worded by the
// server). The server writes them in English (a view's `status`, a hand's `note`, Vingt-un's
// dealer's `calls`, En og tredive's round's end, `table.over`, `table.cannot_play`,
// `table.leave_cost`) and sends each with a code and its values beside it, `<field>_coded`:
// {code, values} (docs/protocol/view.md §6.7; app/games/core/coded.py).
// Each reader's page words the code in its own language here, so two players at one table read
// two languages.
//
// WORDS lists every code the server sends: tests/i18n/test_engine_words.py reads its keys and
// fails on a code the engines send that is not here (or one here nobody sends).
// A value is data (a seat, a count of chips, a protocol word worded below) or itself coded.
// The chips' movements of a hand say their reason the same way (`reason_coded` beside a
// transfer's `reason`, and beside a result line's: the replay's chip movements, a result's
// lines), with the `chips` codes below.
import { FRENCH } from "./games/trente-et-quarante/common.js";
import { formatNumber, t, tn } from "./i18n.js";

// ------------------------------------------------------------------ the values' words

/** Why a Trianta Ena bet was won or lost (the engine's `settle` reasons, app/games/trianta_ena/scoring.py). */
export const TRIANTA_REASONS = {
  bust: () => t("bust"),
  "banker natural": () => t("banker natural"),
  natural: () => t("natural"),
  "banker bust": () => t("banker bust"),
  higher: () => t("higher"),
  lower: () => t("lower"),
  tie: () => t("tie"),
};

/** Why a Vingt-un hand was settled as it was (the engine's reasons, app/games/vingt_un/scoring.py). */
export const VINGT_UN_REASONS = {
  "dealer over 21, vingt-un paid twice": () => t("dealer over 21, vingt-un paid twice"),
  "dealer over 21": () => t("dealer over 21"),
  "dealer's vingt-un against a vingt-un": () => t("dealer's vingt-un against a vingt-un"),
  "dealer's vingt-un": () => t("dealer's vingt-un"),
  "vingt-un paid twice": () => t("vingt-un paid twice"),
  "dealer equal or higher": () => t("dealer equal or higher"),
  "higher than the dealer": () => t("higher than the dealer"),
  "the bank covers no more": () => t("the bank covers no more"),
};

/** How a Greek 31 hand ended (its `dealer_outcome`). */
const GREEK_ENDINGS = {
  bust: () => t("The dealer went over 31 and paid every stake"),
  31: () => t("The dealer stood on 31 and collected every stake"),
  14: () => t("The dealer stood on 14; the hand is settled"),
  other: () => t("The hand is settled"),
  void: () => t("The deck ran out: the hand is void and every stake returned"),
};

const reasonOf = (table, reason) => (Object.hasOwn(table, String(reason)) ? table[reason]() : String(reason ?? ""));

/** A Trente et Quarante chance by its French name (the game's own word: Rouge, Noir…). */
const chanceName = (chance) => (Object.hasOwn(FRENCH, String(chance)) ? FRENCH[chance] : String(chance ?? ""));

// ------------------------------------------------------------------ every code

/** Each code's words: `(values, w)`, where w names seats (`w.name(3)`, `w.names([1, 2])`, `w.you(3)`),
 *  writes chips (`w.chips(10)`) and words a coded value (`w.said(coded)`). */
const WORDS = {
  // Trianta Ena (app/games/trianta_ena): the status, a hand's note, the round's messages
  "trianta-ena.betting": (v, w) => t("Betting: waiting for {names}", { names: w.names(v.seats) }),
  "trianta-ena.to_act": (v, w) => t("{name} to act", { name: w.name(v.seat) }),
  "trianta-ena.bank_offered": (v, w) => t("{name} is offered the bank", { name: w.name(v.seat) }),
  "trianta-ena.no_banker": () => t("No banker: the table waits for a player to take the bank"),
  "trianta-ena.next_round": () => t("Next round about to be dealt"),
  "trianta-ena.waiting": () => t("Waiting for players"),
  "trianta-ena.stake_refused": (v, w) => t("The bank has nothing left to cover a bet of {chips}: no stake.", { chips: w.chips(v.bet) }),
  "trianta-ena.stake_cut": (v, w) => t("Bet cut from {bet} to {stake}: the bank covers no more.", { bet: w.chips(v.bet), stake: w.chips(v.stake) }),
  "trianta-ena.won": (v, w) => t("Won {chips} ({reason}).", { chips: w.chips(v.stake), reason: reasonOf(TRIANTA_REASONS, v.reason) }),
  "trianta-ena.lost": (v, w) => t("Lost {chips} ({reason}).", { chips: w.chips(v.stake), reason: reasonOf(TRIANTA_REASONS, v.reason) }),
  "trianta-ena.seat_note": (v, w) => t("{name}: {note}", { name: w.name(v.seat), note: w.said(v.note) }),
  "trianta-ena.cannot_play": (v) => tn("You need {n} chip to bet (the smallest bet): add chips or leave the table.",
    "You need {n} chips to bet (the smallest bet): add chips or leave the table.", v.least),

  // Greek 31 (app/games/greek_31): the status, a seat's note, the table's end
  "greek-31.table_over": (v, w) => t("{name} holds every chip: the table is over", { name: w.name(v.seat) }),
  "greek-31.hand_over": (v, w) => {
    const ending = Object.hasOwn(GREEK_ENDINGS, String(v.outcome)) ? GREEK_ENDINGS[v.outcome]() : t("Hand over");
    return t("{ending}. {next}", { ending, next: w.said(v.next) });
  },
  "greek-31.deals_next": (v, w) => (v.waiting
    ? t("{name} deals next (waiting for players)", { name: w.name(v.seat) })
    : t("{name} deals next", { name: w.name(v.seat) })),
  "greek-31.no_dealer": (v) => (v.waiting ? t("No dealer yet (waiting for players)") : t("No dealer yet")),
  "greek-31.to_stake": (v, w) => t("{name} to stake", { name: w.name(v.seat) }),
  "greek-31.to_stake_note": (v, w) => t("{name} to stake ({note})", { name: w.name(v.seat), note: w.said(v.note) }),
  "greek-31.dealer_drawing": (v, w) => tn("The dealer, {name}, draws: {n} card", "The dealer, {name}, draws: {n} cards", v.cards, { name: w.name(v.seat) }),
  "greek-31.to_draw": (v, w) => t("{name} to draw or stand", { name: w.name(v.seat) }),
  "greek-31.dealing": () => t("Dealing"),
  "greek-31.no_cover": () => t("The bank cannot cover another stake this hand"),
  "greek-31.cover_cut": (v, w) => t("The bank covers only {chips} more: stakes are cut to it", { chips: w.chips(v.cover) }),

  // Vingt-un (app/games/vingt_un): the status, the dealer's calls, why a player is not dealt in
  "vingt-un.waiting": () => t("Waiting for players"),
  "vingt-un.deals_next": (v, w) => t("{name} deals next", { name: w.name(v.seat) }),
  "vingt-un.to_stake": (v, w) => t("{name} to stake", { name: w.name(v.seat) }),
  "vingt-un.to_call_double": (v, w) => t("{name} looks at the card: double or not?", { name: w.name(v.seat) }),
  "vingt-un.dealer_to_draw": (v, w) => t("{name} shows and draws", { name: w.name(v.seat) }),
  "vingt-un.to_play_hand": (v, w) => t("{name} to play hand {number}", { name: w.name(v.seat), number: v.hand }),
  "vingt-un.to_play": (v, w) => t("{name} to play", { name: w.name(v.seat) }),
  "vingt-un.new_pack": () => t("The pile is shuffled into a new pack"),
  "vingt-un.deals": (v, w) => t("{name} deals", { name: w.name(v.seat) }),
  "vingt-un.cannot_stake": (v, w) => t("{name} cannot stake: the bank covers no more", { name: w.name(v.seat) }),
  "vingt-un.stake_cut": (v, w) => t("{name}'s stake is cut to {chips}: the bank covers no more.", { name: w.name(v.seat), chips: w.chips(v.stake) }),
  "vingt-un.stakes": (v, w) => t("{name} stakes {chips}.", { name: w.name(v.seat), chips: w.chips(v.stake) }),
  "vingt-un.double": () => t("Double!"),
  "vingt-un.dealer_natural": () => t("The dealer has a natural vingt-un"),
  "vingt-un.natural_against_natural": (v, w) => t("{name} also has a natural: neither pays", { name: w.name(v.seat) }),
  "vingt-un.natural": (v, w) => t("{name} has a natural vingt-un", { name: w.name(v.seat) }),
  "vingt-un.pays_natural_short": (v, w) => t("{name} can pay {to} only {chips}", { name: w.name(v.seat), to: w.name(v.to), chips: w.chips(v.amount) }),
  "vingt-un.split_stake_cut": (v, w) => t("{name}'s split stake is cut to {chips}: the bank covers no more", { name: w.name(v.seat), chips: w.chips(v.stake) }),
  "vingt-un.split": (v, w) => t("{name} splits, staking {chips} on a new hand", { name: w.name(v.seat), chips: w.chips(v.stake) }),
  "vingt-un.over": (v, w) => t("{name} is over 21 and pays {chips}", { name: w.name(v.seat), chips: w.chips(v.stake) }),
  "vingt-un.dealer_over": () => t("The dealer is over 21"),
  "vingt-un.dealer_stands": (v) => t("The dealer stands on {total}", { total: v.total }),
  "vingt-un.wins": (v, w) => t("{name} wins {chips} ({reason})", { name: w.name(v.seat), chips: w.chips(v.amount), reason: reasonOf(VINGT_UN_REASONS, v.reason) }),
  "vingt-un.pays": (v, w) => t("{name} pays {chips} ({reason})", { name: w.name(v.seat), chips: w.chips(v.amount), reason: reasonOf(VINGT_UN_REASONS, v.reason) }),
  "vingt-un.deal_passes": (v, w) => t("The deal passes to {name}", { name: w.name(v.seat) }),
  "vingt-un.cannot_play": (v, w) => tn("You need {n} chip to be dealt in (four times the smallest stake, {smallest}): add chips or leave the table.",
    "You need {n} chips to be dealt in (four times the smallest stake, {smallest}): add chips or leave the table.", v.least, { smallest: w.chips(v.min_bet) }),

  // Trente et Quarante (app/games/trente_et_quarante): the status, insurance, why a bettor cannot stake
  "trente-et-quarante.betting_clock": () => t("Faites vos jeux: stakes close when the clock runs out"),
  "trente-et-quarante.betting_first": () => t("Faites vos jeux: the table waits for a first stake"),
  "trente-et-quarante.un_apres": (v, w) => t("Un après: {names} choose to share their stakes or put them in prison", { names: w.names(v.seats) }),
  "trente-et-quarante.waiting": () => t("Waiting for bettors"),
  "trente-et-quarante.next_coup": () => t("Waiting for the next coup"),
  "trente-et-quarante.no_insurance": () => t("No insurance at this table."),
  "trente-et-quarante.insurance": (v, w) => t("A free stake of {chips} chips or more may be insured: 1 chip for every whole {chips} staked, never more than 1%. A smaller stake cannot be insured.", { chips: w.chips(v.least) }),
  "trente-et-quarante.cannot_play": (v) => tn("You need {n} chip for the smallest stake: add chips or leave the table.",
    "You need {n} chips for the smallest stake: add chips or leave the table.", v.least),

  // En og tredive (app/games/en_og_tredive): the status, and how a round ended, line by line
  "en-og-tredive.round_over": (v, w) => (Array.isArray(v.lines) ? v.lines.map((line) => w.said(line)).join("; ") : ""),
  "en-og-tredive.next_round": () => t("Next round"),
  "en-og-tredive.waiting": () => t("Waiting for players"),
  "en-og-tredive.to_cut": (v, w) => t("{name} cuts the deck, or knocks on it", { name: w.name(v.seat) }),
  "en-og-tredive.to_deal": (v, w) => t("{name} deals", { name: w.name(v.seat) }),
  "en-og-tredive.to_draw": (v, w) => (Number.isInteger(v.knocker)
    ? t("{name} to take a card ({knocker} knocked)", { name: w.name(v.seat), knocker: w.name(v.knocker) })
    : t("{name} to take a card", { name: w.name(v.seat) })),
  "en-og-tredive.to_discard": (v, w) => (Number.isInteger(v.knocker)
    ? t("{name} to discard ({knocker} knocked)", { name: w.name(v.seat), knocker: w.name(v.knocker) })
    : t("{name} to discard", { name: w.name(v.seat) })),
  "en-og-tredive.shows_31": (v, w) => (w.you(v.seat) ? t("You show 31") : t("{name} shows 31", { name: w.name(v.seat) })),
  "en-og-tredive.coup_d_etat": (v, w) => (w.you(v.seat)
    ? t("You win the match with a coup d'état") : t("{name} wins the match with a coup d'état", { name: w.name(v.seat) })),
  "en-og-tredive.knocked": (v, w) => (w.you(v.seat) ? t("You knocked") : t("{name} knocked", { name: w.name(v.seat) })),
  "en-og-tredive.pays": (v, w) => (w.you(v.seat)
    ? tn("You pay one bet into the pot", "You pay {n} bets into the pot", v.bets)
    : tn("{name} pays one bet into the pot", "{name} pays {n} bets into the pot", v.bets, { name: w.name(v.seat) })),
  "en-og-tredive.out": (v, w) => (w.you(v.seat) ? t("You are out") : t("{name} is out", { name: w.name(v.seat) })),
  "en-og-tredive.no_bet_left": (v, w) => (w.you(v.seat) ? t("You have no bet left") : t("{name} has no bet left", { name: w.name(v.seat) })),
  "en-og-tredive.wins_match": (v, w) => (w.you(v.seat) ? t("You win the match") : t("{name} wins the match", { name: w.name(v.seat) })),
  "en-og-tredive.leave_now": (v) => {
    const chips = tn("{n} chip", "{n} chips", v.chips);
    return tn("Leaving now puts your {n} remaining bet ({chips}) in the pot.", "Leaving now puts your {n} remaining bets ({chips}) in the pot.", v.bets, { chips });
  },
  "en-og-tredive.leave_after_round": (v) => {
    const chips = tn("{n} chip", "{n} chips", v.chips);
    return tn("Leaving puts your {n} remaining bet ({chips}) in the pot: you stand up when this round ends.",
      "Leaving puts your {n} remaining bets ({chips}) in the pot: you stand up when this round ends.", v.bets, { chips });
  },

  // Why chips moved (a hand's transfers, app/games/core/money.py): the replay's chip movements
  // and a result's lines
  "chips.table_closed": () => t("table closed"),
  "trianta-ena.chips_stake_placed": () => t("stake placed"),
  "trianta-ena.chips_stake_returned": () => t("stake returned"),
  "trianta-ena.chips_natural_paid": () => t("natural paid"),
  "trianta-ena.chips_bet_won": () => t("bet won"),
  "trianta-ena.chips_stake_lost": (v) => t("stake lost ({reason})", { reason: reasonOf(TRIANTA_REASONS, v.reason) }),
  "greek-31.chips_dealer_over": () => t("stake paid: dealer over 31"),
  "greek-31.chips_dealer_31": () => t("stake lost: dealer 31"),
  "greek-31.chips_over_31": () => t("stake lost: over 31"),
  "greek-31.chips_31": () => t("stake paid: 31"),
  "greek-31.chips_better": () => t("stake paid: better hand"),
  "greek-31.chips_equal_or_worse": () => t("stake lost: equal or worse"),
  "greek-31.chips_void_stake": () => t("void hand: stake returned"),
  "greek-31.chips_void_winnings": () => t("void hand: winnings returned"),
  "vingt-un.chips_dealers_natural": () => t("dealer's natural"),
  "vingt-un.chips_natural_twice": () => t("natural paid twice"),
  "vingt-un.chips_natural_by_all": () => t("natural paid by all"),
  "vingt-un.chips_over_21": () => t("over 21"),
  "vingt-un.chips_settled": (v) => reasonOf(VINGT_UN_REASONS, v.reason),
  "trente-et-quarante.chips_insurance": (v) => t("insurance of the {chance} stake", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_won": (v) => t("{chance} stake won", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_lost": (v) => t("{chance} stake lost", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_prison_lost": (v) => t("{chance} stake in prison lost", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_freed": (v) => t("{chance} stake freed from prison", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_half_back": (v) => t("{chance} stake shared: half back", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_shared": (v) => t("{chance} stake shared with the house", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_to_prison": (v) => t("{chance} stake to prison", { chance: chanceName(v.chance) }),
  "trente-et-quarante.chips_venice": () => t("stake in prison returned at the end of the shoe (Venice rule)"),
  "en-og-tredive.chips_bets_put_up": () => t("bets put up"),
  "en-og-tredive.chips_bet_paid": () => t("bet paid"),
  "en-og-tredive.chips_bets_left": () => t("bets left in the pot"),
  "en-og-tredive.chips_pot_won": () => t("pot won"),
  "en-og-tredive.chips_bets_returned": () => t("bets returned"),
  "en-og-tredive.chips_pot_coup": () => t("pot won by coup d'état"),
  "en-og-tredive.chips_bets_coup": () => t("bets won by coup d'état"),
};

// ------------------------------------------------------------------ wording

/** Whether `coded` is a code this page knows, with its values. */
function isCoded(coded) {
  return Boolean(coded) && typeof coded.code === "string" && Object.hasOwn(WORDS, coded.code);
}

/**
 * `coded` ({code, values}) in the reader's words; `english` (the view's English field) when
 * there is no code, or one this page does not know (a newer server's). `ctx` names the seats
 * (`seatName`) and writes chips (`chips`), as a game module's ctx does; `ctx.you` is the
 * reader's seat.
 */
export function said(coded, ctx = {}, english = "") {
  if (!isCoded(coded)) return typeof english === "string" ? english : "";
  const seatName = typeof ctx.seatName === "function" ? ctx.seatName : (n) => t("Seat {n}", { n });
  const w = {
    name: (seat) => (Number.isInteger(seat) ? seatName(seat) : ""),
    names: (seats) => (Array.isArray(seats) ? seats.map((seat) => seatName(seat)).join(", ") : ""),
    you: (seat) => Number.isInteger(seat) && seat === ctx.you,
    chips: (n) => (typeof ctx.chips === "function" ? ctx.chips(n) : formatNumber(n)),
    said: (value) => said(value, ctx),
  };
  const values = coded.values && typeof coded.values === "object" ? coded.values : {};
  return WORDS[coded.code](values, w);
}
