"""``GET /api/games``: every game with its options (docs/protocol.md §4.4)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import ServicesDep
from app.api.errors import ApiRoute
from app.api.locale import request_locale
from app.api.schemas.games import GameInfo
from app.games.core.options import OptionSpec
from app.games.core.registry import games
from app.i18n.locales import DEFAULT
from app.rulebook.game_words import game_title
from app.rulebook.option_names import choice_words, option_help, option_label

router = APIRouter(prefix="/api", tags=["games"], route_class=ApiRoute)


def games_listing(game_ids: tuple[str, ...], locale: str = DEFAULT) -> list[dict[str, Any]]:
    """Every game of ``game_ids`` with its options; each option's words for people (its
    ``label``, ``help`` and ``choice_labels``) in ``locale``, the rest in none."""
    return [
        {
            "id": cls.id,
            "title": cls.title,
            "min_players": cls.MIN_PLAYERS,
            "options": [option_listing(cls.id, spec, locale) for spec in cls.OPTIONS],
            "options_schema": cls.OPTIONS_MODEL.json_schema(),
            "actions": sorted(cls.ACTION_KINDS),
        }
        for cls in games(game_ids).values()
    ]


def option_listing(game: str, spec: OptionSpec, locale: str) -> dict[str, Any]:
    """One option as listed: its spec, and its name, help and choices in words for people
    (app/rulebook/option_names.py; an option without words has its key and description)."""
    out = spec.public()
    out["label"] = option_label(game, spec.name, locale) or spec.name
    out["help"] = option_help(game, spec.name, locale) or spec.description
    if spec.type == "choice":
        out["choice_labels"] = [
            choice_words(game, spec.name, value, locale) or str(value) for value in spec.choices
        ]
    return out


@router.get("/games", response_model=list[GameInfo])
async def list_games(request: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """Every game this server deals, its ``title`` and its options' ``label``, ``help`` and
    ``choice_labels`` in the reader's language (docs/i18n.md); its id, options and actions
    are the protocol's, in none."""
    locale = request_locale(request)
    return [
        {**game, "title": game_title(game["id"], locale)}
        for game in games_listing(services.settings.game_ids, locale)
    ]
