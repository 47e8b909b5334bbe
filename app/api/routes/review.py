"""The review API: replays, exports, the proof of a fair shuffle, hand lists per
table and per player, the player's figures and chart (the ledgers: :mod:`.ledgers`).

Who may read what is :mod:`app.review.access`: a private table is seen only by its players,
its opener, its invite's holders and the host (404 or left out for anyone else); every hand
route answers 404 for a hand still being played.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse

from app.api.deps import ServicesDep, SessionDep
from app.api.download import attachment
from app.api.errors import ApiRoute, errors, file_response
from app.api.locale import request_locale
from app.api.routes import analysis, ledgers, review_pages, settle
from app.api.routes.hands import ReaderDep
from app.api.schemas.hands import HandPage
from app.api.schemas.review import PlayerFigures, Proof, Replay
from app.db.models import GameTable, Hand
from app.db.store import hand_lists, proofs
from app.db.types import AsyncSession
from app.i18n.messages import N_, Text, localize, said
from app.review import access, lists, sessions, stats
from app.review.access import Reader
from app.review.chart import bankroll_svg
from app.review.export import hand_export
from app.review.fairness import CHECK_WORDS, verify
from app.review.history import viewer_seat
from app.review.replay import ReplayError
from app.review.shoe_chain import earlier_hands, stored_shoes
from app.review.steps import replay_for

router = APIRouter(tags=["review"], route_class=ApiRoute, responses=errors(401, 403, 404, 409, 422))

GAME_ID = Query(None, max_length=40, pattern=r"^[a-z0-9-]+$")
CURSOR = Query(None, max_length=120)
DAY = Query(None, max_length=40, description="YYYY-MM-DD or an ISO date-time")


# --------------------------------------------------------------------------- one hand


async def _readable(session: AsyncSession, hand_id: str, reader: Reader) -> tuple[Hand, int | None]:
    hand = await access.finished_hand(session, hand_id, reader)
    seat = access.check_hand_reader(hand, reader)
    if seat is None and reader.player is not None:
        seat = viewer_seat(hand.record or {}, reader.player.id)
    return hand, seat


async def _table(session: AsyncSession, table_id: str) -> GameTable | None:
    return await proofs.table_by_id(session, table_id)


@router.get("/api/hands/{hand_id}/replay", response_model=Replay)
async def hand_replay(hand_id: str, session: SessionDep, reader: ReaderDep) -> dict[str, Any]:
    """The hand step by step, each view as the caller was entitled to see it then."""
    hand, seat = await _readable(session, hand_id, reader)
    if hand.status != "finished":
        raise HTTPException(409, N_("this hand was void: nothing was dealt to the end"))
    table = await _table(session, hand.table_id)
    try:
        out = replay_for(hand.record or {}, seat, table_name=table.name if table else None)
    except ReplayError as err:
        raise HTTPException(
            409, Text(N_("this hand cannot be re-played: {why}"), why=said(err))
        ) from None
    out["status"] = hand.status
    return out


@router.get(
    "/api/hands/{hand_id}/export",
    response_class=Response,
    responses={
        200: {
            "description": "The hand as a JSON file (schema table31/hand; docs/review.md).",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def hand_export_json(hand_id: str, session: SessionDep, reader: ReaderDep) -> Response:
    """The hand as JSON (schema ``table31/hand``, ``schema_version``; docs/review.md)."""
    hand, seat = await _readable(session, hand_id, reader)
    table = await _table(session, hand.table_id)
    record = hand.record or {}
    body = hand_export(
        record,
        status=hand.status,
        viewer_seat=seat,
        shoes=await stored_shoes(session, record),
        table_closed=table is not None and table.status == "closed",
        table_name=table.name if table else None,
    )
    return Response(
        json.dumps(body, indent=2),
        media_type="application/json",
        headers={"Content-Disposition": attachment(f"hand-{hand_id}.json")},
    )


@router.get("/api/hands/{hand_id}/verify", response_model=Proof)
async def hand_verify(
    hand_id: str, request: Request, session: SessionDep, reader: ReaderDep
) -> dict[str, Any]:
    """The proof of a fair shuffle: commitment, deal order, cards dealt (docs/fairness.md);
    each check's name and what it found also in the reader's language (``check_words``,
    ``detail_words``)."""
    hand, _ = await _readable(session, hand_id, reader)
    record = hand.record or {}
    table = await _table(session, hand.table_id)
    assert hand.ended_at is not None
    earlier = await earlier_hands(session, hand.id, hand.table_id, hand.ended_at)
    proof = verify(
        record,
        await stored_shoes(session, record, *earlier),
        table_closed=table is not None and table.status == "closed",
        earlier=earlier,
    )
    locale = request_locale(request)
    checks = [
        {
            **check,
            "check_words": localize(CHECK_WORDS.get(check["check"], check["check"]), locale),
            "detail_words": localize(check["detail"], locale),
        }
        for check in proof.checks
    ]
    return {"hand_id": hand.id, "game": hand.game, **proof.to_json(), "checks": checks}


# --------------------------------------------------------------------------- lists


def _filters(
    *,
    table_id: str | None = None,
    player_id: str | None = None,
    game: str | None,
    since: str | None,
    until: str | None,
) -> lists.Filters:
    try:
        return lists.Filters(
            table_id=table_id,
            player_id=player_id,
            game=game,
            since=lists.parse_when(since),
            until=lists.parse_when(until, end=True),
        )
    except ValueError as err:
        raise HTTPException(422, said(err)) from None


async def _page(
    session: AsyncSession, filters: lists.Filters, before: str | None, limit: int, reader: Reader
) -> dict[str, Any]:
    try:
        return await lists.hand_page(session, filters, before=before, limit=limit, reader=reader)
    except lists.BadCursor as err:
        raise HTTPException(422, said(err)) from None


@router.get("/api/tables/{table_id}/hands", response_model=HandPage)
async def table_hands(
    table_id: str,
    session: SessionDep,
    reader: ReaderDep,
    game: str | None = GAME_ID,
    since: str | None = DAY,
    until: str | None = DAY,
    before: str | None = CURSOR,
    limit: int = Query(20, ge=1, le=lists.MAX_LIMIT),
) -> dict[str, Any]:
    """A table's hands, newest first; ``next`` is the ``before`` of the following page."""
    access.check_signed_in(reader)
    table = await access.visible_table(session, table_id, reader)
    if table is None:
        raise HTTPException(404, access.NO_TABLE)
    filters = _filters(table_id=table_id, game=game, since=since, until=until)
    page = await _page(session, filters, before, limit, reader)
    page["table"] = {
        "table_id": table.id,
        "name": table.name,
        "game": table.game,
        "status": table.status,
    }
    return page


@router.get("/api/players/{player_id}/hands", response_model=HandPage)
async def player_hands(
    player_id: str,
    session: SessionDep,
    reader: ReaderDep,
    game: str | None = GAME_ID,
    table_id: str | None = Query(None, max_length=40),
    since: str | None = DAY,
    until: str | None = DAY,
    before: str | None = CURSOR,
    limit: int = Query(20, ge=1, le=lists.MAX_LIMIT),
) -> dict[str, Any]:
    """A player's hands, newest first, with the player's result in each."""
    access.check_signed_in(reader)
    filters = _filters(player_id=player_id, table_id=table_id, game=game, since=since, until=until)
    page = await _page(session, filters, before, limit, reader)
    for row in page["hands"]:
        mine = next((p for p in row["players"] if p["player_id"] == player_id), None)
        row["player_seat"] = mine["seat"] if mine else None
    if page["hands"]:
        ids = [r["hand_id"] for r in page["hands"]]
        nets = await hand_lists.player_nets(session, player_id, ids)
        for row in page["hands"]:
            row["player_net"] = nets.get(row["hand_id"], 0)
    return page


# --------------------------------------------------------------------------- the player


async def _player(session: AsyncSession, player_id: str) -> dict[str, Any]:
    card = await stats.player_card(session, player_id)
    if card is None:
        raise HTTPException(404, N_("no such player"))
    return card


@router.get("/api/players/{player_id}", response_model=PlayerFigures)
async def player_page_data(
    player_id: str, session: SessionDep, reader: ReaderDep
) -> dict[str, Any]:
    """The player's figures: hands played, net per game, biggest win and loss, sessions
    (without the private tables hidden from the reader)."""
    access.check_signed_in(reader)
    card = await _player(session, player_id)
    hidden = await access.hidden_tables_of(session, player_id, reader)
    figures = await stats.player_figures(session, player_id, hidden)
    sittings = [
        s for s in await sessions.player_sessions(session, player_id) if s.table_id not in hidden
    ]
    points = await stats.bankroll_points(session, player_id, hidden)
    return {
        **card,
        **figures,
        "sessions": [s.to_json() for s in reversed(sittings)],
        "chart": {
            "points": len(points),
            "first": points[0].chips if points else None,
            "last": points[-1].chips if points else None,
            "svg": f"/api/players/{player_id}/chart.svg",
        },
    }


@router.get(
    "/api/players/{player_id}/chart.svg",
    response_class=Response,
    responses=file_response("image/svg+xml", "The bankroll chart."),
)
async def player_chart(
    player_id: str, request: Request, session: SessionDep, reader: ReaderDep
) -> Response:
    """The bankroll over time, drawn by the server as SVG (without the private tables hidden
    from the reader), its words in the reader's language."""
    access.check_signed_in(reader)
    card = await _player(session, player_id)
    hidden = await access.hidden_tables_of(session, player_id, reader)
    points = stats.thin(await stats.bankroll_points(session, player_id, hidden))
    return Response(
        bankroll_svg(points, card["name"], request_locale(request)),
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-store"},
    )


@router.get(
    "/api/players/{player_id}/hands.jsonl",
    response_class=Response,
    responses=file_response("application/x-ndjson", "One hand export a line."),
)
async def player_hands_jsonl(
    player_id: str, session: SessionDep, reader: ReaderDep, services: ServicesDep
) -> StreamingResponse:
    """Every hand of the player, oldest first, one JSON export per line (as the player
    may see each: their own cards, not the others' hidden ones)."""
    access.check_self_or_host(player_id, reader)
    await _player(session, player_id)
    maker = services.sessionmaker

    async def lines() -> AsyncIterator[str]:
        async with maker() as db:
            tables: dict[str, GameTable | None] = {}
            async for hand in hand_lists.player_hands_oldest_first(db, player_id):
                if hand.table_id not in tables:
                    tables[hand.table_id] = await proofs.table_by_id(db, hand.table_id)
                table = tables[hand.table_id]
                record = hand.record or {}
                body = hand_export(
                    record,
                    status=hand.status,
                    viewer_seat=viewer_seat(record, player_id),
                    shoes=await stored_shoes(db, record),
                    table_closed=table is not None and table.status == "closed",
                    table_name=table.name if table else None,
                )
                yield json.dumps(body, separators=(",", ":")) + "\n"

    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": attachment(f"hands-{player_id}.jsonl")},
    )


# The review pages (/hands/{id}, /players/{id}, /tables/{id}/history) come with the API.
router.include_router(review_pages.router)
# Settling up (/api/settle, /api/settle.csv, /settle) comes with them.
router.include_router(settle.router)
# The ledgers (a table's sessions, a night's CSV) too.
router.include_router(ledgers.router)
# The analysis (a hand's decisions and their odds, an evening's summary) too.
router.include_router(analysis.router)
