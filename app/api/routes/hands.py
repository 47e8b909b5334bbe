"""Finished hands: lists (newest first, paged by cursor) and one hand's record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query

from app.api.deps import OptionalPlayerDep, SessionDep
from app.history import public_record
from app.review import access, lists

router = APIRouter(prefix="/api/hands", tags=["hands"])


@router.get("")
async def list_hands(
    session: SessionDep,
    viewer: OptionalPlayerDep,
    table_id: str | None = Query(None, max_length=40),
    player_id: str | None = Query(None, max_length=40),
    game: str | None = Query(None, max_length=40),
    limit: int = Query(20, ge=1, le=100),
    before: str | None = Query(None, max_length=120),
) -> dict[str, Any]:
    """Finished hands, newest first; ``before`` is the ``next`` cursor of the previous page.
    The queries are :mod:`app.review.lists` (index seeks, no OFFSET)."""
    filters = lists.Filters(table_id=table_id, player_id=player_id, game=game)
    try:
        return await lists.hand_page(
            session, filters, before=before, limit=limit, viewer_id=viewer.id if viewer else None
        )
    except lists.BadCursor:
        raise HTTPException(422, "before must be a cursor from a previous page") from None


@router.get("/{hand_id}")
async def get_hand(hand_id: str, session: SessionDep, viewer: OptionalPlayerDep) -> dict[str, Any]:
    """One hand's record, readable once the hand is over, filtered for the viewer."""
    hand = await access.finished_hand(session, hand_id)
    record = public_record(hand.record or {}, viewer.id if viewer else None)
    record["status"] = hand.status
    # a void hand's record holds only why it is void: what the row knows fills the rest
    record.setdefault("hand_id", hand.id)
    record.setdefault("table_id", hand.table_id)
    record.setdefault("game", hand.game)
    record.setdefault("number", hand.number)
    record.setdefault("started_at", hand.started_at.isoformat() if hand.started_at else None)
    record.setdefault("ended_at", hand.ended_at.isoformat() if hand.ended_at else None)
    return record
