"""What the parts of a Trente et Quarante table read and change of it (docs/rules.md §4).

The engine (:mod:`.engine`) is the table; the betting window (:mod:`.window`), the settlement
(:mod:`.scoring`) and the view (:mod:`.view`) work on it through :class:`TrenteEtQuaranteState`,
so that none of them imports the engine and the engine imports them all.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.games.core.actions import LegalAction
from app.games.core.cards import Stock
from app.games.trente_et_quarante.stakes import FreeStake, PrisonStake


class AwaitingChoices(Protocol):
    """A settled coup that waits for un après choices."""

    @property
    def pending(self) -> dict[int, set[str]]:
        """Un après: each owner's chances whose free stakes await a choice."""
        ...

    @property
    def held(self) -> dict[int, set[int]]:
        """Un après: each owner's stakes in prison (by id) that await a choice."""
        ...

    @property
    def choosing(self) -> set[int]:
        """The owners who still have a choice to make."""
        ...


class TrenteEtQuaranteState(Protocol):
    """The table's state between and during coups, and the engine's services the parts use."""

    free: dict[int, dict[str, FreeStake]]
    """Each bettor's free stakes by chance."""
    prison: list[PrisonStake]
    next_prison_id: int
    done: set[int]
    """Bettors who said they are done in this window."""
    countdown: bool
    """The window's countdown runs (a stake is down)."""
    opening_templates: dict[tuple[int, bool, bool], list[LegalAction]]

    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def balances(self) -> dict[str, int]: ...
    @property
    def phase(self) -> str: ...
    @property
    def settlement(self) -> AwaitingChoices | None: ...
    @property
    def last(self) -> dict[str, Any] | None: ...
    @property
    def history(self) -> list[dict[str, Any]]: ...
    @property
    def coups_in_shoe(self) -> int: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def stock(self) -> Stock: ...
    @property
    def seated(self) -> list[int]: ...
    @property
    def house_available(self) -> int: ...
    @property
    def prison_movable(self) -> bool: ...
    def house_exposure(self) -> int: ...
    def pay(self, source: str, target: str, amount: int, reason: str) -> None: ...
    def log(
        self,
        kind: str,
        *,
        seat: int | None = None,
        private_to: list[int] | None = None,
        **data: Any,
    ) -> None: ...
    def log_event(self, event: dict[str, Any]) -> None: ...
