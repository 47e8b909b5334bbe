"""Trianta Ena in a real Chromium against the real server (docs/rules.md §1; docs/protocol.md).

Two players choose names in the lobby, one opens a table, both sit down (the first becomes the
banker), and they play a round to its settlement through the controls generated from ``legal``.
Also: the controls on a phone-sized screen, and a hostile name shown as text.
Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import as_host, choose_name, sit

HOSTILE = "<img src=x onerror=alert(1)>"
FAST = {"turn_seconds": 15, "bet_seconds": 15}


# --------------------------------------------------------------------------- steps


def bet(page: Any, amount: int) -> None:
    """Use the generated bet control: type the amount, press "Bet N"."""
    form = page.locator('.action[data-kind="bet"]')
    expect(form).to_be_visible()
    form.locator("input[type=number]").fill(str(amount))
    submit = form.locator("button[type=submit]")
    expect(submit).to_have_text(f"Bet {amount}")
    submit.click()


def stacks(page: Any) -> dict[int, int]:
    """Every seated player's stack, as the seats show it."""
    found = page.evaluate(
        "() => [...document.querySelectorAll('.seat[data-stack]')]"
        ".filter((s) => s.dataset.stack !== '').map((s) => [s.dataset.seat, s.dataset.stack])"
    )
    return {int(seat): int(chips) for seat, chips in found}


def mark_log_read(page: Any) -> None:
    """Mark the log's lines so far, for :func:`hand_over_since` to find only newer ones."""
    page.evaluate(
        "() => document.querySelectorAll('#log li').forEach((li) => li.dataset.seen = '1')"
    )


def hand_over_since(page: Any) -> Any:
    """A "Hand over" line logged since :func:`mark_log_read`."""
    return page.locator("#log li:not([data-seen])", has_text="Hand over")


def bet_until_my_turn(page: Any, amount: int, tries: int = 6) -> dict[int, int]:
    """Bet, and bet again in the next hand while a hand ends before the player's turn.

    docs/rules.md §1: a player's natural 31, or the banker's, settles the hand at once, so a hand
    a test means to play by hand may end without a turn; the test plays the next one. Returns
    the stacks as they stood just before the bet of the hand that reached the turn.
    """
    stand = page.locator('button[data-kind="stand"]')
    for _ in range(tries):
        mark_log_read(page)
        before = stacks(page)
        bet(page, amount)
        expect(stand.or_(hand_over_since(page)).first).to_be_visible()
        if stand.is_visible():
            return before
    raise AssertionError(f"no turn in {tries} hands")


def play_turn(page: Any, seat: int) -> None:
    """Hit once below 20, then stand, until the round is settled."""
    expect(page.locator('button[data-kind="stand"]')).to_be_visible()
    mark_log_read(page)  # a settlement of an earlier hand may still be on show
    value = page.locator(f'.seat[data-seat="{seat}"] .hand-value').first.text_content()
    hit_once = value is not None and int(value) < 20
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not hand_over_since(page).count():
        button = page.locator(f'button[data-kind="{"hit" if hit_once else "stand"}"]')
        if not button.count():  # on 31 only stand is offered (docs/rules.md §1.5)
            hit_once = False
        try:  # the bar is drawn anew at every state: the button may be gone by now
            if button.is_visible() and button.is_enabled(timeout=500):
                button.click(timeout=500)
                hit_once = False
        except PlaywrightTimeout:
            pass
        page.wait_for_timeout(100)
    expect(page.locator("#settlement")).to_be_visible()


def stack(page: Any, seat: int) -> int:
    return int(page.locator(f'.seat[data-seat="{seat}"]').get_attribute("data-stack"))


def last_hand(page: Any) -> dict[int, int]:
    """What each seat won or lost in the last hand, as the settlement bar shows it."""
    items = page.locator("#settlement li")
    return {
        int(items.nth(i).get_attribute("data-seat")): int(items.nth(i).get_attribute("data-delta"))
        for i in range(items.count())
    }


def open_table_by_api(page: Any, name: str, bot_first: bool = False) -> str:
    """Open a Trianta Ena table with the page's session; a bot may take the bank first."""
    response = page.request.post(
        "/api/tables", data={"game": "trianta-ena", "name": name, "options": FAST}
    )
    assert response.status == 201, response.text()
    table_id = response.json()["table_id"]
    if bot_first:
        added = page.request.post(f"/api/tables/{table_id}/bots", data={})
        assert added.status == 201, added.text()
    return f"/tables/{table_id}"


def banker_and_player(open_page: Any, banker: str, player: str, table: str) -> tuple[Any, Any]:
    """Two people in wide windows at a new table: ``banker`` in seat 0 (the first to sit
    takes the bank), ``player`` in seat 1."""
    pages = open_page(WIDE), open_page(WIDE)
    for page, name in zip(pages, (banker, player), strict=True):
        choose_name(page, name)
    path = open_table_by_api(pages[0], table)
    for seat, page in enumerate(pages):
        page.goto(path)
        sit(page, seat)
    return pages


# --------------------------------------------------------------------------- tests


@pytest.mark.browser
def test_two_players_play_a_round_to_its_settlement(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    bob = open_page(WIDE)
    choose_name(ada, "Ada")
    choose_name(bob, "Bob")
    ada.screenshot(path=str(SHOTS / "wide-lobby.png"), full_page=True)

    # Ada opens a table through the options form generated from /api/games.
    ada.select_option("#open-game", "trianta-ena")
    ada.fill("#open-name", "Friday round")
    ada.fill("#opt-turn_seconds", str(FAST["turn_seconds"]))
    ada.fill("#opt-bet_seconds", str(FAST["bet_seconds"]))
    ada.select_option("#opt-start", '"auto"')  # deal as soon as two sit (the page's default waits)
    ada.click("#open-submit")
    ada.wait_for_url(re.compile(r"/tables/\w+$"))

    # Bob finds it in the lobby's list (refreshed every few seconds) and joins.
    bob.goto("/")
    bob.get_by_role("link", name="Join Friday round", exact=True).click()
    bob.wait_for_url(ada.url)

    sit(ada, 0)  # the first to sit is the banker (3 × buy-in)
    expect(ada.locator('.seat[data-seat="0"] .badge-banker')).to_be_visible()
    sit(bob, 1)
    assert stack(bob, 0) + stack(bob, 1) == 400

    # Only the table's opener (and the host) may seat a bot: nobody else is offered it.
    expect(ada.locator("#btn-bot")).to_be_visible()
    expect(bob.locator("#btn-bot")).to_be_hidden()

    # The round: Bob bets, then hits or stands; Ada (the banker) has no decisions.
    expect(bob.locator("#turn-banner")).to_have_text("Your turn")
    before = bet_until_my_turn(bob, 10)
    # stand is always offered (hit is not on 31, where the player stands: docs/rules.md §1.5)
    expect(bob.locator('button[data-kind="stand"]')).to_be_visible()
    bob.screenshot(path=str(SHOTS / "wide-turn.png"))
    play_turn(bob, 1)

    # The settlement is shown on both screens, and the chips moved from one to the other.
    expect(ada.locator("#settlement")).to_be_visible()
    result = last_hand(bob)
    assert last_hand(ada) == result
    assert result[1] in (10, -10)
    assert result[0] == -result[1]
    assert stack(bob, 1) == before[1] + result[1]
    assert stack(bob, 0) == before[0] + result[0]
    assert stack(ada, 0) + stack(ada, 1) == 400
    expect(bob.locator("#log")).to_contain_text("Hand over")
    bob.screenshot(path=str(SHOTS / "wide-settled.png"))
    ada.screenshot(path=str(SHOTS / "wide-banker.png"))


@pytest.mark.browser
def test_controls_fit_and_work_on_a_phone(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(NARROW)
    choose_name(page, "Pia")
    page.screenshot(path=str(SHOTS / "narrow-lobby.png"), full_page=True)
    page.goto(open_table_by_api(page, "Phone", bot_first=True))  # the bot holds the bank
    sit(page, 1)

    submit = page.locator('.action[data-kind="bet"] button[type=submit]')
    expect(submit).to_be_visible()
    expect(submit).to_be_in_viewport()
    expect(page.locator('.action[data-kind="bet"] input[type=number]')).to_be_in_viewport()
    dock = page.locator("#dock").bounding_box()
    assert dock is not None and dock["y"] + dock["height"] <= NARROW["height"] + 1
    page.screenshot(path=str(SHOTS / "narrow-turn.png"))

    # The quick buttons and the slider drive the amount; the button says what it will send.
    page.locator('.action[data-kind="bet"] .quick button', has_text="Min").click()
    expect(submit).to_have_text("Bet 1")
    bet_until_my_turn(page, 5)
    stand = page.locator('button[data-kind="stand"]')
    expect(stand).to_be_in_viewport()
    page.screenshot(path=str(SHOTS / "narrow-hit-stand.png"))
    play_turn(page, 1)
    assert last_hand(page)[1] in (5, -5)
    page.screenshot(path=str(SHOTS / "narrow-settled.png"), full_page=True)


@pytest.mark.browser
def test_a_hostile_name_shows_as_text(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(WIDE)
    alerts: list[str] = []
    page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    response = page.request.post("/api/session", data={"name": "Mallory"})
    assert response.status == 200
    # The API refuses markup in names; put one in the database directly, as an older
    # server or another tool might have, to prove the page never treats a name as markup.
    with sqlite3.connect(live_server.db_path, timeout=10) as db:
        db.execute(
            "UPDATE players SET name = ? WHERE id = ?", (HOSTILE, response.json()["player_id"])
        )

    page.goto(open_table_by_api(page, "Hostile", bot_first=True))
    expect(page.locator("#whoami [data-testid=whoami-name]")).to_have_text(HOSTILE)
    sit(page, 1)
    name = page.locator('.seat[data-seat="1"] .seat-name')
    expect(name).to_have_text(HOSTILE)
    expect(page.locator("#log")).to_contain_text(f"{HOSTILE} sat down")
    assert page.locator("#table-page img").count() == 0
    page.wait_for_timeout(300)
    assert alerts == []
    page.screenshot(path=str(SHOTS / "wide-hostile-name.png"))


@pytest.mark.browser
def test_a_new_banker_is_not_shown_the_last_rounds_player_hand_as_the_bank(
    live_server: BrowserServer, open_page: Any
) -> None:
    """docs/rules.md §1: the bank changes hands between rounds. Until the next deal the last round's
    cards stay at the seats that played them; the centre shows the new banker without cards
    (not their player hand as if it were the bank's), the round's results stay listed, and the
    log tells the round's result before the offer that follows it."""
    ann, ben = banker_and_player(open_page, "Ann", "Ben", "Bank change")

    bet_until_my_turn(ben, 10)
    ann.click("#btn-leave")  # the banker leaves once the round is over: the bank ends
    ben.locator('button[data-kind="stand"]').click()
    take = ben.locator('button[data-kind="accept_bank"]')
    expect(take).to_be_visible()
    expect(ben.locator("#settlement")).to_be_visible()
    note = ben.locator('.seat[data-seat="1"]').inner_text()
    assert "Won 10" in note or "Lost 10" in note

    take.click()
    expect(ben.locator('.seat[data-seat="1"] .badge-banker')).to_be_visible()
    centre = ben.locator(".bank-area")
    expect(centre).to_contain_text("You")
    expect(centre.locator(".card")).to_have_count(0)
    expect(ben.locator(".round-result")).to_contain_text("You:")
    log = ben.locator("#log li").all_inner_texts()  # newest first
    offered = next(i for i, line in enumerate(log) if "The bank is offered to Ben" in line)
    result = next(i for i, line in enumerate(log) if re.search(r"Ben: (Won|Lost) 10", line))
    assert offered < result, log
    ben.screenshot(path=str(SHOTS / "wide-new-banker.png"))


def centre_under_seats(page: Any) -> list[str]:
    """The pieces of the table's centre (as far as its box shows them) that a seat box covers."""
    return page.evaluate(
        """() => {
          const centre = document.querySelector('#center');
          const box = centre.getBoundingClientRect();
          const seats = [...document.querySelectorAll('#seats .seat')]
            .map((s) => [s.dataset.seat, s.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
          const found = [];
          const parts = 'p, li, .card, .settlement, .settlement-note, a';
          for (const el of centre.querySelectorAll(parts)) {
            const r = el.getBoundingClientRect();
            const top = Math.max(r.top, box.top), bottom = Math.min(r.bottom, box.bottom);
            if (r.width === 0 || bottom <= top) continue;
            for (const [seat, s] of seats) {
              if (r.left < s.right && s.left < r.right && top < s.bottom && s.top < bottom) {
                found.push(`${el.textContent.trim().slice(0, 40)} under seat ${seat}`);
              }
            }
          }
          return found;
        }"""
    )


@pytest.mark.browser
def test_a_closed_table_says_so_stops_and_points_to_the_lobby(
    live_server: BrowserServer, open_page: Any
) -> None:
    """The host closes a table: its page says so with the host's reason, does not try to
    reconnect, offers no seat, bot or action any more, and links back to the lobby."""
    ann = open_page(WIDE)
    cy = open_page(NARROW)
    choose_name(ann, "Anne")
    choose_name(cy, "Cyd")
    path = open_table_by_api(ann, "Closing", bot_first=True)
    ann.goto(path)
    cy.goto(path)  # Cyd watches (signed in, not seated)
    sit(ann, 1)
    expect(ann.locator('.action[data-kind="bet"]')).to_be_visible()
    expect(cy.locator(".btn-sit").first).to_be_visible()

    table_id = path.rsplit("/", 1)[1]
    as_host(ann, f"/api/admin/tables/{table_id}/close", {"reason": "Closing time"})

    for page in (ann, cy):
        banner = page.locator("#banner")
        expect(banner).to_contain_text("This table is closed")
        expect(banner).to_contain_text("Closing time")
        expect(banner.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    ann.wait_for_timeout(2500)  # long enough for a reconnection attempt to have shown
    for page in (ann, cy):
        expect(page.locator("#conn")).to_have_text("Table closed")
        expect(page.locator("#turn-banner")).to_have_text("")
        expect(page.locator("#table-page")).not_to_contain_text("Reconnecting")
        expect(page.locator("#table-page")).not_to_contain_text("Pick a free seat")
        expect(page.locator("#btn-bot")).to_be_hidden()
        expect(page.locator("#btn-leave")).to_be_hidden()
        expect(page.locator(".btn-sit")).to_have_count(0)
        expect(page.locator("#controls .action")).to_have_count(0)
        expect(page.locator("#toasts .toast")).to_have_count(0)
    ann.screenshot(path=str(SHOTS / "wide-closed.png"))
    cy.screenshot(path=str(SHOTS / "narrow-closed.png"))
    cy.locator("#banner").get_by_role("link", name="Back to the lobby").click()
    cy.wait_for_url(re.compile(r"/$"))


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "narrow"])
def test_a_bet_out_of_range_is_refused_in_words_and_the_row_keeps_its_buttons(
    live_server: BrowserServer, open_page: Any, viewport: dict[str, int]
) -> None:
    page = open_page(viewport)
    choose_name(page, "Rangy")
    page.goto(open_table_by_api(page, "Range", bot_first=True))
    sit(page, 1)  # a stack of 100: bets from 1 (min_bet) to 100

    form = page.locator('.action[data-kind="bet"]')
    amount = form.locator("input[type=number]")
    submit = form.locator("button[type=submit]")
    expect(submit).to_be_visible()
    amount.fill("100000")
    expect(submit).to_have_text("Bet")
    expect(submit).to_be_disabled()
    expect(form.locator(".action-error")).to_have_text("Bet from 1 to 100 chips (a whole number).")
    expect(amount).to_have_attribute("aria-invalid", "true")
    fold = page.locator('button[data-kind="fold"]')
    expect(fold).to_be_in_viewport()
    expect(submit).to_be_in_viewport()
    # Nothing in the controls' row is pushed outside it.
    row = page.locator("#controls").bounding_box()
    assert row is not None
    for button in (submit, fold):
        box = button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= row["x"] + row["width"] + 1
    suffix = "wide" if viewport == WIDE else "narrow"
    page.screenshot(path=str(SHOTS / f"{suffix}-bet-out-of-range.png"))

    amount.fill("0")
    expect(submit).to_be_disabled()
    amount.fill("7")
    expect(submit).to_have_text("Bet 7")
    expect(submit).to_be_enabled()
    expect(form.locator(".action-error")).to_have_text("")
    expect(amount).not_to_have_attribute("aria-invalid", "true")
    submit.click()
    expect(page.locator("#log")).to_contain_text("Rangy bets 7.")  # accepted (a natural may end it)


@pytest.mark.browser
def test_a_banker_who_leaves_is_in_the_settlement_and_the_centre_stays_clear(
    live_server: BrowserServer, open_page: Any
) -> None:
    """Trianta Ena has neither pot nor house: when the banker leaves with the round's end, the
    settlement names them with what they won or lost, not "to/from the pot or house". With four
    hands settled (the list wraps) the centre's text stays clear of the seat boxes."""
    dee, eve = banker_and_player(open_page, "Dee", "Eve", "Leaving")
    for _ in range(2):  # two bots, dealt in from the next round
        added = dee.request.post(f"/api/tables/{dee.url.rsplit('/', 1)[1]}/bots", data={})
        assert added.status == 201, added.text()
    bet_until_my_turn(eve, 10)
    eve.locator('button[data-kind="stand"]').click()
    expect(eve.locator("#settlement")).to_be_visible()

    # The next round, with the bots: the banker leaves as it ends.
    bet_until_my_turn(eve, 10)
    dee.click("#btn-leave")
    eve.locator('button[data-kind="stand"]').click()
    settlement = eve.locator("#settlement")
    expect(settlement.locator('li[data-left="yes"]')).to_contain_text("Dee (left)")
    result = last_hand(eve)
    assert set(result) == {0, 1, 2, 3}, result
    assert sum(result.values()) == 0, result  # chips only moved between the four
    expect(settlement).not_to_contain_text("pot or house")
    expect(settlement.locator(".settlement-note")).to_have_count(0)

    for size in (WIDE, NARROW):
        eve.set_viewport_size(size)
        eve.wait_for_timeout(200)
        assert centre_under_seats(eve) == [], size
    eve.set_viewport_size(WIDE)
    eve.wait_for_timeout(200)
    eve.screenshot(path=str(SHOTS / "wide-banker-left.png"))


@pytest.mark.browser
def test_a_banker_who_leaves_even_is_listed_with_nothing_won_or_lost(
    live_server: BrowserServer, open_page: Any
) -> None:
    """The banker leaves with a round in which no chip moved (the only player folds): the
    settlement still names them, "Gus (left) ±0", beside the player's ±0."""
    gus, hal = banker_and_player(open_page, "Gus", "Hal", "Even")
    expect(hal.locator('button[data-kind="fold"]')).to_be_visible()
    gus.click("#btn-leave")
    expect(gus.locator("#log")).to_contain_text("You asked to leave")
    hal.locator('button[data-kind="fold"]').click()
    settlement = hal.locator("#settlement")
    expect(settlement.locator('li[data-left="yes"]')).to_have_text("Gus (left) ±0")
    assert last_hand(hal) == {0: 0, 1: 0}
    hal.screenshot(path=str(SHOTS / "wide-banker-left-even.png"))
    hal.set_viewport_size(NARROW)
    hal.wait_for_timeout(200)
    hal.screenshot(path=str(SHOTS / "narrow-banker-left-even.png"))


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "narrow"])
def test_a_tall_centre_keeps_clear_of_the_seat_boxes(
    live_server: BrowserServer, open_page: Any, viewport: dict[str, int]
) -> None:
    """However much the centre holds (a settlement over two lines, a long round's results), it
    never runs under a seat box: on a laptop it fits between the seats (scrolling if need be)."""
    page = open_page(viewport)
    choose_name(page, "Gus")
    page.goto(open_table_by_api(page, "Tall", bot_first=True))
    sit(page, 1)
    expect(page.locator('.action[data-kind="bet"]')).to_be_visible()  # a quiet betting window
    assert centre_under_seats(page) == []
    page.evaluate(
        """() => {
          const centre = document.querySelector('#game-center');
          for (let i = 1; i <= 8; i++) {
            const line = document.createElement('p');
            line.textContent = `Line ${i} of a round with a great deal to say about itself`;
            centre.append(line);
          }
          window.dispatchEvent(new Event('resize'));
        }"""
    )
    page.wait_for_timeout(300)
    assert centre_under_seats(page) == []
    suffix = "wide" if viewport == WIDE else "narrow"
    page.screenshot(path=str(SHOTS / f"{suffix}-tall-centre.png"))


@pytest.mark.browser
def test_the_lobby_asks_nobody_who_they_are_before_a_name_is_chosen(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/me") else None)
    page.goto("/")
    expect(page.locator("#signin-name")).to_be_visible()
    expect(page.locator("#tables-updated")).to_contain_text("updated")
    assert problems == [] and asked == []
    page.fill("#signin-name", "Fay")
    page.click("#signin-submit")
    expect(page.locator("#signin-slot")).to_contain_text("Signed in as Fay")
    page.reload()  # with the cookie, the lobby asks who this is, and knows
    expect(page.locator("#signin-slot")).to_contain_text("Signed in as Fay")
    assert len(asked) == 1 and problems == []
