"""A table's core played in virtual time, with no loop, socket or database.

:class:`CoreTable` carries out the core's effects as the shell does, in their order: the
jobs are "committed" (kept in :attr:`CoreTable.jobs`), then the frames go to the watchers
(:class:`Viewer`, which keeps what it was told), then the timers are set on a
:class:`~app.ops.clock.VirtualClock`. When the clock is moved on, the timers that run out call
the core back as the shell's would. A whole evening of clocks plays in milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.core.config import Settings
from app.games.core.game import Game
from app.ops.clock import Cancellable, VirtualClock
from app.runtime.house import House
from app.runtime.protocol import Act
from app.runtime.table.core import TableCore
from app.runtime.table.effects import BOTS, DECISION, NEXT_HAND, Effects, Job


@dataclass(eq=False)
class Viewer:
    """A watcher that keeps every frame it is told, decoded."""

    player_id: str | None
    name: str | None = None
    locale: str = "en"
    closed: bool = False
    close_code: int | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "state"]

    def last_view(self) -> dict[str, Any]:
        return self.states()[-1]["view"]


def settings(**changes: Any) -> Settings:
    values: dict[str, Any] = {
        "environment": "test",
        "database_url": "sqlite+aiosqlite:///:memory:",
        "secret_key": "test-secret-key-0123456789",
    }
    values.update(changes)
    return Settings(**values)


class CoreTable:
    """One core, its effects carried out as the shell carries them out, in virtual time."""

    def __init__(
        self,
        game_cls: type[Game],
        options: dict[str, Any] | None = None,
        *,
        created_by: str | None = None,
        house: House | None = None,
        on_frame: Callable[[Viewer, str], None] | None = None,
        **setting: Any,
    ) -> None:
        self.clock = VirtualClock()
        self.core = TableCore(
            table_id="t-core",
            name="Core",
            game_cls=game_cls,
            options=options or {},
            settings=settings(**setting),
            clock=self.clock.now,
            created_by=created_by,
            house=house,
        )
        self.jobs: list[Job] = []
        self.told_after: list[tuple[int, str]] = []
        """For every frame told: how many jobs were committed by then, and the frame."""
        self.on_frame = on_frame
        self._timers: dict[str, Cancellable] = {}
        self._ids = 0

    # ------------------------------------------------------------------ carrying out

    def step(self, call: Callable[..., Effects], *args: Any, **kwargs: Any) -> Effects:
        """One step of the core, its effects carried out (a refusal is raised once what the
        step left is carried out, as the shell's section does)."""
        try:
            fx = call(*args, **kwargs)
        finally:
            leftover = self.core.take_effects()
        self.carry_out(leftover)
        self.carry_out(fx)
        return fx

    def carry_out(self, fx: Effects) -> None:
        if fx.stop:
            for handle in self._timers.values():
                handle.cancel()
            self._timers.clear()
        self.jobs.extend(fx.background)
        self.jobs.extend(fx.jobs)
        for watcher, frame in fx.frames:
            self.told_after.append((len(self.jobs), frame))
            if self.on_frame is not None:
                self.on_frame(watcher, frame)  # type: ignore[arg-type]
            watcher.frames.append(orjson.loads(frame))  # type: ignore[attr-defined]
        for watcher, code, _reason in fx.closes:
            watcher.closed = True  # type: ignore[misc]
            watcher.close_code = code  # type: ignore[attr-defined]
        if self.core.stopped:
            return
        for name, timer in fx.timers.items():
            old = self._timers.pop(name, None)
            if old is not None:
                old.cancel()
            if timer is not None:
                self._timers[name] = self.clock.call_later(
                    timer.seconds, self._ring, name, timer.key
                )

    def _ring(self, name: str, key: Any) -> None:
        self._timers.pop(name, None)
        if name == DECISION:
            self.step(self.core.clock_ran_out, key)
        elif name == BOTS:
            self.step(self.core.bots_act)
        elif name == NEXT_HAND:
            self.step(self.core.deal_next)

    def advance(self, seconds: float) -> None:
        """Move the table's time on: its timers run out as they would."""
        self.clock.advance(seconds)

    def set(self, name: str) -> bool:
        return name in self._timers

    # ------------------------------------------------------------------ people

    def sit(self, seat: int, player_id: str, name: str, buy_in: int, *, bot: bool = False) -> None:
        """A buy-in that the database took: the seat is the player's."""
        self.core.reserved[seat] = player_id
        self.step(self.core.take_seat, seat, player_id, name, buy_in, is_bot=bot)

    def watch(self, player_id: str | None, name: str | None = None, locale: str = "en") -> Viewer:
        viewer = Viewer(player_id, name, locale)
        self.step(self.core.join, viewer)
        return viewer

    def act(self, viewer: Viewer, kind: str, **params: Any) -> Effects:
        self._ids += 1
        act = Act(f"a{self._ids}", self.core.version, {"kind": kind, **params})
        return self.step(self.core.act, viewer, act)
