"""The host's page, recovery links and private tables in a real Chromium (README "Hosting").

The host opens /admin: a wrong token is refused in words, the right one shows the audit
(balanced); the host grants chips to a player (the bankroll in the list changes), pauses that
player's table with a reason (the player's table page says so), resumes it and closes it (the
stack goes home). A player makes a recovery link and a second browser opens it and is that
player. A private table shows its invite link to its opener. Screenshots: /tmp/shots/admin-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ADMIN_TOKEN,
    NARROW,
    SHOTS,
    WIDE,
    BrowserServer,
)
from tests.browser.steps import choose_name, sit
from tests.browser.test_trianta_ena_browser import FAST

BOB = "Bob O'Neil-Smith"


def shot(page: Any, name: str, full_page: bool = True) -> None:
    page.screenshot(path=str(SHOTS / f"admin-{name}.png"), full_page=full_page)


def me(page: Any) -> dict[str, Any]:
    response = page.request.get("/api/me")
    assert response.ok, response.text()
    data: dict[str, Any] = response.json()
    return data


def open_table(page: Any, name: str, private: bool = False) -> dict[str, Any]:
    """Open a Trianta Ena table as the page's player (through the API, with its cookie)."""
    body = {"game": "trianta-ena", "name": name, "options": FAST, "private": private}
    response = page.request.post("/api/tables", data=body)
    assert response.status == 201, response.text()
    data: dict[str, Any] = response.json()
    return data


def unlock(page: Any, token: str = ADMIN_TOKEN) -> None:
    page.goto("/admin")
    page.fill("#login-token", token)
    page.click("#login-submit")
    expect(page.locator("#admin-main")).to_be_visible()
    expect(page.locator("#audit-verdict")).to_be_visible()


def card(page: Any, table_id: str) -> Any:
    return page.locator(f'.admin-table-card[data-table-id="{table_id}"]')


def bankroll_cell(page: Any, player_id: str) -> Any:
    return page.locator(f'#admin-players tr[data-player-id="{player_id}"] [data-testid="bankroll"]')


def chips_text(n: int) -> str:
    return f"{n:,}"


# --------------------------------------------------------------------------- the host's page


@pytest.mark.browser
def test_the_host_refuses_a_wrong_token_then_grants_pauses_resumes_and_closes(
    live_server: BrowserServer, open_page: Any
) -> None:
    # A player sits at a table of their own.
    ada = open_page(WIDE)
    choose_name(ada, "Ada Host-test")
    ada_id = me(ada)["player_id"]
    table = open_table(ada, "Host night")
    table_id = table["table_id"]
    start = me(ada)["bankroll"]
    ada.goto(f"/tables/{table_id}")
    sit(ada, 0)
    before = me(ada)["bankroll"]  # after the buy-in

    host = open_page(WIDE)
    # A wrong token: refused, in words, and nothing of the host's page shows.
    host.goto("/admin")
    expect(host.locator("#login-panel")).to_be_visible()
    host.fill("#login-token", "not-the-token")
    host.click("#login-submit")
    expect(host.locator("#login-error")).to_contain_text("refused that token")
    expect(host.locator("#login-error")).to_contain_text("ADMIN_TOKEN")
    expect(host.locator("#admin-main")).to_be_hidden()
    shot(host, "wide-wrong-token", full_page=False)

    # The right token: the audit, balanced, with its figures.
    unlock(host)
    verdict = host.locator("#audit-verdict")
    expect(verdict).to_have_attribute("data-balanced", "true")
    expect(verdict).to_contain_text("Balanced")
    expect(host.locator("#audit")).to_contain_text("Chips granted")
    expect(host.locator("#audit")).to_contain_text("Bankrolls")
    expect(bankroll_cell(host, ada_id)).to_have_text(chips_text(before))
    expect(card(host, table_id)).to_contain_text("Ada Host-test")

    # Grant chips with a reason: the bankroll in the list changes, the log says so.
    host.select_option("#chips-player", ada_id)
    host.fill("#chips-amount", "250")
    host.fill("#chips-reason", "welcome gift")
    host.click("#chips-grant")
    expect(bankroll_cell(host, ada_id)).to_have_text(chips_text(before + 250))
    expect(host.locator("#admin-actions li").first).to_contain_text(
        "Granted 250 chips to Ada Host-test — welcome gift"
    )
    expect(verdict).to_have_attribute("data-balanced", "true")

    # Take some back: a take larger than the bankroll is refused with the server's words.
    host.select_option("#chips-player", ada_id)
    host.fill("#chips-amount", str(10**9))
    host.fill("#chips-reason", "too much")
    host.click("#chips-take")
    expect(host.locator("#chips-error")).to_contain_text("does not hold that many chips")
    expect(bankroll_cell(host, ada_id)).to_have_text(chips_text(before + 250))

    # Pause with a reason: the player's table page shows it.
    card(host, table_id).locator(".admin-reason").fill("Dinner break <b>soon</b>")
    card(host, table_id).locator('[data-act="pause"]').click()
    expect(card(host, table_id).locator(".admin-paused")).to_contain_text(
        "Paused — Dinner break <b>soon</b>"
    )
    banner = ada.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Paused by the host")
    expect(banner).to_contain_text("Dinner break <b>soon</b>")  # as text, never markup
    assert ada.locator("#banner b").count() == 0
    shot(ada, "wide-player-paused", full_page=False)
    host.evaluate("window.scrollTo(0, 0)")
    shot(host, "wide-top", full_page=False)
    shot(host, "wide")

    # Resume: the banner goes.
    card(host, table_id).locator('[data-act="resume"]').click()
    expect(card(host, table_id).locator(".admin-paused")).to_have_count(0)
    expect(banner).not_to_contain_text("Paused")

    # Close (confirmed, with a reason): the table leaves the list, the stack goes home.
    card(host, table_id).locator('[data-act="close"]').click()
    card(host, table_id).locator(".admin-close input").fill("Closing time")
    shot(host, "wide-close-confirm", full_page=False)
    card(host, table_id).locator('[data-act="close-confirm"]').click()
    expect(card(host, table_id)).to_have_count(0)
    expect(host.locator("#admin-actions li").first).to_contain_text(
        "Closed \u201cHost night\u201d — Closing time"
    )
    expect(bankroll_cell(host, ada_id)).to_have_text(chips_text(start + 250))
    expect(verdict).to_have_attribute("data-balanced", "true")
    expect(ada.locator("#banner")).to_contain_text(re.compile("clos", re.IGNORECASE))

    # Lock: the token is forgotten by this tab.
    host.click("#lock")
    expect(host.locator("#login-panel")).to_be_visible()
    host.reload()
    expect(host.locator("#login-panel")).to_be_visible()
    expect(host.locator("#admin-main")).to_be_hidden()


@pytest.mark.browser
def test_the_host_page_on_a_phone_bots_seats_house_and_settings(
    live_server: BrowserServer, open_page: Any
) -> None:
    bob = open_page(WIDE)
    choose_name(bob, BOB)
    bob_id = me(bob)["player_id"]
    table = open_table(bob, "Back room", private=True)
    table_id = table["table_id"]
    start = me(bob)["bankroll"]
    bob.goto(table["invite_path"])
    sit(bob, 0)

    host = open_page(NARROW)
    host.goto("/admin")
    shot(host, "narrow-login", full_page=False)
    unlock(host)
    # The token survives a reload (sessionStorage), not a new tab's context.
    host.reload()
    expect(host.locator("#admin-main")).to_be_visible()

    tcard = card(host, table_id)
    expect(tcard).to_contain_text("Back room")
    expect(tcard.locator(".pill-private")).to_be_visible()
    link = tcard.locator(".invite-link")
    expect(link).to_have_value(re.compile(rf"^http://127\.0\.0\.1:\d+/tables/{table_id}\?invite="))
    assert host.locator("#admin-main img, #admin-main i").count() == 0
    expect(host.locator(f'tr[data-player-id="{bob_id}"] .player-name')).to_have_text(BOB)

    # Paused (so no hand starts), add a bot, then remove it.
    tcard.locator(".admin-reason").fill("Seating changes")
    tcard.locator('[data-act="pause"]').click()
    expect(tcard.locator(".admin-paused")).to_contain_text("Seating changes")
    tcard.locator('[data-act="bot"]').click()
    bot_seat = tcard.locator(".admin-seat", has_text="(bot)")
    expect(bot_seat).to_have_count(1)
    shot(host, "narrow")
    bot_seat.locator("button").click()
    expect(tcard.locator(".admin-seat", has_text="(bot)")).to_have_count(0)
    expect(host.locator("#admin-actions li").first).to_contain_text("Stood the bot in seat")

    # Remove the player's seat: the stack goes back to the bankroll.
    seat = tcard.locator('.admin-seat[data-seat="0"]')
    expect(seat).to_contain_text(BOB)
    seat.locator("button").click()
    expect(tcard.locator(".admin-seat")).to_have_count(0)
    expect(host.locator(f'tr[data-player-id="{bob_id}"] [data-testid="bankroll"]')).to_have_text(
        chips_text(start)
    )
    expect(host.locator("#admin-actions")).to_contain_text(f"Removed {BOB} from seat 0")
    tcard.locator('[data-act="resume"]').click()
    expect(tcard.locator(".admin-paused")).to_have_count(0)

    # Fund the house; set the starting bankroll (and put it back).
    house_before = int(host.locator("#house-balance").inner_text().replace(",", ""))
    host.fill("#house-amount", "5000")
    host.fill("#house-reason", "for the weekend")
    host.locator("#house-form button[type=submit]").click()
    expect(host.locator("#house-balance")).to_have_text(chips_text(house_before + 5000))
    expect(host.locator("#admin-actions li").first).to_contain_text(
        "Funded the house with 5,000 chips — for the weekend"
    )
    host.fill("#settings-bankroll", "1500")
    host.locator("#settings-form button[type=submit]").click()
    expect(host.locator("#admin-actions li").first).to_contain_text(
        "Set the starting bankroll to 1,500 chips"
    )
    host.fill("#settings-bankroll", "1000")
    host.locator("#settings-form button[type=submit]").click()
    expect(host.locator("#admin-actions li").first).to_contain_text(
        "Set the starting bankroll to 1,000 chips"
    )
    expect(host.locator("#audit-verdict")).to_have_attribute("data-balanced", "true")
    shot(host, "narrow-after")

    # Nothing overflows the phone's width.
    overflow = host.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the host's page is {overflow}px wider than the phone"


# --------------------------------------------------------------------------- recovery links


@pytest.mark.browser
def test_a_recovery_link_carries_the_player_to_another_device(
    live_server: BrowserServer, open_page: Any
) -> None:
    cleo = open_page(WIDE)
    choose_name(cleo, "Cleo Recovers")
    cleo.click("#recovery-make")
    link_box = cleo.locator("#recovery-link")
    expect(link_box).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/recover\?code=\S+$"))
    expect(cleo.locator("#recovery-result")).to_contain_text(
        "Open this link on your other device to continue as Cleo Recovers"
    )
    expect(cleo.locator("#recovery-result")).to_contain_text("Making a new one cancels the old")
    code = cleo.locator("#recovery-code").input_value()
    first_link = link_box.input_value()
    assert code and first_link.endswith(code)
    shot(cleo, "wide-lobby-recovery")

    # Another device (its own cookies) opens the link: it is Cleo, with Cleo's bankroll.
    phone = open_page(NARROW)
    phone.goto(first_link)
    # opening the link signs nobody in: the page asks first
    expect(phone.locator("#recover-title")).to_have_text("Sign in as Cleo Recovers?")
    expect(phone.locator("#recover-whoami")).to_contain_text("not signed in")
    phone.click("#recover-confirm")
    expect(phone).to_have_url(re.compile(r"/$"))
    expect(phone.locator("#signin-slot")).to_contain_text("Signed in as Cleo Recovers")
    expect(phone.get_by_test_id("whoami-name")).to_have_text("Cleo Recovers")
    assert me(phone)["player_id"] == me(cleo)["player_id"]
    shot(phone, "narrow-lobby-recovered")
    phone.click("#recovery-make")  # the control on a phone (this link replaces Cleo's first)
    expect(phone.locator("#recovery-link")).to_have_value(re.compile(r"/recover\?code="))
    phone.locator("#recovery").scroll_into_view_if_needed()
    shot(phone, "narrow-lobby-recovery", full_page=False)

    # A new link cancels the old one: a third device is told so in the server's words.
    cleo.click("#recovery-make")
    expect(cleo.locator("#recovery-link")).not_to_have_value(first_link)
    third = open_page(NARROW)
    third.goto(first_link)
    expect(third.locator("#recover-message")).to_contain_text("not valid")
    expect(third.locator("#recover-form")).to_be_visible()
    expect(third.locator("#recover-whoami")).to_contain_text("not signed in")
    shot(third, "narrow-recover-invalid", full_page=False)
    # The new code, typed into the form, works.
    third.fill("#recover-code", cleo.locator("#recovery-code").input_value())
    third.click("#recover-submit")
    expect(third.locator("#signin-slot")).to_contain_text("Signed in as Cleo Recovers")


# --------------------------------------------------------------------------- private tables


@pytest.mark.browser
def test_a_private_table_shows_its_invite_link_to_its_opener(
    live_server: BrowserServer, open_page: Any
) -> None:
    dora = open_page(WIDE)
    choose_name(dora, "Dora Opens")
    dora.select_option("#open-game", "trianta-ena")
    dora.fill("#open-name", "Secret game")
    dora.check("#open-private")
    dora.click("#open-submit")
    expect(dora).to_have_url(re.compile(r"/tables/\w+\?invite="))
    box = dora.locator("#invite-box")
    expect(box).to_be_visible()
    link = box.locator("input.invite-link")
    expect(link).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/tables/\w+\?invite=\S+$"))
    expect(box.get_by_role("button", name="Copy")).to_be_visible()
    shot(dora, "wide-private-invite", full_page=False)

    # The invite link lets a guest in; the bare table address does not.
    invite = link.input_value()
    guest = open_page(NARROW)
    choose_name(guest, "Guest Invited")
    bare = guest.request.get(invite.split("?")[0])
    assert bare.status == 404
    guest.goto(invite)
    expect(guest.locator("#table-name")).to_have_text("Secret game")


@pytest.mark.browser
def test_the_token_waits_for_the_pages_script_and_never_goes_into_a_url(
    chromium: Any, live_server: BrowserServer
) -> None:
    """Before the page's script handles the form (here: never, scripts off) its button is
    disabled: pressing Enter in the token field, or clicking, sends nothing and reloads
    nothing, and the token is no field a browser could put into the page's address."""
    context = chromium.new_context(
        viewport=WIDE, base_url=live_server.url, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto("/admin")
        expect(page.locator("#login-submit")).to_be_disabled()
        page.fill("#login-token", ADMIN_TOKEN)
        page.press("#login-token", "Enter")
        page.locator("#login-submit").click(force=True)
        assert ADMIN_TOKEN not in page.url, page.url
        assert page.url.endswith("/admin"), page.url
        assert page.locator("#login-token").get_attribute("name") is None
    finally:
        context.close()
    # with its script, the page enables the button once it handles the form
    context = chromium.new_context(viewport=WIDE, base_url=live_server.url)
    try:
        page = context.new_page()
        page.goto("/admin")
        expect(page.locator("#login-submit")).to_be_enabled()
    finally:
        context.close()
