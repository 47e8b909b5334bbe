"""En og tredive: the table's state between decisions (docs/rules.md §5).

Seats and directions: *left* is the next higher seat number among the players still in the
match (wrapping from the highest to the lowest), *right* the next lower. Play and the deal move
to the left; the player to the dealer's right cuts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from app.games.core.cards import Stock
from app.games.core.coded import Coded

PATTERNS = ("1-1-1", "2-1", "1-2")
"""How the dealer may deal after a cut: packets to each player in turn (docs/rules.md §5.5)."""

PACKETS = {"1-1-1": (1, 1, 1), "2-1": (2, 1), "1-2": (1, 2), "3": (3,)}
"""The packets of each dealing pattern; ``3`` (three at a time) follows a knock on the deck."""


@dataclass
class Match:
    """The match carried between rounds (docs/rules.md §5.1)."""

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
    result: list[Coded] = field(default_factory=list)
    """How the round ended, line by line ("Seat 0 knocked", "seat 2 pays 1", …): the view's
    ``status`` between rounds."""


class EnOgTrediveState(Protocol):
    """What the view reads of an En og tredive table (the engine is one): the match, the round,
    the stock and the money. The view depends on this, not on the engine."""

    @property
    def balances(self) -> dict[str, int]: ...
    @property
    def bet_unit(self) -> int: ...
    @property
    def match(self) -> Match: ...
    @property
    def round(self) -> Round | None: ...
    @property
    def stock(self) -> Stock: ...
    @property
    def in_hand(self) -> bool: ...
    @property
    def seated(self) -> list[int]: ...
    def stack(self, seat: int) -> int: ...
    def bets_left(self, seat: int) -> int: ...
    def can_start(self) -> bool: ...
