"""En og tredive hand values (docs/rules.md §5.3).

A hand counts the cards of one suit only, taking its best suit: aces 11, T/J/Q/K 10, others
their pips. The joker stands for any card of that suit the hand does not already hold, so it
adds the best card the suit still lacks: A-joker-9 of one suit is 30 (the joker cannot be a
second ace, so it is a ten-card), K-Q-joker is 31 (the joker is the ace), and the joker, the
ace of spades and the king of diamonds is 21 (either suit makes 21). Three aces, or two aces
and the joker, is a *coup d'état*.

The cut for the first deal ranks single cards: the joker high, then A, K, Q … 2; suits do not
count (docs/rules.md §5.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.core.cards import JOKER, RANKS, SUITS, deck

FULL_DECK: tuple[str, ...] = tuple(deck(jokers=1))
"""One 52-card deck plus the joker, in canonical order (docs/rules.md §5)."""

CUT_ORDER = "23456789TJQKAX"
"""Ranks for the cut for the first deal, lowest first: 2 … K, A, then the joker (``X``)."""


def card_points(card: str) -> int:
    """A card's points in its suit: aces 11, T/J/Q/K 10, others their pips (not the joker)."""
    rank = card[0]
    if rank == "A":
        return 11
    if rank in "TJQK":
        return 10
    return int(rank)


def suit_value(cards: Sequence[str], suit: str) -> int:
    """What ``cards`` count in ``suit``: that suit's points, plus the joker as the best card of
    the suit the hand does not hold.

    >>> suit_value(["AH", "XX", "9H"], "H")
    30
    """
    held = [card for card in cards if card[1] == suit]
    total = sum(card_points(card) for card in held)
    if JOKER in cards:
        missing = (rank + suit for rank in RANKS if rank + suit not in held)
        total += max((card_points(card) for card in missing), default=0)
    return total


def hand_value(cards: Sequence[str]) -> int:
    """The hand's value: its best suit (0 for no cards; the joker alone is an ace, 11).

    Only the suits the hand holds can be best: with the joker, a held suit counts at least
    a card and a ten-card, more than the joker alone.

    >>> hand_value(["KS", "QS", "XX"])
    31
    >>> hand_value(["XX", "AS", "KD"])
    21
    """
    suits = {card[1] for card in cards if card != JOKER} or set(SUITS)
    return max(suit_value(cards, suit) for suit in suits)


def is_coup_d_etat(cards: Sequence[str]) -> bool:
    """Three aces, or two aces and the joker (docs/rules.md §5): wins the match at once."""
    if len(cards) != 3:
        return False
    pieces = [card for card in cards if card == JOKER or card[0] == "A"]
    return len(pieces) == 3


def strength(cards: Sequence[str]) -> tuple[bool, int]:
    """How good a hand is to hold: a coup d'état above everything, then the value."""
    return (is_coup_d_etat(cards), hand_value(cards))


def cut_rank(card: str) -> int:
    """The rank of a card cut for the first deal: the joker highest, then A, K, Q … 2."""
    return CUT_ORDER.index(card[0])
