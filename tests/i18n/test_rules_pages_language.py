"""The rules pages in the reader's language (docs/i18n.md, "The rules pages"): a game's
"How to play" page and its section of the rule book are the reader's language's files when
they are written (docs/how-to-play/<lang>/<game>.md, docs/rules/<lang>.md), else the English
ones with a note, in the reader's language, that the page is not yet written in it. The
French files here are the test's own, in a temporary folder."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from app.i18n.catalogs import translations
from app.i18n.negotiate import LANG_COOKIE
from app.rulebook import book, how_to_play
from tests.conftest import LiveServer
from tests.i18n.conftest import Entries

GAME = "greek-31"
NOTE = 'id="not-translated"'


def _clear() -> None:
    how_to_play.how_to_play.cache_clear()
    book.game_rules.cache_clear()
    book._book.cache_clear()


@pytest.fixture
def docs(tmp_path: Path) -> Iterator[Path]:
    """The pages read from ``tmp_path``: the English how-to-play pages copied there (the
    languages' folders left behind), and no translation until a test writes one."""
    pages, translated = how_to_play.PAGES, book.TRANSLATED
    shutil.copytree(
        pages,
        tmp_path / "how-to-play",
        ignore=lambda folder, names: [n for n in names if (Path(folder) / n).is_dir()],
    )
    how_to_play.PAGES, book.TRANSLATED = tmp_path / "how-to-play", tmp_path / "rules"
    _clear()
    try:
        yield tmp_path
    finally:
        how_to_play.PAGES, book.TRANSLATED = pages, translated
        _clear()


async def get(live: LiveServer, path: str, lang: str) -> str:
    async with httpx.AsyncClient(
        base_url=live.base_url, cookies={LANG_COOKIE: lang}, timeout=30
    ) as http:
        page = await http.get(path)
    assert page.status_code == 200, page.text
    return page.text


@pytest.mark.parametrize("path", [f"/games/{GAME}/how-to-play", f"/games/{GAME}/rules"])
async def test_a_page_not_yet_in_french_is_english_with_a_note(
    live: LiveServer, docs: Path, path: str
) -> None:
    html = await get(live, path, "fr")
    assert '<html lang="fr">' in html
    assert NOTE in html
    note = translations("fr", "messages").gettext(
        "This page is not yet written in %(language)s: here it is in English."
    )
    assert note % {"language": "français"} in html  # the French catalog's own words
    assert 'aria-labelledby="howto-title" lang="en">' in html or (
        'aria-labelledby="rules-title" lang="en">' in html
    )
    assert NOTE not in await get(live, path, "en")


async def test_the_note_is_worded_in_the_readers_language(
    live: LiveServer, docs: Path, french: Callable[[Entries], None]
) -> None:
    entries: Entries = {
        "This page is not yet written in %(language)s: here it is in English.": (
            "Cette page n'est pas encore écrite en %(language)s : la voici en anglais."
        )
    }
    french(entries)
    html = await get(live, f"/games/{GAME}/how-to-play", "fr")
    assert "Cette page n'est pas encore écrite en français : la voici en anglais." in html


async def test_a_how_to_play_page_written_in_french_is_served(live: LiveServer, docs: Path) -> None:
    (docs / "how-to-play" / "fr").mkdir()
    (docs / "how-to-play" / "fr" / f"{GAME}.md").write_text(
        "## Le but\n\nFaire 31 dans une couleur.\n", encoding="utf-8"
    )
    html = await get(live, f"/games/{GAME}/how-to-play", "fr")
    assert "Faire 31 dans une couleur." in html
    assert NOTE not in html
    english = await get(live, f"/games/{GAME}/how-to-play", "en")
    assert "Faire 31" not in english  # an English reader keeps the English page
    danish = await get(live, f"/games/{GAME}/how-to-play", "da")
    assert "Faire 31" not in danish and NOTE in danish


async def test_the_rule_book_written_in_french_is_served(live: LiveServer, docs: Path) -> None:
    english = book.BOOK.read_text(encoding="utf-8")
    number = book.game_rules(GAME)
    assert number is not None
    first = number.rules.headings[0]
    heading = f"### {first.number} {first.title}"
    assert heading in english
    french = english.replace(heading, f"### {first.number} Le jeu en français", 1)
    (docs / "rules").mkdir()
    (docs / "rules" / "fr.md").write_text(french, encoding="utf-8")
    _clear()
    html = await get(live, f"/games/{GAME}/rules", "fr")
    assert "Le jeu en français" in html
    assert NOTE not in html
    assert "Le jeu en français" not in await get(live, f"/games/{GAME}/rules", "en")
