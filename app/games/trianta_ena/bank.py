"""Who holds the Trianta Ena bank, where everyone sits, and the offers of the bank
(docs/rules.md §1.9).

The rule (docs/rules.md §1.9): after each round the players with more chips than the banker are
offered the bank, largest stack first and seat order between equals; whoever accepts first is
the new banker, and the old banker plays on from the new banker's place. A bank ends when its
banker leaves or runs out of chips; then every player with chips is offered it, by stack, and
the table waits for someone to accept.

A player who declined the bank after a round is not offered it again (docs/rules.md §1.9, a
Decision) until the bank next changes hands (a new banker, or the bank ends) or a new player
sits down: seed 000 has the bank offered "at the end of each round", once to each richer
player in turn, and asking the same player again every round only makes the table wait.

>>> bank = Bank(seats=4, banker=0)
>>> bank.offer_after_round({1: 500, 2: 400}, banker_stack=300)
>>> bank.decline({1: 500, 2: 400}); bank.offers, bank.declined
([2], [1])
>>> bank.decline({1: 500, 2: 400}); bank.offer_after_round({1: 600, 2: 400}, banker_stack=300)
>>> bank.offers
[]
>>> bank.newcomer(); bank.offer_after_round({1: 600, 2: 400}, banker_stack=300); bank.offers
[1, 2]

Seat numbers stay with the players (their ``seat:N`` accounts and connections); what the rule
changes is where they sit, so :class:`Bank` keeps each seat's *place* at the table and a change of
bank exchanges the two places. Seat order, which decides coverage and turns, is the order of
places: play continues exactly as if the two players had changed chairs.

>>> bank = Bank(seats=4, banker=0)
>>> bank.offer_after_round({1: 100, 2: 350, 3: 350}, banker_stack=300)
>>> bank.offers
[2, 3]
>>> bank.install(2), bank.banker, bank.in_seat_order([0, 1, 3])
(0, 2, [1, 0, 3])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Bank:
    """The banker's seat, the places at the table and the queue of bank offers."""

    seats: int
    banker: int | None = None
    places: list[int] = field(default_factory=list)
    """``places[seat]`` is the seat's place at the table."""
    offers: list[int] = field(default_factory=list)
    """Seats to be offered the bank, in order; the first is deciding now."""
    vacant: bool = False
    """The bank has ended: offers to every player with chips, again and again, until one
    accepts."""
    serial: int = 0
    """Counts the offers made (a new offer restarts the decision clock)."""
    declined: list[int] = field(default_factory=list)
    """Seats that declined the bank after a round since it last changed hands or a player
    last sat down: not offered it after a round until then (docs/rules.md §1.9)."""

    def __post_init__(self) -> None:
        if not self.places:
            self.places = list(range(self.seats))

    def in_seat_order(self, seats: list[int]) -> list[int]:
        """``seats`` sorted by their places at the table (docs/rules.md §1: "seat order")."""
        return sorted(seats, key=lambda seat: self.places[seat])

    def by_stack(self, stacks: dict[int, int]) -> list[int]:
        """Seats by stack, largest first; seat order breaks ties."""
        return sorted(stacks, key=lambda seat: (-stacks[seat], self.places[seat]))

    def offer_after_round(self, stacks: dict[int, int], banker_stack: int) -> None:
        """Queue every player (``stacks``: seat to stack) richer than the banker, but for
        those who declined it since it last changed hands or a player last sat down
        (docs/rules.md §1.9)."""
        self.offers = self.by_stack(
            {
                s: chips
                for s, chips in stacks.items()
                if chips > banker_stack and s not in self.declined
            }
        )
        self._new_offer()

    def end(self, stacks: dict[int, int]) -> None:
        """The bank ends; queue every player with chips (``stacks``) by stack. An ended bank
        has changed hands: the declines after rounds are forgotten (docs/rules.md §1.9)."""
        self.banker = None
        self.vacant = True
        self.declined = []
        self.offers = self.by_stack({s: chips for s, chips in stacks.items() if chips > 0})
        self._new_offer()

    def install(self, seat: int) -> int | None:
        """``seat`` takes the bank; the old banker (returned) takes the new banker's place."""
        old = self.banker
        if old is not None:
            self.places[old], self.places[seat] = self.places[seat], self.places[old]
        self.banker = seat
        self.offers = []
        self.vacant = False
        self.declined = []  # the bank changed hands: everyone may be offered it again
        return old

    def decline(self, stacks: dict[int, int]) -> None:
        """The offered player declines; with the bank vacant the offers start again from
        ``stacks`` (the players now seated) after the last decline. A decline after a round
        is remembered: that player is not offered the bank after a round again until it
        changes hands or a player sits down (docs/rules.md §1.9)."""
        seat = self.offers.pop(0)
        if not self.vacant and seat not in self.declined:
            self.declined.append(seat)
        if self.vacant and not self.offers:
            self.end(stacks)
        else:
            self._new_offer()

    def withdraw(self, seat: int, stacks: dict[int, int]) -> None:
        """A player in the queue leaves the table (``stacks``: the players who stay)."""
        if seat not in self.offers:
            return
        current = self.offers[0] == seat
        self.offers.remove(seat)
        if self.vacant and not self.offers:
            self.end(stacks)
        elif current:
            self._new_offer()

    def newcomer(self) -> None:
        """A player sat down: the stacks to compare have changed, so whoever declined may be
        offered the bank again after the next round (docs/rules.md §1.9)."""
        self.declined = []

    @property
    def offered(self) -> int | None:
        """The seat deciding on the bank now."""
        return self.offers[0] if self.offers else None

    def _new_offer(self) -> None:
        if self.offers:
            self.serial += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "banker": self.banker,
            "places": list(self.places),
            "offers": list(self.offers),
            "vacant": self.vacant,
            "serial": self.serial,
            "declined": sorted(self.declined),
        }

    @classmethod
    def from_json(cls, seats: int, data: dict[str, Any]) -> Bank:
        banker = data["banker"]
        return cls(
            seats=seats,
            banker=None if banker is None else int(banker),
            places=[int(place) for place in data["places"]],
            offers=[int(seat) for seat in data["offers"]],
            vacant=bool(data["vacant"]),
            serial=int(data["serial"]),
            declined=[int(seat) for seat in data.get("declined", [])],
        )
