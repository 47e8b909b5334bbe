"""The reader's language for a request or a socket (app/i18n/negotiate.py: the player's
stored choice, then the language cookie, then ``Accept-Language``, then English).

A page finds it once per request (:data:`PageLocale`, a dependency of every page router,
which looks the caller up first so that a signed-in player's choice wins) and keeps it on
``request.state.locale``; the templates read it from there (:func:`template_context`, the
templates' context processor). An API answer's words (its errors) use the same, or, where no
page dependency ran, what the request carries: the caller if the route looked them up, the
cookie and the browser's header.
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request
from markupsafe import Markup
from starlette.requests import HTTPConnection

from app.api.deps import SessionDep, signed_in
from app.i18n import browser
from app.i18n.jinja import render_context
from app.i18n.negotiate import LANG_COOKIE, negotiate


def _pseudo_allowed(connection: HTTPConnection) -> bool:
    services = getattr(connection.app.state, "services", None)
    return bool(services is not None and services.settings.pseudo_locale)


def connection_locale(connection: HTTPConnection, chosen: str | None = None) -> str:
    """The language of a request or socket's reader whose stored choice is ``chosen``."""
    return negotiate(
        chosen=chosen,
        cookie=connection.cookies.get(LANG_COOKIE),
        header=connection.headers.get("accept-language"),
        pseudo=_pseudo_allowed(connection),
    )


def request_locale(request: Request) -> str:
    """The request's language: the one its page dependency found, else from the caller the
    route looked up (if it did), the cookie and the browser's header."""
    found: str | None = getattr(request.state, "locale", None)
    if found is not None:
        return found
    signed = getattr(request.state, "signed_in", None)
    return connection_locale(request, signed.player.language if signed is not None else None)


async def page_locale(request: Request, session: SessionDep) -> str:
    """A page's language, found once for its request (the caller looked up first)."""
    found = await signed_in(request, session)
    locale = connection_locale(request, found.player.language if found is not None else None)
    request.state.locale = locale
    return locale


PageLocale = Depends(page_locale)
"""Every page router's dependency: the page's language, before its route runs."""


def template_context(request: Request) -> dict[str, Any]:
    """What every template render gets (the templates' context processor): the reader's
    gettext, ngettext, ``_`` and ``locale``, the languages of the switch, and the client's
    catalog in the reader's language (its JSON, escaped for a ``<script>`` element, and its
    versioned URL: app/i18n/browser.py)."""
    locale = request_locale(request)
    return {
        **render_context(locale),
        "client_catalog": Markup(browser.catalog_json(locale)),  # JSON escaped for <script>
        "client_catalog_url": browser.catalog_url(locale),
    }
