"""Each reader reads a table's story in their own language (docs/i18n.md).

The server sends the table's events as data (docs/protocol.md §6.6); each page words them
(static/js/story.js and the game's module) in its reader's language. Ada reads English; Ψ
watches the same table in the pseudo-locale ``qps`` (every message accented and wrapped in
⟦ ⟧): the same events, Ada's sit and the hand's end, read as two texts, her name unchanged in
both. And the issue's own case: a Greek and a Danish player at one table, each reading the
sits in their own language from the real catalogs.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n.catalogs import translations
from app.i18n.pseudo import accent
from tests.browser.conftest import WIDE, BrowserServer
from tests.browser.steps import choose_name, sit
from tests.browser.test_story_browser import play_a_hand
from tests.browser.test_trianta_ena_browser import open_table_by_api


def lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_inner_texts()]


@pytest.mark.browser
def test_two_readers_read_one_table_in_their_own_languages(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    choose_name(ada, "Ada")
    path = open_table_by_api(ada, "Two languages", bot_first=True)
    watcher = open_page(WIDE)
    watcher.context.add_cookies([{"name": "t31_lang", "value": "qps", "url": live_server.url}])
    watcher.goto(path)
    expect(watcher.locator("html")).to_have_attribute("lang", "qps")
    ada.goto(path)
    sit(ada, 1)

    expect(ada.locator("#log")).to_contain_text("Ada sat down in seat 1 with")
    # the same event, in the watcher's words (the pseudo-locale's accented message)
    expect(watcher.locator("#log")).to_contain_text(
        f"⟦Ada {accent('sat down in seat')} 1 {accent('with')} "
    )
    assert not any("sat down" in line for line in lines(watcher)), lines(watcher)

    play_a_hand(ada)
    # the hand's end: "Hand over: …" for Ada, accented for the watcher, the names as they are
    ended = watcher.locator("#log li", has_text=f"⟦{accent('Hand over:')} ")
    expect(ended.first).to_be_visible()
    assert any(line.endswith(".") and "Hand over: " in line for line in lines(ada)), lines(ada)
    assert not any("Hand over" in line for line in lines(watcher)), lines(watcher)


def _catalog(locale: str) -> Any:
    """The client's messages in ``locale`` as the server compiled them (app/i18n)."""
    return translations(locale, "js")


def _worded(locale: str, msgid: str, **values: Any) -> list[str]:
    """The pieces of ``msgid``'s sentence in ``locale`` around its ``{chips}`` (a count, which
    each language writes its own way): every piece must show in one line of the log."""
    text = _catalog(locale).gettext(msgid)
    assert text != msgid, f"{msgid!r} is not translated into {locale}"
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return [piece.strip() for piece in text.split("{chips}") if piece.strip()]


@pytest.mark.browser
def test_a_greek_and_a_danish_player_share_a_table_each_in_their_own_language(
    live_server: BrowserServer, open_page: Any
) -> None:
    """Two friends at one table, one reading Greek (the browser's Accept-Language), one Danish
    (chosen in the switch): each reads the same sits in their own language."""
    eleni = open_page(WIDE)
    choose_name(eleni, "Eleni")  # in English (the steps read English), then her browser's Greek
    eleni.context.set_extra_http_headers({"origin": live_server.url, "accept-language": "el"})
    path = open_table_by_api(eleni, "Δύο γλώσσες", bot_first=True)
    mads = open_page(WIDE)
    choose_name(mads, "Mads")
    chose = mads.request.put("/api/me/language", data={"language": "da"})
    assert chose.status == 200, chose.text()
    for page, lang in ((eleni, "el"), (mads, "da")):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
    sit(eleni, 1)
    sit(mads, 2)
    msgid = "{name} sat down in seat {seat} with {chips}."
    for page, lang in ((eleni, "el"), (mads, "da")):
        for name, seat in (("Eleni", 1), ("Mads", 2)):
            pieces = _worded(lang, msgid, name=name, seat=seat)
            line = page.locator("#log li", has_text=pieces[0]).filter(has_text=pieces[-1])
            expect(line.first).to_be_visible()
        assert not any("sat down" in line for line in lines(page)), (lang, lines(page))
