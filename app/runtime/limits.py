"""Per-address limits on the table sockets: connections open at once, and messages a second
shared by all of an address's sockets (on top of each socket's own rate limit).

An address's budget outlives its sockets: closing the last one and opening another must not
hand out a fresh burst (reconnecting once gave 8,200 pongs in 3 s against a budget of 100 a
second and a burst of 200). Its bucket is kept until it has refilled, as a new one would
be, and then dropped: the memory held is bounded by the addresses seen in the last seconds.

Fairness between the sockets of one address (people behind one router, a flooder next to a
player): once the address's bucket is down to half, a socket may take from it only within
its fair share (the address's rate divided among its open sockets, kept by each socket's
:meth:`~app.runtime.connection.RateLimiter.fair_share`). A flood then takes no more than its
share and the others' messages still find tokens; every message is still charged to the
address, which never goes over budget. A socket's share fills with time: reconnecting
brings a flooder no fresh share.
"""

from __future__ import annotations

import time

from app.runtime.connection import RateLimiter

SWEEP_SECONDS = 1.0
"""How often, at most, the buckets of addresses without a socket are looked over."""


class AddressLimits:
    def __init__(self, max_connections: int, rate: float, burst: int) -> None:
        self.max_connections = max_connections
        self.rate = rate
        self.burst = burst
        self.open: dict[str, int] = {}
        self._buckets: dict[str, RateLimiter] = {}
        self._idle: dict[str, None] = {}
        """Addresses with a bucket and no socket open, oldest first."""
        self._swept = time.monotonic()

    def admit(self, address: str) -> bool:
        """Count a new socket from ``address``; False when it already has too many."""
        count = self.open.get(address, 0)
        if count >= self.max_connections:
            return False
        self.open[address] = count + 1
        self._idle.pop(address, None)
        self._sweep()
        return True

    def release(self, address: str) -> None:
        """A socket from ``address`` closed. Its budget stays until it has refilled."""
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
            return
        self.open.pop(address, None)
        if address in self._buckets:
            self._idle[address] = None
        self._sweep()

    def _sweep(self) -> None:
        """Forget the buckets of addresses without a socket that have refilled (a new one
        would be as full): looked over at most every ``SWEEP_SECONDS``, as sockets come
        and go."""
        now = time.monotonic()
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        for address in [a for a in self._idle if self._buckets[a].full_at(now)]:
            del self._idle[address]
            del self._buckets[address]

    @property
    def tracked(self) -> int:
        """Addresses whose budget is held in memory (open sockets, or refilling)."""
        return len(self._buckets)

    def allow_message(self, address: str, socket: RateLimiter, now: float) -> bool:
        """Charge one message from ``socket`` to ``address``'s budget; while that budget is
        down to half, only within the socket's fair share of it."""
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = RateLimiter(self.rate, self.burst, now)
        tokens = bucket.refill(now)
        if tokens < 1.0:
            return False
        if tokens < bucket.burst / 2:
            sockets = self.open.get(address, 1)
            if not socket.fair_share(now, self.rate / sockets, max(1.0, self.burst / sockets)):
                return False
        bucket.tokens = tokens - 1.0
        return True
