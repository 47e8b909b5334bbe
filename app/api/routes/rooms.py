"""Rooms: open one, look at one (docs/protocol/rest.md, "Rooms"; app/runtime/rooms.py).

A room is one link for an evening: ``POST /api/rooms`` opens it at its first table (counted
as opening a table: ``MAX_TABLES_PER_PLAYER``, ``MAX_TABLES_PER_HOUR``);
``GET /api/rooms/{id}`` says its host, who is in it and the table it plays at now, so that any
client can follow it; ``GET /api/rooms`` lists the caller's own rooms (the history page's room
filter). A private room is reached by its invite as a private table is: without
it (or being its host, or seated), 404 as for no room at all.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse

from app.api.deps import (
    OptionalPlayerDep,
    PlayerDep,
    ServicesDep,
    SessionDep,
    is_host,
    optional_player,
)
from app.api.errors import ApiRoute, errors
from app.api.locale import PageLocale, request_locale
from app.api.routes.pages import rules_href, templates
from app.api.routes.tables import OPENED_TOO_MANY, opener_words, opening
from app.api.schemas.bodies import RoomHostIn, RoomIn
from app.api.schemas.rooms import PlayerRoomRow, RoomHost, RoomOpened, RoomView
from app.core.security import same_secret
from app.db import store
from app.i18n.messages import N_, Text
from app.rulebook.game_words import game_title
from app.rulebook.option_words import table_words
from app.runtime.rooms import Room
from app.services import Services

router = APIRouter(
    prefix="/api/rooms",
    tags=["rooms"],
    route_class=ApiRoute,
    responses=errors(401, 403, 404, 409, 422),
)


def _may_enter(room: Room, services: Services, player_id: str | None, invite: str | None) -> bool:
    """A private room: its invite, its host, or a player seated at its table."""
    if not room.private:
        return True
    if invite and room.invite_code and same_secret(invite, room.invite_code):
        return True
    if player_id is None:
        return False
    table = services.lobby.rooms.table(room)
    return player_id == room.host_id or (table is not None and table.seat_of(player_id) is not None)


@router.post("", status_code=201, response_model=RoomOpened, responses=OPENED_TOO_MANY)
async def open_room(
    body: RoomIn, request: Request, player: PlayerDep, services: ServicesDep
) -> dict[str, Any] | JSONResponse:
    """Open a room at its first table: ``room_id``, ``table_id`` and the room's ``url``
    (``/rooms/{room_id}``; a private room's with its invite). The caller is its host."""
    opened = await opening(
        body,
        request,
        services,
        lambda max_open, per_hour: services.lobby.rooms.open(
            name=body.name or opener_words(request, Text(N_("{name}'s room"), name=player.name)),
            game=body.game,
            options=body.options,
            host_id=player.id,
            private=body.private,
            max_open=max_open,
            per_hour=per_hour,
        ),
    )
    if isinstance(opened, JSONResponse):
        return opened
    room, table = opened
    out: dict[str, Any] = {
        "room_id": room.room_id,
        "table_id": table.table_id,
        "url": room.path,
        "name": room.name,
        "private": room.private,
    }
    if room.private:
        out["invite_code"] = room.invite_code
    return out


@router.get("", response_model=list[PlayerRoomRow])
async def my_rooms(player: PlayerDep, session: SessionDep) -> list[dict[str, Any]]:
    """The rooms the caller played in (sat at one of their tables), opened or hosts, newest
    first (at most 50): what the history page offers to filter by (docs/review.md)."""
    return [
        {
            "room_id": room.room_id,
            "name": room.name,
            "status": room.status,
            "private": room.private,
            "opened": room.created_at.isoformat(),
            "tables": room.tables,
            "hands": room.hands,
            "games": room.games,
        }
        for room in await store.player_rooms(session, player.id)
    ]


@router.get("/{room_id}", response_model=RoomView)
async def get_room(
    room_id: str, request: Request, services: ServicesDep, viewer: OptionalPlayerDep
) -> dict[str, Any]:
    """The room: its host, its members (seated, with their seats, and watching), the table
    it plays at now and every table it has played at, oldest first."""
    player_id = viewer.id if viewer else None
    stored = await services.writer.run(store.load_room, room_id)
    room = services.lobby.rooms.get(room_id)
    if stored is None:
        raise HTTPException(404, N_("no such room"))
    live = room or Room(
        stored.room_id,
        stored.name,
        stored.host_id,
        stored.private,
        stored.invite_code,
        stored.current_table_id or "",
        stored.status,
    )
    if not (
        is_host(request, services)
        or _may_enter(live, services, player_id, request.query_params.get("invite"))
    ):
        raise HTTPException(404, N_("no such room"))
    table = services.lobby.rooms.table(live)
    if table is not None and (table.closed or stored.status != "open"):
        table = None
    members: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    if table is not None:
        summary = table.summary()
        members = [
            {"player_id": s["player_id"], "name": s["name"], "seat": s["seat"], "bot": s["bot"]}
            for s in summary["seats"]
        ]
        seated = {m["player_id"] for m in members}
        watching: dict[str, str] = {}
        for conn in table.connections:
            if conn.player_id and conn.player_id not in seated and not conn.closed:
                watching[conn.player_id] = conn.name or "?"
        members += [
            {"player_id": p, "name": n, "seat": None, "bot": False} for p, n in watching.items()
        ]
        current = {
            "table_id": table.table_id,
            "game": summary["game"],
            "options": summary["options"],
            "status": summary["status"],
            "in_hand": summary["in_hand"],
        }
    return {
        "room_id": stored.room_id,
        "name": stored.name,
        "status": stored.status,
        "private": stored.private,
        "url": live.path if _may_enter(live, services, player_id, None) else f"/rooms/{room_id}",
        "host": _host(services, room) or {"player_id": stored.host_id, "name": stored.host_name},
        "members": members,
        "table": current,
        "tables": [
            {
                "table_id": t["table_id"],
                "game": t["game"],
                "options": t["options"],
                "status": t["status"],
                "opened": t["opened"].isoformat() if t["opened"] else None,
                "last_hand_at": t["last_hand_at"].isoformat() if t["last_hand_at"] else None,
                "hands": t["hands"],
            }
            for t in stored.tables
        ],
    }


def _host(services: Any, room: Room | None) -> dict[str, Any] | None:
    """The room's host as its table says now (the role may be handed on at the table)."""
    table = services.lobby.rooms.table(room) if room is not None else None
    block = table.core.host_block() if table is not None and not table.closed else None
    return block if block is not None and block.get("name") else None


@router.post("/{room_id}/host", response_model=RoomHost)
async def hand_the_room_over(
    room_id: str, body: RoomHostIn, request: Request, player: PlayerDep, services: ServicesDep
) -> dict[str, Any]:
    """The room's host (or the server's host) hands the room to a player seated at its table:
    from now on they switch its game (and open its next tables). 403 for anyone else; 409 for
    a player not seated there."""
    room = services.lobby.rooms.get(room_id)
    if room is None or room.status != "open":
        raise HTTPException(404, N_("no such room"))
    if player.id != room.host_id and not is_host(request, services):
        raise HTTPException(403, N_("only the room's host may hand it over"))
    table = services.lobby.rooms.table(room)
    seat = table.seat_of(body.player_id) if table is not None else None
    if table is None or seat is None:
        raise HTTPException(409, N_("the room goes to a player seated at its table"))
    await services.writer.run(store.set_room_host, room_id, body.player_id)
    await table.give_host(body.player_id, by=player.id)  # one host: the table's is the room's
    room.host_id = body.player_id
    return {"player_id": body.player_id, "name": table.roster[seat].name}


pages = APIRouter(
    tags=["pages"], include_in_schema=False, route_class=ApiRoute, dependencies=[PageLocale]
)


@pages.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(
    room_id: str, request: Request, services: ServicesDep, session: SessionDep
) -> HTMLResponse:
    """The room's one link: the page of the table it plays at now, in room mode
    (static/js/room.js): on ``room_switch`` the page follows to the new table without a
    reload, and the URL stays the room's. The host gets the game chooser."""
    room = services.lobby.rooms.get(room_id)
    viewer = await optional_player(request, session)
    player_id = viewer.id if viewer else None
    table = services.lobby.rooms.table(room) if room is not None else None
    if (
        room is None
        or table is None
        or table.closed
        or not _may_enter(room, services, player_id, request.query_params.get("invite"))
    ):
        return templates.TemplateResponse(request, "table_missing.html", {}, status_code=404)
    summary = table.summary()
    locale = request_locale(request)
    summary.update(table_words(summary, locale))
    summary["room"] = {
        "room_id": room.room_id,
        "name": room.name,
        "host_id": room.host_id,
        "games": [
            {"id": game, "title": game_title(game, locale)} for game in services.settings.game_ids
        ],
    }
    return templates.TemplateResponse(
        request,
        "table.html",
        {
            "table": summary,
            "join_code_required": bool(services.settings.join_code),
            "rules_href": rules_href(summary["game"], table.table_id, room.invite_code),
        },
    )
