"""The ids of a player's last accepted acts: what makes a resent act idempotent.

docs/protocol.md: "a resend with the same id is acknowledged again and applied once". The table
keeps the last :data:`REMEMBERED` accepted ids of each player (docs/protocol.md §5.4). They
are kept as the ids' 64-bit hashes in one array, 320 bytes a player, rather than as the ids
themselves in a dict, about 3 KiB a player with ids of a dozen characters: at 5,000 sockets
that was most of what a connection's memory grew by in play (docs/performance.md §9).
Python's string hash is keyed at random per process (SipHash), so a new id of a player takes
for one of their own 32 last ids with a chance of about 32 in 2^64, and nobody can aim at
it.
"""

from __future__ import annotations

from array import array

REMEMBERED = 32
"""Accepted ids remembered per player."""


class AcceptedActs:
    """A ring of the last :data:`REMEMBERED` accepted act ids of one player."""

    __slots__ = ("_hashes", "_next")

    def __init__(self) -> None:
        self._hashes = array("q")
        self._next = 0

    def __contains__(self, act_id: str) -> bool:
        return hash(act_id) in self._hashes

    def __len__(self) -> int:
        return len(self._hashes)

    def add(self, act_id: str) -> None:
        """Remember ``act_id``, forgetting the oldest once :data:`REMEMBERED` are kept."""
        hashes = self._hashes
        if len(hashes) < REMEMBERED:
            hashes.append(hash(act_id))
            return
        hashes[self._next] = hash(act_id)
        self._next = (self._next + 1) % REMEMBERED
