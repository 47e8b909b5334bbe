"""One client's socket as the table sees it: who it is, and a send queue that never blocks.

The table actor puts encoded messages on the queue and moves on; a task writes them to the
socket. That task exists only while there is something to write: it is started when a
message is queued and ends when the queue is empty (most sockets are idle most of the time,
and a task per socket would cost each of them a coroutine frame). A client too slow to keep
up (its queue full) is closed with a reason rather than slowing its table down.
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

    __slots__ = ("burst", "rate", "refused", "stamp", "tokens")

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
    """A connected client: its player (if any), its outgoing queue and, while the queue holds
    something, the task that writes it out. Slotted, with a plain list for a queue (a deque
    costs 760 bytes even empty): thousands of these live at once (docs/performance.md)."""

    __slots__ = (
        "_sink_closed",
        "_task",
        "close_code",
        "close_reason",
        "closed",
        "id",
        "name",
        "player_id",
        "queue",
        "sink",
    )

    def __init__(self, sink: Sink, player_id: str | None, name: str | None) -> None:
        self.id = next(_ids)
        self.sink = sink
        self.player_id = player_id
        self.name = name
        self.queue: list[str] = []
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self._task: asyncio.Task[None] | None = None
        self._sink_closed = False

    def send(self, text: str) -> None:
        """Queue a message; a client whose queue is full is closed (too slow): what it has
        not received yet is dropped and the close frame follows the message being sent."""
        if self.closed:
            return
        if len(self.queue) >= SEND_QUEUE_LIMIT:
            self.queue.clear()
            self.close(1008, "too slow to keep up with the table")
            return
        self.queue.append(text)
        self._wake()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued have been sent."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = reason
        self._wake()

    def _wake(self) -> None:
        if self._task is None and not self._sink_closed:
            self._task = asyncio.get_running_loop().create_task(
                self._pump(), name=f"conn-{self.id}"
            )

    async def _pump(self) -> None:
        """Write out the queue, then the close frame once closed; end when nothing is left."""
        try:
            queue = self.queue
            while queue:
                await self.sink.send_text(queue.pop(0))  # a few at most, rarely many
            if self.closed:
                self._sink_closed = True
                await self.sink.close(self.close_code, self.close_reason)
        except Exception:
            # the socket is gone: nothing more can go out
            self.closed = self._sink_closed = True
            self.queue.clear()
        finally:
            self._task = None

    async def wait_closed(self) -> None:
        """Wait until what is queued, and the close frame once closed, has been written."""
        task = self._task
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
