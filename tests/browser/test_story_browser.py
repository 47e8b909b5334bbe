"""The table's log and the "Hand over" line are the server's (docs/protocol.md §6.6).

Ada plays Trianta Ena against a bot banker in a real Chromium. The log says what the server's
events say (her sit, her bet), the "Hand over" line and the settlement bar show the result the
hand's record holds, and a reload while the next hand waits for her bet brings back the same
log, line for line, and the same last result.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDE, BrowserServer
from tests.browser.steps import choose_name, ready_to_press, sit
from tests.browser.test_trianta_ena_browser import bet, open_table_by_api


def signed(n: int) -> str:
    """As the page writes a change of chips (static/js/dom.js)."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "±0"


def log_lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_inner_texts()]


def record(page: Any, table_id: str) -> dict[str, Any]:
    """The table's last finished hand, as GET /api/hands/{id} gives it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        listed = page.request.get(f"/api/hands?table_id={table_id}&limit=1").json()["hands"]
        if listed and listed[0]["status"] == "finished":
            response = page.request.get(f"/api/hands/{listed[0]['hand_id']}")
            if response.status == 200:
                return response.json()  # type: ignore[no-any-return]
        page.wait_for_timeout(100)
    raise AssertionError("no finished hand stored")


def play_a_hand(page: Any) -> None:
    """Bet 10 and stand until the hand is over (a natural may end it sooner)."""
    over = page.locator("#log li", has_text="Hand over")
    count = over.count()
    deadline = time.monotonic() + 60
    while over.count() == count:
        assert time.monotonic() < deadline, "the hand did not end"
        if page.locator('.action[data-kind="bet"]').is_visible():
            bet(page, 10)
        stand = page.locator('button[data-kind="stand"]')
        if ready_to_press(stand):
            stand.click()
        page.wait_for_timeout(100)


@pytest.mark.browser
def test_the_log_and_the_result_are_the_servers(live_server: BrowserServer, open_page: Any) -> None:
    ada = open_page(WIDE)
    choose_name(ada, "Ada")
    path = open_table_by_api(ada, "Story", bot_first=True)
    table_id = path.rsplit("/", 1)[1]
    ada.goto(path)
    sit(ada, 1)
    expect(ada.locator("#log")).to_contain_text("Ada sat down in seat 1 with")

    play_a_hand(ada)
    hand = record(ada, table_id)
    result = hand["result"]
    assert result["hand_id"] == hand["hand_id"]
    moved = [p for p in result["players"] if p["net"]]
    words = ", ".join(f"{p['name']} {signed(p['net'])}" for p in moved)
    expected = f"Hand over: {words}." if moved else "Hand over: no chips changed hands."
    over = [line for line in log_lines(ada) if "Hand over" in line]
    assert over and over[0].endswith(expected), (over, expected)
    settlement = ada.locator("#settlement li")
    expect(settlement).to_have_count(len(result["players"]))
    shown = {
        int(settlement.nth(i).get_attribute("data-seat")): int(
            settlement.nth(i).get_attribute("data-delta")
        )
        for i in range(settlement.count())
    }
    assert shown == {p["seat"]: p["net"] for p in result["players"]}
    if any(e["kind"] == "bet" for e in hand["events"]):
        expect(ada.locator("#log")).to_contain_text("Ada bets 10.")

    # The next hand waits for Ada's bet: a reload brings back the same log and result.
    expect(ada.locator('.action[data-kind="bet"]')).to_be_visible()
    before = log_lines(ada)
    assert any(line.endswith(expected) for line in before)
    ada.reload()
    expect(ada.locator('.action[data-kind="bet"]')).to_be_visible()
    expect(ada.locator("#log li")).to_have_count(len(before))
    assert log_lines(ada) == before
    expect(ada.locator("#settlement")).to_contain_text("Last hand")
    settlement = ada.locator("#settlement li")
    expect(settlement).to_have_count(len(result["players"]))
    for p in result["players"]:
        expect(ada.locator(f'#settlement li[data-seat="{p["seat"]}"]')).to_have_attribute(
            "data-delta", str(p["net"])
        )
