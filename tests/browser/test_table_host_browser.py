"""The host at the table in a real Chromium (docs/protocol/socket.md §5.13, docs/rules.md
§0.12).

Ada opens a Vingt-un table by approval from the lobby's form and sits; she sees "You host this
table". Bob (on a phone) asks to sit: his page says he waits for the host, Ada's panel lists him
and her screen reader is told; she lets him in by keyboard and his seat is taken. A stranger
asks too and Ada refuses: the stranger's page says so in words, and he is not seated. Between
hands Ada changes the stakes in the panel's form; the log tells Bob, and the next hand's stake
starts at the new minimum. The server's owner reads it all in /admin's host log, marked as
the table's host's. Screenshots: /tmp/shots/host-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import choose_name, sit
from tests.browser.test_admin_browser import unlock


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"host-{name}.png"))


def ask_to_sit(page: Any, seat: int) -> None:
    page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
    expect(page.locator("#amount-dialog")).to_be_visible()
    page.click("#amount-ok")


@pytest.mark.browser
def test_the_host_lets_one_in_refuses_a_stranger_and_changes_the_stakes(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    bob = open_page(NARROW)
    stranger = open_page(WIDE)
    choose_name(ada, "Ada")
    choose_name(bob, "Bob")
    choose_name(stranger, "Zed")

    ada.select_option("#open-game", "vingt-un")
    ada.fill("#open-name", "Approval night")
    # seats by approval follow "Private table" (on by default there), until chosen
    ada.check("#open-private")
    expect(ada.locator("#opt-approval")).to_be_checked()
    ada.uncheck("#open-private")
    expect(ada.locator("#opt-approval")).not_to_be_checked()
    ada.check("#opt-approval")
    ada.fill("#opt-turn_seconds", "600")
    ada.click("#open-submit")
    ada.wait_for_url(lambda url: "/tables/" in url)
    sit(ada, 0)  # the host's own sit never waits
    expect(ada.locator("#host-badge")).to_have_text("You host this table")
    panel = ada.locator("#host-panel")
    expect(panel).to_be_visible()

    # Bob asks; Ada lets him in, from the keyboard
    bob.goto(ada.url)
    expect(bob.locator("#host-badge")).to_have_text("Host: Ada")
    expect(bob.locator("#host-panel")).to_be_hidden()
    ask_to_sit(bob, 1)
    expect(bob.locator("#banner")).to_contain_text("the host has not answered yet")
    expect(panel.locator(".host-request")).to_contain_text("Bob: seat 1")
    expect(ada.locator("#announce")).to_contain_text("Bob asks to sit in seat 1")
    shot(ada, "wide-request")
    shot(bob, "phone-waiting")
    let_in = panel.get_by_role("button", name="Let in Bob")
    let_in.focus()
    ada.keyboard.press("Enter")
    expect(bob.locator('.seat.is-you[data-seat="1"]')).to_be_visible()
    expect(panel.locator(".host-request")).to_have_count(0)

    # a stranger with the link asks, and is refused: not seated, told in words
    stranger.goto(ada.url)
    ask_to_sit(stranger, 2)
    expect(panel.locator(".host-request")).to_contain_text("Zed")
    panel.get_by_role("button", name="Refuse Zed").click()
    expect(stranger.locator("#banner")).to_contain_text("The host did not let you sit")
    expect(stranger.locator("#banner")).to_contain_text("10 minutes")
    expect(stranger.locator(".seat.is-you")).to_have_count(0)
    expect(bob.locator("#log")).to_contain_text("Ada did not let Zed sit.")
    shot(stranger, "wide-refused")

    # between hands, the stakes change; the next hand is dealt under them
    panel.locator("#host-opt-min_bet").fill("20")
    panel.locator("#host-opt-max_bet").fill("60")
    panel.get_by_role("button", name="Change").click()
    expect(bob.locator("#log")).to_contain_text(
        "smallest stake 20, largest stake 60, from the next hand"
    )
    shot(ada, "wide-stakes")
    for page in (ada, bob):
        page.locator('#presence button[data-kind="ready"]').click()
    expect(bob.locator("#log")).to_contain_text("Hand 1 is dealt")
    # during a hand a change is for the next one, and the panel says so
    expect(panel.locator("#host-opt-min_bet")).to_have_count(1)
    expect(panel).to_contain_text("A change now is for the next hand")
    stake = next_stake_min(ada, bob)
    assert stake == 20

    # the server's owner sees every one of it in the host's log, as the table's host's
    owner = open_page(WIDE)
    unlock(owner)
    log = owner.locator("#admin-actions")
    expect(log).to_contain_text("The table's host, Ada, at “Approval night”: refuse Zed")
    expect(log).to_contain_text("approve Bob")
    expect(log).to_contain_text('set options {"min_bet":20,"max_bet":60}')


def next_stake_min(*pages: Any) -> int:
    """The smallest stake the hand's controls offer (whoever stakes first)."""
    for page in pages:
        field = page.locator('#controls input[type="number"]')
        try:
            expect(field.first).to_be_visible(timeout=5000)
        except AssertionError:
            continue
        return int(field.first.get_attribute("min") or 0)
    raise AssertionError("no stake offered")
