"""Settling up: each player's net over a span of time (tonight by default) at a table or
among a group of players, and the fewest payments that settle it, as JSON, CSV and a page
(docs/review.md, "Settling up").

Who may ask: for a table, the players who sat at it and the host (as its ledger); for a
group, any signed-in player, and only the tables the reader may see are counted
(:mod:`app.review.access`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import SessionDep
from app.api.download import attachment
from app.api.errors import ApiRoute, errors, file_response
from app.api.locale import PageLocale, request_locale
from app.api.routes.hands import ReaderDep
from app.api.routes.pages import templates
from app.api.routes.review_pages import missing
from app.api.schemas.settle import Settlement
from app.db.models import GameTable
from app.db.store.rooms import StoredRoom, load_room
from app.i18n.locales import DEFAULT
from app.i18n.messages import N_, Text, localize, said
from app.review import access, lists
from app.review.access import Reader
from app.review.nets import SpanNets, span_nets
from app.review.settle import Payment, settle
from app.review.settle_words import (
    ChipValue,
    apart_lines,
    apart_rows,
    as_csv,
    as_text,
    payment_line,
)
from app.rulebook.game_words import game_title

router = APIRouter(tags=["review"], route_class=ApiRoute, responses=errors(401, 403, 404, 422))
pages = APIRouter(
    tags=["pages"], include_in_schema=False, route_class=ApiRoute, dependencies=[PageLocale]
)

MAX_PLAYERS = 60
ID = r"^[A-Za-z0-9_-]{1,40}$"


@dataclass
class Asked:
    """A settle-up question: the span, the scope, the group and the chips' value."""

    since: datetime
    until: datetime
    tz: str
    table_id: str | None
    players: list[str] | None
    around: str | None
    value: ChipValue | None
    room_id: str | None = None
    """A room's evening: every table of the room (app/db/store/rooms.py)."""


def tonight(now: datetime, zone: ZoneInfo) -> datetime:
    """Tonight's start: noon today in ``zone``, or noon yesterday before noon (a game that
    starts at 20:00 and ends at 02:00 is one night)."""
    local = now.astimezone(zone)
    return datetime.combine((local - timedelta(hours=12)).date(), time(12), tzinfo=zone)


def asked(
    since: Annotated[
        str | None,
        Query(max_length=40, description="the span's start: YYYY-MM-DD or ISO date-time"),
    ] = None,
    until: Annotated[
        str | None,
        Query(max_length=40, description="the span's end (a date includes that day)"),
    ] = None,
    tz: Annotated[
        str, Query(max_length=60, description="an IANA time zone, e.g. Europe/Oslo")
    ] = "UTC",
    table_id: Annotated[str | None, Query(max_length=40, pattern=ID)] = None,
    room: Annotated[
        str | None,
        Query(max_length=40, pattern=ID, description="a room: the evening at all its tables"),
    ] = None,
    player: Annotated[
        list[str] | None, Query(description="the group: the players' ids (repeated)")
    ] = None,
    around: Annotated[
        str | None,
        Query(max_length=40, pattern=ID, description="a player and all who shared a hand"),
    ] = None,
    chip_value: Annotated[
        str | None,
        Query(max_length=14, pattern=r"^\d{1,7}(\.\d{1,6})?$", description="e.g. 0.05"),
    ] = None,
    currency: Annotated[
        str | None,
        Query(max_length=8, pattern=r"^[^\x00-\x1f\x7f]*$", description="e.g. € or EUR"),
    ] = None,
) -> Asked:
    """The query's parameters, checked: a zone that exists, a span that is one."""
    try:
        zone = ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise HTTPException(422, Text(N_("unknown time zone {tz}"), tz=repr(tz))) from None
    now = datetime.now(UTC)
    try:
        start = (_local(since, zone) or tonight(now, zone)).astimezone(UTC)
        end = (_local(until, zone, end=True) or now + timedelta(seconds=1)).astimezone(UTC)
        start.astimezone(zone), end.astimezone(zone)  # told in the zone: must be there too
    except ValueError as err:
        raise HTTPException(422, said(err)) from None
    except OverflowError:  # a moment at the calendar's very edge, in another zone
        raise HTTPException(
            422, N_("since and until must be dates this calendar can hold")
        ) from None
    if end <= start:
        raise HTTPException(422, N_("until must come after since"))
    if player is not None and len(player) > MAX_PLAYERS:
        raise HTTPException(422, Text(N_("at most {most} players"), most=MAX_PLAYERS))
    if player is not None and any(len(p) > 40 or not p for p in player):
        raise HTTPException(422, N_("a player id is 1 to 40 characters"))
    value = None
    if chip_value is not None:
        amount = Decimal(chip_value)
        if amount <= 0:
            raise HTTPException(422, N_("chip_value must be more than 0"))
        value = ChipValue(amount, (currency or "").strip())
    return Asked(start, end, tz, table_id, player, around, value, room)


def _local(text: str | None, zone: ZoneInfo, *, end: bool = False) -> datetime | None:
    """A date (that day's start in ``zone``; with ``end``, the next day's), or an ISO
    date-time (in ``zone`` when it names no offset)."""
    if not text:
        return None
    if len(text) == 10:
        moment = lists.parse_when(text, end=end)
        assert moment is not None
        return moment.replace(tzinfo=zone)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            Text(N_("{text} is not a date (YYYY-MM-DD) or an ISO date-time"), text=repr(text))
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


AskedDep = Annotated[Asked, Depends(asked)]


@dataclass
class Settled:
    table: GameTable | None
    nets: SpanNets
    payments: list[Payment]
    names: dict[str, str]
    text: str
    apart: list[str]
    tables: dict[str, str]
    room: StoredRoom | None = None


async def _room_tables(session: Any, reader: Reader, room_id: str) -> tuple[StoredRoom, list[str]]:
    """A room's tables, for its players (who sat at any of them) and the host: 404 for no
    room, 403 for someone who never sat in it."""
    room = await load_room(session, room_id)
    if room is None:
        raise HTTPException(404, N_("no such room"))
    ids = [t["table_id"] for t in room.tables]
    if reader.host:
        return room, ids
    access.check_signed_in(reader)
    assert reader.player is not None
    for table_id in ids:
        if await access.sat_at_table(session, reader.player.id, table_id):
            return room, ids
    raise HTTPException(403, N_("a room's settle-up is for the players who sat in it"))


async def _settle(session: Any, reader: Reader, q: Asked, locale: str = DEFAULT) -> Settled:
    """The settlement ``q`` asks for, its words in ``locale`` (the reader's)."""
    table = None
    room = None
    table_ids = None
    if q.room_id is not None:
        room, table_ids = await _room_tables(session, reader, q.room_id)
    elif q.table_id is not None:
        table = await access.check_table_reader(session, q.table_id, reader)
    else:
        access.check_signed_in(reader)
    found = await span_nets(
        session,
        reader,
        start=q.since,
        end=q.until,
        table_id=q.table_id,
        chosen=q.players,
        around=q.around,
        table_ids=table_ids,
    )
    payments = settle(found.nets)
    names = {p.id: p.name for p in found.parties}
    tables = {t: info.name for t, info in found.tables.items()}
    apart = apart_lines(found.split, names, tables, q.value, locale)
    text = as_text(
        _title(table, q, room.name if room is not None else None, locale),
        [(p.name, p.net) for p in found.parties],
        payments,
        names,
        q.value,
        apart,
        locale,
    )
    return Settled(table, found, payments, names, text, apart, tables, room)


def _title(
    table: GameTable | None, q: Asked, room: str | None = None, locale: str = DEFAULT
) -> str:
    """``Settling up, Friday (Greek 31): 2024-05-03 12:00 – 2024-05-04 03:10 (UTC)``, in
    ``locale`` (the moments as ISO writes them, in every language)."""
    zone = ZoneInfo(q.tz)
    span = f"{q.since.astimezone(zone):%Y-%m-%d %H:%M} – {q.until.astimezone(zone):%Y-%m-%d %H:%M}"
    if room is not None:
        title = Text(
            N_("Settling up, the room {room}: {span} ({tz})"), room=room, span=span, tz=q.tz
        )
    elif table is not None:
        title = Text(
            N_("Settling up, {table} ({game}): {span} ({tz})"),
            table=table.name,
            game=_game_title(table.game, locale),
            span=span,
            tz=q.tz,
        )
    else:
        title = Text(N_("Settling up, the group: {span} ({tz})"), span=span, tz=q.tz)
    return str(localize(title, locale))


def _game_title(game: str, locale: str) -> str:
    """A game's title in ``locale`` (a game this server no longer has: its id)."""
    return game_title(game, locale)


@router.get("/api/settle", response_model=Settlement)
async def settlement(
    request: Request, session: SessionDep, reader: ReaderDep, q: AskedDep
) -> dict[str, Any]:
    """Each player's net over the span (the ledger's: docs/review.md, "One truth"), what of
    it is apart (the house, others, a pot: in words), and the fewest payments, person to
    person, that settle the rest (at most players − 1), with money when a chip value is
    given. The words (``text``, ``apart_text``, a payment's ``text``) are in the reader's
    language."""
    locale = request_locale(request)
    done = await _settle(session, reader, q, locale)
    chosen = {p.id for p in done.nets.parties}
    money = q.value.of if q.value is not None else None
    return {
        "since": q.since.isoformat(),
        "until": q.until.isoformat(),
        "tz": q.tz,
        "table": (
            {"table_id": done.table.id, "name": done.table.name, "game": done.table.game}
            if done.table is not None
            else None
        ),
        **(
            {"room": {"room_id": done.room.room_id, "name": done.room.name}}
            if done.room is not None
            else {}
        ),
        "hands": done.nets.hands,
        "candidates": [{**c.to_json(), "chosen": c.id in chosen} for c in done.nets.candidates],
        "parties": [
            {
                **p.to_json(),
                "money": money(p.net) if money else None,
                "house": p.house,
                "others": p.others,
                "pot": p.pot,
                "settle": p.settle,
            }
            for p in done.nets.parties
        ],
        "apart": [
            {"player": who, "with": whom, "with_id": whom_id, "kind": kind, "chips": chips}
            for who, whom, whom_id, kind, chips in apart_rows(done.nets.split, done.tables)
        ],
        "apart_text": done.apart,
        "payments": [
            {
                "payer": p.payer,
                "payer_name": done.names[p.payer],
                "payee": p.payee,
                "payee_name": done.names[p.payee],
                "amount": p.amount,
                "money": money(p.amount) if money else None,
                "text": payment_line(p, done.names, q.value, locale),
            }
            for p in done.payments
        ],
        "chip_value": str(q.value.value) if q.value is not None else None,
        "currency": (q.value.currency or None) if q.value is not None else None,
        "text": done.text,
    }


@router.get(
    "/api/settle.csv",
    response_class=Response,
    responses=file_response("text/csv", "The nets and the payments."),
)
async def settlement_csv(session: SessionDep, reader: ReaderDep, q: AskedDep) -> Response:
    """The same settlement as CSV: a ``net`` row per player, an ``apart`` row per part
    apart from the payments, then a ``payment`` row each."""
    done = await _settle(session, reader, q)
    body = as_csv(
        [(p.id, p.name, p.net) for p in done.nets.parties],
        done.payments,
        done.names,
        q.value,
        apart_rows(done.nets.split, done.tables),
    )
    day = q.since.astimezone(ZoneInfo(q.tz)).date().isoformat()
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(f"settle-up-{day}.csv")},
    )


@pages.get("/settle", response_class=HTMLResponse)
async def settle_page(
    request: Request,
    session: SessionDep,
    reader: ReaderDep,
    table_id: str | None = Query(None, alias="table", max_length=40),
    around: str | None = Query(None, alias="player", max_length=40),
    room_id: str | None = Query(None, alias="room", max_length=40, pattern=ID),
) -> HTMLResponse:
    """The settle-up page, for a table (``?table=``), a room's evening (``?room=``: with a
    link to the room's hands, docs/review.md) or a player's company (``?player=``); its
    script reads ``/api/settle``."""
    table = None
    room = await load_room(session, room_id) if room_id else None
    if room_id and room is None:
        return missing(request, "room")
    if table_id:
        table = await access.visible_table(session, table_id, reader)
        if table is None:
            return missing(request, "table")
    return templates.TemplateResponse(
        request,
        "settle.html",
        {
            "table_id": table.id if table else "",
            "table_name": table.name if table else "",
            "game_title": _game_title(table.game, request_locale(request)) if table else "",
            "around": around or "",
            "room_id": room.room_id if room else "",
            "room_name": room.name if room else "",
            "room_hands": await _room_hands(session, room, reader) if room else "",
        },
    )


async def _room_hands(session: Any, room: StoredRoom, reader: Reader) -> str:
    """The room's hands: the history page of its table now (its last) with ``?room_id=``,
    for a reader who may see the room (no table id of a private room for anyone else)."""
    if not await access.visible_room(session, room.room_id, reader):
        return ""
    table_id = room.current_table_id or (room.tables[-1]["table_id"] if room.tables else "")
    return f"/tables/{table_id}/history?room_id={room.room_id}" if table_id else ""


router.include_router(pages)
