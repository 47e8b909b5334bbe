"""Every language's catalog holds every message of its template, translated ("every
catalog complete for every language"): `make extract` and `make update` bring the .po files up
to the .pot, then each empty msgstr wants a translation. English (the source) is complete by
definition: its msgid is its text.

A language whose translation is under way is listed in :data:`IN_PROGRESS`: its test reports
how much is left as a visible skip instead of failing the suite, and fails once the language is
complete, so the list cannot outlive the work (strike it off then)."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from app.i18n.catalogs import DOMAINS, LOCALE_DIR
from app.i18n.locales import DEFAULT, SUPPORTED

TRANSLATED = [code for code in SUPPORTED if code != DEFAULT]

IN_PROGRESS: set[str] = set()
"""The languages still being translated: each skips with its count of messages left (a new
language joins here while its translators work; none now)."""


def _ids(path_domain: str) -> set[str]:
    with (LOCALE_DIR / f"{path_domain}.pot").open("rb") as source:
        return {str(m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(source) if m.id}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", SUPPORTED)
def test_every_msgid_of_the_template_is_in_the_catalog(locale: str, domain: str) -> None:
    with (LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as source:
        catalog = read_po(source)
    present = {str(m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}
    missing = sorted(_ids(domain) - present)
    assert not missing, f"{locale}/{domain}.po lacks {len(missing)} msgids (make update)"


def _left(locale: str, domain: str) -> tuple[list[str], int]:
    """The msgids of ``locale``'s ``domain`` catalog untranslated or fuzzy, and how many it has."""
    with (LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as source:
        catalog = read_po(source)
    empty = [
        str(m.id if isinstance(m.id, str) else m.id[0])
        for m in catalog
        if m.id and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string))
    ]
    return empty, sum(1 for m in catalog if m.id)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated(locale: str, domain: str) -> None:
    empty, total = _left(locale, domain)
    if locale in IN_PROGRESS:
        assert any(_left(locale, d)[0] for d in DOMAINS), (
            f"{locale} is complete: strike it off IN_PROGRESS"
        )
        if empty:
            pytest.skip(f"{locale}/{domain}.po: {len(empty)} of {total} left to translate")
    assert not empty, f"{locale}/{domain}.po: {len(empty)} messages untranslated or fuzzy"
