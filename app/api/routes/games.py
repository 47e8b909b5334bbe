"""``GET /api/games``: every game with its options (docs/protocol.md §4.4)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import ServicesDep
from app.api.errors import ApiRoute
from app.api.locale import request_locale
from app.api.schemas.games import GameInfo
from app.games.core.registry import games
from app.rulebook.game_words import game_title

router = APIRouter(prefix="/api", tags=["games"], route_class=ApiRoute)


def games_listing(game_ids: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {
            "id": cls.id,
            "title": cls.title,
            "min_players": cls.MIN_PLAYERS,
            "options": [spec.public() for spec in cls.OPTIONS],
            "options_schema": cls.OPTIONS_MODEL.json_schema(),
            "actions": sorted(cls.ACTION_KINDS),
        }
        for cls in games(game_ids).values()
    ]


@router.get("/games", response_model=list[GameInfo])
async def list_games(request: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """Every game this server deals, its ``title`` in the reader's language (docs/i18n.md);
    its id, options and actions are the protocol's, in none."""
    locale = request_locale(request)
    return [
        {**game, "title": game_title(game["id"], locale)}
        for game in games_listing(services.settings.game_ids)
    ]
