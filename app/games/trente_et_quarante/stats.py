"""What ``python -m app simulate trente-et-quarante`` counts (docs/rules.md §4).

Every hand is one coup. Counted: how often each row total comes up (both rows together), the
ties (*après*) and the ties on 31 (*un après*), the void coups at the end of a shoe, the winning
chances, and the house's result per chip staked on insured and on uninsured free stakes. Each
free stake's result for the house comes with the hand's summary (premium, win or loss, the
house's half when shared); what the house later takes from stakes in prison (which come only
from uninsured stakes) is read from the transfers out of the ``prison:N`` accounts. The chips
staked are the free stakes of the coups that were dealt (a void coup puts nothing at risk).
"""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import HOUSE, AccountKind, parse_account
from app.games.core.hand import CompletedHand, GameStats
from app.games.trente_et_quarante.coup import CHANCES, UN_APRES


class TrenteEtQuaranteStats(GameStats):
    """Counters over simulated coups."""

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.hands = 0
        self.void = 0
        self.rows = dict.fromkeys(range(31, 41), 0)
        """How often each row total came up (a row ends between 31 and 40)."""
        self.ties = 0
        self.ties_31 = 0
        self.wins = dict.fromkeys(CHANCES, 0)
        self.staked = {False: 0, True: 0}
        """Chips staked, by insured (True) or not (False)."""
        self.house = {False: 0, True: 0}
        """The house's net result from those stakes, the same way."""

    def observe(self, hand: CompletedHand) -> None:
        self.hands += 1
        for transfer in hand.transfers:
            if transfer.target == HOUSE and parse_account(transfer.source)[0] is AccountKind.PRISON:
                self.house[False] += transfer.amount
        summary = hand.summary
        if summary.get("void"):
            self.void += 1
            return
        self.rows[summary["noir"]] += 1
        self.rows[summary["rouge"]] += 1
        tie = summary["tie"]
        if tie is not None:
            self.ties += 1
            if tie == UN_APRES:
                self.ties_31 += 1
        else:
            self.wins[summary["winner"]] += 1
            self.wins[summary["colour"]] += 1
        staked, house = self.staked, self.house
        for stake in summary["stakes"]:
            insured = bool(stake["insured"])
            staked[insured] += stake["amount"]
            house[insured] += stake["house"]

    def _per_chip(self, insured: bool) -> float | None:
        staked = self.staked[insured]
        return round(self.house[insured] / staked, 6) if staked else None

    def report(self) -> dict[str, Any]:
        dealt = self.hands - self.void
        return {
            "hands": self.hands,
            "void": self.void,
            "rows": {str(total): self.rows[total] for total in range(31, 41)},
            "ties": self.ties,
            "ties_31": self.ties_31,
            "tie_rate": round(self.ties / dealt, 6) if dealt else None,
            "tie_31_rate": round(self.ties_31 / dealt, 6) if dealt else None,
            "wins": {chance: self.wins[chance] for chance in CHANCES},
            "chips_staked": self.staked[False],
            "chips_staked_insured": self.staked[True],
            "house_result_per_chip": self._per_chip(False),
            "house_result_per_chip_insured": self._per_chip(True),
        }
