"""Trente et Quarante in a real Chromium against the real server (RULES.md §4; PROTOCOL.md).

Two bettors in two browser contexts: Ada sits at the table (a laptop screen), Bob bets standing
(a phone screen). Each chooses a chip and taps a chance on the tableau (Ada Rouge, Bob Noir), both
say their stakes are set, the coup is dealt, and both screens show the two rows, the dealer's
calls and stacks that moved consistently with the totals. Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer

BUY_IN = 500
OPTIONS = {"bet_seconds": 20, "turn_seconds": 20, "min_stake": 10, "max_stake": 1000}


def sign_in(page: Any, name: str) -> None:
    response = page.request.post("/api/session", data={"name": name})
    assert response.status == 200, response.text()


def open_table(page: Any, name: str) -> str:
    response = page.request.post(
        "/api/tables", data={"game": "trente-et-quarante", "name": name, "options": OPTIONS}
    )
    assert response.status == 201, response.text()
    return f"/tables/{response.json()['table_id']}"


def confirm_buy_in(page: Any) -> None:
    expect(page.locator("#amount-dialog")).to_be_visible()
    page.fill("#amount-input", str(BUY_IN))
    page.click("#amount-ok")


def stake(page: Any, chip: int, chance: str, taps: int) -> None:
    """Choose a chip, then tap a chance; each tap adds the chip (the tableau says the total)."""
    page.locator(f'.teq-chip[data-chip="{chip}"]').click()
    for n in range(1, taps + 1):
        zone = page.locator(f'.teq-zone[data-chance="{chance}"]')
        zone.locator(".teq-hit").click()
        expect(zone.locator(".teq-pill-you")).to_contain_text(str(chip * n))


def seated_stack(page: Any, seat: int) -> int:
    return int(page.locator(f'.seat[data-seat="{seat}"]').get_attribute("data-stack"))


def standing_stack(page: Any, seat: int) -> int:
    return int(
        page.locator(f'.teq-standing-list li[data-seat="{seat}"]').get_attribute("data-stack")
    )


def row_total(page: Any, row: str) -> int:
    return int(page.locator(f'.teq-row[data-row="{row}"] .teq-total').get_attribute("data-total"))


def settle_un_apres(ada: Any, bob: Any) -> None:
    """31 and 31: Ada shares her stake, Bob puts his in prison (each from the table)."""
    ada.locator('.teq-apres button[data-apres="share"]').click()
    bob.locator('.teq-apres button[data-apres="prison"]').click()


@pytest.mark.browser
def test_two_bettors_play_a_coup(live_server: BrowserServer, open_page: Any) -> None:
    started = time.monotonic()
    ada = open_page(WIDE)
    bob = open_page(NARROW)
    sign_in(ada, "Ada")
    sign_in(bob, "Bob")
    url = open_table(ada, "Coup")
    ada.goto(url)
    bob.goto(url)

    # Ada takes seat 0; Bob bets standing although seats are free (a position after the seats).
    ada.locator('.seat-empty[data-seat="0"] button').click()
    confirm_buy_in(ada)
    expect(ada.locator('.seat.is-you[data-seat="0"]')).to_be_visible()
    bob.get_by_test_id("bet-standing").click()
    expect(bob.locator("#amount-title")).to_have_text("Bet standing")
    confirm_buy_in(bob)
    standing = bob.locator(".teq-standing-list li.is-you")
    expect(standing).to_be_visible()
    bob_seat = int(standing.get_attribute("data-seat"))
    assert bob_seat >= 7  # the table's seven seats come first
    expect(ada.locator(f'.teq-standing-list li[data-seat="{bob_seat}"]')).to_contain_text("Bob")

    # Faites vos jeux: chips on the tableau. Each sees the other's stake there.
    expect(ada.get_by_test_id("teq-headline")).to_contain_text("Faites vos jeux")
    stake(ada, 50, "rouge", taps=2)
    stake(bob, 100, "noir", taps=1)
    expect(ada.locator('.teq-zone[data-chance="noir"] .teq-pill')).to_contain_text("Bob 100")
    expect(bob.locator('.teq-zone[data-chance="rouge"] .teq-pill')).to_contain_text("Ada 100")
    expect(ada.locator(".teq-clock")).to_be_visible()  # the first stake starts the clock
    ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-stakes.png"))
    bob.screenshot(path=str(SHOTS / "trente-et-quarante-narrow-stakes.png"), full_page=True)
    assert seated_stack(ada, 0) == BUY_IN  # stakes stay in the stack until the coup settles

    # Both say their stakes are set: "Rien ne va plus", and the coup is dealt at once.
    ada.locator('button[data-kind="done"]').click()
    bob.locator('button[data-kind="done"]').click()
    for page in (ada, bob):
        expect(page.locator('.teq-row[data-row="rouge"] .teq-total')).to_be_visible()
        expect(page.locator("#log")).to_contain_text("Rien ne va plus")
    noir, rouge = row_total(ada, "noir"), row_total(ada, "rouge")
    assert 31 <= noir <= 40 and 31 <= rouge <= 40
    assert (row_total(bob, "noir"), row_total(bob, "rouge")) == (noir, rouge)

    if noir == rouge == 31:
        expect(ada.get_by_test_id("teq-apres")).to_be_visible()
        ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-un-apres.png"))
        settle_un_apres(ada, bob)
        expected = {"ada": BUY_IN - 50, "bob": BUY_IN - 100}  # half back; the whole in prison
        expect(bob.get_by_test_id("teq-prison")).to_contain_text("level 1")
    elif noir == rouge:
        expected = {"ada": BUY_IN, "bob": BUY_IN}  # après: nothing moves
    else:
        rouge_wins = rouge < noir  # the lower total wins
        call = "Rouge gagne" if rouge_wins else "Rouge perd"
        expect(ada.locator("#log")).to_contain_text(call)
        expect(bob.locator("#log")).to_contain_text(call)
        won = 100 if rouge_wins else -100
        expected = {"ada": BUY_IN + won, "bob": BUY_IN - won}

    # The stacks moved as the rows say, the same on both screens.
    for page in (ada, bob):
        expect(page.locator('.seat[data-seat="0"]')).to_have_attribute(
            "data-stack", str(expected["ada"])
        )
        expect(page.locator(f'.teq-standing-list li[data-seat="{bob_seat}"]')).to_have_attribute(
            "data-stack", str(expected["bob"])
        )
    assert seated_stack(bob, 0) == expected["ada"]
    assert standing_stack(ada, bob_seat) == expected["bob"]
    expect(ada.locator("#settlement")).to_contain_text(re.compile(r"Ada"))
    ada.wait_for_timeout(1200)  # the rows are dealt in card by card
    ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-dealt.png"))
    bob.screenshot(path=str(SHOTS / "trente-et-quarante-narrow-dealt.png"), full_page=True)
    assert time.monotonic() - started < 30
