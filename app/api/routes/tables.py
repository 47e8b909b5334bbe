"""Tables: open, list, look at one, seat a bot, close (docs/protocol.md §4.5, §4.6)."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from app.analysis.bots import DEFAULT_LEVEL
from app.api.deps import OptionalPlayerDep, PlayerDep, ServicesDep, is_host
from app.api.errors import ApiRoute, Error, RuleRefusal, errors
from app.api.locale import request_locale
from app.api.schemas import BotIn, TableIn
from app.api.schemas.bodies import StandUpIn
from app.api.schemas.tables import BotSeated, TableClosed, TableSummary
from app.games.core.options import OptionError
from app.i18n.messages import N_, Plural, Text, localize, said
from app.runtime import notices
from app.runtime.lobby import LimitReached
from app.runtime.protocol import ProtocolError
from app.runtime.rule_words import worded
from app.runtime.table.actor import TableActor
from app.services import Services

router = APIRouter(
    prefix="/api/tables",
    tags=["tables"],
    route_class=ApiRoute,
    responses=errors(401, 403, 404, 409, 422),
)


T = TypeVar("T")


def _table(
    services: ServicesDep,
    table_id: str,
    request: Request | None = None,
    player_id: str | None = None,
) -> TableActor:
    """The table, or 404 — also for a private table the caller has no invite to, with the
    same answer as for no table at all (a stranger learns nothing of a private table)."""
    table = services.lobby.get(table_id)
    if table is None or table.closed:
        raise HTTPException(404, N_("no such table"))
    if request is not None and not (
        is_host(request, services) or table.may_enter(player_id, request.query_params.get("invite"))
    ):
        raise HTTPException(404, N_("no such table"))
    return table


def table_json(table: TableActor, player_id: str | None, host: bool) -> dict[str, Any]:
    """The summary, with the invite link for those who may share it."""
    out = table.summary()
    if table.private and (
        host or player_id == table.created_by or table.seat_of(player_id) is not None
    ):
        out["invite_code"] = table.invite_code
        out["invite_path"] = f"/tables/{table.table_id}?invite={table.invite_code}"
    return out


def _unprocessable(request: Request, field: str, message: str) -> JSONResponse:
    """A 422 naming ``field``, its message in the reader's language."""
    message = localize(message, request_locale(request))
    return JSONResponse(
        status_code=422,
        content={
            "detail": [{"loc": ["body", *field.split(".")], "msg": message, "type": "value_error"}],
            "field": field,
            "message": message,
        },
    )


OPENED_TOO_MANY: dict[int | str, dict[str, Any]] = {
    429: {
        "model": Error,
        "description": "The player has opened MAX_TABLES_PER_HOUR tables in the last hour: the "
        "message says when they may open another (Retry-After, in seconds).",
    }
}


async def opening(
    body: TableIn,
    request: Request,
    services: Services,
    open_one: Callable[[int, int], Awaitable[T]],
) -> T | JSONResponse:
    """What opening a table and opening a room share: refused (403) when the host has turned
    opening off, an unknown game or options the game refuses (422, naming the field), and
    ``open_one(max_open, per_hour)`` run within the caller's limits (none for the host):
    at most ``MAX_TABLES_PER_PLAYER`` open (409), ``MAX_TABLES_PER_HOUR`` opened in any hour
    (429, saying when the next may be opened)."""
    host = is_host(request, services)
    if not services.settings.players_may_open_tables and not host:
        raise HTTPException(403, N_("the host has turned off opening tables"))
    offered = services.settings.game_ids
    if body.game not in offered:
        return _unprocessable(
            request,
            "game",
            Text(
                N_("unknown game {game}; one of {games}"),
                game=repr(body.game),
                games=str(list(offered)),
            ),
        )
    try:
        return await open_one(
            0 if host else services.settings.max_tables_per_player,
            0 if host else services.settings.max_tables_per_hour,
        )
    except OptionError as err:
        return _unprocessable(request, f"options.{err.field}", worded(err.message))
    except LimitReached as err:
        if err.retry_after is not None:
            wait = str(math.ceil(err.retry_after))
            raise HTTPException(429, said(err), headers={"Retry-After": wait}) from None
        raise HTTPException(409, said(err)) from None


@router.post("", status_code=201, response_model=TableSummary, responses=OPENED_TOO_MANY)
async def open_table(
    body: TableIn, request: Request, player: PlayerDep, services: ServicesDep
) -> dict[str, Any] | JSONResponse:
    """Open a table (the refusals: :func:`opening`)."""
    table = await opening(
        body,
        request,
        services,
        lambda max_open, per_hour: services.lobby.open_table(
            game=body.game,
            name=body.name or f"{player.name}'s table",
            options=body.options,
            created_by=player.id,
            private=body.private,
            max_open=max_open,
            per_hour=per_hour,
        ),
    )
    if isinstance(table, JSONResponse):
        return table
    return table_json(table, player.id, False)


@router.get("", response_model=list[TableSummary])
async def list_tables(
    request: Request, services: ServicesDep, viewer: OptionalPlayerDep
) -> list[dict[str, Any]]:
    """Open tables; private ones only to their opener and players (and the host). Those
    served elsewhere too (every node's, in a cluster: app/runtime/hosting.py)."""
    return services.lobby.listing(
        viewer.id if viewer else None, everything=is_host(request, services)
    )


@router.get("/{table_id}", response_model=TableSummary)
async def get_table(
    table_id: str, request: Request, services: ServicesDep, viewer: OptionalPlayerDep
) -> dict[str, Any]:
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    return table_json(table, player_id, is_host(request, services))


def _opener_or_host(
    table: TableActor, request: Request, services: ServicesDep, player_id: str | None
) -> None:
    if is_host(request, services):
        return
    if player_id is None:
        raise HTTPException(401, N_("sign in first: POST /api/session with your name"))
    if not table.core.is_host(player_id):
        raise HTTPException(403, N_("only the table's host (its opener, unless handed on) may"))


@router.post("/{table_id}/bots", status_code=201, response_model=BotSeated)
async def add_bot(
    table_id: str,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
    body: BotIn | None = None,
) -> dict[str, Any]:
    """Seat a bot of the pool playing the game's bot strategy, its buy-in from the bots'
    bank (409 when the bank cannot cover it, or every bot is seated elsewhere). The table's
    opener and the host may. The body (``{"seat": n}``) is optional."""
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    _opener_or_host(table, request, services, player_id)
    try:
        seat = await services.lobby.add_bot(
            table,
            body.seat if body else None,
            max_bots=0 if is_host(request, services) else services.settings.max_bots_per_table,
            level=body.level if body else DEFAULT_LEVEL,
        )
    except (ValueError, LimitReached) as err:
        raise HTTPException(409, said(err)) from None
    return {"seat": seat, "table": table.summary()}


@router.delete("/{table_id}/bots/{seat}", response_model=BotSeated)
async def remove_bot(
    table_id: str,
    seat: int,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Stand a bot up (at the next moment the rules allow); its stack goes home to the bots'
    bank."""
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    _opener_or_host(table, request, services, player_id)
    left = await table.remove_bot(seat)
    if left is None:
        raise HTTPException(404, N_("no bot in that seat"))
    if left:
        await services.lobby.bot_pool.bring_home()
    return {"seat": seat, "table": table.summary()}


@router.post("/{table_id}/seats/{seat}/stand_up", response_model=BotSeated)
async def stand_up(
    table_id: str,
    seat: int,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
    body: StandUpIn | None = None,
) -> dict[str, Any]:
    """The opener (or the host) stands up a seat that has been sitting out for at least
    ``away_at_least`` seconds: its stack goes home to its player's bankroll, as a leave's
    does (docs/rules.md §0.11). 409 when the seat is not sitting out, or not for that long."""
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    _opener_or_host(table, request, services, player_id)
    try:
        await table.stand_up(seat, body.away_at_least if body else 0)
    except ProtocolError as err:
        raise RuleRefusal(err.code, err.message) from None
    return {"seat": seat, "table": table.summary()}


@router.post("/{table_id}/close", response_model=TableClosed)
async def close_table(
    table_id: str,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """The table's opener (or the host) closes it for good: the hand in play is void (stakes
    back), bots stand up, every stack goes home. While another person sits at it, an opener
    may not: they must leave first (the host may, from the host's page)."""
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    _opener_or_host(table, request, services, player_id)
    if not is_host(request, services):
        others = [
            i.name for i in table.roster.values() if not i.is_bot and i.player_id != player_id
        ]
        if others:
            raise HTTPException(
                409,
                Plural(
                    "{names} still sits at this table: it closes once every other person has left",
                    "{names} still sit at this table: it closes once every other person has left",
                    n=len(others),
                    names=", ".join(sorted(others)),
                ),
            )
    await table.shutdown(notices.OPENER_CLOSED, close_table=True)
    return {"table_id": table_id, "status": "closed"}
