"""The Greek 31 table between hands: seats, stakes, the deal and the deck (RULES.md §2).

:class:`Greek31Table` holds what carries from hand to hand; :class:`app.games.greek_31.Greek31`
plays the hands on top of it.

* Seats are numbered clockwise, so a player's *right* is the next lower occupied seat number
  (wrapping); play and the deal go to the right (:func:`app.games.greek_31_hand.seat_order`).
* ``stakes``: with ``buy_in`` players may top up between hands (a seat outside the hand being
  played may top up at any time); with ``table_stakes`` there are no top-ups, a player with no
  chips is out, and the table is over once one player holds every chip.
* The deal: the first dealer is the lowest-numbered seat holding chips when the first hand is
  dealt. The dealer deals again unless bust; a bust dealer who has dealt at least two hands in
  a row passes the deal to the next player in seat order who holds chips; a dealer with no
  chips, or who has left, passes at once. A void hand does not count as dealt.
* The deck: one 52-card deck, two when more than 5 players are dealt in (``decks = auto``), or
  the number chosen. It is shuffled before the first deal, and then only when a new dealer
  takes over (``shuffle = new_dealer``), when ``auto`` needs another number of decks, or after
  a hand voided by a crash (:meth:`Greek31Table.on_void`); otherwise used cards go under it.
"""

from __future__ import annotations

from typing import Any

from app.games.base import (
    TURN_SECONDS,
    Game,
    OptionError,
    RuleError,
    bool_option,
    choice_option,
    int_option,
)
from app.games.cards import SeedSource, Stock, canonical_shoe, csprng_seed
from app.games.greek_31_hand import HandInPlay, seat_order
from app.games.values import ACE_RULES


class Greek31Table(Game):
    """Seats, stakes, the deal's rotation and the deck of a Greek 31 table."""

    OPTIONS = [
        choice_option(
            "decks",
            "auto",
            ("auto", 1, 2),
            "52-card decks: auto is one, two when more than 5 players are seated.",
        ),
        int_option("min_bet", 10, 1, 1_000_000, "Smallest stake."),
        int_option("max_bet", 100, 1, 1_000_000, "Largest stake (null: the stack).", nullable=True),
        choice_option("ace_rule", "at_least_one_high", ACE_RULES, "How aces count (§0)."),
        choice_option(
            "stakes",
            "buy_in",
            ("buy_in", "table_stakes"),
            "buy_in: top-ups between hands; table_stakes: no top-ups, play to one winner.",
        ),
        choice_option(
            "shuffle",
            "once",
            ("once", "new_dealer"),
            "once: shuffled before the first deal only; new_dealer: each new dealer shuffles.",
        ),
        bool_option(
            "heath", False, "Martin Heath's version: alternating aces, pair of twos beats 14."
        ),
        int_option("max_players", 8, 2, 9, "Seats at the table, the dealer included."),
        TURN_SECONDS,
    ]

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        max_bet = self.options["max_bet"]
        if max_bet is not None and max_bet < self.options["min_bet"]:
            raise OptionError("max_bet", "max_bet must be at least min_bet")
        self.heath: bool = self.options["heath"]
        self.ace_rule: str = "alternating" if self.heath else self.options["ace_rule"]
        self.stock = Stock()
        self.decks_in_play: int | None = None
        """Decks in the stock when this engine built it (None: set from outside, e.g. a test)."""
        self.dealer: int | None = None
        self.dealer_hands = 0
        """Hands the current dealer has dealt in a row, the one being played included."""
        self.shuffle_due = False
        self.winner: int | None = None
        self.hand: HandInPlay | None = None

    # ----------------------------------------------------------------- seats and money

    @property
    def max_seats(self) -> int:
        return int(self.options["max_players"])

    def sit(self, seat: int, stack: int) -> None:
        """Seat a player; refused once a table-stakes table is over."""
        if self.winner is not None:
            raise RuleError("illegal_action", self.table_over or "the table is over")
        super().sit(seat, stack)

    def _in_this_hand(self, seat: int) -> bool:
        return self.in_hand and self.hand is not None and self.hand.playing(seat)

    def can_leave(self, seat: int) -> bool:
        """Anyone may leave between hands; mid-hand only a seat not playing it."""
        return not self._in_this_hand(seat)

    def can_top_up(self, seat: int) -> bool:
        """With ``stakes = buy_in``, outside a hand the player is playing (RULES.md §2)."""
        return self.options["stakes"] == "buy_in" and not self._in_this_hand(seat)

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        return (int(self.options["min_bet"]), 1_000_000_000)

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """Simulated bots top up only where the table allows it."""
        if self.can_top_up(seat):
            super().sim_rebuy(seat, stack)

    @property
    def table_over(self) -> str | None:
        """With ``table_stakes``: set once one player holds every chip (RULES.md §2)."""
        if self.winner is None:
            return None
        return f"Seat {self.winner} holds every chip: the table is over"

    def with_chips(self) -> list[int]:
        return [seat for seat in self.seated if self.stack(seat) > 0]

    def seat_order(self, start: int, seats: list[int]) -> list[int]:
        """``seats`` in play order from ``start``'s right: next lower number first, wrapping."""
        return seat_order(start, seats, self.max_seats)

    # ----------------------------------------------------------------- the deal

    def can_start(self) -> bool:
        return not self.in_hand and self.winner is None and len(self.with_chips()) >= 2

    def dealer_for(self, seats: list[int]) -> int:
        """The first dealer is the lowest seat with chips; a gone or broke dealer passes."""
        if self.dealer is None:
            self.dealer = seats[0]
            self.dealer_hands = 0
            self.log("first_dealer", seat=self.dealer)
        elif self.dealer not in seats:
            self._pass_deal("the dealer has no chips or has left", seats)
        assert self.dealer is not None
        return self.dealer

    def next_dealer(self) -> int | None:
        """Who deals the next hand (between hands), without moving the deal."""
        seats = self.with_chips()
        if self.dealer is None or self.dealer in seats:
            return self.dealer if self.dealer is not None else (seats[0] if seats else None)
        following = self.seat_order(self.dealer, seats)
        return following[0] if following else None

    def _pass_deal(self, reason: str, seats: list[int]) -> None:
        """The deal goes to the next player in seat order (the dealer's right) with chips."""
        assert self.dealer is not None
        following = self.seat_order(self.dealer, seats)
        if not following:
            return
        self.dealer = following[0]
        self.dealer_hands = 0
        self.shuffle_due = self.options["shuffle"] == "new_dealer"
        self.log("deal_passes", seat=self.dealer, reason=reason)

    def ready_deck(self, seated: int) -> None:
        """Shuffle when the deck is new, changes size (``decks = auto``) or a new dealer shuffles.

        Otherwise the deck carries over from the last hand, used cards at the bottom.
        """
        decks = self.options["decks"]
        needed = int(decks) if decks != "auto" else (2 if seated > 5 else 1)
        changed = self.decks_in_play is not None and self.decks_in_play != needed
        if not self.stock.cards or changed:
            self.shuffle_into(self.stock, canonical_shoe(needed))
            self.decks_in_play = needed
        elif self.shuffle_due:
            self.shuffle_into(self.stock, list(self.stock.cards))
        self.shuffle_due = False

    def draw_card(self) -> str | None:
        """The top card of the deck, or None when it is empty (the hand is then void)."""
        return self.stock.draw() if self.stock.cards else None

    def rotate_deal(self, bust: bool) -> int | None:
        """After a hand: the dealer deals again unless bust; a bust dealer who has dealt at
        least two hands in a row passes the deal; a dealer with no chips passes at once.
        Returns the new dealer when the deal passes."""
        dealer = self.dealer
        assert dealer is not None
        seats = self.with_chips()
        if self.stack(dealer) == 0:
            self._pass_deal("the dealer has no chips", seats)
        elif bust and self.dealer_hands >= 2:
            self._pass_deal("the dealer went over 31", seats)
        return self.dealer if self.dealer != dealer else None

    def check_table_over(self) -> None:
        """With ``table_stakes`` the table ends when one player holds every chip."""
        if self.options["stakes"] == "table_stakes":
            holders = self.with_chips()
            if len(holders) == 1:
                self.winner = holders[0]
                self.log("table_over", seat=self.winner)

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "dealer_hands": self.dealer_hands,
            "stock": self.stock.to_json(),
            "decks_in_play": self.decks_in_play,
            "shuffle_due": self.shuffle_due,
            "winner": self.winner,
            "hand_number": self.hand_number,
        }

    def restore(self, data: dict[str, Any]) -> None:
        self.dealer = data["dealer"]
        self.dealer_hands = int(data["dealer_hands"])
        self.stock = Stock.from_json(data["stock"])
        self.decks_in_play = data["decks_in_play"]
        self.shuffle_due = bool(data["shuffle_due"])
        self.winner = data["winner"]
        self.hand_number = int(data["hand_number"])
        self.hand = None

    def on_void(self) -> None:
        """The void hand's cards were seen: the next deal shuffles the deck first."""
        self.shuffle_due = True
