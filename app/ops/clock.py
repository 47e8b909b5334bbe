"""A chore the event loop runs every few seconds: the collector's young collections
(app/ops/collector.py) and the heap trimmer's trims (app/ops/memory.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Every:
    """Calls ``chore`` every ``seconds`` on the loop that started it, until stopped."""

    __slots__ = ("_handle", "chore", "seconds")

    def __init__(self, seconds: float, chore: Callable[[], object]) -> None:
        self.seconds = seconds
        self.chore = chore
        self._handle: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        return self._handle is not None

    def start(self) -> None:
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_later(self.seconds, self._run)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _run(self) -> None:
        try:
            self.chore()
        finally:
            if self._handle is not None:  # not stopped by the chore itself
                self._handle = asyncio.get_running_loop().call_later(self.seconds, self._run)
