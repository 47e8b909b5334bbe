"""Trianta Ena: players against a rotating banker, closest to 31 (RULES.md §1).

A round: each player with chips gets one card face down and the banker one face up; players bet
or fold in a simultaneous window, and the bank's cover is allotted in seat order; bettors get two
cards face up and the banker a face-down card nobody sees; players hit or stand in seat order; the
banker turns the card and draws to ``dealer_stands_on``; bets settle at even money
(:func:`app.games.trianta_ena_hands.settle`). Then the bank is offered to richer players
(:mod:`app.games.trianta_ena_bank`).

Decisions where RULES.md leaves room:

* The first banker is the first player to sit at a table that has no banker and no player with
  chips; they bring exactly ``banker_multiple × buy_in``. Every other player brings exactly
  ``buy_in`` (the source: "each player begins with the same amount"); there are no top-ups.
* A player is dealt in when their stack is at least ``min_bet`` (one who cannot bet could only
  fold). Dealing goes in seat order: each player's face-down card, then the banker's up card;
  after the window each staking player's two cards in turn, then the banker's face-down card.
* Bets are public once made. When the window closes each covered stake moves to the player's
  ``bets:N`` account; a bet the bank cannot cover in full is cut (even below ``min_bet``).
* The banker does not draw when no standing bet is left (every bettor went bust).
* A player's face-down card is shown when they go bust and at settlement; a folded card never.
* The change of bank moves places, not seat numbers (see :mod:`app.games.trianta_ena_bank`).
* After a round the offers go to the players richer than the banker at that moment; after the
  bank has ended they go to every player with chips and start again after the last decline.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from app.games.base import (
    BET_SECONDS,
    TURN_SECONDS,
    Action,
    Game,
    LegalAction,
    OptionError,
    RuleError,
    Timer,
    View,
    action_fits,
    amount_range,
    choice_option,
    int_option,
    legal,
    seat_account,
)
from app.games.cards import SeedSource, Stock, canonical_shoe, csprng_seed
from app.games.trianta_ena_bank import Bank
from app.games.trianta_ena_bot import bet_amount, folds, hit_below, takes_bank
from app.games.trianta_ena_hands import banker_draws, is_natural, lowest_total, settle, value
from app.games.trianta_ena_round import (
    BET,
    BUST,
    DECIDING,
    FOLDED,
    LOST,
    PLAYING,
    REFUSED,
    STOOD,
    WON,
    PlayerHand,
    Round,
    summary,
)
from app.games.trianta_ena_stats import TriantaEnaStats
from app.games.trianta_ena_view import table_view, table_views
from app.games.values import ACE_RULES


def bets_account(seat: int) -> str:
    """Where a player's covered stake waits for settlement."""
    return f"bets:{seat}"


class TriantaEna(Game):
    """The Trianta Ena engine (RULES.md §1)."""

    id = "trianta-ena"
    title = "Trianta Ena"
    OPTIONS = [
        int_option("max_players", 7, 1, 9, "Players facing the banker (one more seat: the bank)."),
        int_option("decks", 2, 1, 8, "52-card decks in the shoe."),
        int_option("min_bet", 1, 1, 1_000_000_000, "The smallest bet."),
        int_option(
            "max_bet",
            None,
            1,
            1_000_000_000,
            "The largest bet (null: no limit beyond the stack).",
            nullable=True,
        ),
        int_option("buy_in", 100, 1, 1_000_000_000, "The chips each player brings."),
        int_option("banker_multiple", 3, 1, 100, "The first banker brings this many buy-ins."),
        choice_option("ace_rule", "at_most_one_low", ACE_RULES, "How aces count (RULES.md §0)."),
        int_option("dealer_stands_on", 27, 12, 31, "The banker draws below this value."),
        choice_option(
            "natural_cards",
            "face",
            ("face", "ten"),
            "A natural is an ace and two face cards (face) or two ten-value cards (ten).",
        ),
        TURN_SECONDS,
        BET_SECONDS,
    ]
    ACTION_KINDS = frozenset({"bet", "fold", "hit", "stand", "accept_bank", "decline_bank"})
    MIN_PLAYERS = 2
    STATS = TriantaEnaStats
    SIM_PLAYERS = 5

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        opts = self.options
        if opts["min_bet"] > opts["buy_in"]:
            raise OptionError("min_bet", "min_bet must not exceed buy_in")
        if opts["max_bet"] is not None and opts["max_bet"] < opts["min_bet"]:
            raise OptionError("max_bet", "max_bet must not be below min_bet")
        self.ace_rule: str = opts["ace_rule"]
        self.natural_cards: str = opts["natural_cards"]
        self.min_bet: int = opts["min_bet"]
        self.buy_in: int = opts["buy_in"]
        self.bank = Bank(seats=self.max_seats)
        self.stock = Stock()
        self.discard: list[str] = []
        self.round: Round | None = None
        """The round being played, or the last one (shown until the next deal)."""

    # ----------------------------------------------------------------- seats and money

    @property
    def max_seats(self) -> int:
        return int(self.options["max_players"]) + 1

    @property
    def banker(self) -> int | None:
        return self.bank.banker

    @property
    def players(self) -> list[int]:
        """Seated players other than the banker, in seat order."""
        return self.bank.in_seat_order([seat for seat in self.seated if seat != self.banker])

    def _stacks(self, leaving: int | None = None) -> dict[int, int]:
        """Every seated player's stack but the banker's (and a player on the way out)."""
        return {seat: self.stack(seat) for seat in self.players if seat != leaving}

    def _first_banker_wanted(self, newcomer: int | None = None) -> bool:
        """The next player to sit becomes the first banker: no banker, nobody else with chips."""
        return self.banker is None and not any(
            self.stack(seat) > 0 for seat in self.seated if seat != newcomer
        )

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        """Exactly ``buy_in``; the first banker exactly ``banker_multiple × buy_in`` (§1)."""
        chips = self.buy_in
        if self._first_banker_wanted():
            chips *= int(self.options["banker_multiple"])
        return (chips, chips)

    def on_sit(self, seat: int) -> None:
        """A player sat down; one who sits mid-round waits for the next deal."""
        if not self.in_hand and self._first_banker_wanted(newcomer=seat):
            self.bank.install(seat)
            self.log("bank_taken", seat=seat, first=True)

    def can_leave(self, seat: int) -> bool:
        """Players cash out between rounds (§1); a seat not dealt into the round may go at once."""
        if not self.in_hand or self.round is None:
            return True
        return seat != self.round.banker and seat not in self.round.hands

    def on_leave(self, seat: int) -> None:
        """A banker who leaves ends the bank; a player who leaves loses any pending offer."""
        serial = self.bank.serial
        if seat == self.banker:
            self.log("bank_ended", seat=seat, reason="left")
            self.bank.end(self._stacks(leaving=seat))
        else:
            self.bank.withdraw(seat, self._stacks(leaving=seat))
        if self.bank.serial != serial:
            self._log_offer()

    def sim_stack(self, seat: int, stack: int) -> int:
        return self.buy_in_limits(seat)[0]

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """A bot that cannot bet any more brings a new buy-in."""
        if not self.in_hand and seat != self.banker and self.stack(seat) < self.min_bet:
            self.add_chips(seat, self.buy_in)

    # ----------------------------------------------------------------- the stock

    def _draw(self) -> str:
        """Deal the top card; when the stock runs out, even mid-round, reshuffle (§1 step 7).

        The discard pile becomes the new stock (cards in play stay out). With no discard pile
        (the first deal, or after :meth:`on_void`) the shoe's cards not in play are shuffled.
        """
        if not self.stock.cards:
            in_play = self.round.cards_in_play() if self.in_hand and self.round else []
            if self.discard:
                cards, self.discard = self.discard, []
                if self.round is not None:
                    self.round.reshuffles += 1
                self.log("reshuffle", cards=len(cards))
            else:
                left = Counter(canonical_shoe(int(self.options["decks"]))) - Counter(in_play)
                cards = list(left.elements())
                if not cards:
                    raise RuntimeError("every card of the shoe is in play")
            self.shuffle_into(self.stock, cards)
        return self.stock.draw()

    def on_void(self) -> None:
        """The void round's cards were seen: drop stock and discard; the next deal shuffles a
        fresh shoe (its commitment is then published in that hand's log)."""
        self.stock.cards = []
        self.discard = []

    # ----------------------------------------------------------------- the round

    def can_start(self) -> bool:
        banker = self.banker
        if self.in_hand or banker is None or self.bank.offers or self.stack(banker) <= 0:
            return False
        return any(self.stack(seat) >= self.min_bet for seat in self.players)

    def deal(self) -> None:
        """§1 step 1: one card face down to each player who can bet, the banker's face up."""
        banker = self.banker
        if banker is None:
            raise RuleError("illegal_action", "there is no banker")
        order = [seat for seat in self.players if self.stack(seat) >= self.min_bet]
        self.round = round_ = Round(banker=banker, order=order, hands={})
        self.log("round", banker=banker, players=order, bank=self.stack(banker))
        for seat in order:
            card = self._draw()
            round_.hands[seat] = PlayerHand(seat=seat, cards=[card])
            self.log("deal", seat=seat, private_to=[seat], card=card, up=False)
        up = self._draw()
        round_.banker_cards.append(up)
        self.log("deal", seat=banker, card=up, up=True)

    def _decide(self, seat: int, amount: int | None) -> None:
        """§1 step 2: a bet (or a fold); the window closes once every player has decided."""
        round_ = self._round()
        hand = round_.hands[seat]
        if amount is None:
            hand.status = FOLDED
            self.log("fold", seat=seat)
        else:
            hand.status, hand.bet = BET, amount
            self.log("bet", seat=seat, amount=amount)
        if not round_.with_status(DECIDING):
            self._close_betting(round_)

    def _close_betting(self, round_: Round) -> None:
        """Allot cover in seat order (§0 "Banks"), deal the bettors' cards, start the turns."""
        cover = self.stack(round_.banker)
        for seat in round_.with_status(BET):
            hand = round_.hands[seat]
            hand.stake = min(hand.bet, cover)
            if hand.stake == 0:
                hand.status = REFUSED
                hand.note = f"The bank has nothing left to cover a bet of {hand.bet}: no stake."
                self.log("stake_refused", seat=seat, bet=hand.bet)
                round_.messages.append(f"Seat {seat}: {hand.note}")
                continue
            if hand.stake < hand.bet:
                hand.note = f"Bet cut from {hand.bet} to {hand.stake}: the bank covers no more."
                self.log("stake_cut", seat=seat, bet=hand.bet, stake=hand.stake)
                round_.messages.append(f"Seat {seat}: {hand.note}")
            cover -= hand.stake
            hand.status = PLAYING
            self.pay(seat_account(seat), bets_account(seat), hand.stake, "stake placed")
            self.log("stake", seat=seat, amount=hand.stake)
        staking = round_.with_status(PLAYING)
        if not staking:
            self._end_round(round_)
            return
        for seat in staking:
            for _ in range(2):
                card = self._draw()
                round_.hands[seat].cards.append(card)
                self.log("deal", seat=seat, card=card, up=True)
        hole = self._draw()
        round_.banker_cards.append(hole)
        self.log("deal", seat=round_.banker, private_to=[], card=hole, up=False)
        round_.phase = "playing"
        for seat in staking:
            self._stand_on_31(round_.hands[seat])
        self._next_turn(round_)

    def _stand_on_31(self, hand: PlayerHand) -> None:
        """A player who reaches 31 stands (§1 step 4)."""
        if hand.status == PLAYING and value(hand.cards, self.ace_rule) == 31:
            hand.status = STOOD
            natural = is_natural(hand.cards, self.natural_cards)
            self.log("stand", seat=hand.seat, automatic=True, natural=natural)

    def _next_turn(self, round_: Round) -> None:
        """The first player in seat order still to decide, else the banker plays."""
        waiting = round_.with_status(PLAYING)
        round_.turn = waiting[0] if waiting else None
        if round_.turn is None:
            self._banker_plays(round_)

    def _hit(self, seat: int) -> None:
        """§1 step 4: one more card face up; over 31 loses the stake at once."""
        round_ = self._round()
        hand = round_.hands[seat]
        card = self._draw()
        hand.cards.append(card)
        self.log("hit", seat=seat, card=card)
        if value(hand.cards, self.ace_rule) is None:
            hand.shown = True
            self.log("bust", seat=seat, value=lowest_total(hand.cards, self.ace_rule))
            self.log("show", seat=seat, card=hand.cards[0])
            self._lose(round_, hand, "bust")
        else:
            self._stand_on_31(hand)
        self._next_turn(round_)

    def _stand(self, seat: int) -> None:
        round_ = self._round()
        round_.hands[seat].status = STOOD
        self.log("stand", seat=seat)
        self._next_turn(round_)

    def _banker_plays(self, round_: Round) -> None:
        """§1 step 5: turn the face-down card and draw to ``dealer_stands_on``, no choices."""
        round_.hole_shown = True
        self.log("show", seat=round_.banker, card=round_.banker_cards[1])
        standing = round_.with_status(STOOD)
        if standing:
            stands_on = int(self.options["dealer_stands_on"])
            while banker_draws(round_.banker_cards, self.ace_rule, stands_on):
                card = self._draw()
                round_.banker_cards.append(card)
                self.log("banker_draw", seat=round_.banker, card=card)
            worth = value(round_.banker_cards, self.ace_rule)
            shown = lowest_total(round_.banker_cards, self.ace_rule) if worth is None else worth
            kind = "banker_bust" if worth is None else "banker_stands"
            natural = is_natural(round_.banker_cards, self.natural_cards)
            self.log(kind, seat=round_.banker, value=shown, natural=natural)
        for seat in standing:
            self._settle(round_, round_.hands[seat])
        self._end_round(round_)

    def _settle(self, round_: Round, hand: PlayerHand) -> None:
        """§1 step 6 for one standing bet, at even money."""
        hand.shown = True
        self.log("show", seat=hand.seat, card=hand.cards[0])
        outcome = settle(hand.cards, round_.banker_cards, self.ace_rule, self.natural_cards)
        if not outcome.won:
            self._lose(round_, hand, outcome.reason)
            return
        hand.status = WON
        hand.note = f"Won {hand.stake} ({outcome.reason})."
        player = seat_account(hand.seat)
        self.pay(bets_account(hand.seat), player, hand.stake, "stake returned")
        reason = "natural paid" if outcome.reason == "natural" else "bet won"
        self.pay(seat_account(round_.banker), player, hand.stake, reason)
        self.log("settle", seat=hand.seat, result="won", reason=outcome.reason, amount=hand.stake)

    def _lose(self, round_: Round, hand: PlayerHand, why: str) -> None:
        hand.status = BUST if why == "bust" else LOST
        hand.note = f"Lost {hand.stake} ({why})."
        banker = seat_account(round_.banker)
        self.pay(bets_account(hand.seat), banker, hand.stake, f"stake lost ({why})")
        self.log("settle", seat=hand.seat, result="lost", reason=why, amount=hand.stake)

    def _end_round(self, round_: Round) -> None:
        """§1 step 7, then the bank changes hands (or ends, when it is empty)."""
        round_.phase, round_.turn = "settled", None
        self.discard.extend(round_.cards_in_play())
        account = seat_account(round_.banker)
        result = sum(t.amount for t in self.transfers if t.target == account) - sum(
            t.amount for t in self.transfers if t.source == account
        )
        bank = self.stack(round_.banker)
        self.log("round_end", bank=bank, bank_result=result)
        if bank == 0:
            self.log("bank_ended", seat=round_.banker, reason="broke")
            self.bank.end(self._stacks())
        else:
            self.bank.offer_after_round(self._stacks(), bank)
        self._log_offer()
        self.end_hand(summary(round_, result, self.ace_rule, self.natural_cards))

    def _round(self) -> Round:
        if self.round is None:
            raise RuleError("illegal_action", "no round is being played")
        return self.round

    # ----------------------------------------------------------------- the bank changes hands

    def _log_offer(self) -> None:
        if self.bank.offered is not None:
            self.log("bank_offered", seat=self.bank.offered, vacant=self.bank.vacant)

    def _answer_offer(self, seat: int, accept: bool) -> None:
        """The offered player takes the bank (swapping places with the old banker) or not."""
        if accept:
            old = self.bank.install(seat)
            places = {str(s): self.bank.places[s] for s in self.seated}
            self.log("bank_accepted", seat=seat, old_banker=old, places=places)
        else:
            self.log("bank_declined", seat=seat)
            self.bank.decline(self._stacks())
            self._log_offer()

    # ----------------------------------------------------------------- decisions

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        if seat is None or seat_account(seat) not in self.balances:
            return []
        if not self.in_hand:
            if self.bank.offered == seat:
                return [legal("accept_bank"), legal("decline_bank")]
            return []
        round_ = self._round()
        hand = round_.hands.get(seat)
        if hand is None:
            return []
        if round_.phase == "betting" and hand.status == DECIDING:
            high = self.stack(seat)
            if self.options["max_bet"] is not None:
                high = min(high, int(self.options["max_bet"]))
            return [legal("bet", amount=amount_range(self.min_bet, high)), legal("fold")]
        if round_.phase == "playing" and round_.turn == seat:
            return [legal("hit"), legal("stand")]
        return []

    def to_act(self) -> set[int]:
        if not self.in_hand:
            return set() if self.bank.offered is None else {self.bank.offered}
        round_ = self._round()
        if round_.phase == "betting":
            return set(round_.with_status(DECIDING))
        return set() if round_.turn is None else {round_.turn}

    def apply(self, seat: int, action: Action) -> None:
        if not action_fits(action, self.legal_actions(seat)):
            raise RuleError("illegal_action", f"seat {seat} cannot {action.get('kind')!r} now")
        kind = action["kind"]
        if kind in ("bet", "fold"):
            self._decide(seat, action.get("amount"))
        elif kind == "hit":
            self._hit(seat)
        elif kind == "stand":
            self._stand(seat)
        else:
            self._answer_offer(seat, kind == "accept_bank")

    def timer(self) -> Timer | None:
        """The betting window, a player's turn (restarted after each hit), or a bank offer."""
        key: tuple[Any, ...]
        if not self.in_hand:
            if self.bank.offered is None:
                return None
            key = ("offer", self.bank.serial, self.bank.offered)
            return Timer(key, float(self.options["turn_seconds"]))
        round_ = self._round()
        if round_.phase == "betting":
            return Timer(("bet", self.hand_number), float(self.options["bet_seconds"]))
        if round_.turn is None:
            return None
        key = ("turn", self.hand_number, round_.turn, len(round_.hands[round_.turn].cards))
        return Timer(key, float(self.options["turn_seconds"]))

    def default_action(self, seat: int) -> Action:
        """On timeout: fold in the window, stand on a turn, decline an offered bank (§1)."""
        if not self.in_hand:
            return {"kind": "decline_bank"}
        return {"kind": "fold" if self._round().phase == "betting" else "stand"}

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        """Fold a low card against a strong up card, else stake by the face-down card; hit below
        a threshold set by the banker's up card; take the bank with a large stack
        (:mod:`app.games.trianta_ena_bot`)."""
        templates = {template["kind"]: template for template in self.legal_actions(seat)}
        if not templates:
            raise RuleError("not_your_turn", "nothing to decide")
        if "accept_bank" in templates:
            take = takes_bank(self.stack(seat), self.buy_in, self.bank.vacant)
            return {"kind": "accept_bank" if take else "decline_bank"}
        round_ = self._round()
        up_card, hand = round_.banker_cards[0], round_.hands[seat]
        if "bet" in templates:
            if folds(hand.cards[0], up_card):
                return {"kind": "fold"}
            bounds = templates["bet"]["params"]["amount"]
            low, high = bounds["min"], bounds["max"]
            amount = bet_amount(hand.cards[0], up_card, self.stack(seat), low, high)
            return {"kind": "bet", "amount": amount}
        worth = value(hand.cards, self.ace_rule)
        hit = worth is not None and worth < hit_below(up_card)
        return {"kind": "hit" if hit else "stand"}

    # ----------------------------------------------------------------- what people see

    def phase(self) -> str:
        """``betting``/``playing`` in a round, else ``bank_offer``, ``no_banker``, ``waiting``."""
        if self.in_hand:
            return self._round().phase
        if self.bank.offered is not None:
            return "bank_offer"
        return "no_banker" if self.banker is None else "waiting"

    def view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        return table_views(self, seats)

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        return {
            "bank": self.bank.to_json(),
            "stock": self.stock.to_json(),
            "discard": list(self.discard),
            "hand_number": self.hand_number,
        }

    def restore(self, data: dict[str, Any]) -> None:
        self.bank = Bank.from_json(self.max_seats, data["bank"])
        self.stock = Stock.from_json(data["stock"])
        self.discard = [str(card) for card in data["discard"]]
        self.hand_number = int(data["hand_number"])
        self.round = None


GAME = TriantaEna
