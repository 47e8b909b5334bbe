"""Plural forms. A catalog chooses among its forms by its ``Plural-Forms`` rule (gettext's,
which Babel writes into each catalog from CLDR); the browser chooses by CLDR's categories
(``Intl.PluralRules``: ``one``, ``other``, ...). :func:`form_categories` says which category
each of a catalog's forms stands for, so the browser picks the same form the server would.

English, Greek, Danish and Italian: ``one`` for exactly 1, ``other`` else; French: ``one``
for 0 and 1 (and any n < 2), ``other`` else.
"""

from __future__ import annotations

from babel import Locale

from app.i18n.catalogs import translations
from app.i18n.locales import formatting_locale

SAMPLES = (*range(0, 201), 1000, 1_000_000, 0.5, 1.5)
"""Counts enough to meet every form of the five languages' rules."""


def category(locale: str, n: float) -> str:
    """CLDR's plural category of ``n`` in ``locale`` ("one", "few", "many", "other")."""
    return str(Locale.parse(formatting_locale(locale)).plural_form(n))


def ngettext(locale: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` items in ``locale`` (its catalog's rule;
    the English msgids by English's when it lacks the message)."""
    return translations(locale).ngettext(singular, plural, n)


def form_categories(locale: str) -> list[str]:
    """The CLDR category each of ``locale``'s catalog forms stands for, in the catalog's order
    (index 0 first): what the browser maps ``Intl.PluralRules`` through. Found by sampling
    counts: the form the catalog's rule picks for ``n`` stands for ``n``'s category (the
    first category met for a form wins; a category no form claims reads as the last form)."""
    rule = getattr(translations(locale, "js"), "plural", None)
    pick = rule if callable(rule) else (lambda n: int(n != 1))
    found: dict[int, str] = {}
    for n in SAMPLES:
        if isinstance(n, int):
            found.setdefault(int(pick(n)), category(locale, n))
    return [found.get(index, "other") for index in range(max(found) + 1)]
