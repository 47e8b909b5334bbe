"""``GET /api/games``: every game with its options (PROTOCOL.md, "Games and tables")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.games.registry import games

router = APIRouter(prefix="/api", tags=["games"])


def games_listing(game_ids: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {
            "id": cls.id,
            "title": cls.title,
            "min_players": cls.MIN_PLAYERS,
            "options": [spec.public() for spec in cls.OPTIONS],
            "actions": sorted(cls.ACTION_KINDS),
        }
        for cls in games(game_ids).values()
    ]


@router.get("/games")
async def list_games(services: ServicesDep) -> list[dict[str, Any]]:
    return games_listing(services.settings.game_ids)
