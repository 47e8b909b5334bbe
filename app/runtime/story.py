"""The table's story as the server tells it (docs/protocol.md §6.6).

Every change of a table sends, beside each viewer's view, the events of that change: the
engine's own log and the table's events (a sit, a leave, a top-up, a hand's start and end).
A client that (re)connects gets the recent story instead. Hidden cards are filtered exactly as
in a hand's record (:func:`app.review.history.filter_event`), by the players entitled to them: an
event's ``private_to`` seats are turned into the players who sat there when it happened, so a
later occupant of a seat never reads the cards of the one before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.review.history import filter_event
from app.runtime.records import SeatInfo

MAX_EVENTS = 500
"""At most this many events in the recent story a (re)connecting client receives."""


@dataclass(slots=True, frozen=True)
class Told:
    """One event of the story and the players entitled to its cards (None: public)."""

    event: dict[str, Any]
    entitled: frozenset[str] | None

    def for_viewer(self, player_id: str | None) -> dict[str, Any]:
        if self.entitled is None or (player_id is not None and player_id in self.entitled):
            return self.event
        return filter_event(self.event, None)  # marked private, read by someone else


class Story:
    """The recent events of one table: the last finished hand's and everything since."""

    def __init__(self) -> None:
        self._last: list[Told] = []
        self._current: list[Told] = []
        self._fresh: list[Told] = []
        self.result: dict[str, Any] | None = None
        """The last finished hand's result (kept until the next hand ends)."""
        self.result_fresh = False

    def tell(self, event: dict[str, Any], roster: dict[int, SeatInfo]) -> None:
        """Add one event; a private one is entitled to the players now in its seats."""
        seats = event.get("private_to")
        entitled = (
            None if seats is None else frozenset(roster[s].player_id for s in seats if s in roster)
        )
        told = Told(event, entitled)
        self._current.append(told)
        self._fresh.append(told)
        if len(self._current) > MAX_EVENTS:
            del self._current[: len(self._current) - MAX_EVENTS]

    def hand_ended(self, result: dict[str, Any], t: float) -> None:
        """The hand ended: its ``hand_end`` event, and it becomes the last finished hand."""
        event = {"kind": "hand_end", "hand_id": result["hand_id"], "number": result["number"]}
        self.tell({**event, "result": result, "t": t}, {})
        self._last, self._current = self._current, []
        self.result = result
        self.result_fresh = True

    @property
    def pending(self) -> bool:
        """Events (or a result) not yet sent out."""
        return bool(self._fresh) or self.result_fresh

    def take_fresh(self) -> tuple[list[Told], bool]:
        """The events since the last broadcast, and whether a hand ended among them."""
        fresh, self._fresh = self._fresh, []
        ended, self.result_fresh = self.result_fresh, False
        return fresh, ended

    def recent(self) -> list[Told]:
        """The story a (re)connecting client receives, oldest first."""
        story = self._last + self._current
        return story[-MAX_EVENTS:]


def for_viewer(told: list[Told], player_id: str | None) -> list[dict[str, Any]]:
    return [t.for_viewer(player_id) for t in told]
