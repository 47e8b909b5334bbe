"""The time bank (docs/rules.md §0.7): extra seconds each player may add to their own
decisions over the table's life.

The rules:

* A table's ``time_bank_seconds`` option (0: none) is what each player's bank holds when
  they first sit at the table; it is never refilled there.
* When it is a player's decision, the decision clock runs and their bank is not empty,
  their ``legal`` offers ``{"kind": "time_bank"}``. Pressing it (More time) adds
  :data:`CHUNK_SECONDS` (or what is left of the bank, if less) to the decision's deadline and
  takes them from the bank, whether the player uses them or not. It may be pressed again
  while the bank lasts.
* Where several players decide at once (a betting window), the clock is the table's: the
  extra seconds are everyone's, and only the presser's bank pays.
* The bank is kept per player at the table, not per seat: standing up and sitting again
  does not refill it. It is the evening's: when a room switches game (§0.15), what each
  player spent goes with them, and the new table's bank holds its option less that
  (:func:`carried`). It is stored with the table's between-hands state, so it survives a
  restart as that state does: what was spent in a hand a restart voids is given back.
"""

from __future__ import annotations

from typing import Any

CHUNK_SECONDS = 15
"""The seconds one press of More time adds (at most what is left of the bank)."""
KIND = "time_bank"
"""The table action that spends from the bank."""
STORED_KEY = "runtime_time_bank"
"""The table's stored state's key: each player's seconds left (player id -> seconds)."""


class TimeBank:
    """Each player's seconds left at one table."""

    __slots__ = ("full", "left")

    def __init__(self, full: int) -> None:
        self.full = full
        """What a player's bank holds when they first sit here (the table's option)."""
        self.left: dict[str, int] = {}
        """The seconds left of those who have spent some."""

    def of(self, player_id: str) -> int:
        """The seconds ``player_id`` has left."""
        return self.left.get(player_id, self.full)

    def spend(self, player_id: str) -> int:
        """Take one press's seconds from ``player_id``'s bank; the seconds taken (0: empty)."""
        taken = min(CHUNK_SECONDS, self.of(player_id))
        self.left[player_id] = self.of(player_id) - taken
        return taken

    def spent(self, player_id: str) -> int:
        """The seconds ``player_id`` has spent from this bank."""
        return self.full - self.of(player_id)

    def stored(self) -> dict[str, int]:
        return dict(sorted(self.left.items()))

    def restore(self, stored: Any) -> None:
        """What the stored state held (anything else: every bank full)."""
        self.left = {}
        if isinstance(stored, dict):
            for player_id, seconds in stored.items():
                if isinstance(player_id, str) and type(seconds) is int:
                    self.left[player_id] = max(0, min(seconds, self.full))


def carried(old: TimeBank, full: int, players: list[str]) -> dict[str, int]:
    """A room's switch: each of ``players``' seconds left at the new table, whose option
    gives ``full``: that less what they spent at the old one (never below none). Stored as
    the new table's bank (:data:`STORED_KEY`); those who spent nothing are left out (full)."""
    return {p: max(0, full - old.spent(p)) for p in sorted(players) if old.spent(p) > 0}
