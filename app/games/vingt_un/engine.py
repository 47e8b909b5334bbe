"""Vingt-un (docs/rules.md §3): a dealer banks against one to eight players, one pack dealt through.

Seats, the deal, the pack and the cover are in :mod:`.table`; hand values and the
settlement table in :mod:`.scoring`; what each viewer sees in :mod:`.view`.

The table's own decisions where docs/rules.md leaves room (see also :mod:`.table`):

* A player stakes at most a quarter of their stack (their own 4× cover). A player may top up
  between hands or during a hand they are not in (:meth:`VingtUnTable.can_top_up`).
* Staking goes in turn order, one player at a time. A stake over what the bank still covers is
  cut to that and the player is told; a player with nothing left to cover sits the hand out,
  their card going to the pile.
* A split stake is chosen within ``min_bet`` .. ``max_bet`` and is doubled like every stake
  when the dealer called double; it must be covered for the most it can cost (twice the
  stake in force), by the bank (cut as above) and by the player's remaining stack. The split
  hands keep their first two cards face down, so a split hand that goes over 21 never shows
  them. New hands are played after the hand they came from, in the order they were made.
* With ``natural_paid_by_all`` each player without a natural pays each natural's holder one
  of their own stakes (in turn order), as far as their stack allows beyond what their own hand
  may still cost them.
* A natural is shown when it is declared; every standing hand is shown at settlement; the
  cards of a hand settled by the dealer's natural stay unseen unless it is a natural too.
* When no standing hand is left for the dealer to play against, the hand ends without the
  dealer's play and the dealer's cards stay unseen. The dealer, whose cards are all face up
  by then, stands automatically on 21; a player on 21 is not stood for them, because an
  automatic stand would tell the table a total that rests on face-down cards.
* A card can be drawn only while one is left in the pack or the pile; with every card in play
  (possible only with many split hands) hands can only stand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from app.games.core.accounts import seat_account
from app.games.core.actions import Action, LegalAction, amount_range, legal
from app.games.core.cards import deck
from app.games.core.coded import Coded
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.hand import Timer
from app.games.core.views import View
from app.games.vingt_un.bot import dealer_choice, double_choice, player_choice, stake_choice
from app.games.vingt_un.options import VingtUnOptions
from app.games.vingt_un.scoring import VINGT_UN, is_pair
from app.games.vingt_un.state import Hand
from app.games.vingt_un.stats import VingtUnStats
from app.games.vingt_un.table import COVER, VingtUnTable
from app.games.vingt_un.view import table_view, table_views


class VingtUn(VingtUnTable):
    """The Vingt-un table: a dealer's bank against each player's hands (docs/rules.md §3)."""

    id = "vingt-un"
    title = "Vingt-un"
    BLURB = (
        "The old ancestor of blackjack: stake on one card, draw to 21, naturals pay "
        "double and take the deal."
    )
    OPTIONS_MODEL = VingtUnOptions
    ACTION_KINDS = frozenset({"stake", "double", "no_double", "split", "draw", "stand"})
    MIN_PLAYERS = 2
    STATS = VingtUnStats
    SIM_PLAYERS = 4

    # ----------------------------------------------------------------- the hand

    def deal(self) -> None:
        """Steps 1-2: one card face down to each player in turn, then the dealer; staking."""
        dealer = self.next_dealer()
        if dealer is None:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "nobody can deal")
        self._reset_hand()
        self.dealer = self.hand_dealer = dealer
        self.players = [s for s in self.left_of(dealer) if self.can_play(s)]
        if not self.players:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "nobody can stake")
        self._bank_start = self.stack(dealer)
        if not self.stock.cards and not self.pile:
            self.shuffle_into(self.stock, deck())
        self.log("start", dealer=dealer, players=list(self.players))
        self._call("vingt-un.deals", f"Seat {dealer} deals", seat=dealer)
        for seat in self.players:
            self.hands[seat] = [Hand([])]
            self._deal_down(seat, self.hands[seat][0], 0)
        self.dealer_hand = Hand([])
        self._deal_down(dealer, self.dealer_hand, 0)
        self.phase = "staking"
        self._next_staker()

    def _next_staker(self) -> None:
        """The next player in turn order to stake; those the bank cannot cover sit out."""
        for seat in list(self.players):
            hand = self.hands[seat][0]
            if hand.stake:
                continue
            if self.bank_free() // COVER == 0:
                self.players.remove(seat)
                self.sitting_out.append(seat)
                self.pile.extend(self.hands.pop(seat)[0].cards)
                self.log("sit_out", seat=seat, reason="the bank covers no more")
                self._call(
                    "vingt-un.cannot_stake",
                    f"Seat {seat} cannot stake: the bank covers no more",
                    seat=seat,
                )
                continue
            self.turn, self.turn_hand = seat, 0
            return
        self.phase = "double"
        self.turn, self.turn_hand = self.hand_dealer, None

    def _stake(self, seat: int, amount: int) -> None:
        """Step 2: the stake, cut to what the bank can still cover four times over (§0)."""
        cover = self.bank_free() // COVER
        stake = min(amount, cover)
        if stake < amount:
            self._stake_cuts += 1
            self.log("stake_cut", seat=seat, offered=amount, stake=stake)
            self._call(
                "vingt-un.stake_cut",
                f"Seat {seat}'s stake is cut to {stake}: the bank covers no more",
                seat=seat,
                stake=stake,
            )
        self.hands[seat][0].stake = stake
        self.log("stake", seat=seat, amount=stake)
        self._call("vingt-un.stakes", f"Seat {seat} stakes {stake}", seat=seat, stake=stake)
        self._next_staker()

    def _double(self, call: bool) -> None:
        """Steps 3-4: the double call, then a second card face down to each, dealer last."""
        self.doubled = call
        assert self.hand_dealer is not None and self.dealer_hand is not None
        if call:
            for seat in self.players:
                self.hands[seat][0].stake *= 2
            self._call("vingt-un.double", "Double!")
        self.log("double" if call else "no_double", seat=self.hand_dealer)
        for seat in self.players:
            self._deal_down(seat, self.hands[seat][0], 0)
        self._deal_down(self.hand_dealer, self.dealer_hand, 0)
        if self.dealer_hand.is_natural:
            self._dealer_natural()
        else:
            self._player_naturals()

    def _dealer_natural(self) -> None:
        """Step 5: the dealer's natural collects twice each stake, except from a natural."""
        assert self.hand_dealer is not None and self.dealer_hand is not None
        self.dealer_hand.natural = True
        self._show(self.hand_dealer, self.dealer_hand, None)
        self._call("vingt-un.dealer_natural", "The dealer has a natural vingt-un")
        for seat in self.players:
            hand = self.hands[seat][0]
            if hand.is_natural:
                hand.natural = True
                self._show(seat, hand, 0)
                hand.result = 0
                self._call(
                    "vingt-un.natural_against_natural",
                    f"Seat {seat} also has a natural: neither pays",
                    seat=seat,
                )
            else:
                self._pay_dealer(
                    seat,
                    2 * hand.stake,
                    Coded("vingt-un.chips_dealers_natural", "dealer's natural"),
                )
                hand.result = -2 * hand.stake
            hand.settled = True
        self._finish()

    def _player_naturals(self) -> None:
        """Step 6: each natural is shown and paid twice its stake; its hand is done."""
        holders = [s for s in self.players if self.hands[s][0].is_natural]
        for seat in holders:
            hand = self.hands[seat][0]
            hand.natural = hand.settled = True
            self._show(seat, hand, 0)
            self._dealer_pays(
                seat, 2 * hand.stake, Coded("vingt-un.chips_natural_twice", "natural paid twice")
            )
            hand.result = 2 * hand.stake
            self._call("vingt-un.natural", f"Seat {seat} has a natural vingt-un", seat=seat)
        if holders and self.options["natural_paid_by_all"]:
            self._natural_paid_by_all(holders)
        if holders and self.options["natural_takes_deal"]:
            self._natural_passes_deal = True
        self.phase = "playing"
        self._advance_play()

    def _natural_paid_by_all(self, holders: list[int]) -> None:
        """Option: each other player pays each natural's holder one of their own stakes."""
        for holder in holders:
            for seat in self.players:
                if seat in holders:
                    continue
                stake = self.hands[seat][0].stake
                amount = min(stake, self.player_free(seat))
                self.pay(
                    seat_account(seat),
                    seat_account(holder),
                    amount,
                    Coded("vingt-un.chips_natural_by_all", "natural paid by all"),
                )
                self.log("natural_paid_by_all", seat=seat, to=holder, amount=amount)
                if amount < stake:
                    self._call(
                        "vingt-un.pays_natural_short",
                        f"Seat {seat} can pay seat {holder} only {amount}",
                        seat=seat,
                        to=holder,
                        amount=amount,
                    )

    def _current(self) -> Hand:
        assert self.turn is not None and self.turn_hand is not None
        return self.hands[self.turn][self.turn_hand]

    def _advance_play(self) -> None:
        """Step 8: the first live hand in turn order; then the dealer, or the end."""
        for seat in self.players:
            for index, hand in enumerate(self.hands[seat]):
                if hand.live:
                    self.turn, self.turn_hand = seat, index
                    return
        standing = any(not h.settled for s in self.players for h in self.hands[s])
        if not standing:
            self._finish()
            return
        assert self.hand_dealer is not None and self.dealer_hand is not None
        self.phase = "dealer"
        self.turn, self.turn_hand = self.hand_dealer, None
        self._show(self.hand_dealer, self.dealer_hand, None)

    def _split_range(self, seat: int, hand: Hand) -> tuple[int, int] | None:
        """Step 7: a pair may be split while the player has fewer than ``max_split_hands``
        hands; the new stake is one the player's stack and the bank can cover."""
        if not is_pair(hand.cards) or len(self.hands[seat]) >= self.options["max_split_hands"]:
            return None
        if self.cards_left() < 2:
            return None
        most = 2 * self._multiplier()
        high = min(self.options["max_bet"], self.player_free(seat) // most)
        if high < self.options["min_bet"] or self.bank_free() // most == 0:
            return None
        return self.options["min_bet"], high

    def _split(self, seat: int, amount: int) -> None:
        """Step 7: the pair becomes two hands, each given a second card face down."""
        most = 2 * self._multiplier()
        base = min(amount, self.bank_free() // most)
        if base < amount:
            self._stake_cuts += 1
            self.log("stake_cut", seat=seat, offered=amount, stake=base)
            self._call(
                "vingt-un.split_stake_cut",
                f"Seat {seat}'s split stake is cut to {base}: the bank covers no more",
                seat=seat,
                stake=base,
            )
        hands = self.hands[seat]
        index = self.turn_hand
        assert index is not None
        hand = hands[index]
        card = hand.cards.pop()
        hand.up.pop()
        hand.from_split = True
        new = Hand([card], [False], stake=base * self._multiplier(), from_split=True)
        hands.append(new)
        new_index = len(hands) - 1
        self.log(
            "split",
            seat=seat,
            private_to=[seat],
            hand=index,
            new_hand=new_index,
            card=card,
            stake=new.stake,
        )
        self._call(
            "vingt-un.split",
            f"Seat {seat} splits, staking {new.stake} on a new hand",
            seat=seat,
            stake=new.stake,
        )
        self._deal_down(seat, hand, index)
        self._deal_down(seat, new, new_index)

    def _player_draw(self, seat: int) -> None:
        """Step 8: a card face up; over 21 the stake goes to the dealer at once and the
        hand's cards go to the pile, its first two never shown."""
        hand = self._current()
        index = self.turn_hand
        card = self._draw()
        hand.add(card, up=True)
        self.log("draw", seat=seat, hand=index, card=card)
        if hand.total > VINGT_UN:
            hand.over = hand.settled = True
            self._pay_dealer(seat, hand.stake, Coded("vingt-un.chips_over_21", "over 21"))
            hand.result = -hand.stake
            self._gather(hand)
            self.log("over", seat=seat, hand=index, stake=hand.stake)
            self._call(
                "vingt-un.over",
                f"Seat {seat} is over 21 and pays {hand.stake}",
                seat=seat,
                stake=hand.stake,
            )

    def _dealer_draw(self) -> None:
        """Step 9: the dealer draws face up; over 21, or on 21, the hand is settled."""
        assert self.hand_dealer is not None and self.dealer_hand is not None
        card = self._draw()
        self.dealer_hand.add(card, up=True)
        self.log("draw", seat=self.hand_dealer, card=card)
        if self.dealer_hand.total >= VINGT_UN:
            self._settle()

    # ----------------------------------------------------------------- decisions

    def to_act(self) -> set[int]:
        return {self.turn} if self.in_hand and self.turn is not None else set()

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        if seat is None or not self.in_hand or seat != self.turn:
            return []
        if self.phase == "staking":
            high = min(self.options["max_bet"], self.stack(seat) // COVER)
            return [legal("stake", amount=amount_range(self.options["min_bet"], high))]
        if self.phase == "double":
            return [legal("double"), legal("no_double")]
        out = [legal("stand")]
        if self.cards_left() >= 1:
            out.append(legal("draw"))
        if self.phase == "playing":
            split = self._split_range(seat, self._current())
            if split is not None:
                out.append(legal("split", amount=amount_range(*split)))
        return out

    def play(self, seat: int, action: Action) -> None:
        kind = action["kind"]
        self._decision += 1
        if kind == "stake":
            self._stake(seat, action["amount"])
        elif kind in ("double", "no_double"):
            self._double(kind == "double")
        elif self.phase == "dealer":
            if kind == "draw":
                self._dealer_draw()
            else:
                self.log("stand", seat=seat)
                self._settle()
        elif kind == "split":
            self._split(seat, action["amount"])
            self._advance_play()
        else:
            if kind == "draw":
                self._player_draw(seat)
            else:
                self._current().stood = True
                self.log("stand", seat=seat, hand=self.turn_hand)
            self._advance_play()

    def timer(self) -> Timer | None:
        if not self.to_act():
            return None
        key = ("vingt-un", self.hand_number, self.phase, self._decision)
        return Timer(key, self.options["turn_seconds"])

    def default_action(self, seat: int) -> Action:
        """docs/rules.md §3: stake the minimum; no double; a player stands; the dealer draws
        below 17."""
        if self.phase == "staking":
            return {"kind": "stake", "amount": self.options["min_bet"]}
        if self.phase == "double":
            return {"kind": "no_double"}
        if self.phase == "dealer":
            assert self.dealer_hand is not None
            return dealer_choice(self.dealer_hand.cards, self.legal_actions(seat))
        return {"kind": "stand"}

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        """A cautious player and a dealer who doubles on an ace or a ten (:mod:`.bot`)."""
        templates = self.legal_actions(seat)
        if self.phase == "staking":
            return stake_choice(self.hands[seat][0].cards[0], templates, rng)
        assert self.dealer_hand is not None
        if self.phase == "double":
            return double_choice(self.dealer_hand.cards[0])
        if self.phase == "dealer":
            return dealer_choice(self.dealer_hand.cards, templates)
        return player_choice(self._current().cards, templates)

    # ----------------------------------------------------------------- views

    def view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        return table_views(self, seats)


GAME = VingtUn
