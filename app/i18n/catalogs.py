"""The compiled gettext catalogs of each language, loaded once a process.

Catalogs live under ``app/i18n/locale/<lang>/LC_MESSAGES/<domain>.po``, two domains:
``messages`` (the server's pages, messages and errors) and ``js`` (the browser client's
strings, served to it as JSON by :mod:`app.i18n.browser`). The ``.mo`` files read here are
compiled from them by ``make compile`` (every ``make`` target that serves or tests compiles
first); they are build products, not kept in git. A language whose ``.mo`` is missing, or a
message its catalog lacks, reads as the English msgid: English is the source.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path
from typing import Literal

from babel.support import Translations

from app.i18n.locales import CATALOGS

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogs are: ``<lang>/LC_MESSAGES/<domain>.po`` and the compiled ``.mo``."""

Domain = Literal["messages", "js"]
DOMAINS: tuple[Domain, ...] = ("messages", "js")


@functools.cache
def translations(locale: str, domain: Domain = "messages") -> gettext.NullTranslations:
    """The compiled catalog of ``locale`` in ``domain``. A language the server does not know,
    or whose catalog is not compiled, gets null translations: every message as its msgid
    (English), with English plural forms (``n == 1`` singular)."""
    if locale not in CATALOGS:
        return gettext.NullTranslations()
    # Babel answers NullTranslations when the .mo is missing
    return Translations.load(str(LOCALE_DIR), [locale], domain)


def messages(locale: str, domain: Domain = "js") -> dict[str, str | list[str]]:
    """The translated messages of a compiled catalog: a msgid to its translation, a plural
    msgid (the singular) to its forms in the catalog's order; untranslated ones left out (the
    reader falls back to the msgid)."""
    catalog = translations(locale, domain)
    raw: dict[object, str] = getattr(catalog, "_catalog", {})
    out: dict[str, str | list[str]] = {}
    plurals: dict[str, dict[int, str]] = {}
    for key, text in raw.items():
        if isinstance(key, tuple):  # (singular, index) of a plural message
            singular, index = key
            plurals.setdefault(str(singular), {})[int(index)] = text
        elif key and text:  # the empty msgid is the catalog's header
            out[str(key)] = text
    for singular, forms in plurals.items():
        if all(forms.values()):
            out[singular] = [forms[i] for i in sorted(forms)]
    return out
