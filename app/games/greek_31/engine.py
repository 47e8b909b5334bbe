"""Greek 31: a banking game against a dealer who draws in secret (docs/rules.md §2).

This module plays the hands; :mod:`app.games.greek_31.table` keeps the table between them
(seats, stakes, the deal's rotation, the deck) and :mod:`app.games.greek_31.view` shows it.
The seat order of a hand starts at the dealer's right (the next lower seat number).

A hand (docs/rules.md §2.5):

1. One face-up card to each other player holding chips, in seat order; then each stakes in
   seat order from ``min_bet`` to ``max_bet`` within the bank's cover (§0: 1× per stake). A
   stake the bank cannot cover in full is cut to the cover; once nothing is left, the later
   players cannot stake and sit the hand out. A player short of ``min_bet`` stakes everything.
2. The dealer's first card is drawn at once (the dealer may stand any time after it); the dealer
   then draws or stands. Over 31 the dealer pays every stake; standing on 31 collects every
   stake; standing on 14 shows the hand; otherwise the dealer conceals one chosen card.
3. After a 14 or a concealed stand, each player draws face-up cards in seat order: over 31 the
   stake is lost at once, exactly 31 is paid at once, a stand waits for the showdown.
4. The dealer's hidden card is shown; a player who ranks better than the dealer is paid.
5. Used cards go to the bottom of the deck without shuffling (busted hands at once, then the
   players' hands in seat order, then the dealer's), told as a set; once the deck's shuffled
   cards are all dealt, the used cards are shuffled before the next card (§2.9, Decision). A
   hand that needs a card from an empty deck is void: every chip that moved in it goes back
   and the deal stays.

Stakes stay in the players' stacks until they are won or lost, and move straight between the
player's and the dealer's stacks, so the bank never pays more than it holds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

from app.games.core.actions import Action, LegalAction, amount_range, legal, one_of
from app.games.core.coded import Coded
from app.games.core.hand import Timer
from app.games.core.views import View
from app.games.greek_31.bot import dealer_draws, player_draws, stake_choice
from app.games.greek_31.scoring import (
    BUST,
    FOURTEEN,
    PAIR_OF_TWOS,
    THIRTY_ONE,
    hand_rank,
    highest_card,
    rank_label,
)
from app.games.greek_31.state import HandInPlay
from app.games.greek_31.stats import Greek31Stats
from app.games.greek_31.table import Greek31Table
from app.games.greek_31.view import table_view, table_views

DEFAULT_DRAW_BELOW = 25
"""The dealer's timeout default draws while the hand ranks below 25 (docs/rules.md §2.6)."""


class Greek31(Greek31Table):
    """Greek 31 with Martin Heath's version as an option (docs/rules.md §2)."""

    id = "greek-31"
    title = "Greek 31"
    BLURB = (
        "The dealer draws in secret and hides a card; players draw to outrank the "
        "dealer, where 31 is best and 14 beats 30."
    )
    ACTION_KINDS = frozenset({"stake", "draw", "stand"})
    MIN_PLAYERS = 2
    STATS = Greek31Stats
    SIM_PLAYERS = 4
    SIM_OPTIONS: ClassVar[dict[str, Any]] = {"shuffle": "new_dealer"}
    """With ``shuffle: once`` the deck is never shuffled again (docs/rules.md §2), and bots that
    always choose alike soon lock it into a short cycle of the same hands: a long simulation
    would measure that cycle, not the game. A new dealer's shuffle keeps it honest."""

    # ----------------------------------------------------------------- the deal

    def deal(self) -> None:
        """Step 1: choose the dealer, ready the deck, one face-up card to each player."""
        seats = self.with_chips()
        dealer = self.dealer_for(seats)
        self.dealer_hands += 1
        order = self.seat_order(dealer, seats)
        hand = self.hand = HandInPlay(dealer=dealer, order=order, dealer_start=self.stack(dealer))
        self.log("hand", seat=dealer, hand_of_deal=self.dealer_hands, order=order)
        self.ready_deck(len(seats))
        for seat in order:
            card = self.draw_card()
            if card is None:
                self._void()
                return
            hand.cards[seat] = [card]
            self.log("deal", seat=seat, card=card)
        hand.phase = "staking"
        self._next_stake()

    # ----------------------------------------------------------------- staking

    def stake_range(self, seat: int) -> tuple[int, int]:
        """The stakes ``seat`` may make: ``min_bet`` to ``max_bet``, cut to stack and cover.

        A player whose stack (or the bank's cover) is below ``min_bet`` stakes exactly that.
        """
        limit = min(self.stack(seat), self.cover())
        if self.options["max_bet"] is not None:
            limit = min(limit, int(self.options["max_bet"]))
        return (min(int(self.options["min_bet"]), limit), limit)

    def _next_stake(self) -> None:
        """Give the next player in seat order the stake, or start the dealer's draw."""
        hand = self._current()
        for seat in hand.order:
            if seat in hand.stakes or seat in hand.results:
                continue
            cover = self.cover()
            if cover == 0:
                hand.results[seat] = "no cover"
                hand.notes[seat] = Coded(
                    "greek-31.no_cover", "The bank cannot cover another stake this hand"
                )
                self.log("no_cover", seat=seat)
                continue
            ceiling = self.stack(seat)
            if self.options["max_bet"] is not None:
                ceiling = min(ceiling, int(self.options["max_bet"]))
            if cover < ceiling:
                hand.notes[seat] = Coded(
                    "greek-31.cover_cut",
                    f"The bank covers only {cover} more: stakes are cut to it",
                    cover=cover,
                )
            hand.turn = seat
            return
        self._dealer_turn()

    def _stake(self, seat: int, amount: int) -> None:
        hand = self._current()
        hand.stakes[seat] = amount
        self.log("stake", seat=seat, amount=amount)
        self._next_stake()

    # ----------------------------------------------------------------- the dealer's draw

    def _dealer_turn(self) -> None:
        """Step 2: the dealer draws the first card at once, then draws or stands."""
        hand = self._current()
        hand.phase = "dealer"
        hand.turn = hand.dealer
        self._dealer_draw()

    def rank(self, cards: list[str]) -> int:
        return hand_rank(cards, self.ace_rule, self.heath)

    def _dealer_draw(self) -> None:
        hand = self._current()
        card = self.draw_card()
        if card is None:
            self._void()
            return
        hand.dealer_cards.append(card)
        self.log(
            "dealer_draw",
            seat=hand.dealer,
            private_to=[hand.dealer],
            card=card,
            count=len(hand.dealer_cards),
        )
        if self.rank(hand.dealer_cards) == BUST:
            hand.outcome = "bust"
            self._show_dealer()
            for seat in hand.staked():
                self._pay_player(
                    seat, Coded("greek-31.chips_dealer_over", "stake paid: dealer over 31"), "won"
                )
            self._finish()

    def _dealer_stand(self, conceal: int | None) -> None:
        """The four outcomes of the dealer's stand (docs/rules.md §2.6)."""
        hand = self._current()
        rank = self.rank(hand.dealer_cards)
        hand.turn = None
        if rank == THIRTY_ONE:
            hand.outcome = "31"
            self._show_dealer()
            for seat in hand.staked():
                self._pay_dealer(
                    seat, Coded("greek-31.chips_dealer_31", "stake lost: dealer 31"), "lost"
                )
            self._finish()
            return
        if rank in (FOURTEEN, PAIR_OF_TWOS):
            hand.outcome = "14"
            self._show_dealer()
        else:
            assert conceal is not None
            hand.outcome = "other"
            hand.concealed = conceal
            self.log("stand", seat=hand.dealer, cards=hand.shown_dealer_cards(), concealed=conceal)
        hand.phase = "players"
        self._next_player()

    def _show_dealer(self) -> None:
        hand = self._current()
        hand.revealed = True
        label = rank_label(self.rank(hand.dealer_cards))
        self.log("show", seat=hand.dealer, cards=list(hand.dealer_cards), value=label)

    # ----------------------------------------------------------------- the players' draws

    def _next_player(self) -> None:
        """Step 3: the next staked player in seat order draws, or the showdown."""
        hand = self._current()
        for seat in hand.staked():
            if seat not in hand.results:
                hand.turn = seat
                return
        self._showdown()

    def _player_draw(self, seat: int) -> None:
        hand = self._current()
        card = self.draw_card()
        if card is None:
            self._void()
            return
        cards = hand.cards[seat]
        cards.append(card)
        self.log("draw", seat=seat, card=card)
        rank = self.rank(cards)
        if rank == BUST:
            self._pay_dealer(seat, Coded("greek-31.chips_over_31", "stake lost: over 31"), "bust")
            self._gather([seat])
            self._next_player()
        elif rank == THIRTY_ONE:
            self._pay_player(seat, Coded("greek-31.chips_31", "stake paid: 31"), "31")
            self._next_player()

    def _player_stand(self, seat: int) -> None:
        hand = self._current()
        hand.results[seat] = "stood"
        self.log("stand", seat=seat, value=rank_label(self.rank(hand.cards[seat])))
        self._next_player()

    def _showdown(self) -> None:
        """Step 4: the hidden card is shown; better hands are paid, equal or worse lose."""
        hand = self._current()
        hand.turn = None
        if not hand.revealed:
            self._show_dealer()
        dealer_rank = self.rank(hand.dealer_cards)
        for seat in hand.staked():
            if hand.results[seat] != "stood":
                continue
            if self.rank(hand.cards[seat]) > dealer_rank:
                self._pay_player(
                    seat, Coded("greek-31.chips_better", "stake paid: better hand"), "won"
                )
            else:
                self._pay_dealer(
                    seat,
                    Coded("greek-31.chips_equal_or_worse", "stake lost: equal or worse"),
                    "lost",
                )
        self._finish()

    # ----------------------------------------------------------------- decisions

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        hand = self.hand
        if seat is None or hand is None or not self.in_hand or hand.turn != seat:
            return []
        if hand.phase == "staking":
            low, high = self.stake_range(seat)
            return [legal("stake", amount=amount_range(low, high))]
        if hand.phase == "dealer":
            rank = self.rank(hand.dealer_cards)
            if rank in (THIRTY_ONE, FOURTEEN, PAIR_OF_TWOS):
                stand = legal("stand")
            else:
                stand = legal("stand", conceal=one_of(list(range(len(hand.dealer_cards)))))
            return [legal("draw"), stand]
        if hand.phase == "players":
            return [legal("draw"), legal("stand")]
        return []

    def play(self, seat: int, action: Action) -> None:
        hand = self._current()
        kind = action["kind"]
        if hand.phase == "staking":
            self._stake(seat, action["amount"])
        elif hand.phase == "dealer":
            if kind == "draw":
                self._dealer_draw()
            else:
                self._dealer_stand(action.get("conceal"))
        elif kind == "draw":
            self._player_draw(seat)
        else:
            self._player_stand(seat)

    def to_act(self) -> set[int]:
        hand = self.hand
        if hand is None or not self.in_hand or hand.turn is None:
            return set()
        return {hand.turn}

    def timer(self) -> Timer | None:
        hand = self.hand
        if hand is None or not self.in_hand or hand.turn is None:
            return None
        if hand.phase == "dealer":
            count = len(hand.dealer_cards)
        else:
            count = len(hand.cards.get(hand.turn, []))
        key = (self.hand_number, hand.phase, hand.turn, count)
        return Timer(key, float(self.options["turn_seconds"]))

    def default_action(self, seat: int) -> Action:
        """Timeouts (docs/rules.md §2): stake the minimum; the dealer draws while the hand ranks
        below 25, else stands concealing the highest card; a player stands."""
        hand = self._current()
        if hand.phase == "staking":
            return {"kind": "stake", "amount": self.stake_range(seat)[0]}
        if hand.phase == "dealer":
            if self.rank(hand.dealer_cards) < DEFAULT_DRAW_BELOW:
                return {"kind": "draw"}
            return self._dealer_stand_action()
        return {"kind": "stand"}

    def _dealer_stand_action(self) -> Action:
        hand = self._current()
        if self.rank(hand.dealer_cards) in (THIRTY_ONE, FOURTEEN, PAIR_OF_TWOS):
            return {"kind": "stand"}
        return {"kind": "stand", "conceal": highest_card(hand.dealer_cards)}

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        """The bots of :mod:`app.games.greek_31.bot`, playing from what ``seat`` may see."""
        hand = self._current()
        if hand.phase == "staking":
            low, high = self.stake_range(seat)
            return {"kind": "stake", "amount": stake_choice(hand.cards[seat][0], low, high)}
        if hand.phase == "dealer":
            if dealer_draws(hand.dealer_cards, self.ace_rule, self.heath):
                return {"kind": "draw"}
            return self._dealer_stand_action()
        shown = hand.shown_dealer_cards()
        dealer_rank = self.rank(hand.dealer_cards) if hand.revealed else None
        if player_draws(hand.cards[seat], shown, dealer_rank, self.ace_rule, self.heath):
            return {"kind": "draw"}
        return {"kind": "stand"}

    # ----------------------------------------------------------------- views

    def view(self, seat: int | None) -> View:
        """See :mod:`app.games.greek_31.view` (face-down dealer cards reach the dealer only)."""
        return table_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        return table_views(self, seats)


GAME = Greek31
