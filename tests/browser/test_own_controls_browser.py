"""Each player's own controls in Chromium: Ada blocks Ben for herself and no longer sees his
messages or reactions while Cy still does; a reaction shows in a bubble by the sender's seat;
"More time" moves the decision's clock on and spends the time bank (docs/protocol/socket.md
§5.9, §5.11; docs/protocol/identity.md §4.3). Screenshot: /tmp/shots/own-controls.png."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import SHOTS, WIDE, BrowserServer
from tests.browser.steps import choose_name, sit


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


@pytest.mark.browser
def test_a_block_is_for_oneself_and_reactions_show_at_the_seat(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    choose_name(ada, "Ada Own")
    made = ada.request.post(
        "/api/tables",
        data={"game": "greek-31", "name": "Own", "options": {"turn_seconds": 120}},
    )
    assert made.status == 201, made.text()
    table_id = made.json()["table_id"]
    ada.goto(f"/tables/{table_id}")
    sit(ada, 0)
    ben = open_page(WIDE)
    choose_name(ben, "Ben Own")
    ben.goto(f"/tables/{table_id}")
    sit(ben, 1)
    cy = open_page(WIDE)
    choose_name(cy, "Cy Own")
    cy.goto(f"/tables/{table_id}")
    expect(cy.locator("#table-name")).to_have_text("Own")

    # Ben writes; Ada blocks him from his line: his line goes from her page only
    say(ben, "hello from Ben")
    for page in (ada, cy):
        expect(page.locator(".chat-line", has_text="hello from Ben")).to_have_count(1)
    ada.locator(".chat-line", has_text="hello from Ben").locator(".chat-block").click()
    expect(ada.locator("#chat-blocked")).to_contain_text("Ben Own")
    expect(ada.locator(".chat-line", has_text="hello from Ben")).to_have_count(0)
    expect(cy.locator(".chat-line", has_text="hello from Ben")).to_have_count(1)
    # Ben writes and reacts again: Cy sees both, with a bubble by Ben's seat; Cy then writes,
    # and Ada sees Cy's line and nothing of Ben's (Ben's came first)
    say(ben, "second from Ben")
    expect(cy.locator(".chat-line", has_text="second from Ben")).to_have_count(1)
    ben.locator('.chat-react[data-reaction="party"]').click()
    expect(cy.locator('.seat-bubble[data-seat="1"]')).to_have_text("\N{PARTY POPPER}")
    expect(cy.locator("#announce")).to_contain_text("Ben Own reacts: party")
    say(cy, "from Cy")
    expect(ada.locator(".chat-line", has_text="from Cy")).to_have_count(1)
    expect(ada.locator(".chat-line", has_text="from Ben")).to_have_count(0)
    expect(ada.locator(".chat-reaction", has_text="Ben Own")).to_have_count(0)
    expect(ada.locator('.seat-bubble[data-seat="1"]')).to_have_count(0)
    # Ada's own reaction shows by her seat on every page, hers included
    ada.locator('.chat-react[data-reaction="clap"]').click()
    for page in (ada, ben, cy):
        expect(page.locator('.seat-bubble[data-seat="0"]')).to_have_text("\N{CLAPPING HANDS SIGN}")
    ada.screenshot(path=str(SHOTS / "own-controls.png"))
    found = grave(ada)
    assert found == [], describe(found)
    # the bubble goes after a few seconds
    expect(ada.locator('.seat-bubble[data-seat="0"]')).to_have_count(0)

    # a reload keeps the block: the history leaves Ben out; Unblock brings his next line
    ada.reload()
    expect(ada.locator(".chat-line", has_text="from Cy")).to_have_count(1)
    expect(ada.locator(".chat-line", has_text="from Ben")).to_have_count(0)
    ada.locator(".chat-unblock").click()
    expect(ada.locator("#chat-blocked")).to_be_hidden()
    say(ben, "third from Ben")
    expect(ada.locator(".chat-line", has_text="third from Ben")).to_have_count(1)

    # Chat off: the panel is gone for Ada alone, and stays gone after a reload
    ada.locator("#btn-chat").click()
    expect(ada.locator("#chat-box")).to_be_hidden()
    expect(ada.locator("#btn-chat")).to_have_attribute("aria-checked", "false")
    ada.reload()
    expect(ada.locator("#chat-box")).to_be_hidden()
    expect(cy.locator("#chat-box")).to_be_visible()
    ada.locator("#btn-chat").click()
    expect(ada.locator("#chat-box")).to_be_visible()

    # More time: whoever decides first presses it; the clock moves on by 15 s
    deadline = time.monotonic() + 60
    deciding = None
    while deciding is None:
        assert time.monotonic() < deadline, "nobody was offered More time"
        for page in (ada, ben):
            if page.locator('#presence button[data-kind="time_bank"]').count():
                deciding = page
        if deciding is None:
            ada.wait_for_timeout(100)
    button = deciding.locator('#presence button[data-kind="time_bank"]')
    expect(button).to_have_attribute("aria-label", re.compile("30 seconds left"))
    expect(button).to_have_attribute("aria-keyshortcuts", "T")
    countdown = deciding.locator("#countdown")
    expect(countdown).to_have_text(re.compile(r"^\d:\d\d \+30 s$"))
    before = seconds_shown(countdown.text_content())
    deciding.evaluate("document.activeElement && document.activeElement.blur()")  # the chat box
    deciding.keyboard.press("t")
    expect(countdown).to_have_text(re.compile(r"^\d:\d\d \+15 s$"))
    assert seconds_shown(countdown.text_content()) > before + 5  # moved on by 15 s, not back
    expect(button).to_have_attribute("aria-label", re.compile("15 seconds left"))
    expect(cy.locator("#log")).to_contain_text("takes 15 more seconds from the time bank")


def seconds_shown(text: str | None) -> int:
    """The seconds the clock "1:42 +30 s" shows."""
    found = re.match(r"(\d+):(\d\d)", text or "")
    assert found is not None, text
    return int(found.group(1)) * 60 + int(found.group(2))
