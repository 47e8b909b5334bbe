"""Tables each player has opened in the last hour (``MAX_TABLES_PER_HOUR``), counted in
memory by a monotonic clock that a test may drive.

The limit on open tables (``MAX_TABLES_PER_PLAYER``) alone let one player open 103 tables in
30 s, each closed as soon as opened. A closed table counts here until an hour has passed since
it was opened. Each process counts its own openings (a cluster's node, its own).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from app.i18n.messages import N_, Plural, Text

HOUR = 3600.0


class LimitReached(Exception):
    """A player has used up a share of the server: tables open, bots at a table (the routes
    answer 409 with the message), tables opened in the last hour (``retry_after``: the
    seconds until they may open another; 429)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def in_words(seconds: float) -> str:
    """A wait as the player reads it: "in 40 seconds", "in 12 minutes" (rounded up)."""
    whole = max(1, int(-(-seconds // 1)))
    if whole < 60:
        return Plural("in {n} second", "in {n} seconds", n=whole)
    return Plural("in {n} minute", "in {n} minutes", n=-(-whole // 60))


class Openings:
    """When each player opened their tables, within the last hour."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        """Seconds, monotonic: a test sets a clock of its own and moves it."""
        self._times: dict[str, deque[float]] = {}
        self._sweep_at = 1024

    def take(self, player: str | None, most: int) -> bool:
        """Count an opening by ``player`` now (True), unless they have opened ``most`` tables
        in the last hour: then count nothing and raise :class:`LimitReached` saying when the
        oldest of those is an hour old, and they may open another. No player (the server's
        own) or no ``most``: no limit, nothing counted (False)."""
        if player is None or not most:
            return False
        now = self.clock()
        times = self._times.setdefault(player, deque())
        while times and now - times[0] >= HOUR:
            times.popleft()
        if len(times) >= most:
            wait = max(HOUR - (now - times[0]), 1e-3)
            raise LimitReached(
                Text(
                    N_(
                        "you have opened {most} tables in the last hour, the most one player"
                        " may: you may open another {when}"
                    ),
                    most=most,
                    when=in_words(wait),
                ),
                retry_after=wait,
            )
        times.append(now)
        self._forget(now)
        return True

    def give_back(self, player: str) -> None:
        """An opening counted by :meth:`take` that did not happen (its write failed)."""
        times = self._times.get(player)
        if times:
            times.pop()
            if not times:
                del self._times[player]

    def _forget(self, now: float) -> None:
        """Drop the players with no opening in the last hour, whenever the players counted
        have doubled since the last time: memory stays bounded by the last hour's openers."""
        if len(self._times) < self._sweep_at:
            return
        for player in [p for p, t in self._times.items() if not t or now - t[-1] >= HOUR]:
            del self._times[player]
        self._sweep_at = max(1024, 2 * len(self._times))
