"""The browser client's catalog: the ``js`` domain's messages of a language, its plural forms
and the locale its numbers and dates are written in, as one JSON object (docs/i18n.md)::

    {"locale": "fr", "format": "fr", "plural": ["one", "other"],
     "messages": {"Open tables": "Tables ouvertes", "{n} seat": ["{n} place", "{n} places"]}}

``plural``: the CLDR category of each of the catalog's plural forms (:mod:`app.i18n.plurals`).
Its ``version`` (a hash of the JSON) names the catalog's URL, so a browser may keep it for
good and a new catalog has a new URL.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import orjson

from app.i18n.catalogs import messages
from app.i18n.locales import formatting_locale
from app.i18n.plurals import form_categories


@functools.cache
def catalog(locale: str) -> dict[str, Any]:
    """The client's catalog of ``locale`` (a served language: the caller checks)."""
    return {
        "locale": locale,
        "format": formatting_locale(locale),
        "plural": form_categories(locale),
        "messages": messages(locale, "js"),
    }


@functools.cache
def catalog_json(locale: str) -> str:
    """:func:`catalog` as compact JSON, safe inside a ``<script>`` element (``<``, ``>`` and
    ``&`` written as ``\\u`` escapes)."""
    text = orjson.dumps(catalog(locale), option=orjson.OPT_SORT_KEYS).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@functools.cache
def version(locale: str) -> str:
    """A short hash of the catalog's JSON: its URL's version, and its ETag."""
    return hashlib.sha256(catalog_json(locale).encode()).hexdigest()[:12]


def catalog_url(locale: str) -> str:
    """The versioned URL of ``locale``'s catalog (``GET /i18n/{locale}.json``), as pages
    name it."""
    return f"/i18n/{locale}.json?v={version(locale)}"
