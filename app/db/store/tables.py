"""Tables: made when opened, their status (open, paused, closed) and their state between
hands as the actor stores it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable


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
) -> None:
    session.add(
        GameTable(
            id=table_id,
            name=name,
            game=game,
            options=options,
            created_by=created_by,
            private=private,
            invite_code=invite_code,
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
