"""The one clock: what time it is, calling back later, and waiting (docs/architecture.md);
and :class:`Every`, a chore run every few seconds on it (the collector, the heap trimmer, the
lobby's sweep).

Everything of a table that depends on time (its decision clock, its bots, the pause before
a hand, its stamps and deadlines) asks the clock it was given, never the loop or ``time``
directly. The server runs on :class:`SystemClock`; tests give a :class:`VirtualClock`, whose
time moves only when they move it, so a whole evening of clocks plays in milliseconds and
no test waits on the wall.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """What time it is (seconds since the epoch: deadlines are shown to players), a callback
    after a delay, and a wait."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Cancellable: ...

    async def sleep(self, delay: float) -> None: ...


class SystemClock:
    """The wall's time and the running loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Cancellable:
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    async def sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)


SYSTEM_CLOCK = SystemClock()


class Every:
    """Calls ``chore`` every ``seconds`` on ``clock``, until stopped."""

    __slots__ = ("_handle", "chore", "clock", "seconds")

    def __init__(
        self, seconds: float, chore: Callable[[], object], clock: Clock = SYSTEM_CLOCK
    ) -> None:
        self.seconds = seconds
        self.chore = chore
        self.clock = clock
        self._handle: Cancellable | None = None

    @property
    def running(self) -> bool:
        return self._handle is not None

    def start(self) -> None:
        if self._handle is None:
            self._handle = self.clock.call_later(self.seconds, self._run)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _run(self) -> None:
        try:
            self.chore()
        finally:
            if self._handle is not None:  # not stopped by the chore itself
                self._handle = self.clock.call_later(self.seconds, self._run)


class _Call:
    __slots__ = ("args", "callback", "cancelled")

    def __init__(self, callback: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """Time that moves only when :meth:`advance` moves it: the calls due by then run in
    order of their time (and of their setting, at the same time)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._due: list[tuple[float, int, _Call]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Cancellable:
        call = _Call(callback, args)
        heapq.heappush(self._due, (self._now + max(0.0, delay), next(self._order), call))
        return call

    async def sleep(self, delay: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        self.call_later(delay, wake)
        await woken

    def next_due(self) -> float | None:
        """When the next call is due (None: nothing is set)."""
        while self._due and self._due[0][2].cancelled:
            heapq.heappop(self._due)
        return self._due[0][0] if self._due else None

    def advance(self, seconds: float) -> int:
        """Move time on by ``seconds``, running every call due by then; how many ran."""
        end = self._now + seconds
        ran = 0
        while (due := self.next_due()) is not None and due <= end:
            at, _, call = heapq.heappop(self._due)
            self._now = max(self._now, at)
            call.callback(*call.args)
            ran += 1
        self._now = end
        return ran

    def run_next(self) -> bool:
        """Move time to the next call due and run it (and any due with it); False if none."""
        due = self.next_due()
        if due is None:
            return False
        self.advance(due - self._now)
        return True
