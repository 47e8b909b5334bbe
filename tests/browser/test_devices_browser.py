"""A player's devices on their page, in a real Chromium (docs/protocol.md §3, "Devices and
sign-out"): signed in on a laptop and, by a recovery link, on a phone (two browser contexts,
each with its own cookies), the player signs the phone out from the laptop's page; the phone's
next request is refused and its lobby asks for a name again. Screenshots wide and narrow.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import choose_name


def me(page: Any) -> dict[str, Any]:
    response = page.request.get("/api/me")
    assert response.status == 200, response.text()
    return dict(response.json())


def device_rows(page: Any) -> Any:
    return page.locator("#devices-table tbody tr")


@pytest.mark.browser
def test_a_player_signs_their_phone_out_from_the_laptop(
    live_server: BrowserServer, open_page: Any
) -> None:
    laptop = open_page(WIDE)
    choose_name(laptop, "Dana")
    laptop.click("#recovery-make")
    link = laptop.locator("#recovery-link")
    expect(link).to_have_value(re.compile(r"/recover\?code=\S+$"))

    phone = open_page(NARROW)
    phone.goto(link.input_value())
    phone.click("#recover-confirm")  # opening the link signs nobody in: the page asks first
    expect(phone.locator("#signin-slot")).to_contain_text("Signed in as Dana")
    player_id = me(laptop)["player_id"]
    assert me(phone)["player_id"] == player_id

    # The phone's own page lists both devices, itself marked.
    phone.goto(f"/players/{player_id}")
    expect(device_rows(phone)).to_have_count(2)
    expect(phone.locator("#devices-table tr.is-you")).to_contain_text("this device")
    expect(phone.locator("#signout-others")).to_be_visible()
    phone.locator("#devices").scroll_into_view_if_needed()
    phone.screenshot(path=str(SHOTS / "narrow-player-devices.png"))

    # The laptop signs the phone out: the button asks once more, then the row goes.
    laptop.goto(f"/players/{player_id}")
    rows = device_rows(laptop)
    expect(rows).to_have_count(2)
    mine = laptop.locator("#devices-table tr.is-you")
    expect(mine).to_contain_text("Chrome on Linux")
    laptop.screenshot(path=str(SHOTS / "wide-player-devices.png"), full_page=True)
    other = laptop.locator("#devices-table tbody tr:not(.is-you)")
    button = other.get_by_role("button")
    button.click()
    expect(button).to_have_text("Sign it out?")
    button.click()
    expect(rows).to_have_count(1)
    expect(mine).to_be_visible()
    expect(laptop.locator("#signout-others")).to_be_hidden()
    laptop.screenshot(path=str(SHOTS / "wide-player-devices-after.png"), full_page=True)

    # The phone is signed out at once: its next request is refused, its lobby asks its name.
    assert phone.request.get("/api/me").status == 401
    phone.goto("/")
    expect(phone.locator("#signin-name")).to_be_visible()
    expect(phone.locator("#whoami")).to_contain_text("Not signed in")
    # the laptop is not
    assert me(laptop)["player_id"] == player_id


@pytest.mark.browser
def test_signing_out_here_goes_back_to_the_lobby_signed_out(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(NARROW)
    choose_name(page, "Edda")
    player_id = me(page)["player_id"]
    page.goto(f"/players/{player_id}")
    button = page.locator("#devices-table tr.is-you").get_by_role("button")
    button.click()
    expect(button).to_have_text("Sign out here?")
    button.click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("#signin-name")).to_be_visible()
    assert page.request.get("/api/me").status == 401
