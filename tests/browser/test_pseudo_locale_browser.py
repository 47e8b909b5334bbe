"""The converted pages read in the pseudo-locale ``qps`` (docs/i18n.md): every text there is
accented, ~40% longer and wrapped in ⟦ ⟧, so a visible text with plain Latin letters outside
⟦ ⟧ is a string that bypassed the catalogs, and a box whose text no longer fits is a layout
that will not hold Greek, Danish, French or Italian.

:data:`PAGES` is the one list of what is covered: a page as it converts joins it, and the parts
of a page still waiting for conversion are listed with it (``pending``), to be struck off as
they are converted. True data may show as it is (:data:`DATA`): players' and tables' names,
numbers, card symbols, the games' names and the languages' own names in the switch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.browser.conftest import NARROW, WIDE
from tests.browser.steps import sign_in, sit


@dataclass(frozen=True)
class Page:
    path: str
    ready: str
    """A selector present once the page's scripts have drawn it."""
    signed_in: bool = False
    pending: tuple[str, ...] = field(default=())
    """Selectors of parts not converted yet (their text is not checked)."""
    table: str | None = None
    """A game: the page is a table of it with a hand in play, opened through the API (a bot in
    seat 0, the page's player in seat 1 through its own Sit here); path's {table} is its id."""


PAGES = (
    Page("/tables/not-a-table", "#back-to-lobby"),
    Page(
        "/",
        "#tables-list :is(p, ul)",
        pending=(
            ".game-blurbs",  # the games' sentences (Game.BLURB, app/games: pure, unmarked)
            "#open-options",  # option names and help (words.js, the API's descriptions)
        ),
    ),
    Page(
        "/",
        "#signin-slot .signed-in",
        signed_in=True,
        # the recovery code's control (static/js/recover.js)
        pending=(".game-blurbs", "#open-options", "#recovery-make"),
    ),
    Page(
        "/tables/{table}",
        "#controls .action",
        table="trianta-ena",
        pending=(
            # the game's module (static/js/games/*.js): its centre, its lines in a seat, its
            # words for an action (`labels`) on the action's button
            "#game-center",
            ".seat-extras",
            "#controls button[data-kind]",
            # the log and the last hand's result (story.js and the modules' describeEvent)
            "#log",
            "#settlement",
            # the host's badge and panel (host-panel.js)
            "#host-badge",
            "#host-panel",
        ),
    ),
)

DATA = (
    "#lang-switch",  # each language in its own name
    ".brand",  # the site's name, Table 31
    "#open-game",  # the games' names
    ".table-item-game",
    ".table-item-name",
    ".whoami-name",
    "#open-game-rules",  # "How to play {title}": the title is the game's name
    "#table-name",  # a table's page: the table's and the game's names, the players' names
    "#game-title",
    ".seat-name",
    ".chat-name",
    ".card-rank",  # a card's rank as a card shows it: A, K, Q, J
)
"""What may show Latin letters as it is: names and the games' own titles."""

FIND = """([pending, data]) => {
  const skip = [...pending, ...data, "script", "style", "template", "noscript"].join(",");
  const where = (el) => `${el.tagName.toLowerCase()}#${el.id}`;
  const visible = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const untranslated = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip) || !visible(el)) continue;
    const outside = node.textContent.replace(/⟦[^⟧]*⟧/g, "").replace(/⟦[^⟧]*$|^[^⟦]*⟧/g, "");
    if (/[A-Za-z]/.test(outside)) untranslated.push(`${where(el)}: ${node.textContent.trim()}`);
  }
  for (const el of document.querySelectorAll("input[placeholder], textarea[placeholder]")) {
    const outside = el.placeholder.replace(/⟦[^⟧]*⟧/g, "");
    if (!el.closest(skip) && visible(el) && /[A-Za-z]/.test(outside)) {
      untranslated.push(`placeholder of #${el.id}: ${el.placeholder}`);
    }
  }
  const overflowing = [];
  for (const el of document.body.querySelectorAll("*")) {
    // a screen reader's text is clipped to a pixel on purpose
    if (el.closest([...pending, ".visually-hidden"].join(",")) || !visible(el)) continue;
    const style = getComputedStyle(el);
    const clips = /hidden|clip/.test(style.overflowX) && style.textOverflow !== "ellipsis";
    const button = el.matches("button, .btn, .pill");
    if ((clips || button) && el.scrollWidth > el.clientWidth + 1) {
      overflowing.push(`${where(el)}.${el.className}: ${el.textContent.trim().slice(0, 60)}`);
    }
  }
  return { untranslated, overflowing };
}"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "phone"])
@pytest.mark.parametrize(
    "page_spec", PAGES, ids=lambda p: p.path + (" signed in" if p.signed_in else "")
)
def test_converted_pages_in_the_pseudo_locale(
    open_page: Any, live_server: Any, page_spec: Page, viewport: dict[str, int]
) -> None:
    page = open_page(viewport)
    page.context.add_cookies([{"name": "t31_lang", "value": "qps", "url": live_server.url}])
    if page_spec.signed_in or page_spec.table:
        sign_in(page, f"Ψεύδο {viewport['width']}")
    path = page_spec.path
    if page_spec.table:
        opened = page.request.post("/api/tables", data={"game": page_spec.table, "options": {}})
        assert opened.status == 201, opened.text()
        path = path.format(table=opened.json()["table_id"])
        added = page.request.post(f"/api/tables/{opened.json()['table_id']}/bots", data={})
        assert added.status == 201 and added.json()["seat"] == 0, added.text()
    page.goto(path)
    assert page.locator("html").get_attribute("lang") == "qps"
    if page_spec.table:
        sit(page, 1)
    page.locator(page_spec.ready).first.wait_for()
    found = page.evaluate(FIND, [list(page_spec.pending), list(DATA)])
    assert not found["untranslated"], "text outside the catalogs:\n" + "\n".join(
        found["untranslated"]
    )
    assert not found["overflowing"], "text overflowing its box:\n" + "\n".join(found["overflowing"])
