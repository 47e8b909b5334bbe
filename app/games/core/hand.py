"""What a hand leaves behind and the clock it runs on: the :class:`Timer` the runtime runs,
the :class:`CompletedHand` it stores, and the :class:`GameStats` a simulation counts."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from app.games.core.cards import Shuffle
from app.games.core.money import Transfer


@dataclass(frozen=True)
class Timer:
    """The decision clock the runtime should run now.

    ``key`` identifies one decision (or one betting window): the runtime restarts the clock
    only when the key changes, so bets arriving inside a window do not extend it.
    """

    key: tuple[Any, ...]
    seconds: float


@dataclass
class CompletedHand:
    """What the runtime stores when a hand ends: its transfers, log, shuffles and result."""

    transfers: list[Transfer]
    log: list[dict[str, Any]]
    new_shuffles: list[Shuffle]
    retired_shuffles: list[Shuffle]
    void: bool = False
    summary: dict[str, Any] = field(default_factory=dict)


class GameStats(ABC):
    """What ``python -m app simulate GAME`` counts: fed every finished hand, then reported."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options

    @abstractmethod
    def observe(self, hand: CompletedHand) -> None:
        """Count one finished hand (its log, transfers and summary)."""

    @abstractmethod
    def report(self) -> dict[str, Any]:
        """The figures, JSON-ready (``hands`` among them)."""
