"""The table's story as the server tells it (docs/protocol.md §6.6).

Every change of a table sends, beside each viewer's view, the events of that change: the
engine's own log and the table's events (a sit, a leave, a top-up, a hand's start and end).
A client that (re)connects gets the recent story instead. Hidden cards are filtered exactly as
in a hand's record (:func:`app.review.history.filter_event`), by the players entitled to them: an
event's ``private_to`` seats are turned into the players who sat there when it happened, so a
later occupant of a seat never reads the cards of the one before.

The story outlives a restart: a restored table (app/runtime/lobby.py) starts its story from
what is stored (:meth:`Story.restore`): the last finished hand, told from its record (its
start, its events, its end with its result), then the hands voided since (a restart's own
void among them), and then goes on as usual. A record's events are entitled to the players
its seats name, as the record itself is read (:func:`app.review.history.public_record`).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime
from typing import Any

import orjson

from app.review.history import filter_event, hand_result
from app.runtime.records import SeatInfo

log = logging.getLogger("table31.table")

MAX_EVENTS = 500
"""At most this many events in the recent story a (re)connecting client receives."""


class Told:
    """One event of the story and the players entitled to its cards (None: public).

    Once its hand is over an event is only read again by a (re)connecting client, so it is
    kept as its JSON text (:meth:`compact`), about half the memory of the dicts it replaces
    (a table's last hand was 20-50 KiB of them; docs/performance.md §11)."""

    __slots__ = ("_event", "entitled")

    def __init__(self, event: dict[str, Any], entitled: frozenset[str] | None) -> None:
        self._event: dict[str, Any] | str = event
        self.entitled = entitled

    @property
    def event(self) -> dict[str, Any]:
        event = self._event
        return event if isinstance(event, dict) else orjson.loads(event)

    def compact(self) -> None:
        """Keep the event as its JSON text (what orjson cannot write stays as it is)."""
        if isinstance(self._event, dict):
            with contextlib.suppress(TypeError):
                # as text: orjson's bytes keep the 4 KiB buffer it wrote them in
                self._event = orjson.dumps(self._event).decode()

    def for_viewer(self, player_id: str | None) -> dict[str, Any]:
        event = self.event
        if self.entitled is None or (player_id is not None and player_id in self.entitled):
            return event
        return filter_event(event, None)  # marked private, read by someone else


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
        for told in self._last:
            told.compact()
        self.result = result
        self.result_fresh = True

    def restore(self, last_hand: dict[str, Any] | None, voids: list[dict[str, Any]]) -> None:
        """The story of a table restored at start-up (docs/protocol.md §6.6): the last
        finished hand told from its stored record (``hand_start``, its events, ``hand_end``
        with its result, which is :attr:`result` again), then ``voids``, the hands voided
        since as their ``hand_void`` events; the next hand follows as usual. Nothing of it
        is fresh: a connecting client receives it as its story.

        A record that cannot be told is logged and left out: a story never keeps a table
        from coming back."""
        told: list[Told] = []
        result: dict[str, Any] | None = None
        if last_hand is not None:
            try:
                told, result = _told_hand(last_hand)
            except (KeyError, TypeError, ValueError, AttributeError) as err:
                log.error("the last hand's record cannot be told: %r", err)
                told, result = [], None
        self._last = told[-MAX_EVENTS:]
        for kept in self._last:
            kept.compact()
        self._current = [Told(dict(event), None) for event in voids][-MAX_EVENTS:]
        self._fresh = []
        self.result = result
        self.result_fresh = False

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


def _told_hand(record: dict[str, Any]) -> tuple[list[Told], dict[str, Any]]:
    """A finished hand's story from its record, and its result: ``hand_start``, the
    events (those logged between hands before its deal come before it, as they were told),
    ``hand_end``. A private event is entitled to the players the record seats where it is
    marked: who sat there when the hand began, else who sat there when it ended."""
    hand_id, number = str(record["hand_id"]), int(record["number"])
    players: dict[int, str] = {}
    for key in ("seats_after", "seats_before"):  # seats_before wins
        for seat in record.get(key) or []:
            players[int(seat["seat"])] = str(seat["player_id"])
    started = _seconds(record.get("started_at"))
    ended = _seconds(record.get("ended_at"))
    result = hand_result(record)
    told: list[Told] = []
    opening = {"kind": "hand_start", "hand_id": hand_id, "number": number, "t": started}
    start: Told | None = Told(opening, None)
    for event in record.get("events") or []:
        if start is not None and (started is None or float(event.get("t", started)) >= started):
            told.append(start)
            start = None
        seats = event.get("private_to")
        entitled = None if seats is None else frozenset(players[s] for s in seats if s in players)
        told.append(Told(event, entitled))
    if start is not None:
        told.append(start)
    end = {"kind": "hand_end", "hand_id": hand_id, "number": number, "result": result}
    told.append(Told({**end, "t": ended}, None))
    return told, result


def _seconds(stamp: Any) -> float | None:
    """An ISO time of a record as Unix seconds (None when it has none)."""
    return datetime.fromisoformat(stamp).timestamp() if isinstance(stamp, str) else None
