"""The table page's controls found wanting in a play test with four players in Chromium.

* "Add a bot" is offered only to those who may press it: the table's opener and the host (a
  tab holding the host's token); anyone else never sees it.
* The Trianta Ena banker's seat says what the bank covers ("Bank covers 45"), not "Stake 45".
* A player whose stack no longer lets them play is told why, with "Add chips" and "Stand up";
  they add chips and are dealt in again.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN, BrowserServer
from tests.browser.steps import as_host, sign_in


def open_table(page: Any, game: str, options: dict[str, Any]) -> str:
    response = page.request.post("/api/tables", data={"game": game, "options": options})
    assert response.status == 201, response.text()
    return str(response.json()["table_id"])


def sit(page: Any, seat: int) -> None:
    page.locator(f'.seat[data-seat="{seat}"] .btn-sit').click()
    page.locator("#amount-ok").click()
    expect(page.locator(f'.seat[data-seat="{seat}"] .tag-you')).to_be_visible()


@pytest.mark.browser
def test_add_a_bot_is_offered_only_to_the_opener_and_the_host(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada, bob, host = open_page(), open_page(), open_page()
    sign_in(ada, "Ada")
    sign_in(bob, "Bob")
    table_id = open_table(ada, "trianta-ena", {"turn_seconds": 30, "bet_seconds": 30})
    for page in (ada, bob, host):
        page.goto(f"/tables/{table_id}")
        expect(page.locator("#conn[data-state=open]")).to_be_visible()
    expect(ada.locator("#btn-bot")).to_be_visible()
    expect(bob.locator("#btn-bot")).to_be_hidden()
    expect(host.locator("#btn-bot")).to_be_hidden()  # a spectator without the host's token

    # the host's tab (the admin page keeps the token in sessionStorage) is offered it, and
    # the bot it seats is named as no person here is
    host.evaluate(f"() => sessionStorage.setItem('t31_admin_token', '{ADMIN_TOKEN}')")
    host.reload()
    expect(host.locator("#conn[data-state=open]")).to_be_visible()
    host.locator("#btn-bot").click()
    expect(host.locator(".seat .tag-bot")).to_have_count(1)
    bot_name = host.locator(".seat:has(.tag-bot) .seat-name").inner_text()
    assert bot_name.endswith("(bot)") and not bot_name.startswith(("Ada", "Bob")), bot_name
    # the opener chooses the level of the bot she adds, and sees it beside the bot
    expect(ada.locator("#bot-level-box")).to_be_visible()
    expect(bob.locator("#bot-level-box")).to_be_hidden()
    ada.select_option("#bot-level", "best")
    ada.locator("#btn-bot").click()
    expect(ada.locator(".seat .tag-bot")).to_have_count(2)
    expect(ada.locator(".seat .tag-bot", has_text="bot · best")).to_have_count(1)
    expect(bob.locator(".seat .tag-bot", has_text="bot · best")).to_have_count(1)


@pytest.mark.browser
def test_the_trianta_ena_bank_says_what_it_covers(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page()
    sign_in(ada, "Ada")
    table_id = open_table(ada, "trianta-ena", {"turn_seconds": 30, "bet_seconds": 30})
    added = ada.request.post(f"/api/tables/{table_id}/bots", data={})
    assert added.status == 201, added.text()
    banker = added.json()["seat"]
    ada.goto(f"/tables/{table_id}")
    expect(ada.locator("#conn[data-state=open]")).to_be_visible()
    sit(ada, banker + 1)
    ada.locator("#controls .action[data-kind=bet] input[type=number]").fill("7")
    ada.locator("#controls .action[data-kind=bet] button[type=submit]").click()
    bank = ada.locator(f'.seat[data-seat="{banker}"]')
    expect(bank).to_contain_text("Bank covers 7")
    expect(bank).not_to_contain_text("Stake")


# With this seed the first Vingt-un hand deals the dealer (seat 0) a natural (JH, AC) and seat 1
# a 6H and a 4D: the dealer collects twice the stake (four times if the bot calls double).
BROKE_SEED = "00000009" * 8


@pytest.mark.browser
def test_a_player_who_cannot_play_adds_chips_and_plays(
    live_server: BrowserServer, open_page: Any
) -> None:
    """The play test: below four times the smallest stake a Vingt-un player sat with "needs 40
    chips to play" and nothing to press."""
    ada = open_page()
    sign_in(ada, "Ada")
    table_id = open_table(ada, "vingt-un", {"turn_seconds": 30, "min_bet": 10, "max_bet": 10})
    as_host(ada, f"/api/admin/tables/{table_id}/seed", {"seed": BROKE_SEED})
    assert ada.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201  # seat 0
    ada.goto(f"/tables/{table_id}")
    expect(ada.locator("#conn[data-state=open]")).to_be_visible()
    ada.locator('.seat[data-seat="1"] .btn-sit').click()
    ada.locator("#amount-input").fill("40")
    ada.locator("#amount-ok").click()
    stake = ada.locator('#controls .action[data-kind="stake"] button[type=submit]')
    stake.click()

    notice = ada.locator("#controls .cannot-play")
    expect(notice).to_contain_text("You need 40 chips")
    expect(notice.locator("[data-control=stand-up]")).to_be_visible()
    notice.locator("[data-control=top-up]").click()
    ada.locator("#amount-input").fill("40")
    ada.locator("#amount-ok").click()
    expect(notice).to_have_count(0)
    stake.click()  # dealt in again
    expect(ada.locator('.seat[data-seat="1"] .vu-hand')).to_have_count(1)
