"""Greek 31 in a real Chromium against the real server (docs/rules.md §2; docs/protocol.md).

A dealer and two players, three people in three browsers (one of them on a phone-sized screen),
play one hand to its settlement through the page: both players stake, the dealer draws in
secret and stands by clicking the card to keep face down, the players stand, the hidden card is
shown. The concealed card must not reach the players' pages before the showdown.
Screenshots go to /tmp/shots/greek-31-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import sign_in

OPTIONS = {"turn_seconds": 30, "min_bet": 10, "max_bet": 100}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"greek-31-{name}.png"))


def card_text(code: str) -> str:
    """The page's short form of a card: "TH" → "10♥"."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def open_table(page: Any) -> str:
    response = page.request.post(
        "/api/tables", data={"game": "greek-31", "name": "Greek", "options": OPTIONS}
    )
    assert response.status == 201, response.text()
    return f"/tables/{response.json()['table_id']}"


def open_sit_dialog(page: Any, seat: int) -> None:
    page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
    expect(page.locator("#amount-dialog")).to_be_visible()


def seated(page: Any, seat: int) -> None:
    expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()


def stake(page: Any, amount: int) -> None:
    form = page.locator('.action[data-kind="stake"]')
    expect(form).to_be_visible()
    form.locator("input[type=number]").fill(str(amount))
    submit = form.locator("button[type=submit]")
    expect(submit).to_have_text(f"Stake {amount}")
    submit.click()
    expect(form).to_have_count(0)


def hands_over(page: Any) -> int:
    return page.locator("#log li", has_text="Hand over").count()


def play_out(pages: list[Any], done: int) -> None:
    """Finish a hand whoever is to act (stake, hide the first card, stand) until it is over."""
    deadline = time.monotonic() + 60
    while hands_over(pages[0]) <= done:
        assert time.monotonic() < deadline, "the hand did not end"
        for page in pages:
            for selector in (
                '.action[data-kind="stake"] button[type=submit]',
                ".g31-pick",
                'button[data-kind="stand"]',
            ):
                button = page.locator(selector).first
                if button.is_visible() and button.is_enabled():
                    button.click()
                    break
        pages[0].wait_for_timeout(100)


@pytest.mark.browser
def test_a_dealer_and_two_players_play_a_hand(live_server: BrowserServer, open_page: Any) -> None:
    ada, bob, cy = open_page(WIDE), open_page(WIDE), open_page(NARROW)
    for page, name in ((ada, "Ada"), (bob, "Bob"), (cy, "Cy")):
        sign_in(page, name)
    url = open_table(ada)
    for page in (ada, bob, cy):
        page.goto(url)

    # Ada sits first: the lowest seat deals first. Bob and Cy confirm their seats together so
    # that the first hand deals all three in (it starts as soon as two players hold chips).
    open_sit_dialog(ada, 0)
    ada.click("#amount-ok")
    seated(ada, 0)
    open_sit_dialog(bob, 1)
    open_sit_dialog(cy, 2)
    bob.click("#amount-ok")
    cy.click("#amount-ok")
    seated(bob, 1)
    seated(cy, 2)

    # Whose deal and how many hands of it: shown to everyone.
    for page in (ada, bob, cy):
        expect(page.locator('[data-testid="deal-count"]')).to_be_visible()
    # If the first hand was dealt before Cy sat down, play it out: Ada deals the next one too.
    expect(bob.locator('.seat[data-seat="2"]')).to_be_visible()
    if (
        bob.locator('.seat[data-seat="2"] .badge-waiting').count()
        or bob.locator('.seat[data-seat="2"]', has_text="plays from the next hand").count()
    ):
        play_out([ada, bob, cy], hands_over(ada))
    expect(ada.locator('[data-testid="deal-count"]')).to_contain_text("hand of your deal")

    # Stakes in seat order from the dealer's right: Cy (seat 2), then Bob (seat 1). Bob is told
    # how much more the bank can cover.
    expect(cy.locator("#turn-banner")).to_have_text("Your turn")
    shot(ada, "wide-staking-dealer")
    shot(cy, "narrow-stake")
    bank = int(bob.locator('.seat[data-seat="0"]').get_attribute("data-stack") or 0)
    stake(cy, 20)
    expect(bob.locator("#game-center")).to_contain_text(f"The bank covers {bank - 20:,} more")
    stake(bob, 10)

    # The dealer draws in secret: Ada sees her cards, the players see backs and a count.
    expect(ada.locator('[data-testid="status-line"]')).to_have_text("Your draw: draw, or stand")
    dealer_cards = ada.locator('[data-testid="dealer-cards"] .card')
    deadline = time.monotonic() + 60
    while ada.locator(".g31-pick").count() < 2:
        assert time.monotonic() < deadline, "the dealer could not stand concealing a card"
        count = dealer_cards.count()
        ada.locator('button[data-kind="draw"]').click()
        expect(dealer_cards).to_have_count(count + 1)
    count = dealer_cards.count()
    for page in (bob, cy):
        expect(page.locator('[data-testid="dealer-cards"] .card-back')).to_have_count(count)
        expect(page.locator('[data-testid="dealer-caption"]')).to_contain_text(
            "seen by the dealer alone"
        )
    # The stand offers one button per card ("hide 9♦"); clicking the card in the middle does it.
    expect(ada.locator('.action[data-kind="stand"] button[data-value]')).to_have_count(count)
    ada.locator(".g31-pick").last.hover()
    shot(ada, "wide-choose-hidden-card")
    concealed = ada.locator(".g31-pick").last.get_attribute("data-card")
    assert concealed
    ada.locator(".g31-pick").last.click()

    # The players see every dealer card but that one; the dealer sees it, marked hidden.
    for page in (bob, cy):
        expect(page.locator('[data-testid="dealer-caption"]')).to_contain_text(
            "one kept face down until the showdown"
        )
        row = page.locator('[data-testid="dealer-cards"]')
        expect(row.locator(".card-back")).to_have_count(1)
        expect(row.locator("[data-card]")).to_have_count(count - 1)
        assert page.locator(f'[data-card="{concealed}"]').count() == 0
        assert card_text(concealed) not in page.locator("#table-page").inner_text()
    expect(ada.locator(f'.g31-concealed[data-card="{concealed}"]')).to_be_visible()
    shot(ada, "wide-dealer-hides")
    expect(cy.locator("#turn-banner")).to_have_text("Your turn")
    shot(bob, "wide-player-sees-concealed")
    shot(cy, "narrow-player-turn")
    cy.screenshot(path=str(SHOTS / "greek-31-narrow-full.png"), full_page=True)

    # The players stand; the showdown shows the hidden card and settles both stakes.
    cy.locator('button[data-kind="stand"]').click()
    expect(bob.locator("#turn-banner")).to_have_text("Your turn")
    bob.locator('button[data-kind="stand"]').click()
    for page in (ada, bob, cy):
        expect(page.locator("#settlement")).to_be_visible()
        expect(page.locator("#log")).to_contain_text(f"The hidden card is {card_text(concealed)}")
    deltas = {
        int(item.get_attribute("data-seat")): int(item.get_attribute("data-delta"))
        for item in bob.locator("#settlement li").all()
    }
    assert deltas.get(2) in (20, -20)
    assert deltas.get(1) in (10, -10)
    assert deltas.get(0) == -(deltas[1] + deltas[2])
    # The last hand stays readable while the next one is staked: the dealer's hand, shown.
    expect(bob.locator('[data-testid="last-hand"]')).to_contain_text(card_text(concealed))
    shot(bob, "wide-after-showdown")
    shot(cy, "narrow-after-showdown")


# The page's own module, rendered with the page's own helpers (dom.js, cards.js), on a view
# between hands: "deals next: Nth hand of the deal" must read as English past the tenth hand.
RENDER_DEAL_COUNT = """async (dealt) => {
  const game = (await import("/static/js/games/greek-31.js")).default;
  const dom = await import("/static/js/dom.js");
  const cards = await import("/static/js/cards.js");
  const view = {
    phase: "waiting", dealer: 0, you: 1, hands_dealt: dealt, hand_id: null, last_hand: null,
    order: [], legal: [], rules: {min_bet: 10, max_bet: 100, ace_rule: "at_least_one_high"},
    seats: [
      {seat: 0, name: "Ada", stack: 500, role: "dealer", hands: []},
      {seat: 1, name: "Bob", stack: 500, role: "player", hands: []},
    ],
  };
  const ctx = {...dom, ...cards, seatName: (n) => ["Ada", "Bob"][n] || `Seat ${n}`, you: 1};
  const el = document.createElement("div");
  game.renderCenter(view, el, ctx);
  return el.querySelector('[data-testid="deal-count"]').textContent;
}"""


@pytest.mark.browser
@pytest.mark.parametrize(
    ("dealt", "words"),
    [
        (2, "third"),
        (10, "11th"),
        (11, "12th"),
        (12, "13th"),
        (20, "21st"),
        (21, "22nd"),
        (22, "23rd"),
        (40, "41st"),
        (110, "111th"),
        (100, "101st"),
    ],
)
def test_the_deal_count_reads_as_english(
    live_server: BrowserServer, open_page: Any, dealt: int, words: str
) -> None:
    page = open_page(WIDE)
    page.goto("/")
    text = page.evaluate(RENDER_DEAL_COUNT, dealt)
    assert text == f" · deals next: {words} hand of the deal", text
