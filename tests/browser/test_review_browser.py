"""Reviewing past hands in a real Chromium against the real server.

Rhea plays a few hands of Vingt-un from the table page (a bot deals; the clock plays for her
when she waits), then reviews them: the table's history lists the hands and opens one; the
replay steps through it with first, back, play/pause, forward, last and the slider, her own
face-down cards drawn as hers and the dealer's hidden ones as backs; the proof says the shoe is
not yet revealed; her page shows the bankroll chart, drawn by the server as SVG. The host,
whose token is in the tab, opens a replay of every other game (tables of bots) and each draws
its table. Screenshots go to /tmp/shots/review-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ADMIN_TOKEN,
    NARROW,
    SHOTS,
    WIDE,
    BrowserServer,
)

BOT_GAMES = {
    "trianta-ena": ({"turn_seconds": 5, "bet_seconds": 5}, 3),
    "greek-31": ({"turn_seconds": 5}, 3),
    "trente-et-quarante": ({"bet_seconds": 1, "turn_seconds": 1}, 2),
    "en-og-tredive": ({"turn_seconds": 5}, 3),
}


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"review-{name}.png"))


def finished_hands(page: Any, table_id: str) -> list[dict[str, Any]]:
    response = page.request.get(f"/api/hands?table_id={table_id}&limit=20")
    assert response.status == 200, response.text()
    return [h for h in response.json()["hands"] if h["status"] == "finished"]


def wait_for_hands(page: Any, table_id: str, count: int, seconds: float = 90) -> list[Any]:
    deadline = time.monotonic() + seconds
    while True:
        hands = finished_hands(page, table_id)
        if len(hands) >= count:
            return hands
        assert time.monotonic() < deadline, f"only {len(hands)} hands at {table_id}"
        page.wait_for_timeout(200)


def assert_fits(page: Any, what: str) -> None:
    """No sideways scrolling: the page is exactly as wide as the window."""
    page.wait_for_timeout(100)  # a frame for late layout (the chart's image)
    wide, window = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide == window == page.viewport_size["width"], (
        f"{what}: the page is {wide} px wide in a {page.viewport_size['width']} px window"
    )


def step_no(page: Any) -> int:
    return int(page.locator("#slider").input_value())


def bots_table(page: Any, game: str) -> str:
    options, bots = BOT_GAMES[game]
    opened = page.request.post(
        "/api/tables", data={"game": game, "name": f"Bots {game}", "options": options}
    )
    assert opened.status == 201, opened.text()
    table_id = opened.json()["table_id"]
    for _ in range(bots):
        added = page.request.post(f"/api/tables/{table_id}/bots", data={})
        assert added.status == 201, added.text()
    return str(table_id)


@pytest.mark.browser
def test_a_player_reviews_her_hands_and_the_host_every_game(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    assert page.request.post("/api/session", data={"name": "Rhea"}).status == 200
    me = page.request.get("/api/me").json()
    others = {game: bots_table(page, game) for game in BOT_GAMES}
    opened = page.request.post(
        "/api/tables",
        data={"game": "vingt-un", "name": "Review night", "options": {"turn_seconds": 1}},
    )
    assert opened.status == 201, opened.text()
    table_id = opened.json()["table_id"]
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    page.goto(f"/tables/{table_id}")
    page.locator('.seat-empty[data-seat="1"] button').click()
    page.click("#amount-ok")
    expect(page.locator('.seat.is-you[data-seat="1"]')).to_be_visible()
    hands = wait_for_hands(page, table_id, 2)
    mine = [h for h in hands if h["your_seat"] == 1]
    assert mine, hands

    # The table's history lists the hands, newest first, and opens one.
    page.goto(f"/tables/{table_id}/history")
    rows = page.locator("#hands-table tbody tr")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 2
    first_row = rows.first
    expect(first_row).to_contain_text("Vingt-un")
    expect(first_row).to_contain_text("Rhea")
    shot(page, "history")
    assert_fits(page, "history")
    # the bots play on meanwhile (and a loaded machine may sit her out of a hand): open a
    # hand of hers from its row
    link = page.locator(f'#hands-table a.hand-link[href*="{mine[0]["hand_id"]}"]')
    link.click()
    page.wait_for_url("**/hands/*")
    hand_id = page.url.split("/hands/")[1].split("#")[0]
    assert hand_id == mine[0]["hand_id"]

    # The replay: the deal first, her own face-down card drawn as hers, the dealer's a back.
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#step-count")).to_contain_text("Step 1 of ")
    total = int(page.locator("#slider").get_attribute("max")) + 1
    assert total >= 3
    expect(page.locator('.seat.is-you[data-seat="1"] .card-private:visible').first).to_be_visible()
    expect(page.locator("#felt .card-back:visible").first).to_be_visible()  # the dealer's
    expect(page.locator("#btn-back")).to_be_disabled()
    shot(page, "replay-deal")

    page.click("#btn-forward")
    expect(page.locator("#step-count")).to_contain_text("Step 2 of ")
    expect(page.locator("#steps-list li.is-current")).to_have_attribute("data-index", "1")
    page.click("#btn-back")
    expect(page.locator("#step-count")).to_contain_text("Step 1 of ")
    page.click("#btn-last")
    expect(page.locator("#step-count")).to_contain_text(f"Step {total} of {total}")
    expect(page.locator("#btn-forward")).to_be_disabled()
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator("#result-table")).to_contain_text("Rhea")
    shot(page, "replay-last")
    page.click("#btn-first")
    assert step_no(page) == 0
    page.locator("#slider").fill(str(total // 2))
    expect(page.locator("#step-count")).to_contain_text(f"Step {total // 2 + 1} of ")
    page.click("#btn-first")
    page.click("#btn-play")
    expect(page.locator("#btn-play")).to_have_text("❚❚ Pause")
    page.wait_for_function("() => Number(document.querySelector('#slider').value) >= 2")
    page.click("#btn-play")
    expect(page.locator("#btn-play")).to_have_text("▶ Play")
    paused = step_no(page)
    page.wait_for_timeout(1200)
    assert step_no(page) == paused, "paused, the replay stays put"
    page.keyboard.press("End")
    assert step_no(page) == total - 1
    page.keyboard.press("ArrowLeft")
    assert step_no(page) == total - 2

    # The proof: the shoe is still in play.
    page.locator("#proof-box summary").click()
    page.click("#btn-verify")
    expect(page.locator("#proof-result .proof-status")).to_have_attribute(
        "data-status", "not_yet_revealed"
    )
    shot(page, "replay-proof")

    # On a phone the replay stacks the seats and keeps the controls at hand.
    phone = open_page(NARROW)
    phone.context.add_cookies(page.context.cookies())
    phone.goto(f"/hands/{hand_id}#step=2")
    expect(phone.locator("#step-count")).to_contain_text("Step 3 of ")
    expect(phone.locator("#btn-forward")).to_be_visible()
    shot(phone, "replay-phone")
    assert_fits(phone, "replay on a phone")

    # The lists fit a phone: a wide table scrolls in its own box, never the page.
    phone.goto(f"/tables/{table_id}/history")
    expect(phone.locator("#hands-table tbody tr").first).to_be_visible()
    assert_fits(phone, "history on a phone")
    shot(phone, "history-phone")
    # A filter that leaves nothing says so (not that no hands were played).
    phone.locator("#filter-since").fill("2099-01-01")
    phone.locator(".list-filters button[type=submit]").click()
    expect(phone.locator("#hand-list .list-foot p")).to_have_text("No hands match the filter.")
    expect(phone.locator("#hands-table tbody tr")).to_have_count(0)
    phone.goto(f"/players/{me['player_id']}")
    expect(phone.locator("#hands-table tbody tr").first).to_be_visible()
    phone.wait_for_function("() => document.querySelector('#chart-img').naturalWidth > 0")
    expect(phone.locator("#games-table tbody tr").first).to_contain_text("Vingt-un")
    assert_fits(phone, "player page on a phone")
    shot(phone, "player-phone")

    # Her page: the chart (an SVG from the server, drawn by the browser), figures, sessions.
    page.goto(f"/players/{me['player_id']}")
    chart = page.locator("#chart-img")
    expect(chart).to_be_visible()
    page.wait_for_function("() => document.querySelector('#chart-img').naturalWidth > 0")
    expect(page.locator("#figures")).to_contain_text("Hands played")
    expect(page.locator("#sessions-table tbody tr").first).to_contain_text("Review night")
    expect(page.locator("#hands-table tbody tr").first).to_be_visible()
    shot(page, "player")
    assert_fits(page, "player page")

    # The host opens a replay of each other game: each draws its own table.
    host = open_page(WIDE)
    host.goto("/")
    host.evaluate(f"() => sessionStorage.setItem('t31_admin_token', '{ADMIN_TOKEN}')")
    for game, other in others.items():
        played = wait_for_hands(host, other, 1)
        host.goto(f"/hands/{played[-1]['hand_id']}")
        expect(host.locator("#replay")).to_be_visible()
        expect(host.locator("#seats .seat-taken").first).to_be_visible()
        last = int(host.locator("#slider").get_attribute("max"))
        host.locator("#slider").fill(str(last // 2))
        expect(host.locator("#step-count")).to_contain_text(f"Step {last // 2 + 1} of ")
        shot(host, f"host-{game}-middle")
        labels = host.locator("#steps-list .step-jump").all_inner_texts()
        # each label: the step's number, then who and what ("3 Cleo: stand, concealing …")
        bare = [t for t in labels if re.search(r": (stand|draw|close|done)\b.* \d+$", t)]
        assert not bare, bare  # a parameter is named by what it means, never a bare number
        host.click("#btn-last")
        expect(host.locator("#step-count")).to_contain_text(f"Step {last + 1} of {last + 1}")
        shot(host, f"host-{game}-last")
