"""The header's chip count follows the bankroll without a reload
(docs/review.md, "One truth"): in a real Chromium on the table page, after sitting down, after
"Add chips", after leaving the table and after the host closes it, the header's figure becomes
the bankroll GET /api/me reports (waited on as a condition, never a sleep)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BrowserServer
from tests.browser.steps import as_host, sign_in

pytestmark = pytest.mark.browser


def header_chips(page: Any) -> int | None:
    """The header's figure: " · 1,000 chips" -> 1000."""
    slot = page.locator("[data-testid=whoami-bankroll]")
    if not slot.count():
        return None
    text = slot.inner_text().replace("·", "").replace(",", "").replace("\u202f", "").strip()
    return int(text.split(" ")[0])


def shows_the_bankroll(page: Any, before: int | None = None) -> int:
    """Wait until the header shows what the API reports (and, given ``before``, that it has
    moved from it); returns it."""
    deadline = time.monotonic() + 60
    while True:
        truth = int(page.request.get("/api/me").json()["bankroll"])
        shown = header_chips(page)
        if shown == truth and (before is None or truth != before):
            return truth
        assert time.monotonic() < deadline, f"the header shows {shown}, the bankroll is {truth}"
        page.wait_for_timeout(50)


def test_the_header_follows_the_bankroll(live_server: BrowserServer, open_page: Any) -> None:
    ada = open_page()
    sign_in(ada, "Ada")
    response = ada.request.post(
        "/api/tables", data={"game": "en-og-tredive", "options": {"turn_seconds": 30}}
    )
    assert response.status == 201, response.text()
    table_id = str(response.json()["table_id"])
    ada.goto(f"/tables/{table_id}")
    expect(ada.locator("#conn[data-state=open]")).to_be_visible()
    start = shows_the_bankroll(ada)

    # a buy-in
    ada.locator('.seat[data-seat="0"] .btn-sit').click()
    ada.locator("#amount-ok").click()
    expect(ada.locator('.seat[data-seat="0"] .tag-you')).to_be_visible()
    seated = shows_the_bankroll(ada, start)
    assert seated < start

    # Add chips
    expect(ada.locator("#btn-top-up")).to_be_visible()
    ada.locator("#btn-top-up").click()
    ada.locator("#amount-input").fill("50")
    ada.locator("#amount-ok").click()
    topped = shows_the_bankroll(ada, seated)
    assert topped == seated - 50

    # leaving the table
    ada.locator("#btn-leave").click()
    expect(ada.locator('.seat[data-seat="0"] .tag-you')).to_have_count(0)
    assert shows_the_bankroll(ada, topped) == start

    # the host's close, seated again
    ada.locator('.seat[data-seat="0"] .btn-sit').click()
    ada.locator("#amount-ok").click()
    expect(ada.locator('.seat[data-seat="0"] .tag-you')).to_be_visible()
    again = shows_the_bankroll(ada, start)
    as_host(ada, f"/api/admin/tables/{table_id}/close", {"reason": "closing time"})
    assert shows_the_bankroll(ada, again) == start
