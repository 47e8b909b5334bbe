"""The stakes of Trente et Quarante: free, in prison, insured; the house's cover (docs/rules.md §4).

A *free* stake is placed in the betting window and settled by the coup; it stays in its owner's
table stack (``seat:N``) until then. A stake *in prison* (after an *un après*) lives in the
owner's ``prison:N`` account between coups, at a level from 1 to ``max_apres``.
Insurance costs 1% of a free stake in whole chips, never more (docs/rules.md §4.8): one chip
for every whole hundred staked, so only a stake of at least :data:`INSURABLE` chips can be
insured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.trente_et_quarante.coup import CHANCES, COULEUR, INVERSE, NOIR, OPPOSITE, ROUGE

INSURABLE = 100
"""The smallest stake that can be insured: its 1% is one whole chip (docs/rules.md §4.8)."""


def premium(amount: int) -> int:
    """The insurance of a free stake: 1% of it in whole chips, rounded down, so never more
    than 1% (docs/rules.md §4.8, a Decision). ``premium(250) == 2``; ``premium(99) == 0``: a
    stake under :data:`INSURABLE` cannot be insured."""
    return amount // 100


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


@dataclass(slots=True)
class FreeStake:
    """A stake placed in the current betting window."""

    amount: int
    insured: bool = False

    @property
    def cost(self) -> int:
        """The chips it ties up (:func:`cost`)."""
        amount = self.amount
        return amount + premium(amount) if self.insured else amount


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
    totals = {ROUGE: 0, NOIR: 0, COULEUR: 0, INVERSE: 0}
    for stakes in free.values():
        for chance, stake in stakes.items():
            totals[chance] += stake.amount
    return totals


def exposure(totals: dict[str, int]) -> int:
    """The most the house could pay on these free stakes in one coup.

    One side of each pair wins, so the house pays at most the larger side of Rouge/Noir plus
    the larger side of Couleur/Inverse (stakes in prison are never paid winnings).
    """
    rouge, noir, couleur, inverse = totals[ROUGE], totals[NOIR], totals[COULEUR], totals[INVERSE]
    return (rouge if rouge > noir else noir) + (couleur if couleur > inverse else inverse)


_OTHER_PAIR = {
    ROUGE: (COULEUR, INVERSE),
    NOIR: (COULEUR, INVERSE),
    COULEUR: (ROUGE, NOIR),
    INVERSE: (ROUGE, NOIR),
}
"""The pair a chance is not in (its larger side is what the house could pay there)."""


def house_limits(totals: dict[str, int], available: int) -> dict[str, int]:
    """:func:`house_limit` on each chance for a bettor with no stake there, in one pass.

    On Rouge or Noir the house keeps back what it could pay on Couleur/Inverse (the larger
    side), and the other way round; what is left must cover the other side of the chance's pair
    (else -1) and then reaches as far as that less what is already on the chance (-1 at least).
    """
    rouge, noir, couleur, inverse = totals[ROUGE], totals[NOIR], totals[COULEUR], totals[INVERSE]
    left_rn = available - (couleur if couleur > inverse else inverse)
    left_ci = available - (rouge if rouge > noir else noir)
    return {
        ROUGE: left_rn - rouge if noir <= left_rn and rouge <= left_rn + 1 else -1,
        NOIR: left_rn - noir if rouge <= left_rn and noir <= left_rn + 1 else -1,
        COULEUR: left_ci - couleur if inverse <= left_ci and couleur <= left_ci + 1 else -1,
        INVERSE: left_ci - inverse if couleur <= left_ci and inverse <= left_ci + 1 else -1,
    }


def house_limit(totals: dict[str, int], chance: str, mine: int, available: int) -> int:
    """The largest stake the house can cover on ``chance`` for a bettor whose stake there is
    now ``mine``, given the house's ``available`` chips; -1 when it can cover no stake there.

    The house's cover is checked on the whole table (:func:`exposure`) as if the bettor's
    stake on ``chance`` were the new amount.
    """
    first, second = _OTHER_PAIR[chance]
    rest = max(totals[first], totals[second])
    if totals[OPPOSITE[chance]] + rest > available:
        return -1
    return max(available - rest - totals[chance] + mine, -1)
