"""A hand of Greek 31 played with the keyboard alone, in a real Chromium against the real server.

A person tabs to a free seat and presses Enter; Enter confirms the buy-in. When the stake is
theirs, B (shown on the Stake button) moves to the amount and Enter stakes it; then D draws and S
stands, each shown on its button. The page's live region says the turn and its choices, and the
hand's result as the table log tells it. "?" opens the list of keys, Escape closes it and the
focus goes back where it was; no key works while the person types in a field.
Screenshots go to /tmp/shots/keys-*.png, wide and phone.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import press_while_redrawn, ready_to_press

OPTIONS = {"turn_seconds": 60, "min_bet": 10, "max_bet": 100}
FOCUSED = "() => document.activeElement?.id || document.activeElement?.className || ''"


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"keys-{name}.png"))


def open_table(page: Any) -> str:
    response = page.request.post(
        "/api/tables", data={"game": "greek-31", "name": "Keys", "options": OPTIONS}
    )
    assert response.status == 201, response.text()
    table_id = str(response.json()["table_id"])
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    return table_id


def tab_to(page: Any, selector: str, most: int = 80) -> None:
    """Press Tab until the focus is on an element matching `selector`."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def key_of(page: Any, selector: str) -> str:
    """The key shown on a button (its key cap) and told to screen readers."""
    button = page.locator(selector)
    key = button.get_attribute("data-key")
    assert key, f"{selector} shows no key"
    assert button.get_attribute("aria-keyshortcuts") == key
    return str(key)


@pytest.mark.browser
def test_a_hand_played_with_the_keyboard_alone(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(WIDE)
    assert page.request.post("/api/session", data={"name": "Kit"}).status == 200
    table_id = open_table(page)
    page.goto(f"/tables/{table_id}")
    expect(page.locator("#conn[data-state=open]")).to_be_visible()

    # The list of keys: "?" opens it on the Close button; Escape closes it, the focus returns.
    tab_to(page, "#btn-keys")
    page.keyboard.press("Shift+Tab")
    before = page.evaluate(FOCUSED)
    page.keyboard.press("?")
    dialog = page.locator("#keys-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Keyboard shortcuts")
    expect(dialog.locator("#keys-kinds")).to_contain_text("hit")
    assert page.evaluate(FOCUSED) == "keys-close"
    page.keyboard.press("Tab")  # the dialog keeps the focus while it is open
    assert page.evaluate("() => document.activeElement.closest('dialog')?.id") == "keys-dialog"
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate(FOCUSED) == before

    # Sit from the keyboard: Tab to "Sit here", Enter; Enter confirms the buy-in.
    tab_to(page, ".seat-empty button")
    page.keyboard.press("Enter")
    expect(page.locator("#amount-dialog")).to_be_visible()
    assert page.evaluate(FOCUSED) == "amount-input"
    page.keyboard.press("Enter")
    expect(page.locator("#amount-dialog")).to_be_hidden()
    expect(page.locator(".seat.is-you")).to_be_visible()
    name = "Kit"

    # The stake: B, shown on the button, moves to the amount; "?" typed there opens nothing.
    stake = '.action[data-kind="stake"] button[type=submit]'
    expect(page.locator(stake)).to_be_visible()
    expect(page.locator("#announce")).to_contain_text("Your turn: stake")
    assert key_of(page, stake) == "B"
    page.keyboard.press("b")
    assert page.evaluate("() => document.activeElement.matches('.action input[type=number]')")
    page.keyboard.press("?")
    expect(page.locator("#keys-dialog")).to_be_hidden()
    page.keyboard.press("Control+a")
    page.keyboard.type("20")
    shot(page, "stake-wide")
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text(f"{name} stakes 20")

    # Draw once with D when it is offered, then stand with S; or, when the hand ends first, on.
    deadline = time.monotonic() + 40
    drew = stood = False
    result = page.locator("#log li.log-result", has_text=name)
    while not stood and result.count() == 0:
        assert time.monotonic() < deadline, "the hand did not come to Kit's decision"
        draw = page.locator('button[data-kind="draw"]')
        stand = page.locator('.action[data-kind="stand"] button').first
        if ready_to_press(draw) and not page.locator(".pending-note").count():
            expect(page.locator("#announce")).to_contain_text("Your turn: draw or stand")
            if not drew:
                assert key_of(page, 'button[data-kind="draw"]') == "D"
                page.keyboard.press("d")
                drew = True
                page.wait_for_timeout(300)
                continue
            key = stand.get_attribute("data-key")
            assert key in ("S", "1"), key  # a dealer's stand asks which card to conceal
            if key == "S":
                shot(page, "draw-or-stand")
            page.keyboard.press(key.lower())
            stood = True
        page.wait_for_timeout(100)

    expect(result.first).to_be_visible()
    said = result.first.evaluate(
        "(li) => li.textContent.slice(li.querySelector('time').textContent.length).trim()"
    )
    assert said.startswith("Hand over:"), said
    expect(page.locator("#announce")).to_contain_text(said)


@pytest.mark.browser
def test_the_list_of_keys_on_a_phone(live_server: BrowserServer, open_page: Any) -> None:
    for viewport, name in ((NARROW, "phone"), (WIDE, "wide")):
        page = open_page(viewport)
        assert page.request.post("/api/session", data={"name": f"Lu {name}"}).status == 200
        table_id = open_table(page)
        page.goto(f"/tables/{table_id}")
        expect(page.locator("#conn[data-state=open]")).to_be_visible()
        if name == "wide":
            # Early in the Tab order, a way straight to the choices.
            tab_to(page, ".skip-link")
            expect(page.locator(".skip-link")).to_be_in_viewport()
            shot(page, "skip-link")
            page.keyboard.press("Enter")
            assert page.evaluate(FOCUSED) == "dock"
        expect(page.locator("#alert-controls")).to_be_visible()
        shot(page, f"alert-controls-{name}")
        page.locator("#btn-keys").click()
        dialog = page.locator("#keys-dialog")
        expect(dialog).to_be_visible()
        box = dialog.bounding_box()
        size = page.viewport_size
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        shot(page, f"overlay-{name}")
        page.locator("#keys-close").click()
        expect(dialog).to_be_hidden()
        assert page.evaluate(FOCUSED) == "btn-keys"


@pytest.mark.browser
def test_ready_and_sit_out_from_the_keyboard(live_server: BrowserServer, open_page: Any) -> None:
    """The table's own choices have keys too: R Ready (on a table that waits for it), U Sit out."""
    page = open_page(WIDE)
    assert page.request.post("/api/session", data={"name": "Rey"}).status == 200
    response = page.request.post(
        "/api/tables",
        data={"game": "greek-31", "name": "Ready", "options": {**OPTIONS, "start": "when_ready"}},
    )
    assert response.status == 201, response.text()
    table_id = response.json()["table_id"]
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    page.goto(f"/tables/{table_id}")
    press_while_redrawn(page.locator(".seat-empty button").first)
    page.click("#amount-ok")
    expect(page.locator(".seat.is-you")).to_be_visible()

    ready = '#presence button[data-kind="ready"]'
    expect(page.locator(ready)).to_be_visible()
    found = grave(page)  # the table waiting for Ready passes axe-core too
    assert not found, describe(found)
    assert key_of(page, ready) == "R"
    page.keyboard.press("r")
    expect(page.locator("#log")).to_contain_text("is dealt")
    # The stake's B comes first; Sit out has its own letter beside it.
    stake = '.action[data-kind="stake"] button[type=submit]'
    expect(page.locator(stake)).to_be_visible()
    assert key_of(page, stake) == "B"
    assert key_of(page, '#presence button[data-kind="sit_out"]') == "U"
