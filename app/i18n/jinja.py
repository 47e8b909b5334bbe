"""The templates' gettext, one reader's language per render.

The environment is shared by every request, so nothing of a reader's language is stored in
it: :func:`install` adds Jinja's ``i18n`` extension in its new style (``{% trans %}`` and
``_()`` format their own ``%(name)s`` values, and autoescape what they put in) and the
filters. As Jinja's own new style, a message is always formatted: a literal ``%`` in ``_()``
is written ``%%`` (a trans block escapes its own). Each render gets the reader's
``gettext``, ``ngettext``, ``_`` and ``locale`` in its context (:func:`render_context`),
which Jinja looks up before the environment's globals. Two requests in two languages may
render at once, on any thread.

Filters, each reading the render's ``locale``: ``number`` (1,234 / 1.234), ``date`` and
``datetime`` (Babel's "medium" style unless given another).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from app.i18n import formats
from app.i18n.catalogs import translations
from app.i18n.locales import DEFAULT, NAMES


def _gettext(catalog_gettext: Callable[[str], str]) -> Callable[..., str]:
    @pass_context
    def gettext(context: Context, message: str, /, **values: Any) -> str:
        text = catalog_gettext(message)
        if context.eval_ctx.autoescape:
            text = Markup(text)
        return text % values

    return gettext


def _ngettext(catalog_ngettext: Callable[[str, str, int], str]) -> Callable[..., str]:
    @pass_context
    def ngettext(context: Context, singular: str, plural: str, n: int, /, **values: Any) -> str:
        values.setdefault("num", n)
        text = catalog_ngettext(singular, plural, n)
        if context.eval_ctx.autoescape:
            text = Markup(text)
        return text % values

    return ngettext


def render_context(locale: str) -> dict[str, Any]:
    """What one render in ``locale`` needs: its gettext callables, its code and the languages
    the switch offers."""
    catalog = translations(locale)
    gettext = _gettext(catalog.gettext)
    return {
        "gettext": gettext,
        "_": gettext,
        "ngettext": _ngettext(catalog.ngettext),
        "locale": locale,
        "languages": NAMES,
    }


def _locale(context: Context) -> str:
    return str(context.get("locale") or DEFAULT)


@pass_context
def number_filter(context: Context, value: int | float) -> str:
    return formats.number(value, _locale(context))


@pass_context
def date_filter(context: Context, value: date | datetime, style: str = "medium") -> str:
    return formats.date_text(value, _locale(context), style)


@pass_context
def datetime_filter(context: Context, value: datetime, style: str = "medium") -> str:
    return formats.datetime_text(value, _locale(context), style)


def install(env: Environment) -> None:
    """Jinja's i18n extension, new style, English until a render says otherwise, and the
    number and date filters."""
    env.add_extension("jinja2.ext.i18n")
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    env.filters["number"] = number_filter
    env.filters["date"] = date_filter
    env.filters["datetime"] = datetime_filter
