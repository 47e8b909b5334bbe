"""The players' "How to play" pages in a real Chromium, read as a newcomer would: each game's
page opens from the lobby, shows a worked hand in cards, speaks in words (no option ids, no
"seed 00x", no "Decision."), says what really happens at a lobby table (everyone's Ready
first), links to the full rule book, fits a phone, and passes the axe-core check.

Screenshots go to /tmp/shots/howto-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.games.core.registry import GAME_IDS, game_class
from tests.browser.axe import describe, grave
from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer

SNAKE_KEYS = sorted(
    {spec.name for gid in GAME_IDS for spec in game_class(gid).OPTIONS if "_" in spec.name}
)
SPEC_WORDS = re.compile(r"[Ss]eed 00\d|Decision\.|This server\.|Beyond the sources|§\d")


def fits_the_width(page: Any) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, overflow


@pytest.mark.browser
@pytest.mark.parametrize("game", GAME_IDS)
def test_each_games_page_for_players(live_server: BrowserServer, open_page: Any, game: str) -> None:
    page = open_page(WIDE)
    page.goto("/")
    link = page.locator(f".game-blurbs a.rules-link[href='/games/{game}/how-to-play']")
    expect(link).to_have_count(1)
    link.click()
    page.wait_for_url(re.compile(rf"/games/{game}/how-to-play$"))
    expect(page.locator("h1")).to_have_text(game_class(game).title)
    cards = page.locator("#howto .howto-hand .card")
    expect(cards.first).to_be_visible()
    assert cards.count() >= 5
    text = page.locator("body").inner_text()
    assert not SPEC_WORDS.search(text), SPEC_WORDS.search(text)
    assert [key for key in SNAKE_KEYS if key in text] == []
    server = page.locator("#at-this-server")
    expect(server).to_contain_text("everyone seated has pressed Ready")
    expect(server).to_contain_text("The first hand waits until everyone seated is ready")
    assert grave(page) == [], describe(grave(page))
    page.screenshot(path=str(SHOTS / f"howto-{game}.png"), full_page=True)
    page.locator("#full-book").click()
    page.wait_for_url(re.compile(rf"/games/{game}/rules$"))
    expect(page.locator("#rules-toc li").first).to_be_visible()
    page.locator("#howto-link").click()
    page.wait_for_url(re.compile(rf"/games/{game}/how-to-play$"))


@pytest.mark.browser
def test_the_pages_on_a_phone(live_server: BrowserServer, open_page: Any) -> None:
    phone = open_page(NARROW)
    for game in GAME_IDS:
        phone.goto(f"/games/{game}/how-to-play")
        expect(phone.locator("#howto .card").first).to_be_visible()
        fits_the_width(phone)
        assert grave(phone) == [], describe(grave(phone))
    phone.screenshot(path=str(SHOTS / "howto-phone.png"), full_page=True)
    missing = phone.goto("/games/poker/how-to-play")
    assert missing is not None and missing.status == 404
