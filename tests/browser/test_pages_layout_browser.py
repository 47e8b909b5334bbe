"""Pages and layouts found wanting in a play test, in a real Chromium against the real server.

* ``/tables/{id}`` for a table that is not there (never given out, closed, or private and asked
  for without its invite) answers a page of the site's own (404), the same page for each, with
  the way back to the lobby; never the API's JSON.

Screenshots go to /tmp/shots/pages-*.png, wide (1280x800) and phone (390x844).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import as_host, ready_to_press, scroll_to, sign_in


def shot(page: Any, name: str, *, full: bool = False) -> None:
    page.screenshot(path=str(SHOTS / f"pages-{name}.png"), full_page=full)


def open_table(page: Any, game: str, options: dict[str, Any], *, private: bool = False) -> dict:
    response = page.request.post(
        "/api/tables",
        data={"game": game, "name": "Play test", "options": options, "private": private},
    )
    assert response.status == 201, response.text()
    return dict(response.json())


# ------------------------------------------------------------------ a table that is not there


@pytest.mark.browser
def test_a_table_that_is_not_there_has_a_page_of_its_own(
    live_server: BrowserServer, open_page: Any
) -> None:
    host = open_page(WIDE)
    sign_in(host, "Ada")
    private = open_table(host, "greek-31", {}, private=True)
    closed = open_table(host, "greek-31", {})
    as_host(host, f"/api/admin/tables/{closed['table_id']}/close")

    stranger, phone = open_page(WIDE), open_page(NARROW)
    sign_in(stranger, "Bob")  # the phone stays signed out
    addresses = {
        "private": f"/tables/{private['table_id']}",
        "wrong-invite": f"/tables/{private['table_id']}?invite=not-the-code",
        "never-given-out": "/tables/0123456789ab",
        "closed": f"/tables/{closed['table_id']}",
    }
    bodies = {}
    for kind, address in addresses.items():
        for page in (stranger, phone):
            response = page.goto(address)
            assert response is not None
            assert response.status == 404, (kind, response.status)
            assert response.headers["content-type"].startswith("text/html"), (
                kind,
                response.headers["content-type"],
                response.text()[:200],
            )
            expect(page.locator("h1")).to_have_text("This table is not here")
            expect(page.locator("#table-missing")).to_contain_text("invite link")
            back = page.get_by_role("link", name="Back to the lobby", exact=True)
            expect(back).to_have_attribute("href", "/")
            # in the site's style: its stylesheet reached the page (the gold button)
            colour = back.evaluate("el => getComputedStyle(el).backgroundColor")
            assert colour == "rgb(242, 201, 76)", colour
            bodies[(kind, page is phone)] = response.text()
    # One page for all: nothing tells a private table from an id never given out.
    assert len(set(bodies.values())) == 1, "the pages differ"
    page_text = bodies[("private", False)]
    assert private["table_id"] not in page_text and private["name"] not in page_text

    shot(stranger, "missing-wide")
    shot(phone, "missing-narrow")
    phone.get_by_role("link", name="Back to the lobby", exact=True).click()
    expect(phone).to_have_url(f"{live_server.url}/")
    expect(phone.locator("#tables-list")).to_be_visible()

    # The invite link itself still opens the table.
    response = stranger.goto(private["invite_path"])
    assert response is not None and response.status == 200
    expect(stranger.locator("#conn[data-state=open]")).to_be_visible()


# ------------------------------------------------------------------ the table page on a phone

# Which parts of the elements matching the selectors are on screen under the control bar (#dock):
# an element's box as shown is its bounding box cut to the viewport and to every ancestor that
# clips (a scrolling box). First with everything scrolled to the top, then with each element in
# turn scrolled into view at the bottom of its scrolling box, where it must show whole.
UNDER_THE_BAR = """(selectors) => {
  const dock = document.querySelector("#dock");
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let box = { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    const clip = (b) => {
      box = { top: Math.max(box.top, b.top), bottom: Math.min(box.bottom, b.bottom),
              left: Math.max(box.left, b.left), right: Math.min(box.right, b.right) };
    };
    clip({ top: 0, left: 0, bottom: innerHeight, right: innerWidth });
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      const clips = style.overflowX !== "visible" || style.overflowY !== "visible";
      if (clips) clip(a.getBoundingClientRect());
    }
    return box;
  };
  const name = (el) => `${el.className} ${JSON.stringify({ ...el.dataset })}`.trim();
  const targets = selectors.flatMap((s) => [...document.querySelectorAll(s)])
    .filter((el) => el.getClientRects().length && !el.closest("#dock"));
  const problems = [];
  const look = (when) => {
    const bar = dock.getBoundingClientRect();
    for (const el of targets) {
      const b = shown(el);
      const high = Math.min(b.bottom, bar.bottom) - Math.max(b.top, bar.top);
      const wide = Math.min(b.right, bar.right) - Math.max(b.left, bar.left);
      if (b.bottom > b.top && b.right > b.left && high > 0.5 && wide > 0.5) {
        problems.push(`${when}: ${name(el)} lies ${Math.round(high)}px under the bar`);
      }
    }
  };
  const top = () => {
    window.scrollTo(0, 0);
    for (const el of document.querySelectorAll("*")) if (el.scrollTop) el.scrollTop = 0;
  };
  top();
  look("at the top");
  for (const el of targets) {
    el.scrollIntoView({ block: "end" });
    const r = el.getBoundingClientRect();
    const b = shown(el);
    const whole = b.bottom >= r.bottom - 1 && b.top <= r.top + 1;
    if (!whole) problems.push(`${name(el)} cannot be seen whole`);
    look(`${name(el)} scrolled into view`);
  }
  top();
  return { count: targets.length, problems };
}"""

CUT_LABELS = """() => [...document.querySelectorAll("#controls button")]
  .filter((b) => b.getClientRects().length && b.scrollWidth > b.clientWidth)
  .map((b) => `${b.textContent.trim()} (${b.scrollWidth}px in ${b.clientWidth}px)`)"""


def add_bots(page: Any, table_id: str, seats: range) -> None:
    for seat in seats:
        response = page.request.post(f"/api/tables/{table_id}/bots", data={"seat": seat})
        assert response.status == 201, response.text()


def sit(page: Any, seat: int, buy_in: int | None = None) -> None:
    page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
    expect(page.locator("#amount-dialog")).to_be_visible()
    if buy_in is not None:
        page.fill("#amount-input", str(buy_in))
    page.click("#amount-ok")
    expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()


def assert_clear_of_the_bar(page: Any, selectors: list[str], at_least: int) -> None:
    seen = page.evaluate(UNDER_THE_BAR, selectors)
    assert seen["count"] >= at_least, seen
    assert not seen["problems"], "\n".join(seen["problems"][:8])


def eot_phase(page: Any) -> str:
    return (
        page.locator(".eot").get_attribute("data-phase") or ""
        if page.locator(".eot").count()
        else ""
    )


@pytest.mark.browser
def test_en_og_tredive_on_a_phone_keeps_the_seats_and_the_labels_in_view(
    live_server: BrowserServer, open_page: Any
) -> None:
    """Four at an En og tredive table; on the phone, at the moment of a knock or a draw: no
    seat under the control bar, and "The 3♣ from the pile" whole on its button."""
    page = open_page(NARROW)
    sign_in(page, "Ada")
    table = open_table(
        page, "en-og-tredive", {"bet_unit": 10, "bets": 3, "knock_min": 1, "turn_seconds": 60}
    )
    page.goto(f"/tables/{table['table_id']}")
    sit(page, 0)
    add_bots(page, table["table_id"], range(1, 4))

    # Play (the first card of a discard; a stock card) until the page offers the knock beside
    # the draw: the row where the pile's label had least room.
    deadline = time.monotonic() + 45
    while True:
        assert time.monotonic() < deadline, "no turn offered the knock"
        mine = (
            page.locator("#dock.is-your-turn").count()
            and not page.locator("#dock.is-pending").count()
        )
        phase = eot_phase(page)
        if not mine:
            page.wait_for_timeout(100)
            continue
        if phase == "draw" and page.locator('button[data-kind="knock"]').count():
            break
        if phase == "cut":
            page.locator('.action[data-kind="cut"] button[type=submit]').click()
        elif phase == "deal":
            page.locator('.action[data-kind="deal"] button').first.click()
        elif phase == "draw":
            page.locator('.eot-stock [data-take="stock"]').click()
        elif phase == "discard":
            page.locator(".eot-hand button.card").first.click()
            page.get_by_test_id("eot-discard").click()
        page.wait_for_timeout(300)

    pile = page.locator('.action[data-kind="draw"] button', has_text="from the pile")
    expect(pile).to_be_visible()
    shot(page, "eot-narrow-knock")
    cut = page.evaluate(CUT_LABELS)
    under = page.evaluate(UNDER_THE_BAR, [".seat"])
    assert under["count"] >= 4, under
    assert not cut and not under["problems"], (cut, under["problems"][:6])
    page.set_viewport_size(WIDE)
    assert page.evaluate(CUT_LABELS) == []
    shot(page, "eot-wide-knock")


@pytest.mark.browser
def test_trente_et_quarante_on_a_phone_keeps_the_tableau_in_view(
    live_server: BrowserServer, open_page: Any
) -> None:
    """Four at a Trente et Quarante table, stakes on Rouge and Couleur (each zone with its
    tools): on the phone no seat, no zone, no stake control lies under the control bar."""
    page = open_page(NARROW)
    sign_in(page, "Ada")
    table = open_table(
        page,
        "trente-et-quarante",
        {"bet_seconds": 60, "turn_seconds": 60, "min_stake": 10, "max_stake": 1000},
    )
    page.goto(f"/tables/{table['table_id']}")
    sit(page, 0, buy_in=500)
    add_bots(page, table["table_id"], range(1, 4))
    expect(page.get_by_test_id("teq-headline")).to_contain_text("Faites vos jeux")
    page.locator('.teq-chip[data-chip="10"]').click()
    for chance in ("rouge", "couleur"):
        zone = page.locator(f'.teq-zone[data-chance="{chance}"]')
        zone.locator(".teq-hit").click()
        expect(zone.locator(".teq-pill-you")).to_contain_text("10")
        expect(zone.locator('.teq-tools [data-tool="lower"]')).to_be_visible()
    shot(page, "teq-narrow-stakes")
    assert_clear_of_the_bar(
        page,
        [
            ".seat",
            '.teq-zone[data-chance="couleur"]',
            '.teq-zone[data-chance="inverse"]',
            ".teq-zone .teq-hit",
            '.teq-zone[data-chance="couleur"] .teq-tools .btn',
        ],
        at_least=4 + 2 + 4 + 2,
    )
    scroll_to(page, '.seat[data-seat="3"]')
    shot(page, "teq-narrow-seats")
    assert page.evaluate(CUT_LABELS) == []
    page.set_viewport_size(WIDE)
    shot(page, "teq-wide-stakes")


# Where each seat's box and its hands lie on the page: the parts of a seat drawn outside its box,
# and the seats whose boxes meet. Returns also how many hands are drawn.
SEATS_APART = """() => {
  const out = [];
  const placed = [...document.querySelectorAll("#seats .seat")]
    .filter((n) => n.getClientRects().length);
  for (const seat of placed) {
    const s = seat.getBoundingClientRect();
    for (const part of seat.querySelectorAll(".vu-hand, .card, .hand-value, .hand-meta")) {
      if (!part.getClientRects().length) continue; // not drawn (the generic hand box)
      const r = part.getBoundingClientRect();
      const inside = r.left >= s.left - 1 && r.right <= s.right + 1
        && r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
      if (!inside) {
        out.push(`seat ${seat.dataset.seat}: ${part.className} out by ${Math.round(Math.max(
          s.left - r.left, r.right - s.right, s.top - r.top, r.bottom - s.bottom))}px`);
      }
    }
  }
  const overlaps = [];
  for (const [i, a] of placed.entries()) {
    for (const b of placed.slice(i + 1)) {
      const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
      const meet = p.left < q.right - 1 && q.left < p.right - 1
        && p.top < q.bottom - 1 && q.top < p.bottom - 1;
      if (meet) {
        const wide = Math.round(Math.min(p.right - q.left, q.right - p.left));
        const high = Math.round(Math.min(p.bottom - q.top, q.bottom - p.top));
        overlaps.push(`seats ${a.dataset.seat} and ${b.dataset.seat} meet by ${wide}x${high}px`);
      }
    }
  }
  const mine = document.querySelectorAll("#seats .seat.is-you .vu-hand");
  return { seats: placed.length, hands: mine.length,
           cards: [...mine].map((hand) => hand.querySelectorAll(".card").length), out, overlaps };
}"""

SPLIT_SEED = "00001bf6" * 8
"""With this seed a bot dealing in seat 0 deals seat 1, the only player of the first hand, a pair
of threes; split each time a pair comes, the seat makes four hands, and (drawing while a hand has
fewer than four cards, six cards at most) hands of four, three, four and three cards."""
SPLIT_OPTIONS = {"turn_seconds": 60, "min_bet": 1, "max_bet": 5, "natural_takes_deal": False}
LAPTOPS = [WIDE, {"width": 1366, "height": 768}, {"width": 1440, "height": 900}]
MOST_DRAWS = 6


def check_seats_apart(page: Any, kind: str) -> dict[str, Any]:
    """No part of a seat outside its box, no two seats meeting (after the page has laid the
    seats out for its size)."""
    page.wait_for_timeout(250)
    if kind == "phone":
        scroll_to(page, '.seat[data-seat="1"]')
    shot(page, f"vingt-un-split-{kind}")
    seen: dict[str, Any] = page.evaluate(SEATS_APART)
    assert seen["seats"] == 9, (kind, seen)
    assert not seen["out"], (kind, seen["out"][:6])
    assert not seen["overlaps"], (kind, seen["overlaps"])
    return seen


@pytest.mark.browser
def test_vingt_un_split_hands_stay_clear_of_the_neighbours(
    live_server: BrowserServer, open_page: Any
) -> None:
    """A real Vingt-un table, its shuffle seeded: a bot deals, Xena in seat 1 is dealt a pair
    and splits it, again and again, into four hands, and draws to them, while bots fill every
    other seat. At the longest moment of her turn, on laptops (1280, 1366, 1440 wide) and on a
    phone, each hand lies inside her seat and no seat meets another."""
    page = open_page(WIDE)
    sign_in(page, "Xena")
    table = open_table(page, "vingt-un", SPLIT_OPTIONS)
    table_id = table["table_id"]
    as_host(page, f"/api/admin/tables/{table_id}/seed", {"seed": SPLIT_SEED})
    add_bots(page, table_id, range(0, 1))  # the dealer
    page.goto(f"/tables/{table_id}")
    sit(page, 1)
    # The first hand is dealt to the two of them; the bots sitting now play from the next.
    stake = page.locator('.action[data-kind="stake"] button[type=submit]')
    expect(stake).to_be_visible()
    add_bots(page, table_id, range(2, 9))
    expect(page.locator("#seats .seat-taken")).to_have_count(9)
    stake.click()

    mine = page.locator(".seat.is-you .vu-hand")
    split = page.locator('.action[data-kind="split"]')
    draws = 0
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the split hands were not played"
        page.wait_for_timeout(150)
        if split.locator("button[type=submit]").is_visible():
            count = mine.count()
            split.locator("input[type=number]").fill("1")
            split.locator("button[type=submit]").click()
            expect(mine).to_have_count(count + 1)
            continue
        draw = page.locator('button[data-kind="draw"]')
        stand = page.locator('button[data-kind="stand"]')
        if not ready_to_press(stand):
            continue
        active = page.locator(".seat.is-you .vu-hand.is-active")
        if not active.count():
            continue
        index = active.get_attribute("data-hand")
        cards = active.locator(".card").count()
        if cards < 4 and draws < MOST_DRAWS and draw.is_visible():
            draw.click()
            draws += 1
            # the card lands (or the hand goes over 21 and the turn moves on)
            hand = f'.seat.is-you .vu-hand[data-hand="{index}"]'
            landed = f"{hand} .card:nth-child({cards + 1}), {hand}:not(.is-active)"
            expect(page.locator(landed).first).to_be_attached()
            continue
        if mine.count() == 4 and index == "3":
            break  # the last hand stands next: every card of the four hands is on the table
        stand.click()
        expect(page.locator(f'.seat.is-you .vu-hand[data-hand="{index}"]')).not_to_have_class(
            re.compile("is-active")
        )

    seen = check_seats_apart(page, "1280")
    assert seen["hands"] == 4 and sum(seen["cards"]) >= 12, seen
    for size in LAPTOPS[1:]:
        page.set_viewport_size(size)
        check_seats_apart(page, str(size["width"]))
    page.set_viewport_size(NARROW)
    check_seats_apart(page, "phone")
    page.set_viewport_size(WIDE)
    page.locator('button[data-kind="stand"]').click()


# ------------------------------------------------------------------ the player's page

OVERFLOWING = """() => [...document.querySelectorAll("#player-body table.data")]
  .filter((t) => t.getClientRects().length)
  .filter((t) => t.parentElement.scrollWidth > t.parentElement.clientWidth)
  .map((t) => `${t.id}: ${t.parentElement.scrollWidth}px in ${t.parentElement.clientWidth}px`)"""


@pytest.mark.browser
def test_the_player_page_fits_a_laptop_and_says_what_its_chart_counts(
    live_server: BrowserServer, open_page: Any
) -> None:
    """A coup of Trente et Quarante played, the player still seated: at 1280 px the per-game
    table fits its panel (nothing cut on the right), and the chart, which ends at the bankroll
    plus the chips at the table (not the header's bankroll), says so with that figure."""
    page = open_page(WIDE)
    sign_in(page, "Rhea")
    table = open_table(
        page,
        "trente-et-quarante",
        {"bet_seconds": 30, "turn_seconds": 5, "min_stake": 10, "max_stake": 1000},
    )
    page.goto(f"/tables/{table['table_id']}")
    sit(page, 0, buy_in=600)  # 500 at stake: win or lose, chips stay at the table
    expect(page.get_by_test_id("teq-headline")).to_contain_text("Faites vos jeux")
    page.locator('.teq-chip[data-chip="500"]').click()
    page.locator('.teq-zone[data-chance="rouge"] .teq-hit').click()
    page.locator('button[data-kind="done"]').click()
    me = page.request.get("/api/me").json()
    deadline = time.monotonic() + 60
    while True:  # until the coup is recorded (an un après waits out its turn: share or prison)
        data = page.request.get(f"/api/players/{me['player_id']}").json()
        if data["hands"] >= 1:
            break
        assert time.monotonic() < deadline, "the coup was not recorded"
        page.wait_for_timeout(200)

    page.goto(f"/players/{me['player_id']}")
    expect(page.locator("#games-table tbody tr")).to_contain_text("Trente et Quarante")
    page.wait_for_function("() => document.querySelector('#chart-img')?.naturalWidth > 0")
    assert page.evaluate(OVERFLOWING) == []
    # The header says the bankroll; the chart's legend says what its line counts and where it
    # ends: the bankroll plus the chips at the table.
    assert data["bankroll"] != data["chart"]["last"], data  # chips are at the table
    expect(page.locator("#bankroll-now")).to_have_text(f"bankroll {data['bankroll']:,} chips")
    legend = page.locator("#chart-legend")
    expect(legend).to_contain_text("bankroll + chips at tables")
    expect(legend).to_contain_text(f"now {data['chart']['last']:,} chips")
    svg = page.request.get(f"/api/players/{me['player_id']}/chart.svg").text()
    assert f">{data['chart']['last']:,} chips</text>" in svg  # the figure the line ends at
    shot(page, "player-wide")
    page.set_viewport_size(NARROW)  # (a phone scrolls the sessions' table in its own box)
    expect(legend).to_be_visible()
    shot(page, "player-narrow", full=True)
