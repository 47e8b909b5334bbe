"""The "How to play" pages in a real Chromium against the real server: opened from the lobby's
game picker and from a table, each with the way back; the table's options told in words, with
no raw option key on the page; the page laid out on a phone (390x844) and wide.

Screenshots go to /tmp/shots/rules-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from app.games.core.registry import GAME_IDS, game_class
from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import sign_in

SNAKE_KEYS = sorted(
    {spec.name for gid in GAME_IDS for spec in game_class(gid).OPTIONS if "_" in spec.name}
)


def shot(page: Any, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(SHOTS / f"rules-{name}.png"), full_page=full)


def open_table(page: Any, game: str, options: dict[str, Any], *, private: bool = False) -> dict:
    response = page.request.post(
        "/api/tables",
        data={"game": game, "name": "Rules night", "options": options, "private": private},
    )
    assert response.status == 201, response.text()
    return dict(response.json())


def no_raw_keys(text: str) -> list[str]:
    return [key for key in SNAKE_KEYS if key in text]


def fits_the_width(page: Any) -> None:
    """Nothing but a wide table's own box scrolls sideways."""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, overflow


def open_details(box: Any) -> None:
    """Open a <details> by its summary, as a person does, until it is open: a page still
    drawing its first state under load may take the first press (seen on a phone)."""
    deadline = time.monotonic() + 30
    while not box.evaluate("(details) => details.open"):
        assert time.monotonic() < deadline, "the options never opened"
        box.locator("summary").click()
        box.page.wait_for_timeout(200)


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "phone"])
def test_how_to_play_from_the_lobbys_game_picker(
    live_server: BrowserServer, open_page: Any, viewport: dict[str, int]
) -> None:
    kind = "wide" if viewport is WIDE else "phone"
    page = open_page(viewport)
    page.goto("/")
    picker_link = page.locator("#open-game-rules")
    expect(picker_link).to_have_text("How to play Trianta Ena")
    page.select_option("#open-game", "greek-31")
    expect(picker_link).to_have_text("How to play Greek 31")
    expect(picker_link).to_have_attribute("href", "/games/greek-31/how-to-play")
    picker_link.scroll_into_view_if_needed()
    shot(page, f"lobby-picker-{kind}")
    blurbs = page.locator(".game-blurbs a.rules-link")
    expect(blurbs).to_have_count(len(GAME_IDS))
    picker_link.click()  # the players' page first, the full rule book one click further
    page.wait_for_url(re.compile(r"/games/greek-31/how-to-play$"))
    page.locator("#full-book-top").click()
    page.wait_for_url(re.compile(r"/games/greek-31/rules$"))
    expect(page.locator("h1")).to_have_text("Greek 31")
    expect(page.locator("#s2-2")).to_have_text("2.2 Table options")
    expect(page.locator("#rules table").first).to_be_visible()
    server_box = page.locator("#at-this-server")
    expect(server_box).to_contain_text("Stakes 10 to 100 chips")
    expect(server_box).to_contain_text("30 seconds to act")
    assert no_raw_keys(server_box.inner_text()) == []
    expect(page.locator("#back-to-table")).to_have_count(0)
    fits_the_width(page)
    shot(page, f"greek-31-{kind}")
    # the contents lead to a section; a citation to the common ground on the page
    page.locator("#rules-toc").get_by_role("link", name="2.11 Buy-in or table stakes").click()
    expect(page.locator("#s2-11")).to_be_in_viewport()
    page.locator("#rules a[href='#s0-4']").first.click()
    expect(page.locator("#s0-4")).to_be_in_viewport()
    shot(page, f"greek-31-common-{kind}")
    page.locator("#back-to-lobby").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("#open-form")).to_be_visible()


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "phone"])
def test_how_to_play_from_a_table_and_its_options_in_words(
    live_server: BrowserServer, open_page: Any, viewport: dict[str, int]
) -> None:
    kind = "wide" if viewport is WIDE else "phone"
    page = open_page(viewport)
    sign_in(page, "Ada")
    table = open_table(
        page,
        "greek-31",
        {"stakes": "table_stakes", "max_bet": None, "turn_seconds": 45},
        private=True,
    )
    page.goto(table["invite_path"])
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")
    box = page.locator("#options-box")
    open_details(box)
    words = page.locator("#options-list li")
    expect(words.first).to_be_visible()
    said = page.locator("#options-list").inner_text()
    assert "Stakes from 10 chips, up to your whole stack" in said
    assert "Table stakes: no top-ups, you can only lose what is in front of you" in said
    assert "45 seconds to act" in said
    assert "Buy-in from 10 chips" in said
    # Greek 31's nine options, and what every game's table has: how it starts, seats by
    # approval, the time bank
    assert words.count() == 12
    body = page.locator("body").inner_text()
    assert no_raw_keys(body) == [], no_raw_keys(body)
    assert "table_stakes" not in body and "null" not in said
    box.scroll_into_view_if_needed()
    shot(page, f"table-options-{kind}")

    page.locator("#rules-link").click()
    page.wait_for_url(re.compile(r"/games/greek-31/how-to-play\?table="))
    back = page.locator("#back-to-table")
    expect(back).to_contain_text("Rules night")
    at_table = page.locator("#at-this-table")
    expect(at_table).to_contain_text("45 seconds to act")
    expect(at_table).to_contain_text("Table stakes: no top-ups")
    expect(page.locator("#at-this-server")).to_contain_text("30 seconds to act")
    assert no_raw_keys(page.locator(".rules-side").inner_text()) == []
    expect(page.locator("#back-to-lobby")).to_be_visible()
    fits_the_width(page)
    shot(page, f"from-table-{kind}")
    back.click()
    page.wait_for_url(re.compile(rf"/tables/{table['table_id']}\?invite="))
    expect(page.locator("#conn")).to_have_attribute("data-state", "open")


@pytest.mark.browser
def test_every_games_page_and_table_in_words(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(WIDE)
    sign_in(page, "Ben")
    for game in GAME_IDS:
        table = open_table(page, game, {})
        page.goto(f"/tables/{table['table_id']}")
        open_details(page.locator("#options-box"))
        expect(page.locator("#options-list li").first).to_be_visible()
        assert no_raw_keys(page.locator("body").inner_text()) == [], game
        page.locator("#options-rules-link").click()  # How to play, then the full rule book
        page.wait_for_url(re.compile(rf"/games/{game}/how-to-play\?table="))
        page.locator("#full-book-top").click()
        page.wait_for_url(re.compile(rf"/games/{game}/rules\?table="))
        expect(page.locator("#rules-toc li").first).to_be_visible()
        expect(page.locator("#back-to-table")).to_be_visible()
        shot(page, f"page-{game}", full=False)
    phone = open_page(NARROW)
    phone.goto("/games/trente-et-quarante/rules")
    fits_the_width(phone)
    shot(phone, "trente-et-quarante-phone-full", full=True)
    missing = phone.goto("/games/poker/rules")
    assert missing is not None and missing.status == 404
    expect(phone.locator("h1")).to_have_text("There is no such game here")
