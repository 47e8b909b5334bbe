"""The accounts chips live in inside an engine (docs/rules.md §0.5), built and read here only.

An account is a string, stored as it is in the hand records and the table's state:

* ``seat:N``: the table stack of the player in seat N;
* ``bets:N``: chips a player has put up and not yet lost or won back (Trianta Ena's covered
  stake, En og tredive's bets in front of a player);
* ``prison:N``: Trente et Quarante stakes in prison owned by the bettor in position N;
* ``pot``: En og tredive's pot;
* ``house``: the house's bank (Trente et Quarante), held outside the table.

>>> seat_account(3), bets_account(3), prison_account(3)
('seat:3', 'bets:3', 'prison:3')
>>> seat_of("seat:12"), seat_of("bets:2"), seat_of(POT)
(12, None, None)
>>> owner_of("bets:2"), owner_of(HOUSE)
(2, None)
>>> parse_account("prison:4")
(<AccountKind.PRISON: 'prison'>, 4)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TypeAlias

Account: TypeAlias = str
"""An engine account's name, as stored (``seat:3``, ``pot``)."""


class AccountKind(StrEnum):
    """What an account holds (its name before the colon)."""

    SEAT = "seat"
    BETS = "bets"
    PRISON = "prison"
    POT = "pot"
    HOUSE = "house"


_SEAT_PREFIX = "seat:"
POT: Account = "pot"
HOUSE: Account = "house"


def account(kind: AccountKind | str, seat: int) -> Account:
    """The account of ``kind`` owned by the player in ``seat``."""
    return f"{kind}:{seat}"


def seat_account(seat: int) -> Account:
    """The table stack of the player in ``seat``."""
    return f"seat:{seat}"


def bets_account(seat: int) -> Account:
    """Chips the player in ``seat`` has put up for the hand or the match."""
    return f"bets:{seat}"


def prison_account(seat: int) -> Account:
    """Trente et Quarante stakes in prison owned by the bettor in position ``seat``."""
    return f"prison:{seat}"


def parse_account(name: str) -> tuple[AccountKind | str, int | None]:
    """An account's kind and owning seat (None for a table account such as the pot).

    A name of no known kind comes back as it is, with no seat."""
    kind, _, seat = name.partition(":")
    if seat.isdigit():
        try:
            return AccountKind(kind), int(seat)
        except ValueError:
            return name, None
    try:
        return AccountKind(name), None
    except ValueError:
        return name, None


def owner_of(name: str) -> int | None:
    """The seat owning a per-seat account (``seat:N``, ``bets:N``, ``prison:N``, any
    ``kind:N``), else None (``pot``, ``house``)."""
    _, _, seat = name.partition(":")
    return int(seat) if seat.isdigit() else None


def kind_of(name: str) -> str:
    """An account's kind: its name before the colon (``bets`` of ``bets:3``, ``pot``)."""
    return name.partition(":")[0]


def seat_of(name: str) -> int | None:
    """The seat of a table stack ``seat:N``, None for any other account."""
    if name.startswith(_SEAT_PREFIX):
        seat = name[len(_SEAT_PREFIX) :]
        return int(seat) if seat.isdigit() else None
    return None


def is_seat(name: str) -> bool:
    """Is ``name`` a player's table stack (``seat:N``)?"""
    return name.startswith(_SEAT_PREFIX)


def seats_in(names: Iterable[str]) -> list[int]:
    """The seats whose table stacks are among ``names``, in seat order (often asked: kept
    to one pass over the names)."""
    cut = len(_SEAT_PREFIX)
    return sorted(int(name[cut:]) for name in names if name.startswith(_SEAT_PREFIX))
