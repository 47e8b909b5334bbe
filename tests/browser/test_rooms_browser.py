"""A room in Chromium: one link for the evening, three games, the pages following the host's
switch without a reload (docs/protocol/socket.md §5.12).

Ada opens a room of Vingt-un and sits; Ben opens the same link and sits. Each page is marked
(``window.__marker``) before the first switch. Ada chooses Greek 31 in the room's form (a
labelled form, for the keyboard and screen readers), then Trente et Quarante: both pages show
each new game with both players seated in their order, the live region says the switch, the
URL stays the room's, and the marks survive (no page was reloaded). Ada then hands the room
to Ben with the room's second form, and the lobby lists the room once.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import NARROW, WIDE, BrowserServer
from tests.browser.steps import choose_name, sit


@pytest.mark.browser
def test_a_room_plays_three_games_behind_one_link(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    choose_name(ada, "Ada Host")
    made = ada.request.post(
        "/api/rooms",
        data={"game": "vingt-un", "name": "Our evening", "options": {"start": "when_ready"}},
    )
    assert made.status == 201, made.text()
    url = made.json()["url"]
    ada.goto(url)
    expect(ada.locator("#game-title")).to_have_text("Vingt-un")
    sit(ada, 0)

    ben = open_page(NARROW)
    choose_name(ben, "Ben Guest")
    ben.goto(url)
    sit(ben, 1)
    expect(ben.locator("#room-form")).to_have_count(0)  # the chooser is the host's
    for page in (ada, ben):
        page.evaluate("window.__marker = 1")

    form = ada.locator("#room-form")
    expect(form).to_be_visible()
    found = grave(ada)  # the room's page, its chooser included, passes axe-core
    assert not found, describe(found)
    expect(ada.get_by_label("Next game")).to_be_visible()
    switches = (("greek-31", "Greek 31"), ("trente-et-quarante", "Trente et Quarante"))
    # the new table's options in words, and their names in the host's panel, as its own page
    # would tell them (GET /api/tables/{id}'s option_words and option_labels)
    said = {
        "greek-31": ("Stakes 10 to 100 chips", "Smallest stake"),
        "trente-et-quarante": ("Stakes 10 to 2,000 chips on a chance", "Seconds to bet"),
    }
    for game, title in switches:
        ada.get_by_label("Next game").select_option(game)
        ada.locator("#room-switch").click()
        for page in (ada, ben):
            expect(page.locator("#game-title")).to_have_text(title)
            expect(page.locator("#announce")).to_contain_text(f"The room switched to {title}.")
            expect(page.locator(".seat.is-you")).to_be_visible()
            assert page.evaluate("window.__marker") == 1
            assert page.url.endswith(url)
        expect(ada.locator('.seat.is-you[data-seat="0"]')).to_be_visible()
        expect(ben.locator('.seat.is-you[data-seat="1"]')).to_be_visible()
        words, label = said[game]
        expect(ada.locator("#options-list")).to_contain_text(words)
        expect(ada.locator("#host-panel")).to_contain_text(label)
    # one log for the evening: the first table's lines are still there, and each switch
    log = ada.locator("#log")
    expect(log).to_contain_text("Ben Guest sat down in seat 1")
    expect(log).to_contain_text("The room switched from Vingt-un to Greek 31.")
    expect(log).to_contain_text("The room switched from Greek 31 to Trente et Quarante.")

    # the room's "Settle up" is the evening's: every table of the room
    expect(ada.locator(".settle-link")).to_have_attribute(
        "href", f"/settle?room={made.json()['room_id']}"
    )

    # Ada hands the room to Ben: her chooser goes; his page, opened again, has it
    ada.get_by_label("Hand the room to").focus()
    ada.get_by_label("Hand the room to").select_option(label="Ben Guest")
    ada.locator("#room-hand-over").click()
    expect(ada.locator("#announce")).to_contain_text("Ben Guest is the room's host now.")
    expect(ada.locator("#room-form")).to_have_count(0)
    ben.reload()
    expect(ben.locator("#room-form")).to_be_visible()

    # the lobby lists the room as one entry, its link the room's
    room_id = made.json()["room_id"]
    ben.goto("/")
    expect(ben.locator(f'a[href="/rooms/{room_id}"]')).to_have_count(1)
    entry = ben.locator(".table-item").filter(has=ben.locator(f'a[href="/rooms/{room_id}"]'))
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Our evening")
    ben.goto(f"/settle?room={room_id}")
    expect(ben.locator("#scope")).to_contain_text("Hands in the room Our evening")
