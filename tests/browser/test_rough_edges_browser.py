"""Small things a polished room gets right, in a real Chromium against the real server:

* while the table's socket is down, "Leave table" and "Add chips" cannot be pressed (they need
  the server), and "Retry now" tries at once; back online, everything works again;
* a touch screen shows no key caps on the buttons;
* on a phone the header never cuts the chip count, and the lobby's name box is on the first
  screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import press_while_redrawn, sign_in


def open_table(page: Any) -> str:
    opened = page.request.post(
        "/api/tables",
        data={"game": "vingt-un", "name": "Edges", "options": {"turn_seconds": 120}},
    )
    assert opened.status == 201, opened.text()
    table_id = str(opened.json()["table_id"])
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    return table_id


@pytest.mark.browser
def test_offline_the_server_s_buttons_wait_and_retry_now_reconnects(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    sign_in(page, "Offa")
    table_id = open_table(page)
    cut = {"down": False}
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        if cut["down"]:
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws/**", route)
    page.clock.install()  # the page's timers run on as usual until the clock is paused
    page.goto(f"/tables/{table_id}")
    expect(page.locator("#conn[data-state=open]")).to_be_visible()
    press_while_redrawn(page.locator(".seat-empty button").first)
    page.click("#amount-ok")
    leave = page.locator("#btn-leave")
    expect(leave).to_be_enabled()

    # From here the page's clock stands still: its socket's own retry never comes, so only
    # "Retry now" can bring it back (without this, a retry due just then won the race)
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    cut["down"] = True
    for ws in sockets:
        ws.close()
    expect(page.locator("#conn[data-state=reconnecting]")).to_be_visible()
    expect(leave).to_be_disabled()
    top_up = page.locator("#btn-top-up")
    if top_up.is_visible():
        expect(top_up).to_be_disabled()
    retry = page.get_by_role("button", name="Retry now")
    expect(retry).to_be_visible()
    page.screenshot(path=str(SHOTS / "edges-offline.png"))

    cut["down"] = False
    retry.click()
    expect(page.locator("#conn[data-state=open]")).to_be_visible()
    page.clock.resume()
    expect(leave).to_be_enabled()
    expect(retry).to_have_count(0)


KEY_CAP = """() => [...document.querySelectorAll("button[data-key]")]
  .map((b) => getComputedStyle(b, "::after").content)"""


@pytest.mark.browser
def test_a_touch_screen_shows_no_key_caps(chromium: Any, live_server: BrowserServer) -> None:
    context = chromium.new_context(
        viewport=NARROW,
        base_url=live_server.url,
        has_touch=True,
        is_mobile=True,
        extra_http_headers={"origin": live_server.url},
    )
    try:
        page = context.new_page()
        sign_in(page, "Tuca")
        table_id = open_table(page)
        page.goto(f"/tables/{table_id}")
        press_while_redrawn(page.locator(".seat-empty button").first)
        page.click("#amount-ok")
        expect(page.locator("#dock.is-your-turn button[data-key]").first).to_be_attached()
        caps = page.evaluate(KEY_CAP)
        assert caps and all(c == "none" for c in caps), caps
    finally:
        context.close()


@pytest.mark.browser
def test_the_phone_header_keeps_the_chip_count_and_the_lobby_its_name_box(
    live_server: BrowserServer, open_page: Any
) -> None:
    phone = open_page(NARROW)
    phone.goto("/")
    box = phone.locator("#signin-name").bounding_box()
    assert box is not None and box["y"] + box["height"] <= NARROW["height"], box

    sign_in(phone, "Maximiliana Long-Name")
    table_id = open_table(phone)
    phone.goto(f"/tables/{table_id}")
    chips = phone.get_by_test_id("whoami-bankroll")
    expect(chips).to_be_visible()
    cut = chips.evaluate("(el) => el.scrollWidth > el.clientWidth + 1")
    right = chips.evaluate("(el) => el.getBoundingClientRect().right")
    assert not cut and right <= NARROW["width"], (cut, right)
    assert "chips" in chips.inner_text()
    phone.screenshot(path=str(SHOTS / "edges-phone-header.png"))


@pytest.mark.browser
def test_the_server_says_the_address_to_open(live_server: BrowserServer) -> None:
    said = live_server.log_path.read_text()
    assert f"table31: open {live_server.url}/ in a browser" in said, said[-2000:]
