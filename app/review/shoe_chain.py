"""The hands a fairness proof reads back: for a game that gathers used cards under the stock,
the table's finished hands since the shuffle of the shoe a hand drew from (the database side of
:mod:`app.review.fairness`, which is pure; docs/fairness.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Hand
from app.review.fairness import GATHERING_GAMES, shuffles_in

MAX_CHAIN = 20_000
"""The most hands :func:`earlier_hands` reads back to find the hand that shuffled a shoe."""


async def earlier_hands(
    session: AsyncSession, hand_id: str, table_id: str, ended_at: datetime
) -> list[dict[str, Any]]:
    """The records of a table's finished hands before ``hand_id``, oldest first, back to the
    one that shuffled the shoe it drew from (what :func:`app.review.fairness.verify` needs
    for a game that gathers used cards under the stock; empty for any other game)."""
    hand = await session.get(Hand, hand_id)
    record = (hand.record if hand is not None else None) or {}
    if record.get("game") not in GATHERING_GAMES:
        return []
    commits = {
        str(stock["shuffle"].get("commit"))
        for stock in shuffles_in((record.get("private") or {}).get("start_state"))
        if isinstance(stock.get("shuffle"), dict)
    }
    out: list[dict[str, Any]] = []
    cursor: tuple[datetime, str] = (ended_at, hand_id)
    while commits and len(out) < MAX_CHAIN:
        rows = (
            await session.execute(
                select(Hand.record, Hand.ended_at, Hand.id)
                .where(
                    Hand.table_id == table_id,
                    Hand.status == "finished",
                    tuple_(Hand.ended_at, Hand.id) < tuple_(*cursor),
                )
                .order_by(Hand.ended_at.desc(), Hand.id.desc())
                .limit(100)
            )
        ).all()
        if not rows:
            break
        for earlier, ended, earlier_id in rows:
            out.append(dict(earlier or {}))
            cursor = (ended, earlier_id)
            commits -= set((out[-1].get("shuffles") or {}).get("new") or [])
            if not commits:
                break
    out.reverse()
    return out
