"""A clock for the tables of a server the test drives in-process (app/ops/clock.py): the
system's timers, a time the test can move on, and what is still set on it.

Given to the lobby before a test opens its tables (``live.services.lobby.clock = clock``: the
lobby hands its clock to every table it opens), it lets a test

* make time pass for a table at once (``clock.pass_time(seconds)``: how long a seat has been
  sitting out, how long a table of bots has been alone), rather than sleeping until it has;
* see that a table will do nothing more by itself (``clock.pending == 0``: no clock, bot,
  next hand or chore of it is set, so nothing can deal it a hand until someone acts), rather
  than sleeping a while and seeing that nothing happened meanwhile;
* see that a table's next hand waits for the database writer (``clock.waits``: the times the
  next hand, due, has waited for the writer's backlog).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app.ops.clock import Cancellable, SystemClock


class _Set:
    """A timer set on the clock, forgotten once it has run or been cancelled."""

    __slots__ = ("clock", "handle")

    def __init__(self, clock: TableClock) -> None:
        self.clock = clock
        self.handle: Cancellable | None = None

    def cancel(self) -> None:
        self.clock._set.discard(self)
        if self.handle is not None:
            self.handle.cancel()


class TableClock(SystemClock):
    def __init__(self) -> None:
        self.offset = 0.0
        self._set: set[_Set] = set()
        self.waits = 0

    def now(self) -> float:
        return time.time() + self.offset

    def pass_time(self, seconds: float) -> None:
        """Move this clock's time on (its timers still run on the loop's)."""
        self.offset += seconds

    @property
    def pending(self) -> int:
        """Timers set and not yet run or cancelled."""
        return len(self._set)

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Cancellable:
        entry = _Set(self)

        def run() -> None:
            self._set.discard(entry)
            callback(*args)

        self._set.add(entry)
        entry.handle = super().call_later(delay, run)
        return entry

    async def sleep(self, delay: float) -> None:
        self.waits += 1  # (a table sleeps only while its next hand waits for the writer)
        await super().sleep(delay)
