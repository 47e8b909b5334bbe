"""Rooms: one link for an evening, game after game (docs/rules.md §0.15; the REST side:
app/api/routes/rooms.py; the socket's ``switch_game``: docs/protocol/socket.md §5.12).

A room is opened with its first table (one job writes both rows; it counts as opening a table
for ``MAX_TABLES_PER_HOUR``). Its host (the player who opened it) switches its game between
hands: one job (app/db/store/rooms.py ``switch_room``) writes the new table, seats everyone
seated at the old one in the same order with their stacks moved through the ledger, closes
the old table and moves the room; only once it is committed is the new table's actor built
from the database (as a restart builds one), and the old table tells each watcher
``room_switch`` and closes their socket (4301). A switch is not an opening: it counts
against no limit.

The rooms in memory (:class:`Rooms`) follow the database: they are loaded at start-up, where
each open room's current table comes back with the other tables, and a room's table restored
alone (made by a switch; adopted by a node of a cluster) brings its room. In a cluster the
switch is made by the node that serves the old table, and that node serves the new one: the
hosting writes the new table's lease in the switch's own transaction
(``TableHosting.new_table``), and the room's requests are answered where its table is.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from app.core.config import Settings
from app.db import store
from app.db.ledger import Movement
from app.db.writer.base import DatabaseWriter
from app.games.core.cards import SeedSource
from app.games.core.errors import ErrorCode
from app.games.core.options import OptionError, parse_options
from app.games.core.registry import game_class
from app.i18n.messages import N_, Text
from app.runtime.connection import Connection
from app.runtime.hosting import TableHosting
from app.runtime.protocol import ProtocolError, SwitchGame
from app.runtime.records import SeatInfo
from app.runtime.rule_words import worded
from app.runtime.table.actor import TableActor
from app.runtime.table.effects import Job
from app.runtime.table.switch import carried

log = logging.getLogger("table31.rooms")


@dataclass
class Room:
    """A room as this process serves it: who hosts it and the table it plays at now."""

    room_id: str
    name: str
    host_id: str
    private: bool
    invite_code: str | None
    table_id: str
    status: str = "open"

    @property
    def path(self) -> str:
        """The room's one link (a private room's with its invite)."""
        base = f"/rooms/{self.room_id}"
        return f"{base}?invite={self.invite_code}" if self.private else base


class Lobby(Protocol):
    """What the rooms ask of the lobby (app/runtime/lobby.py), which holds them."""

    writer: DatabaseWriter
    settings: Settings
    seeds: SeedSource
    hosting: TableHosting

    def get(self, table_id: str) -> TableActor | None: ...

    async def open_table(
        self,
        *,
        game: str,
        name: str,
        options: dict[str, Any],
        created_by: str | None,
        private: bool = ...,
        max_open: int = ...,
        per_hour: int = ...,
        room: dict[str, Any] | None = ...,
    ) -> TableActor: ...

    async def restore(self, table_id: str) -> TableActor | None: ...


class Rooms:
    """Every open room of this process, by id, and the switch."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.rooms: dict[str, Room] = {}

    def get(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    def table(self, room: Room) -> TableActor | None:
        """The table the room plays at now, if this process serves it."""
        return self.lobby.get(room.table_id)

    async def table_closed(self, actor: TableActor) -> None:
        """A room's table closed for good by its opener, the host or the empty tables' sweep
        (a switch closes it otherwise): the room closes with it."""
        room = self.rooms.get(actor.room_id or "")
        if room is None or room.table_id != actor.table_id or room.status != "open":
            return
        room.status = "closed"
        del self.rooms[room.room_id]
        await self.lobby.writer.run(store.close_room, room.room_id)
        log.info("room %s closed with its table %s", room.room_id, actor.table_id)

    async def close(self, room_id: str, reason: str, table_id: str | None) -> str | None:
        """The server's owner closes the room (docs/protocol/admin.md, ``POST
        /api/admin/rooms/{id}/close``): the table it plays at closes for good as a table the
        owner closes does (the hand in play void, every stack home), which closes the room
        (:meth:`table_closed`); a switch that lands meanwhile moves the room, whose new
        table closes in turn. ``table_id`` is the room's table as the database says, for a
        room this process does not hold. The room is closed in the database in any case
        (a room whose table is gone already). Returns the table closed, if any."""
        closed: str | None = None
        while True:
            room = self.rooms.get(room_id)
            table = self.table(room) if room is not None else self.lobby.get(table_id or "")
            if table is None or table.closed:
                break
            await table.shutdown(reason, close_table=True)
            closed = table.table_id
            if room is None or room.table_id == closed:
                break  # closed with its table (or not this process's room to follow)
        room = self.rooms.pop(room_id, None)
        if room is not None:
            room.status = "closed"
        await self.lobby.writer.run(store.close_room, room_id)
        log.info("room %s closed by the server's owner (table %s)", room_id, closed)
        return closed

    async def load(self) -> None:
        """The open rooms as the database holds them (at start-up: their tables come back
        as every table does). A room whose table is closed is closed too."""
        for stored in await self.lobby.writer.run(store.open_rooms):
            current = next(
                (t for t in stored.tables if t["table_id"] == stored.current_table_id), None
            )
            if current is None or current["status"] == "closed":
                await self.lobby.writer.run(store.close_room, stored.room_id)
                continue
            self._put(stored)

    async def restored(self, actor: TableActor) -> None:
        """``actor``, a room's table, is served here from the database (the table a switch
        made, or one adopted from another process of a cluster): its room as the database
        holds it, when the room plays there now. A room that cannot be read is logged: the
        table plays on."""
        if actor.room_id is None:
            return
        try:
            stored = await self.lobby.writer.run(store.load_room, actor.room_id)
        except Exception as exc:
            log.error("room %s of table %s not loaded: %s", actor.room_id, actor.table_id, exc)
            return
        if (
            stored is not None
            and stored.status == "open"
            and stored.current_table_id == actor.table_id
        ):
            self._put(stored)

    def _put(self, stored: store.StoredRoom) -> None:
        assert stored.current_table_id is not None
        self.rooms[stored.room_id] = Room(
            stored.room_id,
            stored.name,
            stored.host_id,
            stored.private,
            stored.invite_code,
            stored.current_table_id,
        )

    async def open(
        self,
        *,
        name: str,
        game: str,
        options: dict[str, Any],
        host_id: str,
        private: bool = False,
        max_open: int = 0,
        per_hour: int = 0,
    ) -> tuple[Room, TableActor]:
        """Open a room at its first table (OptionError, LimitReached as opening a table
        raises them: it counts as one)."""
        room_id = store.new_id()[:12]
        invite = secrets.token_urlsafe(12) if private else None
        row = {"room_id": room_id, "name": name, "host_id": host_id, "private": private}
        row["invite_code"] = invite
        actor = await self.lobby.open_table(
            game=game,
            name=name,
            options=options,
            created_by=host_id,
            private=private,
            max_open=max_open,
            per_hour=per_hour,
            room=row,
        )
        room = Room(room_id, name, host_id, private, invite, actor.table_id)
        self.rooms[room_id] = room
        return room, actor

    async def switch(self, actor: TableActor, conn: Connection, ask: SwitchGame) -> None:
        """The host's ``switch_game`` at the room's table (docs/protocol/socket.md §5.12).
        Refused, changing nothing: ``table_closed`` (the room is closed, or not at this
        table), ``not_allowed`` (not the room's host), ``bad_message`` (a game not offered,
        options the game refuses), ``illegal_action`` (a match in play, a buy-in on its way).
        Asked while a hand is in play, the switch waits for it to end: no next hand is dealt
        meanwhile, and everyone is told (``room_switch_next``)."""
        room = self.rooms.get(actor.room_id or "")
        if room is None or room.status != "open" or room.table_id != actor.table_id:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("the room has left this table"))
        # one host: the room's is its table's (handed on at the table or over REST alike)
        host = actor.core.host_id or room.host_id
        if conn.player_id is None or conn.player_id != host:
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED, N_("only the room's host may switch the game")
            )
        offered = self.lobby.settings.game_ids
        if ask.game not in offered:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                Text(
                    N_("unknown game {game}; choose one of {games}"),
                    game=repr(ask.game),
                    games=str(list(offered)),
                ),
            )
        cls = game_class(ask.game)
        asked = dict(ask.options)
        if room.private:  # a private room's tables seat by approval unless told otherwise
            asked.setdefault("approval", True)
        try:
            options = parse_options(cls.OPTIONS, asked)
            engine = cls(options, seeds=self.lobby.seeds)  # options that depend on each other
        except OptionError as err:
            why = Text(N_("options.{field}: {why}"), field=err.field, why=worded(err.message))
            raise ProtocolError(ErrorCode.BAD_MESSAGE, why) from None
        new_id = store.new_id()[:12]
        event = {
            "from_game": actor.game_cls.id,
            "from_title": actor.game_cls.title,
            "game": ask.game,
            "title": cls.title,
            "room_id": room.room_id,
        }

        hosting = self.lobby.hosting

        def plan(seated: list[tuple[int, SeatInfo, int]], released: list[Movement]) -> Job:
            seats = []
            for order, (old_seat, info, _stack) in enumerate(seated):
                new_seat: int | None = order if order < engine.max_seats else None
                low, high = engine.buy_in_limits(new_seat) if new_seat is not None else (0, 0)
                if low > high:
                    new_seat = None
                seats.append(
                    store.SwitchSeat(info.player_id, old_seat, new_seat, low, high, info.bot_level)
                )
            made = store.Switch(
                room_id=room.room_id,
                old_table_id=actor.table_id,
                new_table_id=new_id,
                name=room.name,
                game=ask.game,
                options=options,
                created_by=host,
                private=room.private,
                invite_code=room.invite_code,
                seats=seats,
                released=released,
                state=carried(actor.core, int(options.get("time_bank_seconds") or 0), event),
            )
            # a node's new table has its lease written in the switch's transaction
            return hosting.new_table(new_id, Job(store.switch_room, (made,)))

        async def built() -> dict[str, Any]:
            room.table_id = new_id
            room.host_id = host
            hosting.table_made(new_id)
            new = await self.lobby.restore(new_id)
            if new is not None:
                await new.room_begun()
            log.info("room %s: %s -> %s (%s)", room.room_id, event["from_game"], ask.game, new_id)
            return {
                "type": "room_switch",
                "room_id": room.room_id,
                "table_id": new_id,
                "game": ask.game,
            }

        await actor.switch_room(plan, built, after_hand=(ask.game, cls.title))
