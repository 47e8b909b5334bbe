"""Every page passes axe-core with no serious or critical violation, in a real Chromium against
the real server (tests/browser/axe.py injects the npm package).

The pages as people meet them: the lobby signed out and signed in, the table of each game with a
person seated beside bots and a hand in play (a phone-sized window too), the table's history, a
hand's replay, the player's page, the settle-up page, each game's rules, the page of a table that
is not there, the recovery page, and the admin page locked and unlocked. Screenshots go to
/tmp/shots/a11y-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import ADMIN_TOKEN, NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import press_while_redrawn
from tests.browser.test_vingt_un_browser import play_plainly

GAMES = {
    # options that keep a person's decision open while axe reads the page; bots fill the table
    "vingt-un": ({"turn_seconds": 30, "min_bet": 1, "max_bet": 5}, 2),
    "trianta-ena": ({"turn_seconds": 30, "bet_seconds": 30}, 2),
    "greek-31": ({"turn_seconds": 30}, 2),
    "en-og-tredive": ({"turn_seconds": 30}, 2),
    "trente-et-quarante": ({"bet_seconds": 30, "turn_seconds": 30}, 1),
}


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"a11y-{name}.png"))


def assert_passes(page: Any, what: str) -> None:
    found = grave(page)
    assert not found, f"{what}: axe-core finds\n{describe(found)}"


MOVING = """() => [...document.querySelectorAll("body *")]
  .filter((el) => {
    const style = getComputedStyle(el);
    const moves = (times) => times.split(",").some((t) => parseFloat(t) > 0);
    return style.animationName !== "none" || moves(style.transitionDuration);
  })
  .map((el) => el.id || el.className)"""


def assert_still_when_asked(page: Any, what: str) -> None:
    """A reader who asks for no motion (prefers-reduced-motion) gets no animation and no
    transition anywhere on the page."""
    page.emulate_media(reduced_motion="reduce")
    try:
        moving = page.evaluate(MOVING)
        assert not moving, f"{what}: still moving with reduced motion: {moving[:8]}"
    finally:
        page.emulate_media(reduced_motion="no-preference")


CARD_NAME = re.compile(
    r"^(?:(?:ace|king|queen|jack|ten|[2-9]) of (?:spades|hearts|diamonds|clubs)|joker)"
    r"(?:, face down \(only you see it\))?$|^face-down card$"
)


def assert_cards_named(page: Any, what: str) -> None:
    """Every card drawn on the page is named in words for a screen reader."""
    names = page.locator(".card").evaluate_all(
        "(cards) => cards.map((c) => c.getAttribute('aria-label') || c.textContent)"
    )
    assert names, f"{what}: no card drawn"
    wrong = [name for name in names if not CARD_NAME.match(name or "")]
    assert not wrong, f"{what}: cards without a name in words: {wrong}"


def open_table(page: Any, game: str) -> str:
    options, bots = GAMES[game]
    opened = page.request.post(
        "/api/tables", data={"game": game, "name": f"Axe {game}"[:24], "options": options}
    )
    assert opened.status == 201, opened.text()
    table_id = str(opened.json()["table_id"])
    for _ in range(bots):
        added = page.request.post(f"/api/tables/{table_id}/bots", data={})
        assert added.status == 201, added.text()
    return table_id


def sit_and_wait_for_play(page: Any, table_id: str) -> None:
    """Take the first free seat with the offered buy-in; wait until cards or choices show."""
    page.goto(f"/tables/{table_id}")
    expect(page.locator("#conn[data-state=open]")).to_be_visible()
    press_while_redrawn(page.locator(".seat-empty button").first)
    expect(page.locator("#amount-dialog")).to_be_visible()
    page.click("#amount-ok")
    expect(page.locator(".seat.is-you")).to_be_visible()
    expect(page.locator("#controls .action, #felt .card").first).to_be_visible()


def played_hand(page: Any, table_id: str, seconds: float = 60) -> str:
    """A finished hand of the Vingt-un table that this page's player played (their replay
    opens): back at the table, the player stakes the least and stands until one has ended
    (left to its 30-second clocks, a hand took the best part of a minute)."""
    page.goto(f"/tables/{table_id}")
    expect(page.locator("#conn[data-state=open]")).to_be_visible()
    deadline = time.monotonic() + seconds
    while True:
        hands = page.request.get(f"/api/hands?table_id={table_id}&limit=20").json()["hands"]
        mine = [hand for hand in hands if hand.get("your_seat") is not None]
        if mine:
            return str(mine[0]["hand_id"])
        assert time.monotonic() < deadline, f"no hand finished at {table_id}"
        play_plainly(page, splits=False)
        page.wait_for_timeout(100)


@pytest.mark.browser
def test_every_page_has_no_serious_accessibility_violation(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    page.goto("/")
    expect(page.locator("#open-form, .signin, form").first).to_be_visible()
    assert_passes(page, "the lobby, signed out")

    assert page.request.post("/api/session", data={"name": "Axel"}).status == 200
    me = page.request.get("/api/me").json()
    tables = {game: open_table(page, game) for game in GAMES}
    page.goto("/")
    expect(page.locator(".table-item").first).to_be_visible()
    assert_passes(page, "the lobby, signed in")
    shot(page, "lobby")

    for game, table_id in tables.items():
        sit_and_wait_for_play(page, table_id)
        page.wait_for_timeout(300)
        assert_passes(page, f"the {game} table in play")
        shot(page, f"table-{game}")
        assert_still_when_asked(page, game)
        assert_cards_named(page, game)

    phone = open_page(NARROW)
    assert phone.request.post("/api/session", data={"name": "Pia"}).status == 200
    phone.goto(f"/tables/{tables['greek-31']}")
    expect(phone.locator("#conn[data-state=open]")).to_be_visible()
    assert_passes(phone, "a table watched on a phone")

    table_id = tables["vingt-un"]
    hand_id = played_hand(page, table_id)
    page.goto(f"/tables/{table_id}/history")
    expect(page.locator("#hands-table tbody tr").first).to_be_visible()
    assert_passes(page, "the table's history")
    page.goto(f"/hands/{hand_id}")
    expect(page.locator("#replay")).to_be_visible()
    assert_passes(page, "a hand's replay")
    shot(page, "replay")
    page.goto(f"/players/{me['player_id']}")
    page.wait_for_load_state("networkidle")
    assert_passes(page, "the player's page")

    page.goto(f"/settle?table={table_id}")
    page.wait_for_load_state("networkidle")
    assert_passes(page, "the settle-up page")
    for game in GAMES:
        page.goto(f"/games/{game}/rules")
        page.wait_for_load_state("networkidle")
        assert_passes(page, f"the rules of {game}")

    page.goto("/tables/no-such-table")
    expect(page.get_by_role("link", name="Back to the lobby", exact=True)).to_be_visible()
    assert_passes(page, "the page of a table that is not there")
    page.goto("/recover")
    page.wait_for_load_state("networkidle")
    assert_passes(page, "the host's recovery page")

    page.goto("/admin")
    expect(page.locator("#login-token")).to_be_visible()
    assert_passes(page, "the admin page, locked")
    page.fill("#login-token", ADMIN_TOKEN)
    page.click("#login-submit")
    expect(page.locator("#audit-verdict")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert_passes(page, "the admin page")
    shot(page, "admin")


CARD_BUTTONS = """async () => {
  const { cardEl, cardLabel } = await import("/static/js/cards.js");
  const codes = ["XX"];
  for (const suit of "SHDC") for (const rank of "23456789TJQKA") codes.push(rank + suit);
  const main = document.querySelector("main") || document.body;
  const shelf = document.createElement("div");
  shelf.id = "card-buttons";
  for (const code of codes) {
    // as cards.js names a card button itself, and as the pages word the pile and the picks
    shelf.append(cardEl({ card: code, up: true }, { tag: "button" }));
    shelf.append(cardEl({ card: code, up: false }, { tag: "button" }));
    const take = cardEl({ card: code, up: true }, { tag: "button" });
    take.setAttribute("aria-label", `Take ${cardLabel(code)} from the discard pile`);
    const pick = cardEl({ card: code, up: true }, { tag: "button" });
    pick.setAttribute("aria-label", `${cardLabel(code)}: pick`);
    shelf.append(take, pick);
  }
  main.append(shelf);
  return shelf.querySelectorAll("button").length;
}"""


@pytest.mark.browser
def test_a_card_one_presses_is_named_by_what_it_shows(
    live_server: BrowserServer, open_page: Any
) -> None:
    """A card drawn as a button (the top discard one may take, a card to pick) has in its
    accessible name the rank it shows ("K♥ (king of hearts)"), or axe-core's "label in name"
    rule fails: it did, for an ace, a face card or a ten on top of En og tredive's pile, in
    whichever state the table happened to be read."""
    page = open_page(WIDE)
    page.goto("/")
    assert page.evaluate(CARD_BUTTONS) == 53 * 4
    assert_passes(page, "every card as a button")
