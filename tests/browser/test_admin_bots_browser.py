"""The bots' bank on the host's page in a real Chromium: its balance (read through
GET /api/admin/bots, which brings home the chips of bots that have left), the bots seated, the
host's grant to it, and the grant in the host's log (app/runtime/bot_pool.py)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN, BrowserServer
from tests.browser.steps import choose_name
from tests.browser.test_admin_browser import chips_text, shot, unlock

pytestmark = pytest.mark.browser


def bank(page: Any) -> dict[str, Any]:
    response = page.request.get(
        "/api/admin/bots", headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
    )
    assert response.ok, response.text()
    data: dict[str, Any] = response.json()
    return data


def test_the_host_sees_and_funds_the_bots_bank(open_page: Any, live_server: BrowserServer) -> None:
    opener = open_page()
    choose_name(opener, "Bots Opener")
    opened = opener.request.post("/api/tables", data={"game": "greek-31", "name": "Bots bank"})
    assert opened.status == 201, opened.text()
    added = opener.request.post(f"/api/tables/{opened.json()['table_id']}/bots", data={})
    assert added.status == 201, added.text()

    host = open_page()
    unlock(host)
    before = bank(host)
    assert before["seated"] >= 1
    expect(host.locator("#bots-balance")).to_have_text(chips_text(before["bots"]))
    expect(host.locator("#bots-seated")).to_contain_text("seated")
    expect(host.locator("#audit")).to_contain_text("The bots' bank")

    host.fill("#bots-amount", "")
    host.click("#bots-form button[type=submit]")
    expect(host.locator("#bots-error")).to_contain_text("a whole number above zero")

    host.fill("#bots-amount", "2500")
    host.fill("#bots-reason", "bots for Friday")
    host.click("#bots-form button[type=submit]")
    after = before["bots"] + 2500
    expect(host.locator("#bots-balance")).to_have_text(chips_text(after))
    first = host.locator("#admin-actions li").first
    expect(first).to_contain_text("Funded the bots' bank with")
    expect(first).to_contain_text("bots for Friday")
    expect(host.locator("#audit-verdict")).to_have_attribute("data-balanced", "true")
    shot(host, "bots-bank", full_page=False)
