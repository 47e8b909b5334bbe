"""Hands' analyses (docs/review.md, "The analysis"): each finished hand's, kept once computed
(``hand_analyses``), and what computing one reads of its hand.

An analysis is computed off the table's loop (app/runtime/analyses.py) and written through the
database writer (:func:`save_analysis`, a writer's job); the review API reads it
(:func:`stored_analysis`, :func:`stored_analyses`). A row holds every decision, the private
cards each used included: what a reader gets of it is filtered before it leaves the server
(:func:`app.analysis.hand.for_reader`).
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.dialect import is_sqlite
from app.db.models import Hand, StoredAnalysis, utcnow

_ANALYSES = cast(Table, StoredAnalysis.__table__)

Stored = tuple[int, dict[str, Any]]
"""An analysis as kept: the method's version that computed it, and its JSON."""


@functools.cache
def _upsert(dialect: str) -> Any:
    """``INSERT … ON CONFLICT (hand_id) DO UPDATE``: the newer computation replaces the row
    (a method's new version; two nodes of a cluster computing the same hand)."""
    stmt = (sqlite if dialect == "sqlite" else postgresql).insert(_ANALYSES)
    return stmt.on_conflict_do_update(
        index_elements=[_ANALYSES.c.hand_id],
        set_={
            "method": stmt.excluded.method,
            "analysis": stmt.excluded.analysis,
            "created_at": stmt.excluded.created_at,
        },
    )


async def save_analysis(
    session: AsyncSession, hand_id: str, method: int, analysis: dict[str, Any] | str
) -> None:
    """Keep a hand's analysis (``analysis`` a dict, or its JSON text already encoded:
    :class:`app.db.session.EncodedJSON`), replacing one kept before."""
    dialect = "sqlite" if is_sqlite(session) else "postgresql"
    await session.execute(
        _upsert(dialect),
        {"hand_id": hand_id, "method": method, "analysis": analysis, "created_at": utcnow()},
    )


async def stored_analysis(session: AsyncSession, hand_id: str) -> Stored | None:
    """The hand's analysis as kept, or None."""
    row = (
        await session.execute(
            select(StoredAnalysis.method, StoredAnalysis.analysis).where(
                StoredAnalysis.hand_id == hand_id
            )
        )
    ).first()
    return None if row is None else (int(row[0]), dict(row[1]))


async def stored_analyses(session: AsyncSession, hand_ids: Collection[str]) -> dict[str, Stored]:
    """The analyses kept of these hands, by hand (a hand without one is left out)."""
    out: dict[str, Stored] = {}
    ids = list(hand_ids)
    for start in range(0, len(ids), 500):  # a bounded IN list
        rows = await session.execute(
            select(StoredAnalysis.hand_id, StoredAnalysis.method, StoredAnalysis.analysis).where(
                StoredAnalysis.hand_id.in_(ids[start : start + 500])
            )
        )
        for hand_id, method, analysis in rows:
            out[str(hand_id)] = (int(method), dict(analysis))
    return out


async def hand_to_analyse(
    session: AsyncSession, hand_id: str
) -> tuple[str, str, dict[str, Any] | None] | None:
    """``(status, game, record)`` of a hand (its record whole, the private part included, as
    the analysis re-plays it), or None when there is no such hand."""
    row = (
        await session.execute(select(Hand.status, Hand.game, Hand.record).where(Hand.id == hand_id))
    ).first()
    if row is None:
        return None
    status, game, record = row
    return str(status), str(game), dict(record) if record is not None else None
