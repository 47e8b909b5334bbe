"""The table page on the screens people use, every game with its largest table, in a real
Chromium against the real server: geometry, not only presence.

For each game a table is opened with its most seats, filled with bots and one person; when it
is that person's turn the window is set to each size in turn and the page is measured:

* the dock (the turn banner and the choices) lies whole inside the window, with nothing
  scrolled: the player never has to look for it;
* no two seats meet, no seat meets the table's centre (its cards, the dealer's hand, the
  result), and none of them lies under the dock or outside the window (the phone's table
  scrolls in its own box: there the seats are measured as shown in that box).

Screenshots go to /tmp/shots/screen-<game>-<size>.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, BrowserServer
from tests.browser.steps import press_while_redrawn, sign_in

SIZES = {
    "laptop-1280x800": {"width": 1280, "height": 800},
    "laptop-1366x657": {"width": 1366, "height": 657},
    "laptop-1440x900": {"width": 1440, "height": 900},
    "desktop-1920x1080": {"width": 1920, "height": 1080},
    "tablet-820x1180": {"width": 820, "height": 1180},
    "tablet-1024x768": {"width": 1024, "height": 768},
    "phone-390x844": {"width": 390, "height": 844},
    "phone-360x740": {"width": 360, "height": 740},
}

# Each game's largest table; the clock long enough that the turn stays while it is measured.
GAMES = {
    "vingt-un": ({"turn_seconds": 600, "min_bet": 1, "max_bet": 5}, 8),
    "trianta-ena": ({"turn_seconds": 600, "bet_seconds": 600, "max_players": 9}, 9),
    "greek-31": ({"turn_seconds": 600, "max_players": 9}, 8),
    # a person who sits down during a match waits for the next one (docs/rules.md §5.12): this
    # table deals once the person is Ready, so they are in its first match rather than waiting
    # out a whole match of seven bots
    "en-og-tredive": ({"turn_seconds": 600, "start": "when_ready"}, 7),
    "trente-et-quarante": ({"bet_seconds": 600, "turn_seconds": 600, "seats": 12}, 11),
}

TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
"""Wait for the layout to follow a change of size: the table is fitted on the next frame."""

# What the page shows, measured as the eye sees it: each box cut to the window and to every
# scrolling box around it. Returns the problems found.
MEASURE = """() => {
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const cut = (a, b) => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
  const shown = (el) => {
    let box = cut(el.getBoundingClientRect(), view);
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      const clips = s.overflowX !== "visible" || s.overflowY !== "visible";
      if (clips) box = cut(box, a.getBoundingClientRect());
    }
    return box;
  };
  const area = (b) => Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);
  const overlap = (a, b) => area(cut(a, b));
  const problems = [];
  const dock = document.querySelector("#dock");
  const d = dock.getBoundingClientRect();
  const doc = document.scrollingElement;
  if (doc.scrollTop !== 0) problems.push(`the page is scrolled by ${doc.scrollTop}px`);
  if (d.top < -0.5 || d.bottom > innerHeight + 0.5 || d.left < -0.5 || d.right > innerWidth + 0.5) {
    const where = `${Math.round(d.top)}..${Math.round(d.bottom)}`;
    problems.push(`the dock (${where}) is not whole in the window (${innerHeight})`);
  }
  for (const sel of ["#turn-banner", "#controls .action"]) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!r.width) continue;
      const s = shown(el);
      if (area(s) < area(r) - 1) problems.push(`${sel} is not whole on screen`);
    }
  }
  const named = [];
  for (const el of document.querySelectorAll("#seats .seat")) {
    if (!el.getClientRects().length) continue;
    named.push([`seat ${el.dataset.seat}`, el]);
  }
  const center = document.querySelector("#center");
  const stacked = getComputedStyle(center).position !== "absolute";
  if (!stacked) {
    // the centre's content as drawn (it scrolls when it must: its own box)
    named.push(["the centre", center]);
  } else {
    for (const el of document.querySelectorAll("#center > *")) {
      if (el.getClientRects().length) named.push([`the centre's ${el.id || el.className}`, el]);
    }
  }
  const boxes = named.map(([name, el]) => [name, shown(el), el.getBoundingClientRect()]);
  for (let i = 0; i < boxes.length; i++) {
    const [name, box, whole] = boxes[i];
    if (overlap(box, d) > 1) problems.push(`${name} lies under the dock`);
    if (!stacked && area(box) < area(whole) - 1) problems.push(`${name} is cut off`);
    for (let j = i + 1; j < boxes.length; j++) {
      const [other, obox] = boxes[j];
      const o = overlap(box, obox);
      if (o > 1) problems.push(`${name} covers ${other} (${Math.round(o)} px²)`);
    }
  }
  for (const el of document.querySelectorAll(".side > *")) {
    if (!el.getClientRects().length) continue;
    // what of it is on screen: below a tablet's table it is a scroll away, in the box the
    // table and the log share above the dock, never under the dock
    const b = shown(el);
    for (const [name, box] of boxes) {
      if (overlap(b, box) > 1) problems.push(`${name} covers the side panel ${el.id}`);
    }
    if (overlap(b, d) > 1) problems.push(`the dock covers the side panel ${el.id}`);
  }
  return problems;
}"""


def open_full_table(page: Any, game: str, *, with_bots: bool = True) -> str:
    options, bots = GAMES[game]
    opened = page.request.post(
        "/api/tables", data={"game": game, "name": f"Screens {game}"[:24], "options": options}
    )
    assert opened.status == 201, opened.text()
    table_id = str(opened.json()["table_id"])
    if with_bots:
        add_bots(page, table_id, bots)
    return table_id


def add_bots(page: Any, table_id: str, bots: int) -> None:
    for _ in range(bots):
        added = page.request.post(f"/api/tables/{table_id}/bots", data={})
        assert added.status == 201, added.text()


@pytest.mark.browser
@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_fits_every_screen(live_server: BrowserServer, open_page: Any, game: str) -> None:
    page = open_page(SIZES["laptop-1280x800"])
    sign_in(page, f"Screen {game[:6]}")
    options, bots = GAMES[game]
    # a table that waits for Ready: the person sits in the seat after the bots' first, the
    # bots come, then Ready deals to them all (bots would deal among themselves at once)
    friends = options.get("start") == "when_ready"
    table_id = open_full_table(page, game, with_bots=not friends)
    page.goto(f"/tables/{table_id}")
    expect(page.locator("#conn[data-state=open]")).to_be_visible()
    seat = f'[data-seat="{bots}"]' if friends else ""
    press_while_redrawn(page.locator(f".seat-empty{seat} button").first)
    expect(page.locator("#amount-dialog")).to_be_visible()
    page.click("#amount-ok")
    expect(page.locator(".seat.is-you")).to_be_visible()
    if friends:
        add_bots(page, table_id, bots)
        page.locator('#presence button[data-kind="ready"]').click()
    expect(page.locator("#dock.is-your-turn")).to_be_visible(timeout=60_000)

    found = {}
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        # the layout has followed the new size: fitTable runs on the next frame after a resize
        page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        expect(page.locator("#dock.is-your-turn")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"screen-{game}-{name}.png"))
        problems = page.evaluate(MEASURE)
        if problems:
            found[name] = problems
    # the table's area shrinks with no window resize (the top bar takes a second row when its
    # links stop fitting beside a growing bankroll): the table is fitted again all the same
    page.set_viewport_size(SIZES["laptop-1366x657"])
    page.evaluate(TWO_FRAMES)
    page.evaluate("() => { document.querySelector('.topbar').style.paddingBottom = '48px'; }")
    page.evaluate(TWO_FRAMES)
    problems = page.evaluate(MEASURE)
    if problems:
        found["laptop-1366x657, the top bar 48 px taller"] = problems
    assert not found, "\n".join(f"{name}: {p}" for name, ps in found.items() for p in ps)
