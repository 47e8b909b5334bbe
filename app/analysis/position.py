"""A decision as the analysis meets it (docs/analysis.md §1): the table just before it, who
decides, what ``legal`` offered and what was chosen.

The engine holds every card, hidden ones included; a game's analyser reads of it only what the
deciding seat could see (its :meth:`~app.games.core.game.Game.view`, and the cards the game's
rules make public) and deals everything else afresh or enumerates over it. The test of that is
``tests/analysis/test_hidden.py``: positions that differ only in what the seat cannot see get
the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from app.analysis.figures import Option
from app.games.core.actions import Action, LegalAction
from app.games.core.cards import is_valid_card
from app.games.core.game import Game
from app.games.core.views import View


@dataclass(frozen=True)
class Effort:
    """How hard to work at an estimate (docs/analysis.md §2): the hands simulated for each
    option, and whether the figures may be *quick* (a ``best`` bot deciding at the table: where
    a game's exact figures would cost too much, the analyser takes an approximation, marked not
    exact: Vingt-un's effects of removal, Trente et Quarante's independent rows). Said outright,
    never read from the samples: fewer samples alone change no method."""

    samples: int = 1_000
    quick: bool = False


ANALYSIS_EFFORT = Effort(1_000)
"""A finished hand's analysis (docs/analysis.md §3); the server's worker takes its samples from
the ``ANALYSIS_SAMPLES`` setting (1,000 by default: app/runtime/analysis_worker.py)."""
BOT_EFFORT = Effort(150, quick=True)
"""A ``best`` bot deciding at the table (docs/analysis.md §5)."""


@dataclass
class Position:
    """One decision: the table just before it."""

    engine: Game
    seat: int
    legal: list[LegalAction]
    chosen: Action | None = None
    """The action taken (None for a bot asking which to take)."""

    @property
    def view(self) -> View:
        return self.engine.view(self.seat)


@dataclass
class Verdict:
    """What a game's analyser says of a position: every option worth telling apart, with its
    figures (the chosen action among them), and the model in a sentence."""

    options: list[Option]
    note: str | None = None


class Analyser(Protocol):
    """A game's analysis (``app/analysis/<game>.py``, registered in :mod:`app.analysis`)."""

    def decides(self, position: Position) -> bool:
        """Is this a decision at all (two options or more that can end differently)?"""

    def analyse(self, position: Position, effort: Effort, rng: Any) -> Verdict:
        """The figures of every option (the chosen one among them, when there is one)."""


def card_codes(value: Any) -> list[str]:
    """Every card code in a view (or any JSON value), as often as it shows it."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if is_valid_card(item):
                found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def cards_in(value: Any) -> set[str]:
    """Every card code in a view (or any JSON value): the cards it shows."""
    return set(card_codes(value))
