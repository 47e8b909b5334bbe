"""The state of one Greek 31 hand, and the seat order (docs/rules.md §2).

Seats are numbered clockwise, so a player's *right* is the next lower occupied seat number,
wrapping from 0 to the highest. Play goes to the dealer's right (anticlockwise): the seat
order of a hand starts just below the dealer's seat and runs down.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.core.coded import Coded


@dataclass
class HandInPlay:
    """The cards, stakes and turn of the hand being played (or the last one, between hands)."""

    dealer: int
    order: list[int]
    """The players of the hand, in seat order (the dealer's right first)."""
    dealer_start: int
    """The dealer's stack when the hand was dealt (for the dealer's net result)."""
    phase: str = "dealing"
    """"dealing", "staking", "dealer" (the dealer draws), "players" or "settled"."""
    cards: dict[int, list[str]] = field(default_factory=dict)
    stakes: dict[int, int] = field(default_factory=dict)
    results: dict[int, str] = field(default_factory=dict)
    """Per player: "no cover", "stood", "bust", "31", "won", "lost" or "returned"."""
    notes: dict[int, Coded] = field(default_factory=dict)
    """What a player is told: a stake cut to the bank's cover, no cover left."""
    gathered: set[int] = field(default_factory=set)
    """Players whose cards are back under the deck (a busted hand goes at once)."""
    dealer_cards: list[str] = field(default_factory=list)
    concealed: int | None = None
    """The index of the dealer's card kept face down after a stand on "anything else"."""
    revealed: bool = False
    """Every dealer card is face up (bust, 31, 14 or the showdown)."""
    outcome: str | None = None
    """How the dealer's draw ended: "bust", "31", "14", "other"; "void" for a void hand."""
    turn: int | None = None

    def playing(self, seat: int) -> bool:
        """The dealer or one of the players dealt this hand."""
        return seat == self.dealer or seat in self.order

    def staked(self) -> list[int]:
        """The players with a stake, in seat order."""
        return [seat for seat in self.order if seat in self.stakes]

    def dealer_card_up(self, index: int) -> bool:
        return self.revealed or (self.concealed is not None and index != self.concealed)

    def shown_dealer_cards(self) -> list[str]:
        """The dealer's face-up cards."""
        return [card for i, card in enumerate(self.dealer_cards) if self.dealer_card_up(i)]
