"""A friends' evening in one room, in Chromium, through its one link (docs/rules.md §0.12,
§0.15; docs/protocol/socket.md §5.11-5.13; docs/protocol/rest.md "Rooms").

Ada opens a private room of Vingt-un from the lobby's form ("Open as a room", "Private table":
seats by approval) and sends its one link to Ben, Cleo and Dan (Dan on a phone, 390x844). Each
asks to sit and Ada lets them in from her host panel; Zed, a stranger who got the link, asks
too and is refused: he watches the whole evening and is never seated. Ben chats; Cleo blocks him
for herself: his lines go from her page only, and stay gone at every table after.

Vingt-un: everyone presses Ready, the hand is dealt, and Ada chooses Greek 31 in the room's
chooser while it is in play: every page says the room switches once the hand ends, the hand is
played out through the pages' buttons, and every page follows to Greek 31 on the same URL
without a reload. Between hands there, Ada changes the stakes in her panel; the others' logs
say so. Then the server is killed between a switch's two halves: with the database's write
lock held (tests/storage/harness.py ``HeldWrites``) Ada switches to Trianta Ena, the switch's
job waits (``/healthz`` ``writer_pending``), the server is SIGKILLed, the lock let go and the
server started again on the same file and port. The pages reconnect by themselves: still Greek
31, every stack where it was, the new stakes still in force. A hand of Greek 31 is played under
them and Ada switches again during it: this time it completes, and a hand of Trianta Ena is
played before everyone stands up. Ada opens the room's settle-up: each friend's net there is
their bankroll's change over the evening (read over REST), and the host's audit balances.
Screenshots: /tmp/shots/room-evening-*.png (the phone's at each stage).

The server is this module's own (``python -m app serve`` on a SQLite file), so it can be killed
and started again under the pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import (
    ACTION_TIMEOUT,
    ADMIN_TOKEN,
    CHROMIUM,
    NARROW,
    NO_CHROMIUM,
    SHOTS,
    WIDE,
    ServedProcess,
)
from tests.browser.steps import as_host, choose_name, sit
from tests.browser.test_chat_browser import open_chat, say
from tests.browser.test_settle_browser import settles, shown_nets, shown_payments
from tests.browser.test_table_host_browser import ask_to_sit, next_stake_min
from tests.storage.harness import HeldWrites

pytestmark = pytest.mark.browser

ROOM = "Quayside Evening"
FRIENDS = ("Ada", "Ben", "Cleo", "Dan")
STRANGER = "Zed"
SEEDS = {
    "vingt-un": "27a1" * 16,
    "greek-31": "e7e7" * 16,
    "trianta-ena": "31e1" * 16,
}
# one press a round trip, for whatever each page offers its person now: a stake or a bet of
# what the control offers, a Greek 31 dealer's card to hide, else stand (or let the bank go)
STEP = """(press) => {
  const ready = (el) =>
    el && !el.disabled && !el.closest("fieldset:disabled") && el.offsetParent !== null;
  for (const selector of ['.action[data-kind="stake"] button[type=submit]',
                          '.action[data-kind="bet"] button[type=submit]',
                          '.g31-pick', 'button[data-kind="stand"]',
                          'button[data-kind="decline_bank"]']) {
    const button = document.querySelector(selector);
    if (ready(button)) {
      if (press) button.click();
      return selector;
    }
  }
  return "";
}"""
STACKS = """() => Object.fromEntries([...document.querySelectorAll(".seat[data-stack]")]
  .filter((seat) => seat.dataset.stack !== "")
  .map((seat) => [seat.querySelector(".seat-name").textContent,
                  [Number(seat.dataset.seat), Number(seat.dataset.stack)]]))"""


class Server(ServedProcess):
    """The server, killed with SIGKILL (nothing of its shutdown runs) and started again on the
    same port and database."""

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=15)
        self.process = None

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/healthz", timeout=10) as response:
            return dict(json.loads(response.read()))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    live = Server(tmp_path)
    live.start()
    try:
        yield live
    finally:
        live.stop()


# --------------------------------------------------------------------------- steps


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"room-evening-{name}.png"))


def room_now(page: Any, room_id: str, invite: str) -> dict[str, Any]:
    response = page.request.get(f"/api/rooms/{room_id}?invite={invite}")
    assert response.status == 200, response.text()
    return dict(response.json())


def seed(page: Any, room_id: str, invite: str) -> str:
    """Seed the shuffles of the table the room plays at now (the test server's host route);
    its id."""
    table = room_now(page, room_id, invite)["table"]
    as_host(page, f"/api/admin/tables/{table['table_id']}/seed", {"seed": SEEDS[table["game"]]})
    return str(table["table_id"])


def step(pages: list[Any]) -> None:
    """Each page presses what it offers now: wide pages in one round trip each; the phone
    with a real tap, which scrolls the control into view and lands only where it is not
    covered (a control the next state took away is looked for again at the next step)."""
    for page in pages:
        if page.viewport_size != NARROW:
            page.evaluate(STEP, True)
            continue
        selector = page.evaluate(STEP, False)
        if selector:
            with contextlib.suppress(PlaywrightError):  # gone with the next state
                page.locator(selector).first.click()


def play_until(pages: list[Any], done: Any, what: str, timeout: float = 120) -> None:
    """Everyone presses what their page offers until ``done()``; ``timeout`` only ends a stuck
    test."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"never: {what}"
        step(pages)
        pages[0].wait_for_timeout(100)


def offered(pages: list[Any], kind: str) -> bool:
    return any(page.locator(f'.action[data-kind="{kind}"]').count() for page in pages)


def all_ready(pages: list[Any], first: str) -> None:
    """Everyone presses Ready; the hand is dealt (someone is offered ``first``).

    A press is pressed again while its button is still offered: a click that met the button as
    a new state redrew it may reach no button at all (Ready is no toggle: once ready, it is no
    longer offered). Should the hand never come, the failure says what each page showed."""
    for page in pages:
        page.locator('#presence button[data-kind="ready"]').click()
    deadline = time.monotonic() + 60
    while not offered(pages, first):
        if time.monotonic() > deadline:
            shown = [
                (p.locator("#presence").inner_text(), p.locator("#log").inner_text()[-400:])
                for p in pages
            ]
            raise AssertionError(f"nobody was offered {first}: {shown}")
        for page in pages:
            again = page.locator('#presence button[data-kind="ready"]')
            if again.count() and again.is_enabled():
                again.click()
        pages[0].wait_for_timeout(250)


def switch_to(host: Any, game: str) -> None:
    """The room's host chooses the next game in the room's chooser (Ready kept on)."""
    form = host.locator("#room-form")
    form.get_by_label("Next game").select_option(game)
    expect(form.locator("#room-ready")).to_be_checked()
    form.locator("#room-switch").click()


def followed(pages: list[Any], title: str, url: str) -> None:
    """Every page shows ``title`` now, at the room's one link, without having been reloaded."""
    for page in pages:
        expect(page.locator("#game-title")).to_have_text(title)
        expect(page.locator("#conn[data-state=open]")).to_be_visible()
        assert page.evaluate("window.__marker") == 1, "the page was reloaded"
        assert page.url.endswith(url), page.url


def stacks(page: Any) -> dict[str, list[int]]:
    """Each seated player's seat and stack, as the page shows them."""
    return dict(page.evaluate(STACKS))


def bankroll(page: Any) -> int:
    response = page.request.get("/api/me")
    assert response.status == 200, response.text()
    return int(response.json()["bankroll"])


def quiet_writer(server: Server, host: Any, timeout: float = 60) -> None:
    """Until the server's writer has nothing left to write."""
    deadline = time.monotonic() + timeout
    while int(server.health().get("writer_pending", 0)) > 0:
        assert time.monotonic() < deadline, "the writer never caught up"
        host.wait_for_timeout(50)


def writer_waiting(server: Server, host: Any, timeout: float = 60) -> None:
    """Until the server's writer holds a job it cannot write (the database is held)."""
    deadline = time.monotonic() + timeout
    while int(server.health().get("writer_pending", 0)) == 0:
        assert time.monotonic() < deadline, "the switch's job never waited for the database"
        host.wait_for_timeout(50)


# --------------------------------------------------------------------------- the evening


def test_an_evening_in_one_room(server: Server, chromium: Any) -> None:
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

    held = ThreadPoolExecutor(max_workers=1)  # HeldWrites' SQLite connection: one thread
    try:
        ada, ben, cleo, dan = browser(WIDE), browser(WIDE), browser(WIDE), browser(NARROW)
        zed = browser(WIDE)
        friends = [ada, ben, cleo, dan]
        everyone = [*friends, zed]
        for page, name in zip(everyone, (*FRIENDS, STRANGER), strict=True):
            choose_name(page, name)
        start = {name: bankroll(page) for page, name in zip(friends, FRIENDS, strict=True)}

        # Ada opens a private room from the lobby's form: seats by approval come with it
        ada.select_option("#open-game", "vingt-un")
        ada.fill("#open-name", ROOM)
        ada.check("#open-room")
        ada.check("#open-private")
        expect(ada.locator("#opt-approval")).to_be_checked()
        expect(ada.locator("#opt-start")).to_have_value('"when_ready"')
        ada.click("#open-submit")
        ada.wait_for_url(lambda url: "/rooms/" in url)
        link = ada.url.removeprefix(server.url)  # the one link of the evening
        room_id = urlparse(link).path.rsplit("/", 1)[1]
        invite = parse_qs(urlparse(link).query)["invite"][0]
        seed(ada, room_id, invite)
        expect(ada.locator("#game-title")).to_have_text("Vingt-un")
        sit(ada, 0)  # the host's own sit never waits
        expect(ada.locator("#host-badge")).to_have_text("You host this table")
        panel = ada.locator("#host-panel")

        # the friends open the link and ask to sit; Ada lets each in from her panel
        for seat, (page, name) in enumerate(zip(friends[1:], FRIENDS[1:], strict=True), 1):
            page.goto(link)
            expect(page.locator("#room-box")).to_contain_text(f"Room: {ROOM}")
            ask_to_sit(page, seat)
            expect(page.locator("#banner")).to_contain_text("the host has not answered yet")
            if page is dan:
                shot(dan, "phone-asking")
            expect(panel.locator(".host-request")).to_contain_text(f"{name}: seat {seat}")
            panel.get_by_role("button", name=f"Let in {name}").click()
            expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()
        # the stranger with the link asks too, and is refused: he watches
        zed.goto(link)
        ask_to_sit(zed, 4)
        expect(panel.locator(".host-request")).to_contain_text(STRANGER)
        panel.get_by_role("button", name=f"Refuse {STRANGER}").click()
        expect(zed.locator("#banner")).to_contain_text("The host did not let you sit")
        expect(zed.locator(".seat.is-you")).to_have_count(0)
        for page in friends:
            expect(page.locator("#log")).to_contain_text(f"Ada did not let {STRANGER} sit.")
        for page in everyone:
            page.evaluate("window.__marker = 1")  # gone if a page is ever reloaded
        # the link the room's pages offer to share is the room's, not its table's
        for page in friends:
            expect(page.locator("#invite-box .invite-link")).to_have_value(server.url + link)

        # Ben chats; Cleo blocks him for herself: gone from her page, not from the others'
        for page in everyone:
            open_chat(page)
        say(ben, "evening, all")
        for page in (ada, cleo, dan):
            expect(page.locator(".chat-line", has_text="evening, all")).to_have_count(1)
        cleo.locator(".chat-line", has_text="evening, all").locator(".chat-block").click()
        expect(cleo.locator("#chat-blocked")).to_contain_text("Ben")
        expect(cleo.locator(".chat-line", has_text="evening, all")).to_have_count(0)
        for page in (ada, dan, zed):
            expect(page.locator(".chat-line", has_text="evening, all")).to_have_count(1)

        # Vingt-un: Ready, the hand is dealt, and Ada picks the next game during it
        all_ready(friends, "stake")
        shot(dan, "phone-vingt-un")
        switch_to(ada, "greek-31")
        for page in everyone:
            expect(page.locator("#log")).to_contain_text(
                "The room switches to Greek 31 once this hand ends."
            )
        play_until(
            friends,
            lambda: all(p.locator("#game-title").inner_text() == "Greek 31" for p in everyone),
            "the room at Greek 31",
        )
        followed(everyone, "Greek 31", link)
        for page in everyone:
            expect(page.locator("#log")).to_contain_text(
                "The room switched from Vingt-un to Greek 31."
            )
        for seat, page in enumerate(friends):  # everyone seated, in the same order
            expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()
        expect(zed.locator(".seat.is-you")).to_have_count(0)
        assert [h["status"] for h in hands_of(ada, room_id)] == ["finished"]
        # the host's column holds her panel, the link and the room's chooser within its width
        wide, inside = ada.evaluate(
            "() => { const side = document.querySelector('.side');"
            " return [side.scrollWidth, side.clientWidth]; }"
        )
        assert wide <= inside, (wide, inside)
        # the host may hand the room to any of the friends seated at the new table
        expect(ada.locator("#room-host-to option")).to_have_text(list(FRIENDS[1:]))
        for page in friends:  # and the link to share is still the evening's one
            expect(page.locator("#invite-box .invite-link")).to_have_value(server.url + link)
        second = seed(ada, room_id, invite)

        # between hands, Ada changes the stakes in her panel; the others are told
        panel.locator("#host-opt-min_bet").fill("20")
        panel.locator("#host-opt-max_bet").fill("60")
        panel.get_by_role("button", name="Change").click()
        for page in (ben, cleo, dan, zed):
            expect(page.locator("#log")).to_contain_text(
                "smallest stake 20, largest stake 60, from the next hand"
            )
        # the block holds at the new table too
        say(ben, "new game, same Ben")
        for page in (ada, dan):
            expect(page.locator(".chat-line", has_text="same Ben")).to_have_count(1)
        expect(cleo.locator(".chat-line", has_text="same Ben")).to_have_count(0)
        expect(cleo.locator(".chat-line", has_text="evening, all")).to_have_count(0)
        shot(dan, "phone-greek-31")
        shot(ada, "wide-greek-31")

        # the server is killed between the switch's two halves: its job waits for the lock
        before = {name: stacks(page) for page, name in zip(friends, FRIENDS, strict=True)}
        assert len(before["Ada"]) == 4 and all(s == before["Ada"] for s in before.values())
        quiet_writer(server, ada)  # so that the job which waits is the switch's
        lock = HeldWrites(f"sqlite:///{server.db_path}")
        held.submit(asyncio.run, lock.__aenter__()).result()
        try:
            switch_to(ada, "trianta-ena")
            writer_waiting(server, ada)
            server.kill()
        finally:
            held.submit(asyncio.run, lock.release()).result()
        for page in everyone:
            expect(page.locator("#conn[data-state=open]")).to_have_count(0)
        server.start()
        for page in everyone:  # each page comes back by itself, at the same table
            expect(page.locator("#conn[data-state=open]")).to_be_visible()
        followed(everyone, "Greek 31", link)
        room = room_now(ada, room_id, invite)
        assert room["table"]["table_id"] == second and room["table"]["game"] == "greek-31"
        assert [t["game"] for t in room["tables"]] == ["vingt-un", "greek-31"]
        for page, name in zip(friends, FRIENDS, strict=True):
            assert stacks(page) == before[name], (name, stacks(page), before[name])
        expect(panel.locator("#host-opt-min_bet")).to_have_value("20")  # kept with the table
        shot(dan, "phone-after-restart")
        seed(ada, room_id, invite)  # the seed was the process's

        # a hand of Greek 31 under the new stakes; Ada switches again during it: it completes
        all_ready(friends, "stake")
        assert next_stake_min(*friends) == 20
        switch_to(ada, "trianta-ena")
        expect(dan.locator("#log")).to_contain_text(
            "The room switches to Trianta Ena once this hand ends."
        )
        play_until(
            friends,
            lambda: all(p.locator("#game-title").inner_text() == "Trianta Ena" for p in everyone),
            "the room at Trianta Ena",
        )
        followed(everyone, "Trianta Ena", link)
        room = room_now(ada, room_id, invite)
        assert [t["game"] for t in room["tables"]] == ["vingt-un", "greek-31", "trianta-ena"]
        for seat, page in enumerate(friends):
            expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()
        third = seed(ada, room_id, invite)
        expect(zed.locator(".seat.is-you")).to_have_count(0)  # the stranger still watches

        # a hand of Trianta Ena; once the bets are in, everyone asks to leave: they stand up
        # when it ends
        all_ready(friends, "bet")
        shot(dan, "phone-trianta-ena")
        play_until(friends, lambda: not offered(friends, "bet"), "every bet placed")
        for page in friends:
            page.locator("#btn-leave").click()
        play_until(
            friends,
            lambda: not any(p.locator(".seat.is-you").count() for p in friends),
            "everyone stood up",
        )
        say(ben, "good night from Ben")
        expect(dan.locator(".chat-line", has_text="good night from Ben")).to_have_count(1)
        expect(cleo.locator(".chat-line", has_text="from Ben")).to_have_count(0)
        played = hands_of(ada, room_id)
        assert {h["table_id"] for h in played} >= {second, third}, played
        assert all(h["status"] in ("finished", "void") for h in played), played

        # settle up for the room: each friend's net is their bankroll's change (with what
        # they have at the table: nothing, once they stood up)
        at_table = {name: stack for name, (_seat, stack) in stacks(ada).items()}
        ada.locator(".settle-link").click()
        ada.wait_for_url(f"**/settle?room={room_id}")
        expect(ada.locator("#settle-body")).to_be_visible()
        expect(ada.locator("#scope")).to_contain_text(f"Hands in the room {ROOM}")
        shown = shown_nets(ada)
        for page, name in zip(friends, FRIENDS, strict=True):
            change = bankroll(page) + at_table.get(name, 0) - start[name]
            assert shown.get(name, 0) == change, (name, shown, change)
        assert shown.get(STRANGER, 0) == 0, shown
        settles(shown, shown_payments(ada))
        answer = ada.request.get(f"/api/settle?room={room_id}").json()
        assert {p["name"]: p["net"] for p in answer["parties"]} == shown, answer
        ada.screenshot(path=str(SHOTS / "room-evening-wide-settle.png"), full_page=True)
        dan.goto(f"/settle?room={room_id}")
        expect(dan.locator("#settle-body")).to_be_visible()
        assert shown_nets(dan) == shown
        dan.screenshot(path=str(SHOTS / "room-evening-phone-settle.png"), full_page=True)
        audit = ada.request.get(
            "/api/admin/audit", headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
        )
        assert audit.status == 200 and audit.json()["balanced"] is True, audit.text()
        assert dialogs == [], dialogs
        assert errors == [], errors
    finally:
        held.shutdown()
        for context in contexts:
            context.close()


def hands_of(page: Any, room_id: str) -> list[dict[str, Any]]:
    response = page.request.get(f"/api/hands?room_id={room_id}&limit=50")
    assert response.status == 200, response.text()
    return list(response.json()["hands"])
