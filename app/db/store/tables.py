"""Tables: made when opened, their status (open, paused, closed) and their state between
hands as the actor stores it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Room


async def create_table(
    session: AsyncSession,
    *,
    table_id: str,
    name: str,
    game: str,
    options: dict[str, Any],
    created_by: str | None,
    private: bool = False,
    invite_code: str | None = None,
    room_id: str | None = None,
    room: dict[str, Any] | None = None,
    state: dict[str, Any] | None = None,
) -> None:
    """A new table's row; with ``room`` (its name, host, private, invite code), the row of
    the room it opens, in the same transaction (app/db/store/rooms.py)."""
    if room is not None:
        room_id = room["room_id"]
        await create_room(session, table_id=table_id, **room)
    session.add(
        GameTable(
            id=table_id,
            name=name,
            game=game,
            options=options,
            created_by=created_by,
            private=private,
            invite_code=invite_code,
            room_id=room_id,
            state=state,
        )
    )


async def save_table_state(session: AsyncSession, table_id: str, state: dict[str, Any]) -> None:
    await session.execute(update(GameTable).where(GameTable.id == table_id).values(state=state))


async def set_table_status(
    session: AsyncSession, table_id: str, status: str, pause_reason: str | None = None
) -> None:
    await session.execute(
        update(GameTable)
        .where(GameTable.id == table_id)
        .values(status=status, pause_reason=pause_reason)
    )


async def create_room(
    session: AsyncSession,
    *,
    room_id: str,
    name: str,
    host_id: str,
    private: bool,
    invite_code: str | None,
    table_id: str,
) -> None:
    """The room's row, at the table it opens with (written with that table's row)."""
    session.add(
        Room(
            id=room_id,
            name=name,
            host_id=host_id,
            created_by=host_id,
            private=private,
            invite_code=invite_code,
            current_table_id=table_id,
            status="open",
        )
    )
