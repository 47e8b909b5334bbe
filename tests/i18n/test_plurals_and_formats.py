"""Plural forms and number and date forms of each language, through Babel (CLDR) and the
compiled catalogs' ``Plural-Forms`` (``make compile``): English, Greek, Danish and Italian
have one form for exactly 1 and another for every other count; French's singular takes 0
and 1. French and Italian have a third form (CLDR's "many") for round millions ("un million
de jetons"), which Babel writes into their catalogs' rule."""

from __future__ import annotations

from datetime import date

import pytest

from app.i18n import formats
from app.i18n.catalogs import translations
from app.i18n.locales import SUPPORTED
from app.i18n.plurals import category, form_categories

ONE_IS_SINGULAR = ("en", "el", "da", "it")


@pytest.mark.parametrize("locale", ONE_IS_SINGULAR)
def test_one_is_singular_zero_and_many_are_not(locale: str) -> None:
    assert category(locale, 1) == "one"
    assert [category(locale, n) for n in (0, 2, 5, 21, 100)] == ["other"] * 5


def test_french_treats_zero_and_one_as_singular() -> None:
    assert category("fr", 0) == "one"
    assert category("fr", 1) == "one"
    assert category("fr", 2) == "other"


@pytest.mark.parametrize("locale", SUPPORTED)
def test_the_catalogs_plural_rule_agrees_with_cldr(locale: str) -> None:
    """The compiled catalog's rule (gettext's) picks form 0 exactly where CLDR says "one":
    the server's ngettext and the browser's Intl.PluralRules choose the same form."""
    rule = getattr(translations(locale, "js"), "plural", None)
    assert callable(rule), f"{locale}: no compiled catalog (make compile)"
    for n in range(0, 30):
        assert (rule(n) == 0) == (category(locale, n) == "one"), (locale, n)
    for n in (1000, 1_000_000, 2_000_000):
        assert form_categories(locale)[rule(n)] == category(locale, n), (locale, n)


@pytest.mark.parametrize(
    ("locale", "forms"),
    [
        ("en", ["one", "other"]),
        ("el", ["one", "other"]),
        ("da", ["one", "other"]),
        ("fr", ["one", "many", "other"]),
        ("it", ["one", "many", "other"]),
    ],
)
def test_the_forms_the_browser_maps_its_categories_through(locale: str, forms: list[str]) -> None:
    assert form_categories(locale) == forms


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "1,234,567"), ("da", "1.234.567"), ("el", "1.234.567"), ("it", "1.234.567")],
)
def test_numbers_in_each_languages_form(locale: str, expected: str) -> None:
    assert formats.number(1234567, locale) == expected


def test_french_groups_with_a_narrow_no_break_space() -> None:
    assert formats.number(1234567, "fr") == "1\u202f234\u202f567"


def test_dates_in_each_languages_form() -> None:
    day = date(2026, 12, 31)
    assert formats.date_text(day, "en", "long") == "December 31, 2026"
    assert formats.date_text(day, "fr", "long") == "31 décembre 2026"
    assert formats.date_text(day, "da", "short") == "31.12.2026"
    assert formats.date_text(day, "qps", "long") == "December 31, 2026"
