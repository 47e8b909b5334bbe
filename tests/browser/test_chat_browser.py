"""The table's chat in Chromium (docs/protocol/socket.md §5.9): two people chat at a table, a
hostile message shows as text, a 200-character word wraps inside the panel, a reaction reaches
the other, the opener removes a message and mutes the other, whose chat is then refused with
the words shown; a flood is refused. Screenshots: /tmp/shots/chat-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import choose_name, sit

HOSTILE = "<img src=x onerror=alert(1)>"
LONG_WORD = "W" * 200


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def flood(page: Any, texts: list[str]) -> None:
    """Send ``texts`` all at once, as a script would: the page's chat form, filled and submitted
    for each in one go. Typed one by one, a busy machine took long enough for the burst to
    refill (a message a second) and the flood was never refused."""
    page.evaluate(
        """(texts) => {
          const input = document.querySelector("#chat-input");
          const form = document.querySelector("#chat-form");
          for (const text of texts) {
            input.value = text;
            form.requestSubmit();
          }
        }""",
        texts,
    )


def open_chat(page: Any) -> None:
    """On a phone the panel starts closed: open it and bring it into view."""
    box = page.locator("#chat-box")
    if box.get_attribute("open") is None:
        page.locator("#chat-box summary").click()
    box.scroll_into_view_if_needed()


@pytest.mark.browser
def test_two_people_chat_and_the_opener_moderates(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    choose_name(ada, "Ada Chat")
    made = ada.request.post("/api/tables", data={"game": "greek-31", "name": "Chatty"})
    assert made.status == 201, made.text()
    table_id = made.json()["table_id"]
    alerts: list[str] = []
    ada.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
    ada.goto(f"/tables/{table_id}")
    sit(ada, 0)

    ben = open_page(NARROW)
    choose_name(ben, "Ben Chat")
    ben.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
    ben.goto(f"/tables/{table_id}")
    expect(ben.locator("#table-name")).to_have_text("Chatty")
    expect(ben.locator("#chat-box")).not_to_have_attribute("open", "")  # closed on a phone
    open_chat(ben)

    # a hostile message is text, on both pages, and runs nothing
    say(ada, HOSTILE)
    for page in (ada, ben):
        line = page.locator(".chat-line .chat-text").last
        expect(line).to_have_text(HOSTILE)
        assert page.locator("#chat-list img").count() == 0
    # a word of 200 letters wraps inside the panel
    say(ada, LONG_WORD)
    for page in (ada, ben):
        line = page.locator(".chat-line").last
        expect(line.locator(".chat-text")).to_have_text(LONG_WORD)
        panel = page.locator("#chat-list").bounding_box()
        box = line.bounding_box()
        assert box is not None and panel is not None
        assert box["width"] <= panel["width"] + 1, (box, panel)
        assert box["height"] > 30  # more than one line
    # the watcher writes and reacts; the names are the server's
    say(ben, "hello from the rail")
    said = "Ben Chat (watching): hello from the rail"
    expect(ada.locator(".chat-line").last).to_contain_text(said)
    ben.locator('.chat-react[data-reaction="party"]').click()
    expect(ada.locator(".chat-reaction").last).to_contain_text("Ben Chat")
    expect(ada.locator(".chat-reaction .chat-emoji").last).to_have_text("\N{PARTY POPPER}")

    # only the opener sees the tools
    expect(ben.locator(".chat-remove")).to_have_count(0)
    expect(ada.locator(".chat-remove").first).to_be_visible()
    ada.screenshot(path=str(SHOTS / "chat-wide.png"))
    ben.screenshot(path=str(SHOTS / "chat-phone.png"))
    for page in (ada, ben):  # the panel, its tools and its reactions pass axe-core
        found = grave(page)
        assert found == [], describe(found)

    # the opener removes her hostile message: gone on both pages
    ada.locator(".chat-line", has_text=HOSTILE).locator(".chat-remove").click()
    for page in (ada, ben):
        expect(page.locator(".chat-line", has_text=HOSTILE)).to_have_count(0)
    # and mutes Ben, whose next message is refused with the words shown
    ada.locator(".chat-line", has_text="hello from the rail").locator(".chat-mute").click()
    expect(ada.locator("#chat-muted")).to_contain_text("Ben Chat")
    expect(ben.locator("#chat-note")).to_contain_text("You are muted at this table")
    say(ben, "can you hear me?")
    expect(ben.locator("#chat-note")).to_contain_text("muted at this table")
    ada.wait_for_timeout(300)
    expect(ada.locator(".chat-line", has_text="can you hear me?")).to_have_count(0)
    ben.screenshot(path=str(SHOTS / "chat-muted-phone.png"))

    # a page opened now gets the kept chat, without the removed message
    ben.reload()
    open_chat(ben)
    expect(ben.locator(".chat-line", has_text="hello from the rail")).to_have_count(1)
    expect(ben.locator(".chat-line", has_text=HOSTILE)).to_have_count(0)
    expect(ben.locator("#chat-note")).to_contain_text("You are muted at this table")

    # the opener unmutes him
    ada.locator(".chat-unmute").click()
    expect(ada.locator("#chat-muted")).to_be_hidden()
    say(ben, "thanks")
    expect(ada.locator(".chat-line").last).to_contain_text("thanks")

    # a flood is refused: a burst, then the words
    ada.wait_for_timeout(2500)  # the burst refills after the messages above
    flood(ada, [f"flood {n}" for n in range(8)])
    expect(ada.locator("#chat-note")).to_contain_text("Slow down")
    expect(ben.locator(".chat-line", has_text="flood 7")).to_have_count(0)
    assert alerts == []
