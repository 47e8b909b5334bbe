"""En og tredive: the Leave button says what leaving mid-match costs before the player confirms
(docs/rules.md §5.12: the bets still in front of them go to the pot)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDE, BrowserServer
from tests.browser.steps import sign_in
from tests.browser.test_en_og_tredive_browser import open_table


@pytest.mark.browser
def test_leave_mid_match_says_the_cost_before_confirming(
    live_server: BrowserServer, open_page: Any
) -> None:
    pages = [open_page(WIDE), open_page(WIDE)]
    for page, name in zip(pages, ("Ada", "Bob"), strict=True):
        sign_in(page, name)
    url = open_table(pages[0])
    for page in pages:
        page.goto(url)
    for seat, page in enumerate(pages):
        page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
        expect(page.locator("#amount-dialog")).to_be_visible()
        page.fill("#amount-input", "300")
        page.click("#amount-ok")
        expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_attached()
    for page in pages:
        page.locator('#presence button[data-kind="ready"]').click()
    ada = pages[0]
    expect(ada.locator(".eot-bets")).to_have_count(2)  # the match has begun

    ada.locator("#btn-leave").click()
    dialog = ada.locator("#amount-dialog")
    expect(dialog).to_be_visible()
    expect(ada.locator("#amount-help")).to_contain_text("remaining bets (30 chips) in the pot")
    expect(ada.locator("#amount-ok")).to_have_text("Leave table")
    ada.click("#amount-cancel")  # she thinks better of it: still seated
    expect(dialog).to_be_hidden()
    expect(ada.locator('.seat.is-you[data-seat="0"]')).to_be_attached()

    ada.locator("#btn-leave").click()
    expect(dialog).to_be_visible()
    ada.click("#amount-ok")  # she asks to go (at the round's end: tests/api covers the rest)
    expect(dialog).to_be_hidden()
