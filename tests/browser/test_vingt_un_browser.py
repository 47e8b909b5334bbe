"""Vingt-un in a real Chromium against the real server (docs/rules.md §3; docs/protocol.md).

A bot deals; three people play in three browsers (one on a phone-sized screen). The table's
shuffles are seeded (the test server's ``POST /api/admin/tables/{id}/seed``): the seeded pack deals
Vera a pair in the first hand, however many of the three are seated when it is dealt, so no hands
are played waiting for one. That player splits from the browser: the seat shows two hands side by
side, each with its stake, and the others see both hands' first cards face down. Both hands are
played and the hand is settled. Screenshots go to /tmp/shots/vingt-un-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import as_host, ready_to_press, sit

OPTIONS = {"turn_seconds": 30, "min_bet": 1, "max_bet": 5, "natural_takes_deal": False}
SEED = "000000eb" * 8
"""With this seed the first hand deals seat 1 (Vera) a pair, alone or beside seats 2 and 3."""
MAX_HANDS = 1
NAMES = ("Vera", "Walt", "Xena")


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"vingt-un-{name}.png"))


def hands_played(page: Any, table_id: str) -> int:
    response = page.request.get(f"/api/hands?table_id={table_id}&limit=1")
    assert response.status == 200, response.text()
    hands = response.json()["hands"]
    return int(hands[0]["number"]) if hands else 0


def click_if_ready(page: Any, selector: str) -> bool:
    button = page.locator(selector).first
    if ready_to_press(button):
        button.click()
        return True
    return False


# The plain play, in one round trip per page (the loop below polls three pages): stake what the
# control offers (the minimum) or stand, by clicking the generated button; a split is only
# reported, for the test to make with real clicks, or (``splits`` false) declined by standing.
PLAIN_PLAY = """(splits) => {
  const ready = (el) =>
    el && !el.disabled && !el.closest("fieldset:disabled") && el.offsetParent !== null;
  const split = '.action[data-kind="split"] button[type=submit]';
  if (splits && ready(document.querySelector(split))) return "split";
  for (const [kind, selector] of [["stake", '.action[data-kind="stake"] button[type=submit]'],
                                  ["stand", 'button[data-kind="stand"]']]) {
    const button = document.querySelector(selector);
    if (ready(button)) {
      button.click();
      return kind;
    }
  }
  return "";
}"""


def play_plainly(page: Any, splits: bool = True) -> str:
    """Stake the minimum or stand, if the page offers it; says what it did (or "split": a
    pair waits for the test, unless ``splits`` is false and the pair stands like any hand)."""
    return str(page.evaluate(PLAIN_PLAY, splits))


@pytest.mark.browser
def test_a_player_splits_a_pair_and_plays_both_hands(
    live_server: BrowserServer, open_page: Any
) -> None:
    pages = [open_page(WIDE), open_page(WIDE), open_page(NARROW)]
    for page, name in zip(pages, NAMES, strict=True):
        assert page.request.post("/api/session", data={"name": name}).status == 200
    opened = pages[0].request.post(
        "/api/tables", data={"game": "vingt-un", "name": "Pontoon", "options": OPTIONS}
    )
    assert opened.status == 201, opened.text()
    table_id = opened.json()["table_id"]
    as_host(pages[0], f"/api/admin/tables/{table_id}/seed", {"seed": SEED})
    # A bot in seat 0 deals (the lowest seat that can bank); it keeps the deal.
    assert pages[0].request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    for seat, page in enumerate(pages, start=1):
        page.goto(f"/tables/{table_id}")
        sit(page, seat)

    # Play hands plainly until someone holds a pair and is offered the split.
    splitter = None
    deadline = time.monotonic() + 90
    while splitter is None:
        assert hands_played(pages[0], table_id) < MAX_HANDS, "the seeded first hand dealt no pair"
        assert time.monotonic() < deadline, "no pair in time"
        for page in pages:
            if play_plainly(page) == "split":
                splitter = page
                break
        pages[0].wait_for_timeout(10)

    played = hands_played(splitter, table_id)
    seat = int(splitter.locator(".seat.is-you").get_attribute("data-seat"))
    name = NAMES[pages.index(splitter)]
    others = [page for page in pages if page is not splitter]
    mine = splitter.locator(f'.seat[data-seat="{seat}"] .vu-hand')
    expect(mine).to_have_count(1)
    expect(mine.locator(".card.card-private")).to_have_count(2)  # face down, seen by the holder
    shot(splitter, "pair")

    # Split, staking 2 on the new hand: two hands side by side, each with its stake.
    form = splitter.locator('.action[data-kind="split"]')
    form.locator("input[type=number]").fill("2")
    expect(form.locator("button[type=submit]")).to_have_text("Split 2")
    form.locator("button[type=submit]").click()
    expect(mine).to_have_count(2)
    for hand in mine.all():
        expect(hand.locator(".stake")).to_contain_text("Stake")
    doubled = splitter.locator(".vu-tag-double").count() > 0  # the dealer's call doubles it
    expect(mine.nth(1).locator(".stake")).to_have_text(f"Stake {4 if doubled else 2}")
    first, second = mine.nth(0).bounding_box(), mine.nth(1).bounding_box()
    assert first and second and abs(first["y"] - second["y"]) < 4, "the hands are side by side"
    assert second["x"] > first["x"]
    # The others see two hands whose first cards lie face down.
    for page in others:
        theirs = page.locator(f'.seat[data-seat="{seat}"] .vu-hand')
        expect(theirs).to_have_count(2)
        expect(theirs.locator(".card-back")).to_have_count(4)
    expect(mine.nth(0)).to_have_class("vu-hand vu-state-playing is-active")
    shot(splitter, "split")
    shot(others[0], "split-seen-by-another")

    # Play both hands (a split again is declined): draw once while no card can bust, then stand.
    drew = False
    deadline = time.monotonic() + 60
    while splitter.locator(f'.seat[data-seat="{seat}"] .vu-hand.is-active').count():
        assert time.monotonic() < deadline, "the split hands were not played out"
        active = splitter.locator(".vu-hand.is-active")
        total = active.locator(".hand-value").first.text_content() or "99"
        button = "draw" if int(total) <= 11 and not drew else "stand"
        if click_if_ready(splitter, f'button[data-kind="{button}"]'):
            drew = drew or button == "draw"
            if button == "draw":
                shot(splitter, "split-draw")
        splitter.wait_for_timeout(80)
        for page in others:
            play_plainly(page, splits=False)

    # Everyone else stands (on a pair too: the test makes one split); the bot dealer plays; the
    # hand is settled for both hands.
    deadline = time.monotonic() + 60
    while hands_played(splitter, table_id) == played:
        assert time.monotonic() < deadline, "the hand was not settled"
        for page in others:
            play_plainly(page, splits=False)
        splitter.wait_for_timeout(80)
    expect(splitter.locator("#settlement")).to_be_visible()
    expect(splitter.locator(f'#settlement li[data-seat="{seat}"]')).to_be_visible()
    expect(splitter.locator("#log")).to_contain_text(f"{name} splits, staking")

    # The stored hand says so too.
    listed = splitter.request.get(f"/api/hands?table_id={table_id}&limit=3").json()["hands"]
    summaries = [
        splitter.request.get(f"/api/hands/{h['hand_id']}").json()["summary"] for h in listed
    ]
    assert any(s["splits"] >= 1 and seat in s["players"] for s in summaries), summaries
    shot(splitter, "after")


# The log lines of one change's events (docs/protocol.md §6.6), in the words of the page's own
# module with the page's own helpers: the last player stands (seat 2), so the dealer (seat 0)
# shows both cards. The log tells it in that order.
DESCRIBE_LAST_STAND = """async () => {
  const game = (await import("/static/js/games/vingt-un.js")).default;
  const dom = await import("/static/js/dom.js");
  const cards = await import("/static/js/cards.js");
  const ctx = {...dom, ...cards, seatName: (n) => ["Ada", "Bob", "Cy"][n], you: 1};
  const events = [
    {kind: "stand", seat: 2, hand: 0},
    {kind: "show", seat: 0, hand: 0, cards: ["9D", "TS"], total: 19},
  ];
  return events.flatMap((e) => [game.describeEvent(e, ctx)].flat());
}"""


@pytest.mark.browser
def test_the_log_tells_the_last_stand_before_the_dealers_cards(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    page.goto("/")
    assert page.evaluate(DESCRIBE_LAST_STAND) == ["Cy stands.", "Ada shows 9♦ 10♠ (19)."]
