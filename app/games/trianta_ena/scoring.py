"""Trianta Ena hands: values, naturals, the banker's drawing rule and one bet's settlement.

docs/rules.md §1: aces count per the table's ``ace_rule`` (§0), J/Q/K and T count 10, other cards
their pips; a hand is worth its best valuation not over 31 and is bust above 31. A *natural* is
a hand whose first three cards are an ace and two cards of ``natural_cards`` (``face``: J/Q/K,
``ten``: T/J/Q/K). The banker draws until the hand is worth ``dealer_stands_on`` or more.

>>> value(["AS", "KD", "QH"], "at_most_one_low")
31
>>> is_natural(["KD", "AS", "QH"], "face"), is_natural(["AS", "TD", "QH"], "face")
(True, False)
>>> settle(["9S", "2H", "KC", "TD"], ["AS", "KD", "JH"], "at_most_one_low", "face").reason
'banker natural'
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.core.cards import FACE_RANKS, TEN_VALUE_RANKS, rank
from app.games.core.values import best_total, totals

LIMIT = 31
"""The best a hand can be worth; anything above is bust (docs/rules.md §1)."""

NATURAL_RANKS = {"face": FACE_RANKS, "ten": TEN_VALUE_RANKS}
"""The cards that make a natural with an ace, by the ``natural_cards`` option."""


def value(cards: list[str], ace_rule: str) -> int | None:
    """The hand's value: its best valuation not over 31, or None when bust."""
    return best_total(cards, ace_rule, LIMIT)


def lowest_total(cards: list[str], ace_rule: str) -> int:
    """The smallest total the hand may count (what a bust hand shows)."""
    return totals(cards, ace_rule)[0]


def is_natural(cards: list[str], natural_cards: str) -> bool:
    """True when the hand is exactly its first three cards: an ace and two ``natural_cards``.

    A hand that drew a fourth card is never a natural; an ace with two tens under ``face`` is
    a plain 31 (docs/rules.md §1).
    """
    if len(cards) != 3:
        return False
    ranks = sorted(rank(card) for card in cards)
    others = [r for r in ranks if r != "A"]
    return len(others) == 2 and all(r in NATURAL_RANKS[natural_cards] for r in others)


def banker_draws(cards: list[str], ace_rule: str, stands_on: int) -> bool:
    """The banker has no choices: draw while the hand is worth less than ``stands_on`` (§1.5)."""
    worth = value(cards, ace_rule)
    return worth is not None and worth < stands_on


@dataclass(frozen=True)
class Outcome:
    """How one standing bet settles: ``won`` at even money or lost, and why."""

    won: bool
    reason: str


def settle(player: list[str], banker: list[str], ace_rule: str, natural_cards: str) -> Outcome:
    """Settle a bet at even money in the order of docs/rules.md §1.7.

    A bust player loses; a banker's natural beats every player (a player's natural included);
    otherwise a player's natural wins; a bust banker pays every standing player; otherwise the
    player wins only with a strictly higher value. Ties go to the banker, a plain 31 included.
    """
    mine = value(player, ace_rule)
    if mine is None:
        return Outcome(False, "bust")
    if is_natural(banker, natural_cards):
        return Outcome(False, "banker natural")
    if is_natural(player, natural_cards):
        return Outcome(True, "natural")
    theirs = value(banker, ace_rule)
    if theirs is None:
        return Outcome(True, "banker bust")
    if mine > theirs:
        return Outcome(True, "higher")
    return Outcome(False, "tie" if mine == theirs else "lower")
