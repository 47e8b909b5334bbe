"""Rooms: one link for an evening (docs/protocol/rest.md, "Rooms"). A room is opened with
its first table, in one transaction; its host's switch moves everyone seated, and their
stacks, from the table it plays at to a new one of another game, in one transaction too.

The room keeps one chat for the evening: the switch's job copies the old table's kept chat
(its newest 100 messages, under the same ids, and its mutes) to the new table, which loads it
as any table loads its own (after a restart too).

The switch's rules for stacks across games (docs/rules.md §0.15): each player seated keeps
their place in the seat order and takes the new table's next seat; a stack above the new
table's largest buy-in brings that largest buy-in and the rest goes home to the bankroll; a
player the new table cannot seat (no seat left, or a stack below its smallest buy-in) watches
it, their whole stack home.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.devices import aware
from app.db.ledger import Movement
from app.db.models import ChatMessage, ChatMute, GameTable, Hand, Player, Room, Seat
from app.db.store.access import played_in_rooms
from app.db.store.table_host import table_host_acted
from app.db.store.tables import create_table


@dataclass(frozen=True)
class SwitchSeat:
    """One player seated at the old table, in seat order: where they sit at the new one
    (None: they watch it) and the buy-in limits of that seat."""

    player_id: str
    old_seat: int
    new_seat: int | None
    low: int = 0
    high: int = 0
    bot_level: str | None = None


@dataclass(frozen=True)
class Switch:
    """What a room's switch writes, in one job: the old table's chips released to its
    stacks (``released``), the new table, each seat moved, the old table closed."""

    room_id: str
    old_table_id: str
    new_table_id: str
    name: str
    game: str
    options: dict[str, Any]
    created_by: str | None
    private: bool
    invite_code: str | None
    seats: list[SwitchSeat]
    released: list[Movement] = field(default_factory=list)
    state: dict[str, Any] | None = None
    """The new table's first stored state: what it carries of the old one (each player's
    time bank, the switch as its story's first event)."""


@dataclass(frozen=True)
class Moved:
    """One player's stack after a switch: what they brought to the new table and what went
    home to their bankroll."""

    player_id: str
    seat: int | None
    brought: int
    home: int


@dataclass
class StoredRoom:
    room_id: str
    name: str
    host_id: str
    host_name: str
    created_by: str | None
    private: bool
    invite_code: str | None
    current_table_id: str | None
    status: str
    created_at: datetime
    closed_at: datetime | None
    tables: list[dict[str, Any]] = field(default_factory=list)
    """The room's tables, oldest first: table_id, game, options, status, opened, closed,
    hands (finished)."""


async def switch_room(session: AsyncSession, switch: Switch) -> list[Moved]:
    """The switch, whole or not at all (one transaction): the old table's released chips to
    its stacks, the new table's row, each stack moved ``stack:old:P`` -> ``stack:new:P``
    (the part above the new seat's largest buy-in home, the whole of it home for a player
    not seated), the old seats gone and the old table closed, the room at the new table.
    Raises LookupError (nothing written) when the room is not open at the old table."""
    room = await session.get(Room, switch.room_id, with_for_update=True)
    if room is None or room.status != "open" or room.current_table_id != switch.old_table_id:
        raise LookupError(f"room {switch.room_id} is not open at table {switch.old_table_id}")
    if switch.released:
        await ledger.record(session, switch.released, table_id=switch.old_table_id)
    await create_table(
        session,
        table_id=switch.new_table_id,
        name=switch.name,
        game=switch.game,
        options=switch.options,
        created_by=switch.created_by,
        private=switch.private,
        invite_code=switch.invite_code,
        room_id=switch.room_id,
        state=switch.state,
    )
    await session.flush()
    moved: list[Moved] = []
    for seat in switch.seats:
        old = ledger.stack(switch.old_table_id, seat.player_id)
        stack = await ledger.balance(session, old)
        brought = 0
        seated = seat.new_seat is not None and stack >= seat.low
        if seated:
            brought = min(stack, seat.high)
            session.add(
                Seat(
                    table_id=switch.new_table_id,
                    seat=seat.new_seat,
                    player_id=seat.player_id,
                    bot_level=seat.bot_level,
                )
            )
            await session.flush()
            if brought:
                await ledger.transfer(
                    session,
                    old,
                    ledger.stack(switch.new_table_id, seat.player_id),
                    brought,
                    ledger.ROOM_SWITCH,
                    table_id=switch.new_table_id,
                )
        home = stack - brought
        if home:
            await ledger.transfer(
                session,
                old,
                ledger.bankroll(seat.player_id),
                home,
                "cash-out",
                table_id=switch.old_table_id,
            )
        moved.append(Moved(seat.player_id, seat.new_seat if seated else None, brought, home))
        await session.execute(
            delete(Seat).where(Seat.table_id == switch.old_table_id, Seat.seat == seat.old_seat)
        )
    await session.execute(
        update(GameTable).where(GameTable.id == switch.old_table_id).values(status="closed")
    )
    await _carry_chat(session, switch.old_table_id, switch.new_table_id)
    room.current_table_id = switch.new_table_id
    if switch.created_by is not None:
        room.host_id = switch.created_by  # the table's host when it switched: the room's
        detail: dict[str, Any] = {"room_id": switch.room_id, "to_table_id": switch.new_table_id}
        detail |= {"game": switch.game, "options": switch.options}
        await table_host_acted(
            session, switch.old_table_id, switch.created_by, "switch_game", detail
        )
    return moved


CHAT_CARRIED = 100
"""The old table's newest chat messages the new one takes (a table keeps its last 100)."""


async def _carry_chat(session: AsyncSession, old: str, new: str) -> None:
    """The room keeps one chat: the new table starts with the old one's newest messages
    (removed ones as their marks), under the same ids, and its mutes."""
    rows = (
        await session.scalars(
            select(ChatMessage)
            .where(ChatMessage.table_id == old)
            .order_by(ChatMessage.id.desc())
            .limit(CHAT_CARRIED)
        )
    ).all()
    for row in rows:
        session.add(
            ChatMessage(
                table_id=new,
                id=row.id,
                at=row.at,
                player_id=row.player_id,
                name=row.name,
                seat=row.seat,
                text=row.text,
                removed=row.removed,
            )
        )
    for mute in (await session.scalars(select(ChatMute).where(ChatMute.table_id == old))).all():
        session.add(
            ChatMute(
                table_id=new,
                player_id=mute.player_id,
                name=mute.name,
                muted_by=mute.muted_by,
                at=mute.at,
            )
        )


async def close_room(session: AsyncSession, room_id: str) -> None:
    """The room is closed (an open one: a room closed already keeps when it closed)."""
    await session.execute(
        update(Room)
        .where(Room.id == room_id, Room.status == "open")
        .values(status="closed", closed_at=datetime.now(UTC))
    )


async def open_rooms(session: AsyncSession) -> list[StoredRoom]:
    """Every open room (what a start-up puts back beside their tables)."""
    ids = await session.scalars(select(Room.id).where(Room.status == "open"))
    rooms = [await load_room(session, room_id) for room_id in ids]
    return [room for room in rooms if room is not None]


async def load_room(session: AsyncSession, room_id: str) -> StoredRoom | None:
    """A room with its host's name and its tables, oldest first; None if there is none."""
    row = (
        await session.execute(
            select(Room, Player.name)
            .join(Player, Player.id == Room.host_id)
            .where(Room.id == room_id)
        )
    ).first()
    if row is None:
        return None
    room, host_name = row
    hands = (
        select(Hand.table_id, func.count().label("hands"), func.max(Hand.ended_at).label("last"))
        .where(Hand.status == "finished")
        .group_by(Hand.table_id)
        .subquery()
    )
    tables = await session.execute(
        select(
            GameTable.id,
            GameTable.game,
            GameTable.options,
            GameTable.status,
            GameTable.created_at,
            hands.c.hands,
            hands.c.last,
        )
        .outerjoin(hands, hands.c.table_id == GameTable.id)
        .where(GameTable.room_id == room_id)
        .order_by(GameTable.created_at, GameTable.id)
    )
    listed = [
        {
            "table_id": t[0],
            "game": t[1],
            "options": dict(t[2]),
            "status": t[3],
            "opened": t[4],
            "hands": int(t[5] or 0),
            "last_hand_at": t[6],
        }
        for t in tables
    ]
    return StoredRoom(
        room_id=room.id,
        name=room.name,
        host_id=room.host_id,
        host_name=host_name,
        created_by=room.created_by,
        private=room.private,
        invite_code=room.invite_code,
        current_table_id=room.current_table_id,
        status=room.status,
        created_at=room.created_at,
        closed_at=room.closed_at,
        tables=listed,
    )


async def room_table(session: AsyncSession, room_id: str) -> str | None:
    """The table an open room plays at now; None when there is no such room, or it is
    closed (a cluster's forwarding: the room's requests go where that table is served)."""
    value = await session.scalar(
        select(Room.current_table_id).where(Room.id == room_id, Room.status == "open")
    )
    return None if value is None else str(value)


async def room_table_ids(session: AsyncSession, room_id: str) -> list[str]:
    """The room's tables, oldest first (its story, its settle-up)."""
    rows = await session.scalars(
        select(GameTable.id)
        .where(GameTable.room_id == room_id)
        .order_by(GameTable.created_at, GameTable.id)
    )
    return list(rows)


async def set_room_host(session: AsyncSession, room_id: str, host_id: str) -> None:
    """The room's host hands it to another player."""
    await session.execute(update(Room).where(Room.id == room_id).values(host_id=host_id))


@dataclass(frozen=True)
class PlayerRoom:
    """A room as a player's list of their rooms shows it (the history page's room filter)."""

    room_id: str
    name: str
    status: str
    private: bool
    created_at: datetime
    tables: int
    hands: int
    games: list[str]
    """The games of its tables, in the order it played them (each once)."""


PLAYER_ROOMS = 50
"""The most rooms a player's list holds: their newest."""


async def player_rooms(
    session: AsyncSession, player_id: str, limit: int = PLAYER_ROOMS
) -> list[PlayerRoom]:
    """The rooms the player played in (sat at one of their tables), opened or hosts, newest
    first, each with its tables, its finished hands and its games."""
    rooms = (
        await session.scalars(
            select(Room)
            .where(
                or_(
                    Room.id.in_(played_in_rooms(player_id)),
                    Room.created_by == player_id,
                    Room.host_id == player_id,
                )
            )
            .order_by(Room.created_at.desc(), Room.id.desc())
            .limit(limit)
        )
    ).all()
    if not rooms:
        return []
    hands = (
        select(Hand.table_id, func.count().label("hands"))
        .where(Hand.status == "finished")
        .group_by(Hand.table_id)
        .subquery()
    )
    rows = await session.execute(
        select(GameTable.room_id, GameTable.game, hands.c.hands)
        .outerjoin(hands, hands.c.table_id == GameTable.id)
        .where(GameTable.room_id.in_([room.id for room in rooms]))
        .order_by(GameTable.created_at, GameTable.id)
    )
    tables: dict[str, list[tuple[str, int]]] = {room.id: [] for room in rooms}
    for room_id, game, count in rows:
        tables[room_id].append((game, int(count or 0)))
    return [
        PlayerRoom(
            room_id=room.id,
            name=room.name,
            status=room.status,
            private=room.private,
            created_at=aware(room.created_at),
            tables=len(tables[room.id]),
            hands=sum(count for _game, count in tables[room.id]),
            games=list(dict.fromkeys(game for game, _count in tables[room.id])),
        )
        for room in rooms
    ]
