"""The review API (issue 7): replays, exports, the proof of a fair shuffle, hand lists per
table and per player, the player's figures and chart, the ledger CSVs.

Who may read what is :mod:`app.review.access`; every hand route answers 404 for a hand still
being played.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse
from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import OptionalPlayerDep, ServicesDep, SessionDep, is_host
from app.api.routes import review_pages
from app.db.models import GameTable, Hand, HandPlayer, Shoe
from app.history import viewer_seat
from app.replay import ReplayError
from app.review import access, lists, sessions, stats
from app.review.access import Reader
from app.review.chart import bankroll_svg
from app.review.export import hand_export
from app.review.fairness import StoredShoe, earlier_hands, verify
from app.review.steps import replay_for, shoes_of

router = APIRouter(tags=["review"])

GAME_ID = Query(None, max_length=40, pattern=r"^[a-z0-9-]+$")
CURSOR = Query(None, max_length=120)
DAY = Query(None, max_length=40, description="YYYY-MM-DD or an ISO date-time")


def get_reader(request: Request, services: ServicesDep, player: OptionalPlayerDep) -> Reader:
    return Reader(player=player, host=is_host(request, services))


ReaderDep = Annotated[Reader, Depends(get_reader)]


# --------------------------------------------------------------------------- one hand


async def _readable(session: AsyncSession, hand_id: str, reader: Reader) -> tuple[Hand, int | None]:
    hand = await access.finished_hand(session, hand_id)
    seat = access.check_hand_reader(hand, reader)
    if seat is None and reader.player is not None:
        seat = viewer_seat(hand.record or {}, reader.player.id)
    return hand, seat


async def _table(session: AsyncSession, table_id: str) -> GameTable | None:
    return await session.get(GameTable, table_id)


async def _shoes(
    session: AsyncSession, record: dict[str, Any], *more: dict[str, Any]
) -> dict[str, StoredShoe]:
    """The stored shoes the hand drew from (and those the ``more`` hands shuffled)."""
    commits = [commit for commit, _ in shoes_of(record)]
    for other in more:
        commits += list((other.get("shuffles") or {}).get("new") or [])
    if not commits:
        return {}
    rows = await session.scalars(select(Shoe).where(Shoe.commit.in_(commits)))
    return {
        s.commit: StoredShoe(s.commit, s.seed, list(s.source), s.retired_at) for s in rows.all()
    }


@router.get("/api/hands/{hand_id}/replay")
async def hand_replay(hand_id: str, session: SessionDep, reader: ReaderDep) -> dict[str, Any]:
    """The hand step by step, each view as the caller was entitled to see it then."""
    hand, seat = await _readable(session, hand_id, reader)
    if hand.status != "finished":
        raise HTTPException(409, "this hand was void: nothing was dealt to the end")
    table = await _table(session, hand.table_id)
    try:
        out = replay_for(hand.record or {}, seat, table_name=table.name if table else None)
    except ReplayError as err:
        raise HTTPException(409, f"this hand cannot be re-played: {err}") from None
    out["status"] = hand.status
    return out


@router.get("/api/hands/{hand_id}/export")
async def hand_export_json(hand_id: str, session: SessionDep, reader: ReaderDep) -> Response:
    """The hand as JSON (schema ``table31/hand``, ``schema_version``; docs/review.md)."""
    hand, seat = await _readable(session, hand_id, reader)
    table = await _table(session, hand.table_id)
    record = hand.record or {}
    body = hand_export(
        record,
        status=hand.status,
        viewer_seat=seat,
        shoes=await _shoes(session, record),
        table_closed=table is not None and table.status == "closed",
        table_name=table.name if table else None,
    )
    return Response(
        json.dumps(body, indent=2),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="hand-{hand_id}.json"'},
    )


@router.get("/api/hands/{hand_id}/verify")
async def hand_verify(hand_id: str, session: SessionDep, reader: ReaderDep) -> dict[str, Any]:
    """The proof of a fair shuffle: commitment, deal order, cards dealt (docs/fairness.md)."""
    hand, _ = await _readable(session, hand_id, reader)
    record = hand.record or {}
    table = await _table(session, hand.table_id)
    assert hand.ended_at is not None
    earlier = await earlier_hands(session, hand.id, hand.table_id, hand.ended_at)
    proof = verify(
        record,
        await _shoes(session, record, *earlier),
        table_closed=table is not None and table.status == "closed",
        earlier=earlier,
    )
    return {"hand_id": hand.id, "game": hand.game, **proof.to_json()}


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
        raise HTTPException(422, str(err)) from None


async def _page(
    session: AsyncSession, filters: lists.Filters, before: str | None, limit: int, reader: Reader
) -> dict[str, Any]:
    try:
        return await lists.hand_page(
            session, filters, before=before, limit=limit, viewer_id=reader.player_id
        )
    except lists.BadCursor as err:
        raise HTTPException(422, str(err)) from None


@router.get("/api/tables/{table_id}/hands")
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
    table = await _table(session, table_id)
    if table is None:
        raise HTTPException(404, "no such table")
    if getattr(table, "private", False):
        await access.check_table_reader(session, table_id, reader)
    filters = _filters(table_id=table_id, game=game, since=since, until=until)
    page = await _page(session, filters, before, limit, reader)
    page["table"] = {
        "table_id": table.id,
        "name": table.name,
        "game": table.game,
        "status": table.status,
    }
    return page


@router.get("/api/players/{player_id}/hands")
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
        nets = dict(
            (
                await session.execute(
                    select(HandPlayer.hand_id, HandPlayer.net).where(
                        HandPlayer.player_id == player_id,
                        HandPlayer.hand_id.in_([r["hand_id"] for r in page["hands"]]),
                    )
                )
            ).all()
        )
        for row in page["hands"]:
            row["player_net"] = int(nets.get(row["hand_id"], 0))
    return page


# --------------------------------------------------------------------------- the player


async def _player(session: AsyncSession, player_id: str) -> dict[str, Any]:
    card = await stats.player_card(session, player_id)
    if card is None:
        raise HTTPException(404, "no such player")
    return card


@router.get("/api/players/{player_id}")
async def player_page_data(
    player_id: str, session: SessionDep, reader: ReaderDep
) -> dict[str, Any]:
    """The player's figures: hands played, net per game, biggest win and loss, sessions."""
    access.check_signed_in(reader)
    card = await _player(session, player_id)
    figures = await stats.player_figures(session, player_id)
    sittings = await sessions.player_sessions(session, player_id)
    points = await stats.bankroll_points(session, player_id)
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


@router.get("/api/players/{player_id}/chart.svg")
async def player_chart(player_id: str, session: SessionDep, reader: ReaderDep) -> Response:
    """The bankroll over time, drawn by the server as SVG."""
    access.check_signed_in(reader)
    card = await _player(session, player_id)
    points = stats.thin(await stats.bankroll_points(session, player_id))
    return Response(
        bankroll_svg(points, card["name"]),
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-store"},
    )


@router.get("/api/players/{player_id}/hands.jsonl")
async def player_hands_jsonl(
    player_id: str, session: SessionDep, reader: ReaderDep, services: ServicesDep
) -> StreamingResponse:
    """Every hand of the player, oldest first, one JSON export per line (as the player
    may see each: their own cards, not the others' hidden ones)."""
    access.check_self_or_host(player_id, reader)
    await _player(session, player_id)
    maker = services.sessionmaker

    async def lines() -> AsyncIterator[str]:
        after: tuple[datetime | None, str] | None = None
        async with maker() as db:
            tables: dict[str, GameTable | None] = {}
            while True:
                query = (
                    select(HandPlayer.ended_at, HandPlayer.hand_id)
                    .where(HandPlayer.player_id == player_id, HandPlayer.ended_at.is_not(None))
                    .order_by(HandPlayer.ended_at, HandPlayer.hand_id)
                    .limit(200)
                )
                if after is not None:
                    query = query.where(
                        tuple_(HandPlayer.ended_at, HandPlayer.hand_id) > tuple_(*after)
                    )
                batch = list((await db.execute(query)).all())
                if not batch:
                    return
                hands = {
                    h.id: h
                    for h in (
                        await db.scalars(select(Hand).where(Hand.id.in_([b[1] for b in batch])))
                    ).all()
                }
                for ended, hand_id in batch:
                    hand = hands.get(hand_id)
                    if hand is None or hand.record is None:
                        continue
                    if hand.table_id not in tables:
                        tables[hand.table_id] = await db.get(GameTable, hand.table_id)
                    table = tables[hand.table_id]
                    record = hand.record
                    body = hand_export(
                        record,
                        status=hand.status,
                        viewer_seat=viewer_seat(record, player_id),
                        shoes=await _shoes(db, record),
                        table_closed=table is not None and table.status == "closed",
                        table_name=table.name if table else None,
                    )
                    yield json.dumps(body, separators=(",", ":")) + "\n"
                    after = (ended, hand_id)
                db.expunge_all()

    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="hands-{player_id}.jsonl"'},
    )


# --------------------------------------------------------------------------- ledgers


def _csv(body: str, filename: str) -> Response:
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/api/tables/{table_id}/ledger")
async def table_ledger(table_id: str, session: SessionDep, reader: ReaderDep) -> dict[str, Any]:
    """A table's sessions as JSON (the same rows as the CSV)."""
    await access.check_table_reader(session, table_id, reader)
    rows = await sessions.table_sessions(session, table_id)
    return {"table_id": table_id, "sessions": [s.to_json() for s in rows]}


@router.get("/api/tables/{table_id}/ledger.csv")
async def table_ledger_csv(table_id: str, session: SessionDep, reader: ReaderDep) -> Response:
    """A table's ledger: one row per session (player, buy-in, buy-out, stack, net)."""
    await access.check_table_reader(session, table_id, reader)
    rows = await sessions.table_sessions(session, table_id)
    return _csv(sessions.to_csv(rows), f"ledger-{table_id}.csv")


def night_window(day: str | None, tz: str) -> tuple[datetime, datetime, str]:
    """A night: from noon of ``day`` to noon of the next day, in the time zone ``tz``
    (a game that starts at 20:00 and ends at 02:00 is one night). Default: the last night
    that has begun."""
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise HTTPException(422, f"unknown time zone {tz!r}") from None
    if day:
        try:
            first = date.fromisoformat(day)
        except ValueError:
            raise HTTPException(422, "date must be YYYY-MM-DD") from None
    else:
        now = datetime.now(zone)
        first = (now - timedelta(hours=12)).date()
    start = datetime.combine(first, time(12), tzinfo=zone)
    end = datetime.combine(first + timedelta(days=1), time(12), tzinfo=zone)
    return start.astimezone(UTC), end.astimezone(UTC), first.isoformat()


@router.get("/api/ledger/night.csv")
async def night_ledger_csv(
    session: SessionDep,
    reader: ReaderDep,
    date: str | None = Query(None, max_length=10, description="the night's first day"),
    tz: str = Query("UTC", max_length=60, description="an IANA time zone, e.g. Europe/Oslo"),
) -> Response:
    """A night's ledger, every table: one row per session that began that night (the host
    sees every table; a player the tables they sat at that night)."""
    access.check_signed_in(reader)
    start, end, first = night_window(date, tz)
    rows = await sessions.night_sessions(session, start, end)
    if not reader.host:
        mine = {s.table_id for s in rows if s.player_id == reader.player_id}
        rows = [s for s in rows if s.table_id in mine]
    return _csv(sessions.to_csv(rows), f"ledger-night-{first}.csv")


# The review pages (/hands/{id}, /players/{id}, /tables/{id}/history) come with the API.
router.include_router(review_pages.router)
