"""En og tredive in a real Chromium against the real server (docs/rules.md §5; docs/protocol.md).

Three people in three browser contexts (two laptops, one phone) sit down and press Ready, so one
match starts with all three: the cut for the deal, then a round played through the table itself:
the cutter cuts, the dealer picks a dealing pattern, each player takes the top discard or a
stock card by tapping it and discards by tapping cards in their hand (in order: the last picked
ends on top), someone knocks (``knock_min`` 1 lets the first player after a full orbit knock),
and the round's end is shown on every screen, with the bets paid into the pot. Screenshots go to
/tmp/shots/.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import sign_in

BET_UNIT = 10
BETS = 3
# a friends' table: the match is dealt once all three are seated and ready, however slowly
# their sit-downs reach the server (with "auto" a busy machine could start it with two); the
# pages make every decision, so the clock is long: a busy machine's slow clicks never let the
# server's real clock decide for someone (and sit them out) first
OPTIONS = {
    "bet_unit": BET_UNIT,
    "bets": BETS,
    "knock_min": 1,
    "turn_seconds": 120,
    "start": "when_ready",
}
NAMES = ("Ada", "Bob", "Cy")


def open_table(page: Any) -> str:
    response = page.request.post(
        "/api/tables", data={"game": "en-og-tredive", "name": "Tredive match", "options": OPTIONS}
    )
    assert response.status == 201, response.text()
    return f"/tables/{response.json()['table_id']}"


def phase(page: Any) -> str:
    return page.locator(".eot").get_attribute("data-phase") or ""


def my_turn(page: Any) -> bool:
    return (
        page.locator("#dock.is-your-turn").count() > 0
        and not page.locator("#dock.is-pending").count()
    )


def wait_for_change(page: Any, before: str) -> None:
    """After acting: wait until the table moved on (another phase, or not our turn)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if phase(page) != before or not page.locator("#dock.is-your-turn").count():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the table did not move on from {before!r}")


def play_once(page: Any, log: list[str]) -> bool:
    """Take one decision if it is this page's turn; True when it did."""
    if not my_turn(page):
        return False
    now = phase(page)
    if now == "cut":
        page.locator('.action[data-kind="cut"] button[type=submit]').click()
    elif now == "deal":
        page.locator('.action[data-kind="deal"] button', has_text="Two, then one").click()
    elif now == "draw":
        knock = page.locator('button[data-kind="knock"]')
        if knock.count():
            knock.click()
        elif "discard" not in log:
            page.locator('.eot-fan [data-take="discard"]').click()  # the top discard
        else:
            page.locator('.eot-stock [data-take="stock"]').click()
        log.append("discard" if "discard" not in log else "draw")
    elif now == "discard":
        discard(page, log)
    else:
        return False
    wait_for_change(page, now)
    return True


def discard(page: Any, log: list[str]) -> None:
    """Tap cards in the hand; the first time two of them, checking the order they go down in."""
    cards = page.locator(".eot-hand button.card")
    expect(cards.first).to_be_visible()
    button = page.get_by_test_id("eot-discard")
    if "two" not in log and cards.count() >= 4:
        first, second = (
            cards.nth(0).get_attribute("data-card"),
            cards.nth(1).get_attribute("data-card"),
        )
        cards.nth(0).click()
        cards.nth(1).click()
        expect(cards.nth(1).locator(".order-badge")).to_have_text("2")
        expect(button).to_contain_text("Discard 2")
        page.screenshot(path=str(SHOTS / f"en-og-tredive-{page_kind(page)}-discard.png"))
        button.click()
        log.append("two")
        assert first and second and first != second
        # The last one picked went down on top (the log says so on every screen).
        expect(page.locator("#log")).to_contain_text(f"({card_text(second)} on top)")
        return
    cards.nth(0).click()
    button.click()


def card_text(code: str) -> str:
    """As the page writes a card: "TH" → "10♥"."""
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return "Joker" if code == "XX" else f"{'10' if code[0] == 'T' else code[0]}{suits[code[1]]}"


def page_kind(page: Any) -> str:
    return "narrow" if page.viewport_size["width"] < 700 else "wide"


def bets_and_pot(page: Any) -> tuple[dict[int, int], int]:
    """The bets in front of each seat (chips drawn by the seat) and the pot, as the page shows."""
    bets = {}
    for seat in range(3):
        chips = page.locator(f'.seat[data-seat="{seat}"] .eot-bets')
        bets[seat] = int(chips.get_attribute("data-bets")) if chips.count() else 0
    pot = int(page.get_by_test_id("eot-pot").get_attribute("data-pot"))
    return bets, pot


@pytest.mark.browser
def test_three_players_play_a_round(live_server: BrowserServer, open_page: Any) -> None:
    pages = [open_page(WIDE), open_page(WIDE), open_page(NARROW)]
    for page, name in zip(pages, NAMES, strict=True):
        sign_in(page, name)
    url = open_table(pages[0])
    for page in pages:
        page.goto(url)

    # All three sit down and press Ready, so the first match starts with the three of them.
    for seat, page in enumerate(pages):
        page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
        expect(page.locator("#amount-dialog")).to_be_visible()
        page.fill("#amount-input", "300")
    for page in pages:
        page.click("#amount-ok")
    for seat, page in enumerate(pages):
        expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_attached()
    for page in pages:  # every seat is taken (each page saw its own) before anyone is ready
        page.locator('#presence button[data-kind="ready"]').click()
    for page in pages:
        expect(page.locator(".eot-bets")).to_have_count(3)  # everyone is in the match
        expect(page.get_by_test_id("eot-cut")).to_be_visible()  # the cut for the deal
    for seat in range(3):
        expect(pages[0].locator(f'.seat[data-seat="{seat}"] .eot-bets')).to_have_attribute(
            "data-bets", str(BETS)
        )
    pages[0].screenshot(path=str(SHOTS / "en-og-tredive-wide-cut.png"))

    # The round, through the table: cut, deal, turns, a knock, the last turns.
    log: list[str] = []
    opened = False  # the whole discard pile, listed once it has a card under the top one
    deadline = time.monotonic() + 60  # ends a round that never ends, however busy the machine
    while time.monotonic() < deadline:
        pile = pages[0].locator(".eot-pile-all")
        if not opened and pile.count() and not phase(pages[0]).startswith("between"):
            pile.locator("summary").click()
            expect(pile).to_have_attribute("open", "")
            expect(pile.locator(".eot-pile-list .card")).to_have_count(
                int(pile.locator("summary").inner_text().split()[-1])
            )
            opened = True
        # The round's end stays on the table ("Last round: …") until the next one is dealt.
        if pages[0].get_by_test_id("eot-result").count():
            if phase(pages[0]).startswith("between"):  # the moment itself, if we catch it
                pages[0].screenshot(path=str(SHOTS / "en-og-tredive-wide-round-end.png"))
            break
        if not any(play_once(page, log) for page in pages):
            pages[0].wait_for_timeout(60)
    else:
        raise AssertionError(f"the round did not end; decisions so far: {log}")

    # Every screen shows how the round ended; the bets paid went into the pot.
    ending = pages[0].get_by_test_id("eot-result").inner_text()
    for page in pages:
        expect(page.get_by_test_id("eot-result")).to_be_visible()
    bets, pot = bets_and_pot(pages[0])
    assert bets_and_pot(pages[1]) == (bets, pot)
    assert bets_and_pot(pages[2]) == (bets, pot)
    if "coup d'état" in ending:
        assert pot == 0  # the match's whole pot and every bet went to the winner
    else:
        assert "into the pot" in ending, ending
        paid = BETS * 3 - sum(bets.values())
        assert paid >= 1 and pot == paid * BET_UNIT
    pages[0].screenshot(path=str(SHOTS / "en-og-tredive-wide-round-over.png"))
    pages[2].screenshot(path=str(SHOTS / "en-og-tredive-narrow-round-over.png"), full_page=True)

    # The pile's list, opened during the round, closed when the round ended (open, it covered
    # how the round ended); in the next round it stays closed until opened again.
    assert opened, log
    expect(pages[0].locator(".eot-pile-all[open]")).to_have_count(0)
    deadline = time.monotonic() + 60
    pile = pages[0].locator(".eot-pile-all")
    while not (phase(pages[0]) in ("draw", "discard") and pile.count()):
        assert time.monotonic() < deadline, f"the next round did not get going: {log}"
        if not any(play_once(page, log) for page in pages):
            pages[0].wait_for_timeout(60)
    expect(pile).not_to_have_attribute("open", "")


@pytest.mark.browser
def test_the_discard_that_ends_a_round_is_in_the_log(
    live_server: BrowserServer, open_page: Any
) -> None:
    """A discard can end the round at once (the discarder makes 31, or the next player holds
    it): the table's log still says who discarded what, before how the round ended. The
    page's own module says the server's events (docs/protocol.md §6.6) in words."""
    page = open_page(WIDE)
    page.goto("/")
    lines = page.evaluate(
        """async () => {
          const game = (await import("/static/js/games/en-og-tredive.js")).default;
          const { cardText } = await import("/static/js/cards.js");
          const ctx = { seatName: (n) => ["Ada", "Bob", "Cy"][n], cardText };
          const events = [
            { kind: "discard", seat: 1, cards: ["5C", "JD"], holding: 3 },
            { kind: "round_end", ending: "31", winner: 1, owed: [0, 2], out: [] },
          ];
          return events.flatMap((e) => [game.describeEvent(e, ctx)].flat());
        }"""
    )
    discards = [line for line in lines if "discards" in line]
    assert len(discards) == 1 and discards[0].startswith("Bob discards"), lines
    assert discards[0].endswith("on top).") and "5" in discards[0], lines
