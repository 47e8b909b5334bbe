"""Broadcast: every connection gets its own state, the engine's view of its seat (the one
place where hidden cards are filtered) completed with what the runtime adds (docs/protocol.md,
"The view"), and the story's events it may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.runtime.connection import Connection
from app.runtime.protocol import encode
from app.runtime.story import for_viewer
from app.runtime.table.state import TableState


@dataclass(slots=True)
class _Shared:
    """What every recipient's state shares (:meth:`TableActor._shared`)."""

    seat_by_player: dict[str, int]
    seat_extras: dict[int, dict[str, Any]]
    """Per occupied seat: ``player_id``, ``name``, ``bot``, ``connected``, ``leaving``."""
    table_head: dict[str, Any]
    """The view's ``table`` block up to ``message``; ``can_top_up`` is each viewer's own."""
    spectators: int

    def seat_of(self, player_id: str | None) -> int | None:
        return None if player_id is None else self.seat_by_player.get(player_id)


class Broadcast(TableState):
    """Builds each viewer's state, what they all share once per change."""

    def _shared(self) -> _Shared:
        """What every viewer's state shares, built once per broadcast: who sits where, each
        seat's name and flags, and the ``table`` block but ``can_top_up``."""
        engine = self.engine
        seat_by_player: dict[str, int] = {}
        for seat, info in self.roster.items():
            seat_by_player.setdefault(info.player_id, seat)  # as seat_of: the first seat
        connected = {c.player_id for c in self.connections if not c.closed}
        seat_extras = {
            seat: {
                "player_id": info.player_id,
                "name": info.name,
                "bot": info.is_bot,
                "connected": info.is_bot or info.player_id in connected,
                "leaving": seat in self._pending_leave,
                **self._presence_extras(seat),
            }
            for seat, info in self.roster.items()
        }
        low, high = engine.buy_in_limits(None)
        table_seats, max_seats = engine.table_seats, engine.max_seats
        table_head = {
            "name": self.name,
            "status": self.status,
            "pause_reason": self.pause_reason,
            "max_seats": max_seats,
            "table_seats": table_seats,
            "free_seats": [
                s
                for s in range(table_seats)
                if s not in self.roster and _fits(engine.buy_in_limits(s))
            ],
            "standing_room": sum(1 for s in range(table_seats, max_seats) if s not in self.roster),
            "buy_in": {"min": low, "max": high},
            "over": engine.table_over,
            "message": self.message,
            "start": self.options.get("start", "auto"),
            "waiting_for_ready": self.waiting_for_ready,
        }
        spectators = sum(1 for c in self.connections if c.player_id not in seat_by_player)
        return _Shared(seat_by_player, seat_extras, table_head, spectators)

    def _view(self, shared: _Shared, seat: int | None, view: dict[str, Any]) -> dict[str, Any]:
        """Complete the engine's view of ``seat`` with what the runtime adds (docs/protocol.md,
        "The view"): each seat's player, ``you``, ``legal``, the clock and the table."""
        extras = shared.seat_extras
        if self.away:  # the seats sitting out, which the engine's view no longer has
            view["seats"] = [*view.get("seats", ()), *self._away_entries()]
        # Trente et Quarante also lists its standing bettors, who are in no seat of the table.
        for entries in (view.get("seats", ()), view.get("bettors", ())):
            for entry in entries:
                extra = extras.get(entry.get("seat", -1))
                if extra is not None:
                    entry.update(extra)
        table = dict(shared.table_head)
        playing = seat is not None and seat not in self.away
        table["can_top_up"] = seat is not None and playing and self.engine.can_top_up(seat)
        # how much a top-up may bring, and why a seated player is not dealt in (if so)
        table["top_up_max"] = 0
        table["cannot_play"] = None
        if seat is not None and playing:
            if table["can_top_up"]:
                table["top_up_max"] = self.engine.top_up_limit(seat)
            table["cannot_play"] = self.engine.cannot_play(seat)
        table["spectators"] = shared.spectators
        view.update(
            table_id=self.table_id,
            game=self.game_cls.id,
            hand_id=self.hand_id,
            you=seat,
            # a paused table accepts no action, so it offers none (docs/protocol.md: exact legal)
            legal=self._legal(seat),
            deadline=self.deadline,
            table=table,
        )
        return view

    def _state_message(
        self,
        shared: _Shared,
        seat: int | None,
        view: dict[str, Any],
        extra: dict[str, Any] | None = None,
    ) -> str:
        view = self._view(shared, seat, view)
        message: dict[str, Any] = {"type": "state", "version": self.version, "view": view}
        if extra:
            message.update(extra)
        return encode(message)

    def _full_story(self, seat: int | None) -> dict[str, Any]:
        """What a (re)connecting client gets beside its view: the recent story, filtered for
        the player in ``seat`` (a spectator: None), and the last hand's result."""
        recent = for_viewer(self.story.recent(), self._player_in(seat))
        return {"story": recent, "result": self.story.result}

    def _send_state(self, conn: Connection) -> None:
        self._sync_house()
        shared = self._shared()
        seat = shared.seat_of(conn.player_id)
        self._told.add(conn)
        view = self.engine.view(None if seat in self.away else seat)
        conn.send(self._state_message(shared, seat, view, self._full_story(seat)))

    def _broadcast(self) -> None:
        """Send every connection its own state: what all share is built once, the engine's
        views and the change's events (filtered) once per distinct seat
        (:meth:`Game.views`), each encoded once. A connection that has not had the story
        yet gets it instead of the change's events (docs/protocol.md §6.6)."""
        fresh, ended = self.story.take_fresh()
        told = self._told
        if not self.connections:
            told.clear()
            return
        if len(told) > len(self.connections):
            told &= self.connections  # sockets that have gone
        self._sync_house()
        shared = self._shared()
        recipients = [(conn, shared.seat_of(conn.player_id)) for conn in self.connections]
        wanted = dict.fromkeys(seat for _, seat in recipients)
        # a seat sitting out is dealt nothing: it sees the table as a spectator does
        views = self.engine.views([s for s in wanted if s not in self.away])
        for away in self.away.keys() & wanted.keys():
            views[away] = self.engine.view(None)
        texts: dict[int | None, str] = {}
        for seat, view in views.items():
            extra: dict[str, Any] = {}
            if fresh:
                extra["events"] = for_viewer(fresh, self._player_in(seat))
            if ended:
                extra["result"] = self.story.result
            texts[seat] = self._state_message(shared, seat, view, extra)
        full: dict[int | None, str] = {}
        for conn, seat in recipients:
            if conn in told:
                conn.send(texts[seat])
                continue
            text = full.get(seat)
            if text is None:
                text = full[seat] = self._state_message(
                    shared, seat, views[seat], self._full_story(seat)
                )
            told.add(conn)
            conn.send(text)


def _fits(limits: tuple[int, int]) -> bool:
    return limits[0] <= limits[1]
