"""One client's socket as the table sees it: who it is, and a send queue that never blocks.

The table actor puts encoded messages on the queue and moves on; a per-connection task
writes them to the socket. A client too slow to keep up (its queue full) is closed with
a reason rather than slowing its table down.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Protocol

SEND_QUEUE_LIMIT = 256
_ids = itertools.count(1)


class Sink(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False


class Connection:
    """A connected client: its player (if any), its outgoing queue and its writer task."""

    def __init__(self, sink: Sink, player_id: str | None, name: str | None) -> None:
        self.id = next(_ids)
        self.sink = sink
        self.player_id = player_id
        self.name = name
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SEND_QUEUE_LIMIT)
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._pump(), name=f"conn-{self.id}")

    def send(self, text: str) -> None:
        """Queue a message; a client whose queue is full is closed (too slow)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1008, "too slow to keep up with the table")

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued have been sent."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = reason
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            if self._task is not None:
                self._task.cancel()

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.sink.send_text(text)
        except Exception:
            self.closed = True
            return
        try:
            await self.sink.close(self.close_code, self.close_reason)
        except Exception:
            return

    async def wait_closed(self) -> None:
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
