"""Finished hands: lists (newest first, paged by cursor) and one hand's record.

The hands of a private table are for its audience only (:mod:`app.review.access`): a list
leaves them out for anyone else, and a record answers 404 as for a hand never played.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from app.api.deps import OptionalPlayerDep, ServicesDep, SessionDep, is_host
from app.api.errors import ApiRoute, errors
from app.api.schemas.hands import HandPage, HandRecord
from app.i18n.messages import N_
from app.review import access, lists
from app.review.access import Reader
from app.review.history import public_record

router = APIRouter(
    prefix="/api/hands", tags=["hands"], route_class=ApiRoute, responses=errors(404, 422)
)

MAX_INVITE = 40


def get_reader(request: Request, services: ServicesDep, player: OptionalPlayerDep) -> Reader:
    """The caller as a reader of hands, tables' histories and ledgers (these routes, the
    review API and the review pages): the player, the admin token, the ``invite`` query
    parameter (as the live table takes it)."""
    invite = request.query_params.get("invite") or None
    return Reader(
        player=player,
        host=is_host(request, services),
        invite=invite if invite is not None and len(invite) <= MAX_INVITE else None,
    )


ReaderDep = Annotated[Reader, Depends(get_reader)]


@router.get("", response_model=HandPage)
async def list_hands(
    session: SessionDep,
    reader: ReaderDep,
    table_id: str | None = Query(None, max_length=40),
    player_id: str | None = Query(None, max_length=40),
    game: str | None = Query(None, max_length=40),
    limit: int = Query(20, ge=1, le=100),
    before: str | None = Query(None, max_length=120),
    room_id: str | None = Query(None, max_length=40, description="a room's hands, every table"),
) -> dict[str, Any]:
    """Finished hands, newest first; ``before`` is the ``next`` cursor of the previous page.
    The queries are :mod:`app.review.lists` (index seeks, no OFFSET); the hands of private
    tables hidden from the caller are left out."""
    filters = lists.Filters(table_id=table_id, player_id=player_id, game=game, room_id=room_id)
    try:
        return await lists.hand_page(session, filters, before=before, limit=limit, reader=reader)
    except lists.BadCursor:
        raise HTTPException(422, N_("before must be a cursor from a previous page")) from None


@router.get("/{hand_id}", response_model=HandRecord)
async def get_hand(hand_id: str, session: SessionDep, reader: ReaderDep) -> dict[str, Any]:
    """One hand's record, readable once the hand is over (and, at a private table, by its
    audience only), filtered for the viewer."""
    hand = await access.finished_hand(session, hand_id, reader)
    record = public_record(hand.record or {}, reader.player_id)
    record["status"] = hand.status
    # a void hand's record holds only why it is void: what the row knows fills the rest
    record.setdefault("hand_id", hand.id)
    record.setdefault("table_id", hand.table_id)
    record.setdefault("game", hand.game)
    record.setdefault("number", hand.number)
    record.setdefault("started_at", hand.started_at.isoformat() if hand.started_at else None)
    record.setdefault("ended_at", hand.ended_at.isoformat() if hand.ended_at else None)
    return record
