"""En og tredive with the keyboard: a card picked for the discard keeps the focus (it is never
dropped to the page, eight Tabs from the buttons), and X discards once a card is picked (the
Discard button, redrawn on every pick, keeps its key).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDE, BrowserServer
from tests.browser.steps import press_while_redrawn, sign_in

OPTIONS = {"bet_unit": 10, "bets": 3, "knock_min": 31, "turn_seconds": 120}


def phase(page: Any) -> str:
    return page.locator(".eot").get_attribute("data-phase") or ""


@pytest.mark.browser
def test_x_discards_and_the_picked_card_keeps_the_focus(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    sign_in(page, "Keya")
    opened = page.request.post(
        "/api/tables",
        data={"game": "en-og-tredive", "name": "Tredive shortcuts", "options": OPTIONS},
    )
    assert opened.status == 201, opened.text()
    table_id = opened.json()["table_id"]
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    page.goto(f"/tables/{table_id}")
    press_while_redrawn(page.locator(".seat-empty button").first)
    page.click("#amount-ok")
    expect(page.locator(".seat.is-you, .eot-hand").first).to_be_visible()

    # Play by keys until it is this player's discard: C cuts, D deals (its first pattern,
    # 1), D draws from the stock... the bot plays its own turns.
    turn = page.locator("#dock.is-your-turn:not(.is-pending)")
    for _ in range(60):
        expect(turn).to_be_visible()
        now = phase(page)
        if now == "discard":
            break
        if now == "cut":
            page.locator('.action[data-kind="cut"] button[type=submit]').click()
        elif now == "deal":
            page.locator('.action[data-kind="deal"] button').first.click()
        elif now == "draw":
            page.locator('.eot-stock [data-take="stock"]').click()
        else:
            pytest.fail(f"an unexpected phase on this player's turn: {now!r}")
        expect(
            page.locator(f'.eot:not([data-phase="{now}"]), #dock:not(.is-your-turn)').first
        ).to_be_attached()
    assert phase(page) == "discard"

    button = page.get_by_test_id("eot-discard")
    expect(button).to_have_attribute("data-key", "X")
    card = page.locator(".eot-hand button.card").first
    code = card.get_attribute("data-code")
    card.focus()
    page.keyboard.press("Space")  # picked with the keyboard
    picked = page.locator(f'.eot-hand button.card[data-code="{code}"]')
    expect(picked).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => document.activeElement?.dataset?.code") == code, (
        "the picked card lost the focus"
    )
    expect(button).to_have_attribute("data-key", "X")  # the redrawn button keeps its key
    page.keyboard.press("Escape")
    page.locator("body").focus()
    page.keyboard.press("x")
    expect(page.locator("#log")).to_contain_text("discards")
    expect(page.locator(".eot")).not_to_have_attribute("data-phase", "discard")
