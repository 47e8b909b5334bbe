"""One round of Trianta Ena as data, and the facts it leaves for the history (docs/rules.md §1).

A player's ``cards[0]`` is the face-down card; the banker's ``banker_cards[1]`` is the face-down
card nobody sees until it is turned. What each viewer sees is built in
:mod:`app.games.trianta_ena.view`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from app.games.core.cards import Stock
from app.games.core.coded import Coded
from app.games.trianta_ena.bank import Bank
from app.games.trianta_ena.scoring import is_natural, value

DECIDING = "deciding"
"""A player dealt in who has not yet bet or folded (the betting window, §1 step 2)."""
FOLDED = "folded"
BET = "bet"
"""Bet placed; coverage is allotted when the window closes."""
REFUSED = "refused"
"""The bank had nothing left to cover this bet: no stake this round (§0, "Banks")."""
PLAYING = "playing"
STOOD = "stood"
BUST = "bust"
WON = "won"
LOST = "lost"


@dataclass
class PlayerHand:
    """A player's hand in the round: ``cards[0]`` is the face-down card."""

    seat: int
    cards: list[str]
    status: str = DECIDING
    bet: int = 0
    """What the player asked to stake."""
    stake: int = 0
    """What the bank covered (held in the ``bets:N`` account until settlement)."""
    shown: bool = False
    """The face-down card has been shown to everyone."""
    note: Coded | None = None
    """A message for the table about this hand (a stake cut, the settlement)."""


def seat_note(seat: int, note: Coded) -> Coded:
    """A hand's note as the round's ``messages`` list it: "Seat 2: Bet cut from 40 to 25: the
    bank covers no more."."""
    return Coded("trianta-ena.seat_note", f"Seat {seat}: {note}", seat=seat, note=note)


@dataclass
class Round:
    """The cards, bets and progress of one round; kept after it ends so the table can see it."""

    banker: int
    order: list[int]
    """The players dealt in, in seat order (the order of play and of coverage)."""
    hands: dict[int, PlayerHand]
    banker_cards: list[str] = field(default_factory=list)
    hole_shown: bool = False
    """The banker's face-down second card has been turned."""
    phase: str = "betting"
    turn: int | None = None
    messages: list[Coded] = field(default_factory=list)
    """This round's notes for the table: stakes cut or refused for lack of cover."""
    reshuffles: int = 0
    """How many times the discard pile was shuffled into a new stock during the round."""

    def cards_in_play(self) -> list[str]:
        cards = list(self.banker_cards)
        for hand in self.hands.values():
            cards.extend(hand.cards)
        return cards

    def with_status(self, *statuses: str) -> list[int]:
        """Seats in order whose hand has one of ``statuses``."""
        return [seat for seat in self.order if self.hands[seat].status in statuses]


def summary(round_: Round, bank_result: int, ace_rule: str, natural_cards: str) -> dict[str, Any]:
    """The round's facts for the history lists and :class:`TriantaEnaStats`."""
    hands = [round_.hands[seat] for seat in round_.order]
    staked = [hand for hand in hands if hand.stake > 0]
    showdown = any(hand.status in (WON, LOST) for hand in hands)
    banker_value = value(round_.banker_cards, ace_rule)
    return {
        "banker": round_.banker,
        "players": len(hands),
        "stakes": len(staked),
        "staked": sum(hand.stake for hand in staked),
        "bank_result": bank_result,
        "folds": sum(hand.status == FOLDED for hand in hands),
        "stakes_cut": sum(0 < hand.stake < hand.bet for hand in hands),
        "stakes_refused": sum(hand.status == REFUSED for hand in hands),
        "player_naturals": sum(is_natural(hand.cards, natural_cards) for hand in staked),
        "player_busts": sum(hand.status == BUST for hand in hands),
        "player_wins": sum(hand.status == WON for hand in hands),
        "banker_value": banker_value if showdown else None,
        "banker_natural": showdown and is_natural(round_.banker_cards, natural_cards),
        "banker_bust": showdown and banker_value is None,
        "reshuffles": round_.reshuffles,
    }


class TriantaEnaState(Protocol):
    """What the view reads of a Trianta Ena table (the engine is one): the round, the bank, the
    stock and the seats. The view depends on this, not on the engine."""

    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def ace_rule(self) -> str: ...
    @property
    def natural_cards(self) -> str: ...
    @property
    def bank(self) -> Bank: ...
    @property
    def stock(self) -> Stock: ...
    @property
    def discard(self) -> list[str]: ...
    @property
    def round(self) -> Round | None: ...
    @property
    def in_hand(self) -> bool: ...
    @property
    def seated(self) -> list[int]: ...
    @property
    def players(self) -> list[int]: ...
    def stack(self, seat: int) -> int: ...
    def can_start(self) -> bool: ...
    def phase(self) -> str: ...
    def to_act(self) -> set[int]: ...
