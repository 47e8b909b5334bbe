"""The opener closes a table of their own from its page (docs/protocol.md §4.6).

Ada opens a Greek 31 table and sits; "Close table" shows for her and not for Ben, who watches.
Her first click asks again, her second closes the table: both pages say it is closed, why,
and her stack is back in her bankroll. Screenshots: /tmp/shots/opener-close-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import choose_name, sit


def me(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get("/api/me").json()
    return data


@pytest.mark.browser
def test_the_opener_closes_a_table_of_their_own(live_server: BrowserServer, open_page: Any) -> None:
    ada = open_page(WIDE)
    choose_name(ada, "Ada Closer")
    made = ada.request.post("/api/tables", data={"game": "greek-31", "name": "Ada's last"})
    assert made.status == 201, made.text()
    table_id = made.json()["table_id"]
    start = me(ada)["bankroll"]
    ada.goto(f"/tables/{table_id}")
    sit(ada, 0)

    ben = open_page(NARROW)
    choose_name(ben, "Ben Watcher")
    ben.goto(f"/tables/{table_id}")
    expect(ben.locator("#table-name")).to_have_text("Ada's last")
    expect(ben.locator("#btn-close-table")).to_be_hidden()

    button = ada.locator("#btn-close-table")
    expect(button).to_be_visible()
    button.click()
    expect(button).to_have_text("Click again to close for good")
    ada.screenshot(path=str(SHOTS / "opener-close-confirm-wide.png"))
    button.click()
    for page in (ada, ben):
        expect(page.locator("#phase")).to_have_text("Closed")
        expect(page.locator("#banner")).to_contain_text("opened this table closed it")
    expect(button).to_be_hidden()
    # no hand was played: the whole buy-in comes back (written by the database writer, which
    # the page's "Closed" does not wait for)
    deadline = time.monotonic() + 60
    while me(ada)["bankroll"] != start:
        assert time.monotonic() < deadline, (me(ada), start)
        ada.wait_for_timeout(100)
    ada.screenshot(path=str(SHOTS / "opener-close-wide.png"))
    ben.screenshot(path=str(SHOTS / "opener-close-phone.png"))
