"""Vingt-un hands: card points, naturals, pairs and the settlement table (docs/rules.md §3).

Aces count 1 or 11, T/J/Q/K 10, other cards their pips; a hand is worth its best total not
over 21. A *natural* is an ace and a ten-value card as the first two cards of a hand that was
dealt, not made by a split (docs/rules.md §3.7, **Decision**); 21 reached any other way is a
*drawn vingt-un*.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.games.core.cards import TEN_VALUE_RANKS, rank
from app.games.core.values import pips

VINGT_UN = 21


def points(cards: Iterable[str]) -> int:
    """The hand's best total not over 21, or its lowest total when every total is over.

    >>> points(["AS", "KD"])
    21
    >>> points(["AS", "AD", "9C"])
    21
    >>> points(["KS", "QD", "5C"])
    25
    """
    cards = list(cards)
    low = sum(pips(card) for card in cards)
    if any(rank(card) == "A" for card in cards) and low + 10 <= VINGT_UN:
        return low + 10
    return low


def is_soft(cards: Iterable[str]) -> bool:
    """True when the best total counts an ace as 11 (a further card cannot put it over 21)."""
    cards = list(cards)
    return points(cards) != sum(pips(card) for card in cards)


def is_ace_and_ten(cards: list[str]) -> bool:
    """Exactly two cards, an ace and a ten-value card (the shape of a natural)."""
    ranks = sorted(rank(card) for card in cards)
    return len(ranks) == 2 and ranks[0] == "A" and ranks[1] in TEN_VALUE_RANKS


def is_pair(cards: list[str]) -> bool:
    """Exactly two cards of the same rank: a hand that may be split (docs/rules.md §3.7)."""
    return len(cards) == 2 and rank(cards[0]) == rank(cards[1])


def outcome(dealer_total: int, player_total: int) -> tuple[int, str]:
    """Stakes the dealer pays a standing hand (negative: the player pays), docs/rules.md §3.9.

    Both totals are best totals (``points``); naturals are settled before this (steps 5-6).

    >>> outcome(23, 21)
    (2, 'dealer over 21, vingt-un paid twice')
    >>> outcome(21, 21)
    (-1, "dealer's vingt-un against a vingt-un")
    >>> outcome(18, 18)
    (-1, 'dealer equal or higher')
    """
    if dealer_total > VINGT_UN:
        if player_total == VINGT_UN:
            return 2, "dealer over 21, vingt-un paid twice"
        return 1, "dealer over 21"
    if dealer_total == VINGT_UN:
        if player_total == VINGT_UN:
            return -1, "dealer's vingt-un against a vingt-un"
        return -2, "dealer's vingt-un"
    if player_total == VINGT_UN:
        return 2, "vingt-un paid twice"
    if dealer_total >= player_total:
        return -1, "dealer equal or higher"
    return 1, "higher than the dealer"
