"""Seat rotation, coded once (docs/rules.md §0.14).

Seats are numbered clockwise. A player's *left* is the next higher occupied seat number and
their *right* the next lower, wrapping around the table. Each game says which way its play and
its deal go; they all turn with these functions.

>>> leftward([0, 2, 5, 7], 5)
[7, 0, 2, 5]
>>> rightward([0, 2, 5, 7], 5)
[2, 0, 7, 5]
>>> left_of([0, 2, 5, 7], 7), right_of([0, 2, 5, 7], 0)
(0, 7)
>>> leftward([1, 3], 2)
[3, 1]
"""

from __future__ import annotations

from collections.abc import Iterable


def leftward(seats: Iterable[int], start: int) -> list[int]:
    """Every seat of ``seats`` going left from ``start``: the next higher number first,
    wrapping round; ``start`` itself, when among them, comes last."""
    ordered = sorted(seats)
    return [s for s in ordered if s > start] + [s for s in ordered if s <= start]


def rightward(seats: Iterable[int], start: int) -> list[int]:
    """Every seat of ``seats`` going right from ``start``: the next lower number first,
    wrapping round; ``start`` itself, when among them, comes last."""
    ordered = sorted(seats, reverse=True)
    return [s for s in ordered if s < start] + [s for s in ordered if s >= start]


def left_of(seats: Iterable[int], seat: int) -> int:
    """The next player to the left of ``seat`` (``seat`` itself when alone)."""
    return leftward(seats, seat)[0]


def right_of(seats: Iterable[int], seat: int) -> int:
    """The next player to the right of ``seat`` (``seat`` itself when alone)."""
    return rightward(seats, seat)[0]


def others_leftward(seats: Iterable[int], start: int) -> list[int]:
    """:func:`leftward` without ``start``."""
    return [s for s in leftward(seats, start) if s != start]


def others_rightward(seats: Iterable[int], start: int) -> list[int]:
    """:func:`rightward` without ``start``."""
    return [s for s in rightward(seats, start) if s != start]
