"""The "How to play" pages: ``GET /games/{game}/how-to-play``, the game for players in five
minutes (docs/how-to-play/<game>.md, :mod:`app.rulebook.how_to_play`), and one click further
``GET /games/{game}/rules``, the full rule book's section (docs/rules.md, rendered by
:mod:`app.rulebook.book`), each with the options a table at this server starts with, in words.

Each page is the reader's language's when it is written (docs/how-to-play/<lang>/<game>.md,
docs/rules/<lang>.md), else the English one, which the page says is not yet written in the
reader's language (``untranslated``: that language's name, for the note).

Opened from a table (``?table=<id>``, and a private table's ``?invite=``), the page links back
to it: only when the reader may enter that table, so that the page never tells a stranger
that a private table exists. A game the book or the server does not know answers the site's
"not here" page (404), never JSON.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.api.deps import ServicesDep, SessionDep, optional_player
from app.api.errors import ApiRoute
from app.api.locale import PageLocale, request_locale
from app.api.routes.pages import templates
from app.games.core.registry import GAME_MODULES
from app.i18n.locales import DEFAULT, own_name
from app.rulebook.book import game_rules
from app.rulebook.game_words import game_title
from app.rulebook.how_to_play import how_to_play, lobby_table_words
from app.rulebook.option_words import summary_option_words, table_option_words

router = APIRouter(
    tags=["pages"], include_in_schema=False, route_class=ApiRoute, dependencies=[PageLocale]
)


@router.get("/games/{game}/how-to-play", response_class=HTMLResponse)
async def how_to_play_page(
    game: str, request: Request, services: ServicesDep, session: SessionDep
) -> HTMLResponse:
    locale = request_locale(request)
    page = how_to_play(game, locale)
    if page is None:
        return templates.TemplateResponse(
            request, "table_missing.html", {"what": "rules"}, status_code=404
        )
    query = request.url.query
    return templates.TemplateResponse(
        request,
        "how_to_play.html",
        {
            "page": page,
            "title": game_title(game, locale),
            "untranslated": _untranslated(page.lang, locale),
            "offered": game in services.settings.game_ids,
            "defaults": lobby_table_words(game, locale),
            "book_href": f"/games/{game}/rules" + (f"?{query}" if query else ""),
            "table": await _back_to_table(request, services, session),
        },
    )


@router.get("/games/{game}/rules", response_class=HTMLResponse)
async def rules_page(
    game: str, request: Request, services: ServicesDep, session: SessionDep
) -> HTMLResponse:
    locale = request_locale(request)
    rules = game_rules(game, locale) if game in GAME_MODULES else None
    if rules is None:
        return templates.TemplateResponse(
            request, "table_missing.html", {"what": "rules"}, status_code=404
        )
    return templates.TemplateResponse(
        request,
        "rules.html",
        {
            "rules": rules,
            "untranslated": _untranslated(rules.lang, locale),
            "game_title": game_title(game, locale),
            "offered": game in services.settings.game_ids,
            "defaults": table_option_words(game, locale=locale),
            "table": await _back_to_table(request, services, session),
            "howto_href": f"/games/{game}/how-to-play"
            + (f"?{request.url.query}" if request.url.query else ""),
        },
    )


def _untranslated(written_in: str, locale: str) -> str | None:
    """The reader's language's name when the page is not written in it (it is in English),
    else None."""
    if written_in == locale or locale == DEFAULT:
        return None
    return own_name(locale)


async def _back_to_table(
    request: Request, services: ServicesDep, session: SessionDep
) -> dict[str, Any] | None:
    """The table the page was opened from, with the way back and its options in words, if
    the reader may enter it."""
    table_id = request.query_params.get("table")
    invite = request.query_params.get("invite")
    table = services.lobby.get(table_id) if table_id else None
    if table is None or table.closed:
        return None
    viewer = await optional_player(request, session)
    if not table.may_enter(viewer.id if viewer else None, invite):
        return None
    query = f"?{urlencode({'invite': invite})}" if invite else ""
    summary = table.summary()
    return {
        "name": table.name,
        "href": f"/tables/{table.table_id}{query}",
        "game": summary["game"],
        "words": summary_option_words(summary, request_locale(request)),
    }
