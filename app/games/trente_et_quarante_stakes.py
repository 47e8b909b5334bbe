"""The stakes of Trente et Quarante: free, in prison, insured; the house's cover (RULES.md §4).

A *free* stake is placed in the betting window and settled by the coup; it stays in its owner's
table stack (``seat:N``) until then. A stake *in prison* (after an *un après*) lives in the
owner's ``prison:N`` account between coups, at a level from 1 to ``max_apres``.
Insurance costs 1% of a free stake, rounded up (§4 step 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.trente_et_quarante_coup import CHANCES, COULEUR, INVERSE, NOIR, OPPOSITE, ROUGE

UNLIMITED_HOUSE = 10**15
"""The house's cover until the runtime says what the house holds (a bare engine, a test)."""


def prison_account(seat: int) -> str:
    """The account holding the stakes in prison of the bettor in ``seat``."""
    return f"prison:{seat}"


def premium(amount: int) -> int:
    """The insurance of a free stake: 1% of it, rounded up (§4 step 5). ``premium(250) == 3``."""
    return (amount + 99) // 100


def cost(amount: int, insured: bool) -> int:
    """The chips a free stake ties up: the stake, and its premium when insured."""
    return amount + premium(amount) if insured else amount


def largest_stake(room: int, insured: bool) -> int:
    """The largest stake whose :func:`cost` fits in ``room`` chips (0 when none does)."""
    if room <= 0:
        return 0
    if not insured:
        return room
    amount = room * 100 // 101
    while cost(amount + 1, True) <= room:
        amount += 1
    return amount


@dataclass
class FreeStake:
    """A stake placed in the current betting window."""

    amount: int
    insured: bool = False

    @property
    def cost(self) -> int:
        return cost(self.amount, self.insured)


@dataclass
class PrisonStake:
    """A stake in prison after an un après (§4 steps 3 and 4).

    ``level`` counts the un après it has been through without being freed: a win moves it up
    one level (level 1 is returned to its owner), a loss loses it, another un après puts it one
    level deeper.
    """

    id: int
    owner: int
    chance: str
    amount: int
    level: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "owner": self.owner,
            "chance": self.chance,
            "amount": self.amount,
            "level": self.level,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PrisonStake:
        chance = str(data["chance"])
        if chance not in CHANCES:
            raise ValueError(f"not a chance: {chance!r}")
        return cls(
            id=int(data["id"]),
            owner=int(data["owner"]),
            chance=chance,
            amount=int(data["amount"]),
            level=int(data["level"]),
        )


def chance_totals(free: dict[int, dict[str, FreeStake]]) -> dict[str, int]:
    """The free stakes on each chance, every bettor together."""
    totals = dict.fromkeys(CHANCES, 0)
    for stakes in free.values():
        for chance, stake in stakes.items():
            totals[chance] += stake.amount
    return totals


def exposure(totals: dict[str, int]) -> int:
    """The most the house could pay on these free stakes in one coup.

    One side of each pair wins, so the house pays at most the larger side of Rouge/Noir plus
    the larger side of Couleur/Inverse (stakes in prison are never paid winnings).
    """
    return max(totals[ROUGE], totals[NOIR]) + max(totals[COULEUR], totals[INVERSE])


def house_limit(totals: dict[str, int], chance: str, mine: int, available: int) -> int:
    """The largest stake the house can cover on ``chance`` for a bettor whose stake there is
    now ``mine``, given the house's ``available`` chips; -1 when it can cover no stake there.

    The house's cover is checked on the whole table (:func:`exposure`) as if the bettor's
    stake on ``chance`` were the new amount.
    """
    others_here = totals[chance] - mine
    other_side = totals[OPPOSITE[chance]]
    pair = (ROUGE, NOIR) if chance in (ROUGE, NOIR) else (COULEUR, INVERSE)
    other_pair = (COULEUR, INVERSE) if pair == (ROUGE, NOIR) else (ROUGE, NOIR)
    rest = max(totals[other_pair[0]], totals[other_pair[1]])
    if other_side + rest > available:
        return -1
    return max(available - rest - others_here, -1)
