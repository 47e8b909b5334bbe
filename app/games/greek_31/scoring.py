"""Hand values and the ranking of Greek 31 (docs/rules.md §2.3).

Aces count by the table's ``ace_rule`` (docs/rules.md §0; Heath's version forces ``alternating``),
ten-value cards 10, other cards their pips. A hand of exactly two cards that are both twos is
worth 14. The ranking, best first:

1. 31;
2. with ``heath``, a two-card pair of twos;
3. 14 (any other way, or the pair of twos without ``heath``);
4. 30, 29, … down to the lowest;

and a hand over 31 is bust. A hand's value is the valuation that ranks best, so A-3 is 14
(not 4) and A-K-K is 31 (not 21).

>>> hand_points(["AS", "KD", "7H"], "at_least_one_high")
28
>>> hand_points(["2S", "2D"], "at_least_one_high")
14
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.core.values import pips, totals

THIRTY_ONE = 100
"""Rank key of 31, the best hand."""
PAIR_OF_TWOS = 99
"""Rank key of a two-card pair of twos under Heath's version (above an ordinary 14)."""
FOURTEEN = 98
"""Rank key of 14, the second-best hand (third with ``heath``)."""
BUST = -1
"""Rank key of a hand over 31: worse than anything."""


def is_pair_of_twos(cards: Sequence[str]) -> bool:
    """Exactly two cards, both twos (worth 14; docs/rules.md §2)."""
    return len(cards) == 2 and all(card[0] == "2" for card in cards)


def total_rank(total: int) -> int:
    """The rank key of one valuation: 31 first, then 14, then 30, 29, … (over 31: bust)."""
    if total > 31:
        return BUST
    if total == 31:
        return THIRTY_ONE
    if total == 14:
        return FOURTEEN
    return total


def hand_rank(cards: Sequence[str], ace_rule: str, heath: bool) -> int:
    """The rank key of a hand: higher ranks better, equal keys tie; :data:`BUST` when bust.

    >>> hand_rank(["AS", "3H"], "at_least_one_high", False) == FOURTEEN
    True
    >>> hand_rank(["2S", "2H"], "alternating", True) == PAIR_OF_TWOS
    True
    """
    if not cards:
        return 0
    if is_pair_of_twos(cards):
        return PAIR_OF_TWOS if heath else FOURTEEN
    return max(total_rank(total) for total in totals(cards, ace_rule))


def hand_points(cards: Sequence[str], ace_rule: str) -> int | None:
    """The points of the valuation that ranks best (14 for a pair of twos); None when bust."""
    if not cards:
        return 0
    if is_pair_of_twos(cards):
        return 14
    allowed = [total for total in totals(cards, ace_rule) if total <= 31]
    if not allowed:
        return None
    return max(allowed, key=total_rank)


def rank_label(rank: int) -> str:
    """How a rank key reads at the table: "31", "pair of twos", "14", "28", "bust"."""
    if rank == BUST:
        return "bust"
    if rank == THIRTY_ONE:
        return "31"
    if rank == PAIR_OF_TWOS:
        return "pair of twos"
    if rank == FOURTEEN:
        return "14"
    return str(rank)


def card_points(card: str) -> int:
    """A single card's highest points: an ace 11, ten-value cards 10, others their pips."""
    return 11 if card[0] == "A" else pips(card)


def highest_card(cards: Sequence[str]) -> int:
    """Index of the card with the most points (the earliest drawn among equals)."""
    best = 0
    for index, card in enumerate(cards):
        if card_points(card) > card_points(cards[best]):
            best = index
    return best
