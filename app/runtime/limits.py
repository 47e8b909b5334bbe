"""Per-address limits on the table sockets: connections open at once, and messages a second
shared by all of an address's sockets (on top of each socket's own rate limit)."""

from __future__ import annotations

from collections import defaultdict

from app.runtime.connection import RateLimiter


class AddressLimits:
    def __init__(self, max_connections: int, rate: float, burst: int) -> None:
        self.max_connections = max_connections
        self.rate = rate
        self.burst = burst
        self.open: dict[str, int] = defaultdict(int)
        self._buckets: dict[str, RateLimiter] = {}

    def admit(self, address: str) -> bool:
        """Count a new socket from ``address``; False when it already has too many."""
        if self.open[address] >= self.max_connections:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            self.open.pop(address, None)
            self._buckets.pop(address, None)

    def allow_message(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = RateLimiter(self.rate, self.burst)
        return bucket.allow()
