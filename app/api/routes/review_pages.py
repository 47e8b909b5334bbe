"""The review pages: a hand's replay, a player's page, a table's hand history.

The pages are shells: their scripts read the review API (``app/api/routes/review.py``) with
the caller's cookie (or the host's token kept in the tab), so what a reader may see of a hand
is decided in one place, the API. A page only says which hand, player or table it is about —
which, for a private table, is already too much for a stranger: a hand's page and a table's
history answer 404 to anyone the table is hidden from, as for an id never given out
(:mod:`app.review.access`). The host opens them with ``?admin_token=`` (or as a player of
the table); an invite holder with the table's ``?invite=``.

A table's history page with ``?room_id=`` is a room's (docs/review.md, "Pages"): the hands of
every table of the room, for whoever may see one of its tables (404 for anyone else, as for
no room); its script offers the reader's own rooms to choose from (``GET /api/rooms``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from app.api.deps import SessionDep
from app.api.errors import ApiRoute
from app.api.locale import PageLocale, request_locale
from app.api.routes.hands import ReaderDep
from app.api.routes.pages import templates
from app.db.devices import aware
from app.db.models import Player
from app.db.store.rooms import load_room
from app.games.core.registry import GAME_MODULES
from app.i18n.messages import localize
from app.review import access
from app.rulebook.game_words import game_title

ROOT = Path(__file__).resolve().parents[3]
router = APIRouter(
    tags=["pages"], include_in_schema=False, route_class=ApiRoute, dependencies=[PageLocale]
)


def _game_css(game: str) -> str | None:
    """The game's own stylesheet for the table drawing, when it has one."""
    path = ROOT / "static" / "css" / "games" / f"{game}.css"
    return f"/static/css/games/{game}.css" if game in GAME_MODULES and path.exists() else None


def missing(request: Request, what: str) -> HTMLResponse:
    """The site's own "not here" page (404), the same for an id never given out and for
    what the reader may not see."""
    return templates.TemplateResponse(
        request, "table_missing.html", {"what": what}, status_code=404
    )


@router.get("/hands/{hand_id}", response_class=HTMLResponse)
async def hand_page(
    hand_id: str, request: Request, session: SessionDep, reader: ReaderDep
) -> HTMLResponse:
    try:
        hand = await access.finished_hand(session, hand_id, reader)
    except HTTPException as err:
        if err.status_code != 404:
            raise
        return missing(request, "hand")
    return templates.TemplateResponse(
        request,
        "hand.html",
        {
            "hand_id": hand.id,
            "game": hand.game,
            "game_title": game_title(hand.game, request_locale(request)),
            "game_css": _game_css(hand.game),
            "number": hand.number,
            "table_id": hand.table_id,
            "status": hand.status,
            "void": (
                void_hand(hand.record or {}, request_locale(request))
                if hand.status == "void"
                else None
            ),
        },
    )


def void_hand(record: dict[str, Any], locale: str = "en") -> dict[str, Any]:
    """What a void hand's page shows (docs/review.md, "Void hands"): why it is void (in
    ``locale`` when the reason is a marked message; a host's own words as they were typed)
    and who sat in it, with their stacks as it began; no cards, nothing was settled."""
    seats = [s for s in record.get("seats_before") or [] if isinstance(s, dict)]
    reason = record.get("void")
    return {
        "reason": localize(reason, locale) if isinstance(reason, str) and reason else None,
        "players": sorted(seats, key=lambda s: int(s.get("seat", 0))),
    }


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(player_id: str, request: Request, session: SessionDep) -> HTMLResponse:
    player = await session.get(Player, player_id) if len(player_id) <= 40 else None
    if player is None:
        return missing(request, "player")
    return templates.TemplateResponse(request, "player.html", {"player_id": player.id})


@router.get("/tables/{table_id}/history", response_class=HTMLResponse)
async def table_history_page(
    table_id: str, request: Request, session: SessionDep, reader: ReaderDep
) -> HTMLResponse:
    table = await access.visible_table(session, table_id, reader)
    if table is None:
        return missing(request, "history")
    title = game_title(table.game, request_locale(request))
    room = None
    room_id = request.query_params.get("room_id")
    if room_id:
        stored = None
        if await access.visible_room(session, room_id, reader):
            stored = await load_room(session, room_id)
        if stored is None:
            return missing(request, "room")
        room = {
            "room_id": stored.room_id,
            "name": stored.name,
            "open": stored.status == "open",
            "opened": aware(stored.created_at).isoformat(),
            "games": list(dict.fromkeys(t["game"] for t in stored.tables)),
        }
    return templates.TemplateResponse(
        request,
        "history.html",
        {
            "table_id": table.id,
            "name": table.name,
            "game": table.game,
            "game_title": title,
            "room": room,
            "invite": reader.invite,
            "invite_query": f"?{urlencode({'invite': reader.invite})}" if reader.invite else "",
        },
    )
