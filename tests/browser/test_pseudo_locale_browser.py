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
from tests.browser.steps import sign_in


@dataclass(frozen=True)
class Page:
    path: str
    ready: str
    """A selector present once the page's scripts have drawn it."""
    signed_in: bool = False
    pending: tuple[str, ...] = field(default=())
    """Selectors of parts not converted yet (their text is not checked)."""


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
        pending=(".game-blurbs", "#open-options"),
    ),
    # the host's page before the token (its unlocked page: test_pseudo_locale_host_browser.py)
    Page("/admin", "#login-form"),
    Page("/recover", "#recover-form"),
    Page("/recover", "#recover-whoami", signed_in=True),
    Page(
        "/recover?code=not-a-code",
        "#recover-message",
        # the refusal's words (app/api/routes/admin_page.py's NOT_VALID: not marked yet)
        pending=("#recover-message",),
    ),
    Page("/settle", "#banner"),  # not signed in: why there is nothing to settle
    Page(
        "/settle",
        "#settle-body",
        signed_in=True,
        # the server's text to copy and its words for what no payment settles
        # (app/review/settle_words.py)
        pending=("#settle-text", "#apart"),
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
    ".player-check-name",  # settle-up: the players' names
    "#nets-table th[scope=row] a",
    ".payment-who strong",
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
    if page_spec.signed_in:
        sign_in(page, f"Ψεύδο {viewport['width']}")
    page.goto(page_spec.path)
    assert page.locator("html").get_attribute("lang") == "qps"
    page.locator(page_spec.ready).first.wait_for()
    found = page.evaluate(FIND, [list(page_spec.pending), list(DATA)])
    assert not found["untranslated"], "text outside the catalogs:\n" + "\n".join(
        found["untranslated"]
    )
    assert not found["overflowing"], "text overflowing its box:\n" + "\n".join(found["overflowing"])
