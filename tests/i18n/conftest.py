"""A French catalog of the tests' own, so that a test reads a message worded in French
without waiting for the translators: :func:`french` compiles the msgids it is given into a
temporary catalog directory and points the server's catalogs at it (English and the other
languages read as their msgids there)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from app.i18n import browser, catalogs

Entries = dict[str | tuple[str, str], str | tuple[str, ...]]
"""A msgid (or a plural's singular and plural) to its msgstr (or forms)."""


def _forget() -> None:
    """Every catalog read so far, and what was built from them, forgotten."""
    catalogs.translations.cache_clear()
    for cached in (browser.catalog, browser.catalog_json, browser.version):
        cached.cache_clear()


@pytest.fixture
def french(tmp_path: Path) -> Iterator[Callable[[Entries], None]]:
    original = catalogs.LOCALE_DIR

    def install(entries: Entries) -> None:
        catalog = Catalog(locale="fr", domain="messages")
        for msgid, msgstr in entries.items():
            catalog.add(msgid, msgstr)
        folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "messages.mo").open("wb") as out:
            write_mo(out, catalog)
        catalogs.LOCALE_DIR = tmp_path / "locale"
        _forget()

    try:
        yield install
    finally:
        catalogs.LOCALE_DIR = original
        _forget()
