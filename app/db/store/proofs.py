"""What a hand's replay, export and proof of a fair shuffle read (:mod:`app.review.fairness`
is pure; docs/fairness.md): the hand, its table, the shoes it drew from, and the table's
finished hands before it (for a game that gathers used cards under the stock)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Hand, Shoe


async def hand_by_id(session: AsyncSession, hand_id: str) -> Hand | None:
    """The hand with that id, whatever its status; None when there is none."""
    return await session.get(Hand, hand_id)


async def table_by_id(session: AsyncSession, table_id: str) -> GameTable | None:
    """The table with that id, open or closed; None when there is none."""
    return await session.get(GameTable, table_id)


async def shoes_by_commit(session: AsyncSession, commits: Collection[str]) -> list[Shoe]:
    """The stored shoes with these commitments (those there are; none asked, none read)."""
    if not commits:
        return []
    rows = await session.scalars(select(Shoe).where(Shoe.commit.in_(list(commits))))
    return list(rows.all())


async def hands_before(
    session: AsyncSession, table_id: str, before: tuple[datetime, str], limit: int
) -> list[tuple[dict[str, Any] | None, datetime, str]]:
    """``(record, ended_at, id)`` of the table's finished hands that ended before ``before``
    (``(ended_at, id)``, the later of two ending at once by id), newest first, at most
    ``limit``."""
    rows = await session.execute(
        select(Hand.record, Hand.ended_at, Hand.id)
        .where(
            Hand.table_id == table_id,
            Hand.status == "finished",
            tuple_(Hand.ended_at, Hand.id) < tuple_(*before),
        )
        .order_by(Hand.ended_at.desc(), Hand.id.desc())
        .limit(limit)
    )
    return [(record, ended, hand_id) for record, ended, hand_id in rows]
