"""The browser's pages: the lobby and a table (Jinja2; the client is static JS).

A table's page answers 404 with a page of its own (``table_missing.html``, with the way back
to the lobby) for a table that does not exist, is closed, or is private and asked for without
its invite: the same page for all three, so that it never tells a stranger that a private
table exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context

from app.api.deps import ServicesDep, SessionDep, optional_player
from app.api.errors import ApiRoute
from app.api.locale import PageLocale, request_locale, template_context
from app.api.routes.games import games_listing
from app.games.core.registry import GAME_IDS, games
from app.i18n.jinja import install
from app.i18n.locales import DEFAULT
from app.rulebook.game_words import game_blurb, game_title
from app.rulebook.option_words import table_words

ROOT = Path(__file__).resolve().parents[3]
# Every render gets the reader's gettext and locale (app/api/locale.py); the environment
# itself holds no reader's language (app/i18n/jinja.py).
templates = Jinja2Templates(
    directory=str(ROOT / "templates"), context_processors=[template_context]
)
templates.env.policies["ext.i18n.trimmed"] = True  # a trans block's white space as one space
install(templates.env)


@pass_context
def game_titles(context: Mapping[str, Any]) -> dict[str, str]:
    """Every game's title by its id, for the pages that name games (the hand lists, a player's
    page), in the page's language: read from the games, so a new game is named without a list
    in the scripts."""
    locale = context.get("locale") or DEFAULT
    return {game: game_title(game, locale) for game in GAME_IDS}


templates.env.globals["game_titles"] = game_titles

router = APIRouter(
    tags=["pages"], include_in_schema=False, route_class=ApiRoute, dependencies=[PageLocale]
)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, services: ServicesDep) -> HTMLResponse:
    locale = request_locale(request)
    offered = services.settings.game_ids
    return templates.TemplateResponse(
        request,
        "lobby.html",
        {
            "games": [
                {**game, "title": game_title(game["id"], locale)}
                for game in games_listing(offered, locale)
            ],
            # Each game's sentence for the lobby, from its class (Game.BLURB), in words.
            "blurbs": {gid: game_blurb(gid, locale) for gid in games(offered)},
            "join_code_required": bool(services.settings.join_code),
        },
    )


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(
    table_id: str, request: Request, services: ServicesDep, session: SessionDep
) -> HTMLResponse:
    table = services.lobby.get(table_id)
    viewer = await optional_player(request, session)
    if (
        table is None
        or table.closed
        or not table.may_enter(viewer.id if viewer else None, request.query_params.get("invite"))
    ):
        return templates.TemplateResponse(request, "table_missing.html", {}, status_code=404)
    summary = table.summary()
    # The options in words and their names (app/rulebook/option_words.py), in the reader's
    # language: drawn by static/js/table-info.js and host-panel.js.
    summary.update(table_words(summary, request_locale(request)))
    return templates.TemplateResponse(
        request,
        "table.html",
        {
            "table": summary,
            "join_code_required": bool(services.settings.join_code),
            "rules_href": rules_href(summary["game"], table_id, request.query_params.get("invite")),
        },
    )


def rules_href(game: str, table_id: str, invite: str | None) -> str:
    """The game's "How to play" page, opened from a table: it links back to that table (and on
    to the rule book's section, /games/<id>/rules)."""
    query = {"table": table_id, **({"invite": invite} if invite else {})}
    return f"/games/{game}/how-to-play?{urlencode(query)}"
