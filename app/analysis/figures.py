"""What an analysis says of one decision: each option's chances and expected chips
(docs/analysis.md §1).

An option's :class:`Figures` are the deciding seat's chances to *win*, *tie* and *lose* the
hand (or the coup, or the round: the unit each game's section names) and ``ev``, the chips it
expects to gain (negative: to lose) with that option, counted on the seat's stack and what it
has put up. ``exact`` figures come from an enumeration over the unseen cards; the others are
estimates by simulation, with ``samples`` played and a 95% interval on ``ev``
(``ev_low``..``ev_high``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from app.games.core.actions import Action

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""

BEST_TOLERANCE = 0.005
"""Chips: an option within this of the best, in expectation, counts as best too."""


@dataclass(frozen=True)
class Figures:
    """One option's chances and expected chips (docs/analysis.md §1)."""

    win: float
    tie: float
    lose: float
    ev: float
    exact: bool
    samples: int | None = None
    ev_low: float | None = None
    ev_high: float | None = None

    @property
    def half_width(self) -> float:
        """Half the 95% interval on ``ev`` (0 when exact)."""
        if self.exact or self.ev_low is None or self.ev_high is None:
            return 0.0
        return (self.ev_high - self.ev_low) / 2

    def scaled(self, factor: float) -> Figures:
        """The same chances with ``ev`` (and its interval) multiplied by ``factor``: a stake's
        figures from those of one chip, where the outcome does not depend on the amount."""
        return Figures(
            self.win,
            self.tie,
            self.lose,
            self.ev * factor,
            self.exact,
            self.samples,
            None if self.ev_low is None else self.ev_low * factor,
            None if self.ev_high is None else self.ev_high * factor,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "win": round(self.win, 6),
            "tie": round(self.tie, 6),
            "lose": round(self.lose, 6),
            "ev": round(self.ev, 4),
            "exact": self.exact,
        }
        if not self.exact:
            out["samples"] = self.samples
            out["interval"] = {
                "ev": [round(self.ev_low or 0.0, 4), round(self.ev_high or 0.0, 4)],
                "confidence": 0.95,
            }
        return out


def exact(win: float, tie: float, lose: float, ev: float) -> Figures:
    """Figures from an enumeration."""
    return Figures(win, tie, lose, ev, True)


class Tally:
    """Outcomes counted by simulation: the chips each sample ended with, and who won."""

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0
        self.ties = 0
        self.losses = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, net: float, outcome: str | None = None) -> None:
        """One sample: the chips it gained (negative: lost), and ``win``/``tie``/``lose``
        (from the sign of ``net`` when not given)."""
        self.n += 1
        self.total += net
        self.squares += net * net
        outcome = outcome or ("win" if net > 0 else "lose" if net < 0 else "tie")
        if outcome == "win":
            self.wins += 1
        elif outcome == "lose":
            self.losses += 1
        else:
            self.ties += 1

    def figures(self) -> Figures:
        """The estimate, with its 95% interval (the normal approximation to the mean)."""
        if self.n == 0:
            raise ValueError("no sample")
        mean = self.total / self.n
        variance = max(0.0, self.squares / self.n - mean * mean) * self.n / max(1, self.n - 1)
        half = Z95 * math.sqrt(variance / self.n)
        return Figures(
            self.wins / self.n,
            self.ties / self.n,
            self.losses / self.n,
            mean,
            False,
            self.n,
            mean - half,
            mean + half,
        )


@dataclass(frozen=True)
class Option:
    """An option that ``legal`` offered, with its figures."""

    action: Action
    figures: Figures

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, **self.figures.to_json()}


@dataclass
class Decision:
    """One decision of a finished hand, analysed (docs/analysis.md §1)."""

    step: int
    """The replay's step the decision made (its entry's index + 1; docs/review.md)."""
    seat: int
    chosen: Action
    options: list[Option]
    by: str = "player"
    """Who decided: ``player``, ``timeout`` or ``bot`` (the record's ``by``)."""
    private: list[str] = field(default_factory=list)
    """The cards the analysis used that were not public when the decision was made: it is
    shown to another viewer only when that viewer saw every one of them (docs/analysis.md §4)."""
    note: str | None = None
    """What the analysis assumed, in a sentence (the model of the others, the unit)."""

    @property
    def chosen_index(self) -> int:
        for i, option in enumerate(self.options):
            if option.action == self.chosen:
                return i
        raise ValueError(f"the chosen action {self.chosen} is not among the options")

    @property
    def best_index(self) -> int:
        return max(range(len(self.options)), key=lambda i: self.options[i].figures.ev)

    @property
    def given_up(self) -> float:
        """Chips the chosen option gave up in expectation against the best (0 or more)."""
        return max(
            0.0,
            self.options[self.best_index].figures.ev - self.options[self.chosen_index].figures.ev,
        )

    @property
    def chose_best(self) -> bool:
        """The chosen option is the best, or not distinguishably worse than it: within
        :data:`BEST_TOLERANCE` chips, or within the two estimates' intervals."""
        best = self.options[self.best_index].figures
        chosen = self.options[self.chosen_index].figures
        slack = max(BEST_TOLERANCE, best.half_width + chosen.half_width)
        return self.given_up <= slack

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seat": self.seat,
            "by": self.by,
            "options": [o.to_json() for o in self.options],
            "chosen": self.chosen_index,
            "best": self.best_index,
            "chose_best": self.chose_best,
            "given_up": round(self.given_up, 4),
            "exact": all(o.figures.exact for o in self.options),
            "note": self.note,
        }
