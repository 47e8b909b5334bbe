"""A friends' evening in a real Chromium, end to end (docs/rules.md §0.11; docs/protocol/socket.md
§5.9, §5.10; the settle-up page).

Ada opens a Greek 31 table from the lobby's form (its default start: when everyone is ready); Ben,
Cleo and Dan (on a phone) join it from the lobby's list. They sit down over some seconds and
nothing is dealt until the last of them presses Ready. They chat: Ada's hostile message shows as
text on the others' pages and runs nothing; Ben's flood is refused with the words shown; Ada mutes
Dan, whose next message is refused in his own panel. Cleo sits out after the first hand and is
dealt nothing until she comes back at a later hand. The host restarts the server on the same
database: the pages reconnect and the chat is still there. At the end "Settle up", followed from
the table page, shows each player's net from the ledger and payments that leave everyone at zero.
axe-core runs on the table page once; screenshots wide and phone at two moments:
/tmp/shots/evening-*.png.

The server is this module's own (``python -m app serve`` on one fixed port and one SQLite file,
as ``live_server`` runs it), so it can be stopped and started again under the pages.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import (
    ACTION_TIMEOUT,
    CHROMIUM,
    NARROW,
    NO_CHROMIUM,
    SHOTS,
    WIDE,
    ServedProcess,
)
from tests.browser.steps import as_host, choose_name, sit
from tests.browser.test_chat_browser import flood, open_chat, say
from tests.browser.test_settle_browser import settles, shown_nets, shown_payments

pytestmark = pytest.mark.browser

HOSTILE = "<img src=x onerror=alert(1)>"
SEED = "e7e7" * 16
TABLE = "Friday evening"


class RestartableServer(ServedProcess):
    """``python -m app serve`` on a fixed port and database: after :meth:`stop`, :meth:`start`
    runs a new process on the same address, so the pages' sockets reconnect to it."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RestartableServer]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    live = RestartableServer(tmp_path)
    live.start()
    try:
        yield live
    finally:
        live.stop()


# --------------------------------------------------------------------------- steps


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"evening-{name}.png"))


def hands(page: Any, table_id: str) -> list[dict[str, Any]]:
    response = page.request.get(f"/api/hands?table_id={table_id}&limit=50")
    assert response.status == 200, response.text()
    return list(response.json()["hands"])


def dealt(page: Any, table_id: str) -> bool:
    """Whether a hand was dealt: in the table log the page shows, or in the hands stored."""
    shown = page.locator("#log li", has_text="is dealt").count() > 0
    return shown or bool(hands(page, table_id))


def over(page: Any) -> int:
    """The "Hand over" lines in the page's table log."""
    return int(page.locator("#log li", has_text="Hand over").count())


def play_hand(pages: list[Any], watcher: Any, timeout: float = 90) -> None:
    """Play the hand now dealt to its end through the buttons ``legal`` draws: stake, hide the
    first card (a dealer's stand), stand."""
    done = over(watcher)
    deadline = time.monotonic() + timeout
    while over(watcher) <= done:
        assert time.monotonic() < deadline, "the hand did not end"
        play_a_step(pages)
        watcher.wait_for_timeout(100)


def play_a_step(pages: list[Any]) -> None:
    """Each page whose person is to act presses the first of its choices it is offered."""
    for page in pages:
        for selector in (
            '.action[data-kind="stake"] button[type=submit]',
            ".g31-pick",
            'button[data-kind="stand"]',
        ):
            button = page.locator(selector).first
            try:
                if button.is_visible() and button.is_enabled():
                    button.click(timeout=2_000)
                    break
            except Exception:  # the control went with the view's next update
                break


def finished(page: Any, table_id: str) -> list[dict[str, Any]]:
    return [h for h in hands(page, table_id) if h["status"] == "finished"]


# --------------------------------------------------------------------------- the evening


def test_a_friends_evening(server: RestartableServer, chromium: Any) -> None:
    contexts: list[Any] = []
    errors: list[str] = []
    dialogs: list[str] = []

    def browser(viewport: dict[str, int]) -> Any:
        context = chromium.new_context(
            viewport=viewport, base_url=server.url, extra_http_headers={"origin": server.url}
        )
        context.set_default_timeout(ACTION_TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        return page

    try:
        ada, ben, cleo, dan = browser(WIDE), browser(WIDE), browser(WIDE), browser(NARROW)
        everyone = [ada, ben, cleo, dan]
        for page, name in zip(everyone, ("Ada", "Ben", "Cleo", "Dan"), strict=True):
            choose_name(page, name)

        # Ada opens a table from the lobby's form: for friends, unless told otherwise
        ada.select_option("#open-game", "greek-31")
        expect(ada.locator("#opt-start")).to_have_value('"when_ready"')
        ada.fill("#open-name", TABLE)
        ada.fill("#opt-turn_seconds", "30")
        ada.click("#open-submit")
        ada.wait_for_url(lambda url: "/tables/" in url)
        table_id = ada.url.rstrip("/").split("/")[-1]
        as_host(ada, f"/api/admin/tables/{table_id}/seed", {"seed": SEED})

        # the others join from the lobby's list; they sit over some seconds, nothing is dealt
        sit(ada, 0)
        for seat, page in enumerate((ben, cleo, dan), start=1):
            page.goto("/")
            page.get_by_role("link", name=f"Join {TABLE}", exact=True).click()
            page.wait_for_url(f"**/tables/{table_id}")
            sit(page, seat)
            page.wait_for_timeout(700)  # friends sit down one after another
            assert not dealt(ada, table_id), "dealt before everyone was ready"
        expect(dan.locator("#presence")).to_contain_text("Waiting for everyone to be ready")
        expect(dan.locator("#presence")).to_contain_text("0 of 4 ready")
        shot(ada, "wide-waiting")
        shot(dan, "phone-waiting")

        # chat while they wait: the hostile message is text everywhere and runs nothing
        for page in everyone:
            open_chat(page)
        say(ada, HOSTILE)
        for page in (ben, cleo, dan):
            expect(page.locator(".chat-line .chat-text").last).to_have_text(HOSTILE)
            assert page.locator("#chat-list img").count() == 0
        say(dan, "evening all")
        expect(ada.locator(".chat-line").last).to_contain_text("Dan")
        expect(ada.locator(".chat-line").last).to_contain_text("evening all")
        # Ben floods: refused, with the words shown to him
        flood(ben, [f"flood {n}" for n in range(9)])
        expect(ben.locator("#chat-note")).to_contain_text("Slow down")
        ada.wait_for_timeout(300)
        expect(ada.locator(".chat-line", has_text="flood 8")).to_have_count(0)
        # Ada mutes Dan: his next message is refused in his own panel
        ada.locator(".chat-line", has_text="evening all").locator(".chat-mute").click()
        expect(ada.locator("#chat-muted")).to_contain_text("Dan")
        expect(dan.locator("#chat-note")).to_contain_text("You are muted at this table")
        say(dan, "can you hear me?")
        expect(dan.locator("#chat-note")).to_contain_text("muted at this table")
        ben.wait_for_timeout(300)
        expect(ben.locator(".chat-line", has_text="can you hear me?")).to_have_count(0)
        found = grave(ada)  # the table page, waiting with its chat, passes axe-core
        assert found == [], describe(found)

        # Ready, one by one: nothing is dealt until the last presses it
        for n, page in enumerate(everyone):
            page.locator('#presence button[data-kind="ready"]').click()
            if n < 3:
                expect(dan.locator("#presence")).to_contain_text(f"{n + 1} of 4 ready")
                assert not dealt(ada, table_id), "dealt before everyone was ready"
        expect(ada.locator("#log")).to_contain_text("Hand 1 is dealt")

        # Cleo asks to sit out during the first hand; it is played out through the pages
        cleo.locator('#presence button[data-kind="sit_out"]').click()
        expect(cleo.locator('#presence button[data-kind="sit_in"]')).to_be_visible()
        play_hand(everyone, ada)
        expect(ada.locator('.seat[data-seat="2"] .tag-sitting-out')).to_be_visible()
        expect(ada.locator("#log")).to_contain_text("Cleo sits out.")
        # the second hand is dealt without her
        expect(ada.locator("#log")).to_contain_text("Hand 2 is dealt")
        assert cleo.locator('.action[data-kind="stake"]').count() == 0
        shot(ada, "wide-sitting-out")
        shot(dan, "phone-sitting-out")
        cleo.locator('#presence button[data-kind="sit_in"]').click()
        expect(ada.locator("#log")).to_contain_text("Cleo is back.")
        play_hand(everyone, ada)
        # she is dealt in at the next hand
        expect(ada.locator("#log")).to_contain_text("Hand 3 is dealt")
        expect(ada.locator('.seat[data-seat="2"] .tag-sitting-out')).to_have_count(0)

        # everyone asks to leave during the third hand, so no more hands are dealt while the
        # host restarts: they stand up once it is played to its end
        for page in everyone:
            page.locator("#btn-leave").click()
        deadline = time.monotonic() + 40
        while any(page.locator(".seat.is-you").count() for page in everyone):
            assert time.monotonic() < deadline, "the players did not stand up"
            play_a_step(everyone)
            ada.wait_for_timeout(100)
        played = finished(ada, table_id)
        assert len(played) >= 3
        hand_two = next(h for h in played if h["number"] == 2)
        result = ada.request.get(f"/api/hands/{hand_two['hand_id']}").json()["result"]
        assert "Cleo" not in {p["name"] for p in result["players"]}, result  # dealt nothing
        hand_three = next(h for h in played if h["number"] == 3)
        result = ada.request.get(f"/api/hands/{hand_three['hand_id']}").json()["result"]
        assert "Cleo" in {p["name"] for p in result["players"]}, result  # dealt in again

        # the host restarts the server on the same database: the chat is still there
        server.stop()
        for page in everyone:  # each page sees its socket go
            expect(page.locator("#conn[data-state=open]")).to_have_count(0)
        server.start()
        for page in (ada, ben, dan):  # and comes back by itself, without duplicating the chat
            expect(page.locator("#conn[data-state=open]")).to_be_visible()
        cleo.reload()  # a page opened now gets the kept chat from the new server
        expect(cleo.locator("#conn[data-state=open]")).to_be_visible()
        open_chat(cleo)
        for page in everyone:
            expect(page.locator(".chat-line .chat-text", has_text=HOSTILE)).to_have_count(1)
            expect(page.locator(".chat-line", has_text="evening all")).to_have_count(1)
        assert cleo.locator("#chat-list img").count() == 0
        # and Dan, opening the table anew, is still muted there
        dan.reload()
        expect(dan.locator("#conn[data-state=open]")).to_be_visible()
        open_chat(dan)
        expect(dan.locator("#chat-note")).to_contain_text("You are muted at this table")
        expect(dan.locator(".chat-line", has_text="evening all")).to_have_count(1)

        # settle up, from the table page's link
        rows = finished(ada, table_id)
        nets: dict[str, int] = {}
        for row in rows:
            hand = ada.request.get(f"/api/hands/{row['hand_id']}").json()
            for p in hand["result"]["players"]:
                nets[p["name"]] = nets.get(p["name"], 0) + p["net"]
        answer = ada.request.get(f"/api/settle?table_id={table_id}").json()
        ada.get_by_role("link", name="Settle up").click()
        expect(ada.locator("#settle-body")).to_be_visible()
        expect(ada.locator("#hands-count")).to_have_text(f"{len(rows)} hands")
        shown = shown_nets(ada)
        assert {k: v for k, v in shown.items() if v} == {k: v for k, v in nets.items() if v}
        assert set(shown) >= {"Ada", "Ben", "Cleo", "Dan"}
        assert answer["hands"] == len(rows)
        assert {p["name"]: p["net"] for p in answer["parties"]} == shown, answer
        settles(shown, shown_payments(ada))
        assert len(shown_payments(ada)) <= 3
        ada.screenshot(path=str(SHOTS / "evening-wide-settle.png"), full_page=True)
        dan.goto(f"/settle?table={table_id}")
        expect(dan.locator("#settle-body")).to_be_visible()
        assert shown_nets(dan) == shown
        dan.screenshot(path=str(SHOTS / "evening-phone-settle.png"), full_page=True)
        assert dialogs == [], dialogs
        assert errors == [], errors
    finally:
        for context in contexts:
            context.close()
