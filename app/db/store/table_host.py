"""The host at the table (docs/rules.md §0.12): who the table's host is, the options it
changed between hands, and each of its actions in the host's log, marked as the table's
host's (``by: "table_host"``), not the server owner's."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable
from app.db.store.host import record_host_action

TABLE_HOST = "table_host"
"""``detail.by`` of a host action taken at the table (the server owner's have none)."""


async def set_table_host(session: AsyncSession, table_id: str, host_id: str) -> None:
    """The host role of ``table_id`` goes to ``host_id``."""
    await session.execute(update(GameTable).where(GameTable.id == table_id).values(host_id=host_id))


async def set_table_options(session: AsyncSession, table_id: str, options: dict[str, Any]) -> None:
    """The table's options from the next hand on (checked by the game's options model)."""
    await session.execute(update(GameTable).where(GameTable.id == table_id).values(options=options))


async def table_host_acted(
    session: AsyncSession, table_id: str, host_id: str, action: str, detail: dict[str, Any]
) -> None:
    """One action of the table's host, in the host's log (``/admin`` shows it)."""
    await record_host_action(
        session,
        f"table_{action}",
        {**detail, "table_id": table_id, "by": TABLE_HOST, "host_id": host_id},
    )
