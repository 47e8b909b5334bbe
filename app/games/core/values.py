"""Card points and the ace rules of the banking 31 games (docs/rules.md §0.4).

Trianta Ena and Greek 31 count J, Q, K and T as 10, other cards their pips, and aces by the
table's ``ace_rule``:

* ``at_most_one_low``: one ace is 1 or 11; with several aces at most one counts 1, the rest
  11 (A-A is 12 or 22; A-A-A is 23).
* ``at_least_one_high``: one ace is 1 or 11; with several aces at least one counts 11, the
  others 1 or 11 (A-A is 12 or 22; A-A-A is 13 or 23; A-A-9-3 is 24).
* ``alternating`` (Martin Heath): aces count 1, 11, 1, 11… in turn, starting from either:
  one ace 1 or 11, two aces 12, three aces 13 or 23, four aces 24.

Each game picks the valuation that ranks best under its own ranking.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

AceRule = Literal["at_most_one_low", "at_least_one_high", "alternating"]
"""How aces count: one of the three rules above."""
ACE_RULES: tuple[str, ...] = get_args(AceRule)


def pips(card: str) -> int:
    """A non-ace card's points: T, J, Q, K are 10, others their pips (aces here count 1)."""
    r = card[0]
    if r in "TJQK":
        return 10
    if r == "A":
        return 1
    return int(r)


def ace_sums(aces: int, ace_rule: str) -> set[int]:
    """Every total the aces alone may make under ``ace_rule``."""
    if aces == 0:
        return {0}
    if aces == 1:
        return {1, 11}
    if ace_rule == "at_most_one_low":
        return {11 * aces, 11 * aces - 10}
    if ace_rule == "at_least_one_high":
        # one ace is 11; each of the others is 1 or 11
        return {11 + (aces - 1) + 10 * k for k in range(aces)}
    if ace_rule == "alternating":
        low_first = (aces + 1) // 2 * 1 + aces // 2 * 11
        high_first = (aces + 1) // 2 * 11 + aces // 2 * 1
        return {low_first, high_first}
    raise ValueError(f"unknown ace rule {ace_rule!r}")


def totals(cards: Iterable[str], ace_rule: str) -> list[int]:
    """Every total the hand may count, ascending (docs/rules.md §0).

    >>> totals(["AS", "KD", "7H"], "at_least_one_high")
    [18, 28]
    >>> totals(["AS", "AD", "9C", "3H"], "at_least_one_high")
    [24, 34]
    """
    base = 0
    aces = 0
    for card in cards:
        if card[0] == "A":
            aces += 1
        else:
            base += pips(card)
    return sorted(base + s for s in ace_sums(aces, ace_rule))


def best_total(cards: Iterable[str], ace_rule: str, limit: int = 31) -> int | None:
    """The highest total not over ``limit``, or None when every total is over (bust)."""
    under = [t for t in totals(cards, ace_rule) if t <= limit]
    return under[-1] if under else None
