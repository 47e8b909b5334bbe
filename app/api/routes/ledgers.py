"""The ledger's sessions over REST: a table's as JSON and CSV, a night's CSV over every table
the reader may see (:mod:`app.review.sessions`; who may read what is :mod:`app.review.access`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response

from app.api.deps import SessionDep
from app.api.download import attachment
from app.api.errors import ApiRoute, errors, file_response
from app.api.routes.hands import ReaderDep
from app.api.schemas.review import TableLedger
from app.i18n.messages import N_, Text
from app.review import access, sessions

router = APIRouter(tags=["review"], route_class=ApiRoute, responses=errors(401, 403, 404, 409, 422))


def _csv(body: str, filename: str) -> Response:
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(filename)},
    )


@router.get("/api/tables/{table_id}/ledger", response_model=TableLedger)
async def table_ledger(table_id: str, session: SessionDep, reader: ReaderDep) -> dict[str, Any]:
    """A table's sessions as JSON (the same rows as the CSV)."""
    await access.check_table_reader(session, table_id, reader)
    rows = await sessions.table_sessions(session, table_id)
    return {"table_id": table_id, "sessions": [s.to_json() for s in rows]}


@router.get(
    "/api/tables/{table_id}/ledger.csv",
    response_class=Response,
    responses=file_response("text/csv", "The table's sessions."),
)
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
        raise HTTPException(422, Text(N_("unknown time zone {tz}"), tz=repr(tz))) from None
    if day:
        try:
            first = date.fromisoformat(day)
        except ValueError:
            raise HTTPException(422, N_("date must be YYYY-MM-DD")) from None
    else:
        now = datetime.now(zone)
        first = (now - timedelta(hours=12)).date()
    start = datetime.combine(first, time(12), tzinfo=zone)
    end = datetime.combine(first + timedelta(days=1), time(12), tzinfo=zone)
    return start.astimezone(UTC), end.astimezone(UTC), first.isoformat()


@router.get(
    "/api/ledger/night.csv",
    response_class=Response,
    responses=file_response("text/csv", "The night's sessions."),
)
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
