"""The review pages (issue 7): a hand's replay, a player's page, a table's hand history.

The pages are shells: their scripts read the review API (``app/api/routes/review.py``) with
the caller's cookie (or the host's token kept in the tab), so who may see what is decided in
one place, the API. A page only says which hand, player or table it is about.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from app.api.deps import SessionDep
from app.api.routes.pages import templates
from app.db.models import GameTable, Hand, Player
from app.games.registry import GAME_MODULES, game_class

ROOT = Path(__file__).resolve().parents[3]
router = APIRouter(tags=["pages"], include_in_schema=False)


def _game_css(game: str) -> str | None:
    """The game's own stylesheet for the table drawing, when it has one."""
    path = ROOT / "static" / "css" / "games" / f"{game}.css"
    return f"/static/css/games/{game}.css" if game in GAME_MODULES and path.exists() else None


@router.get("/hands/{hand_id}", response_class=HTMLResponse)
async def hand_page(hand_id: str, request: Request, session: SessionDep) -> HTMLResponse:
    hand = await session.get(Hand, hand_id) if len(hand_id) <= 40 else None
    if hand is None or hand.status == "playing":
        raise HTTPException(404, "no finished hand with that id")
    return templates.TemplateResponse(
        request,
        "hand.html",
        {
            "hand_id": hand.id,
            "game": hand.game,
            "game_title": game_class(hand.game).title if hand.game in GAME_MODULES else hand.game,
            "game_css": _game_css(hand.game),
            "number": hand.number,
        },
    )


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(player_id: str, request: Request, session: SessionDep) -> HTMLResponse:
    player = await session.get(Player, player_id) if len(player_id) <= 40 else None
    if player is None:
        raise HTTPException(404, "no such player")
    return templates.TemplateResponse(request, "player.html", {"player_id": player.id})


@router.get("/tables/{table_id}/history", response_class=HTMLResponse)
async def table_history_page(table_id: str, request: Request, session: SessionDep) -> HTMLResponse:
    table = await session.get(GameTable, table_id) if len(table_id) <= 40 else None
    if table is None:
        raise HTTPException(404, "no such table")
    title = game_class(table.game).title if table.game in GAME_MODULES else table.game
    return templates.TemplateResponse(
        request,
        "history.html",
        {"table_id": table.id, "name": table.name, "game": table.game, "game_title": title},
    )
