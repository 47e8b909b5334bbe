"""En og tredive: the table's state between decisions (RULES.md §5).

Seats and directions: *left* is the next higher seat number among the players still in the
match (wrapping from the highest to the lowest), *right* the next lower. Play and the deal move
to the left; the player to the dealer's right cuts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PATTERNS = ("1-1-1", "2-1", "1-2")
"""How the dealer may deal after a cut: packets to each player in turn (RULES.md §5, step 3)."""

PACKETS = {"1-1-1": (1, 1, 1), "2-1": (2, 1), "1-2": (1, 2), "3": (3,)}
"""The packets of each dealing pattern; ``3`` (three at a time) follows a knock on the deck."""


def bets_account(seat: int) -> str:
    """The account of the bets in front of the player in ``seat``."""
    return f"bets:{seat}"


def left_of(seats: list[int], seat: int) -> int:
    """The next player to the left: the next higher seat in ``seats``, wrapping around."""
    return min((s for s in seats if s > seat), default=min(seats))


def right_of(seats: list[int], seat: int) -> int:
    """The next player to the right: the next lower seat in ``seats``, wrapping around."""
    return max((s for s in seats if s < seat), default=max(seats))


def from_left_of(seats: list[int], seat: int) -> list[int]:
    """Every seat in ``seats`` in playing order, starting at the left of ``seat``."""
    ordered = sorted(seats)
    first = ordered.index(left_of(ordered, seat))
    return ordered[first:] + ordered[:first]


@dataclass
class Match:
    """The match carried between rounds (RULES.md §5, "A match")."""

    number: int = 0
    seats: list[int] = field(default_factory=list)
    """Players still in, in seat order; empty when no match is being played."""
    out: list[int] = field(default_factory=list)
    dealer: int | None = None
    rounds: int = 0
    cut: dict[str, Any] | None = None
    """The cut for the first deal: ``{"draws": [{"seat", "cards"}], "dealer": seat}``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seats": list(self.seats),
            "out": list(self.out),
            "dealer": self.dealer,
            "rounds": self.rounds,
            "cut": self.cut,
        }


@dataclass
class Round:
    """One round's table: hands, discard pile, whose decision it is, the knock."""

    seats: list[int]
    dealer: int
    cutter: int
    hands: dict[int, list[str]]
    pile: list[str] = field(default_factory=list)
    phase: str = "cut"
    actor: int | None = None
    decision: int = 0
    deck_cut: int | None = None
    pattern: str | None = None
    drawn: str | None = None
    had_turn: set[int] = field(default_factory=set)
    knocker: int | None = None
    final_turns: list[int] = field(default_factory=list)
    shown: set[int] = field(default_factory=set)
    turns: int = 0
    restocks: int = 0
    no_bets: bool = False
    """Nobody still in has a bet left: no knocking, the next 31 wins the match (step 7)."""
    result: str = ""
