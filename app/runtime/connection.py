"""One client's socket as the table sees it: who it is, and a send that never blocks.

The table actor hands each message to :meth:`Connection.send` and moves on. A socket that can
take it at once is written to there and then, with no task (thousands of messages a second go
out this way; a task for each cost the loop more than the write itself, docs/performance.md
§9). A socket that cannot (the client reads slowly and the transport has paused) gets a task
that finishes that write, then writes what was queued behind it, and ends when the queue is
empty: most sockets are idle most of the time, and a task per socket would cost each of them
a coroutine frame. A client too slow to keep up (its queue full) is closed with a reason
rather than slowing its table down.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Coroutine, Generator
from typing import Any, Protocol

from app.i18n.locales import DEFAULT
from app.i18n.messages import localize

SEND_QUEUE_LIMIT = 256
_ids = itertools.count(1)


class Sink(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``.

    A socket's own bucket also carries its fair share of its address's budget
    (:meth:`fair_share`, used by :class:`app.runtime.limits.AddressLimits` while the address
    runs low) and ``refused``, the refusals the socket has run up (app/api/ws.py)."""

    __slots__ = ("burst", "rate", "refused", "share", "share_stamp", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic() if now is None else now
        self.refused = 0
        self.share = 0.0  # fills with time: a new socket brings no fresh burst with it
        self.share_stamp = self.stamp

    def allow(self, now: float | None = None) -> bool:
        """Take a token if there is one (``now``: ``time.monotonic()``, if the caller has it)."""
        if now is None:
            now = time.monotonic()
        tokens = self.tokens + (now - self.stamp) * self.rate
        self.tokens = tokens = min(self.burst, tokens)
        self.stamp = now
        if tokens >= 1.0:
            self.tokens = tokens - 1.0
            return True
        return False

    def full_at(self, now: float) -> bool:
        """Whether the bucket will have refilled by ``now``."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst

    def refill(self, now: float) -> float:
        """The tokens at ``now``, without taking one."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def fair_share(self, now: float, rate: float, burst: float) -> bool:
        """Take a token from a second bucket, of ``rate`` and ``burst`` given at each call
        (an address's budget divided by its sockets, which come and go)."""
        share = min(burst, self.share + (now - self.share_stamp) * rate)
        self.share_stamp = now
        if share >= 1.0:
            self.share = share - 1.0
            return True
        self.share = share
        return False


CLOSE_REASON_BYTES = 120
"""A close frame holds at most 123 bytes of reason (UTF-8); the words are cut to this."""


def close_words(reason: str, locale: str) -> str:
    """A close frame's reason worded in ``locale`` and cut to :data:`CLOSE_REASON_BYTES` of
    UTF-8 at a character's end (a Greek letter takes two bytes)."""
    words = str(localize(reason, locale)) if reason else ""
    return words.encode()[:CLOSE_REASON_BYTES].decode("utf-8", "ignore")


class Connection:
    """A connected client: its player (if any), its outgoing queue and, while a write waits
    for the socket, the task that finishes it and writes out the queue. Slotted, with a
    plain list for a queue (a deque costs 760 bytes even empty): thousands of these live at
    once (docs/performance.md)."""

    __slots__ = (
        "_sink_closed",
        "_task",
        "close_code",
        "close_reason",
        "closed",
        "id",
        "locale",
        "name",
        "player_id",
        "queue",
        "sink",
    )

    def __init__(
        self, sink: Sink, player_id: str | None, name: str | None, locale: str = DEFAULT
    ) -> None:
        self.id = next(_ids)
        self.locale = locale  # the reader's language: its errors are worded in it
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
        """Write a message now if nothing is in flight, else queue it behind what is; a
        client whose queue is full is closed (too slow): what it has not received yet is
        dropped and the close frame follows the message being sent."""
        if self.closed:
            return
        if self._task is None:
            if not self._sink_closed:
                self._write_now(text)
            return
        if len(self.queue) >= SEND_QUEUE_LIMIT:
            self.queue.clear()
            self.close(1008, "too slow to keep up with the table")
            return
        self.queue.append(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the messages already queued have been sent; ``reason`` (the table's
        own words: a closed table's, a stopped one's) in the reader's language."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.close_reason = close_words(reason, self.locale)
        if self._task is None and not self._sink_closed:
            self._task = asyncio.get_running_loop().create_task(
                self._pump(), name=f"conn-{self.id}"
            )

    def _write_now(self, text: str) -> None:
        """Run the socket's send up to its first wait: a socket that takes the frame at once
        is done there. One that waits (its transport paused) finishes in a task."""
        write = self.sink.send_text(text)
        try:
            waiting = write.send(None)
        except StopIteration:
            return
        except Exception:
            self._lost()
            return
        self._task = asyncio.get_running_loop().create_task(
            self._pump(_resume(write, waiting)), name=f"conn-{self.id}"
        )

    def _lost(self) -> None:
        """The socket is gone: nothing more can go out."""
        self.closed = self._sink_closed = True
        self.queue.clear()

    async def _pump(self, first: Awaitable[None] | None = None) -> None:
        """Finish ``first`` (a write under way), write out the queue, then the close frame
        once closed; end when nothing is left."""
        try:
            if first is not None:
                await first
            queue = self.queue
            while queue:
                await self.sink.send_text(queue.pop(0))  # a few at most, rarely many
            if self.closed:
                self._sink_closed = True
                await self.sink.close(self.close_code, self.close_reason)
        except Exception:
            self._lost()
        finally:
            self._task = None

    async def wait_closed(self) -> None:
        """Wait until what is queued, and the close frame once closed, has been written."""
        task = self._task
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)


class _Yield:
    """Awaiting it yields ``value`` to the task that runs it, as a coroutine's own await did."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self) -> Generator[Any, Any, Any]:
        return (yield self.value)


async def _resume(coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Run the rest of ``coroutine``, which was stepped by hand and is waiting on
    ``waiting`` (a future, or None for a bare yield): the task running this waits on it in
    its place, then hands the coroutine what the task is given (a cancellation too)."""
    while True:
        try:
            value = await _Yield(waiting)
        except BaseException as exc:
            try:
                waiting = coroutine.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = coroutine.send(value)
            except StopIteration:
                return
