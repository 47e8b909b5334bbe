"""Ready to deal and sitting out in a real Chromium (docs/rules.md §0.11,
docs/protocol/socket.md §5.10).

Ada opens a Vingt-un table from the lobby's form, whose default is a table for friends
(``start: when_ready``); Bob joins. Both sit and nothing is dealt: the dock says the table waits
for everyone to be ready; Ada presses Ready and Bob sees it on her seat; Bob presses Ready and
the hand is dealt. Bob presses Sit out: after the hand his seat says "sitting out" on Ada's
screen, he sees "I'm back" and presses it. Then Cleo, alone with a bot at a Trianta Ena table,
lets the clock decide twice and reads why she sits out; the opener's "Stand up" shows on a
seat sitting out. Screenshots, wide and phone: /tmp/shots/ready-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import choose_name, sit


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"ready-{name}.png"))


def hands_dealt(page: Any, table_id: str) -> int:
    response = page.request.get(f"/api/hands?table_id={table_id}&limit=1")
    assert response.status == 200, response.text()
    return len(response.json()["hands"])


@pytest.mark.browser
def test_two_friends_are_dealt_in_once_both_are_ready_and_one_sits_out_and_back(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    bob = open_page(NARROW)
    choose_name(ada, "Ada")
    choose_name(bob, "Bob")

    # the lobby's form opens a table for friends unless told otherwise
    ada.select_option("#open-game", "vingt-un")
    expect(ada.locator("#opt-start")).to_have_value('"when_ready"')
    ada.fill("#open-name", "Friday night")
    ada.fill("#opt-turn_seconds", "2")
    ada.click("#open-submit")
    ada.wait_for_url(lambda url: "/tables/" in url)
    table_id = ada.url.rstrip("/").split("/")[-1]
    bob.goto(ada.url)

    sit(ada, 0)
    sit(bob, 1)
    presence = bob.locator("#presence")
    expect(presence).to_contain_text("Waiting for everyone to be ready")
    expect(presence).to_contain_text("0 of 2 ready")
    expect(ada.locator('#presence button[data-kind="deal_now"]')).to_be_visible()  # the opener
    expect(bob.locator('#presence button[data-kind="deal_now"]')).to_have_count(0)
    time.sleep(1.0)
    assert hands_dealt(ada, table_id) == 0  # two sat, nothing dealt
    shot(ada, "wide-waiting")
    shot(bob, "phone-waiting")

    ada.locator('#presence button[data-kind="ready"]').click()
    expect(bob.locator('.seat[data-seat="0"] .tag-ready')).to_be_visible()
    expect(presence).to_contain_text("1 of 2 ready")
    shot(bob, "phone-one-ready")
    time.sleep(0.5)
    assert hands_dealt(ada, table_id) == 0
    bob.locator('#presence button[data-kind="ready"]').click()
    expect(ada.locator('#presence button[data-kind="ready"]')).to_have_count(0)
    expect(ada.locator("#presence")).not_to_contain_text("Waiting for everyone")
    expect(bob.locator("#log")).to_contain_text("Hand 1 is dealt")
    shot(ada, "wide-dealt")

    # Bob sits out: from the end of the hand (the clock plays it out), then comes back
    bob.locator('#presence button[data-kind="sit_out"]').click()
    expect(bob.locator('#presence button[data-kind="sit_in"]')).to_be_visible()
    expect(ada.locator('.seat[data-seat="1"] .tag-sitting-out')).to_be_visible()
    expect(ada.locator('.seat[data-seat="1"]')).to_contain_text("Sitting out", ignore_case=True)
    expect(ada.locator("#log")).to_contain_text("Bob sits out.")
    expect(bob.locator("#presence")).to_contain_text("You are sitting out")
    expect(ada.locator('.seat[data-seat="1"] .btn-stand-up')).to_be_visible()  # the opener's
    expect(bob.locator(".btn-stand-up")).to_have_count(0)
    shot(ada, "wide-sitting-out")
    shot(bob, "phone-sitting-out")
    bob.locator('#presence button[data-kind="sit_in"]').click()
    expect(ada.locator('.seat[data-seat="1"] .tag-sitting-out')).to_have_count(0)
    expect(bob.locator('#presence button[data-kind="sit_out"]')).to_be_visible()
    expect(ada.locator("#log")).to_contain_text("Bob is back.")
    shot(bob, "phone-back")


@pytest.mark.browser
def test_the_clock_playing_twice_sits_a_person_out_and_says_why(
    live_server: BrowserServer, open_page: Any
) -> None:
    cleo = open_page(NARROW)
    choose_name(cleo, "Cleo")
    cleo.select_option("#open-game", "trianta-ena")
    cleo.fill("#opt-turn_seconds", "1")
    cleo.fill("#opt-bet_seconds", "1")
    cleo.click("#open-submit")
    cleo.wait_for_url(lambda url: "/tables/" in url)
    # the page's script is running (its socket open) before its button is pressed: the button
    # is in the page's HTML before the script listens to it
    expect(cleo.locator("#conn[data-state=open]")).to_be_visible()
    cleo.click("#btn-bot")
    try:
        expect(cleo.locator('.seat[data-seat="0"] .tag-bot')).to_be_visible()
    except AssertionError as missing:  # what the page said of the press, if anything
        raise AssertionError(f"no bot sat: {cleo.locator('.toast').all_inner_texts()}") from missing
    sit(cleo, 1)
    cleo.locator('#presence button[data-kind="ready"]').click()
    expect(cleo.locator("#presence")).to_contain_text("The clock played for you twice in a row")
    expect(cleo.locator('#presence button[data-kind="sit_in"]')).to_be_visible()
    shot(cleo, "phone-clock-sat-out")
    cleo.set_viewport_size(WIDE)
    shot(cleo, "wide-clock-sat-out")
