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

import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.browser.conftest import ADMIN_TOKEN, NARROW, WIDE
from tests.browser.steps import sign_in, sit


@dataclass(frozen=True)
class Page:
    path: str
    ready: str
    """A selector present once the page's scripts have drawn it."""
    signed_in: bool = False
    pending: tuple[str, ...] = field(default=())
    """Selectors of parts not converted yet (their text is not checked)."""
    host: bool = False
    """Opened in a tab where the host signed in (its review pages send the host's token)."""
    table: str | None = None
    """A game: the page is a table of it with a hand in play, opened through the API (a bot in
    seat 0, the page's player in seat 1 through its own Sit here); path's {table} is its id."""
    opens: str | None = None
    """A ``<details>`` opened before the check, so that what it holds is read too."""


PAGES = (
    Page("/tables/not-a-table", "#back-to-lobby"),
    Page("/", "#tables-list :is(p, ul)"),
    Page("/", "#signin-slot .signed-in", signed_in=True),
    # the host's page before the token (its unlocked page: test_pseudo_locale_host_browser.py)
    Page("/admin", "#login-form"),
    Page("/recover", "#recover-form"),
    Page("/recover", "#recover-whoami", signed_in=True),
    Page("/recover?code=not-a-code", "#recover-message"),
    Page("/settle", "#banner"),  # not signed in: why there is nothing to settle
    # the text to copy opened (what no payment settles: test_settle_browser.py, in qps)
    Page("/settle", "#settle-body", signed_in=True, opens="details.settle-text"),
)

# A finished hand of each game, played by bots at a table of its own (made once, when a page
# asks: its path names them as "{GAME hand}" and "{GAME table}"); the replay at its last step,
# and at the step of a decision the analysis shows the host ("{GAME decision}": the last step
# when it shows none), once the analysis is drawn.
BOT_GAMES = {
    "trianta-ena": {"turn_seconds": 5, "bet_seconds": 5},
    "greek-31": {"turn_seconds": 5},
    "vingt-un": {"turn_seconds": 5},
    "trente-et-quarante": {"bet_seconds": 1, "turn_seconds": 1},
    "en-og-tredive": {"turn_seconds": 5},
}
REPLAY_PENDING: tuple[str, ...] = ()
ANALYSIS_DRAWN = "#analysis-summary :is(.analysis-legend, #analysis-none)"
PAGES += (
    *(
        Page(
            f"/hands/{{{game} hand}}#step=9999", "#steps-list li", pending=REPLAY_PENDING, host=True
        )
        for game in BOT_GAMES
    ),
    *(
        Page(
            f"/hands/{{{game} hand}}?at=decision#step={{{game} decision}}",
            ANALYSIS_DRAWN,
            pending=REPLAY_PENDING,
            host=True,
        )
        for game in BOT_GAMES
    ),
    Page("/tables/{trianta-ena table}/history", "#hands-table tbody tr", signed_in=True),
    Page(
        "/tables/{table}",
        "#controls .action",
        table="trianta-ena",
    ),
)

DATA = (
    "#lang-switch",  # each language in its own name
    ".brand",  # the site's name, Table 31
    "#open-game",  # the games' names
    ".table-item-game",
    ".table-item-name",
    ".table-item-names",  # who sits at a listed table (a bot's "(bot)" is a message within)
    ".whoami-name",
    "#open-game-rules",  # "How to play {title}": the title is the game's name
    "#game-title",  # a hand's or a table's game, by its name
    ".table-title > span:first-child",  # the table's name
    ".settlement-name",  # the players' names in a game's centre and its result
    ".bank-label strong",
    ".round-result strong",
    ".eot-result-name",
    ".eot-cut-name",
    ".teq-pill-name",
    ".teq-prison-list strong",
    ".teq-standing-list strong",
    '[lang="fr"]',  # Trente et Quarante's French calls and chances, the game's own words
    ".teq-score",  # its score card: R, N, c, i (Rouge, Noir, couleur, inverse)
    ".card",  # a card's face (K♠)
    "#hands-table td:nth-child(2)",  # a hand list's games, by their names
    "#hands-table .who",  # and its players
    "#result-table td:first-child",  # a hand's players
    "#proof-shoes .mono",  # a shoe's commitment (hexadecimal)
    "#share-link",
    ".player-check-name",  # settle-up: the players' names
    "#nets-table th[scope=row] a",
    ".payment-who strong",
    "#table-name",  # a table's page: the table's and the game's names, the players' names
    ".seat-name",
    ".chat-name",
    ".card-rank",  # a card's rank as a card shows it: A, K, Q, J
    "#log time",  # a log line's time, written by Intl in the reader's locale (qps: as English)
    "#step-label time",  # a replay's step's time, and a hand list's: the same
    "#hands-table time",
    "#analysis-summary-table tbody th",  # the analysis's players, by their names
    "#evening-table tbody th",
    # a replay step's events as the record holds them, for the curious: the record's own kinds,
    # keys and values (docs/protocol.md §12), in no language; the lines above them word the
    # same events in the reader's (story.js)
    ".step-raw .event-list",
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


FINISHED: dict[str, str] = {}
"""The bots' tables and a finished hand of each, by "{GAME table}" and "{GAME hand}"."""


def finished_hands(open_page: Any) -> dict[str, str]:
    """A table of bots for each game of :data:`BOT_GAMES`, opened once, and a hand each has
    finished (waited for side by side)."""
    if FINISHED:
        return FINISHED
    opener = open_page(WIDE)
    assert opener.request.post("/api/session", data={"name": "Bots opener"}).status == 200
    tables = {}
    for game, options in BOT_GAMES.items():
        opened = opener.request.post(
            "/api/tables", data={"game": game, "name": f"Bots {game}", "options": options}
        )
        assert opened.status == 201, opened.text()
        tables[game] = opened.json()["table_id"]
        for _ in range(2 if game == "trente-et-quarante" else 3):
            added = opener.request.post(f"/api/tables/{tables[game]}/bots", data={})
            assert added.status == 201, added.text()
    deadline = time.monotonic() + 120
    for game, table_id in tables.items():
        while True:
            listed = opener.request.get(f"/api/hands?table_id={table_id}&limit=20").json()
            hands = [h for h in listed["hands"] if h["status"] == "finished"]
            if hands:
                break
            assert time.monotonic() < deadline, f"no finished hand at the {game} table"
            opener.wait_for_timeout(250)
        FINISHED[f"{game} table"] = table_id
        FINISHED[f"{game} hand"] = hands[-1]["hand_id"]
    for game in BOT_GAMES:
        # computed when asked (the reader waits): a guard for a stuck analysis only
        analysis = opener.request.get(
            f"/api/hands/{FINISHED[f'{game} hand']}/analysis",
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
            timeout=600_000,
        )
        assert analysis.status == 200, analysis.text()
        decisions = analysis.json()["decisions"]
        FINISHED[f"{game} decision"] = str(decisions[0]["step"] if decisions else 9999)
    return FINISHED


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
    path = page_spec.path
    if "{" in path and not page_spec.table:
        path = path.format(**finished_hands(open_page))
    if page_spec.host:
        page.context.add_init_script(f"sessionStorage.setItem('t31_admin_token', '{ADMIN_TOKEN}')")
    if page_spec.signed_in or page_spec.table:
        sign_in(page, f"Ψεύδο {viewport['width']}")
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
    if page_spec.opens:
        page.locator(page_spec.opens).evaluate("(details) => { details.open = true; }")
    found = page.evaluate(FIND, [list(page_spec.pending), list(DATA)])
    assert not found["untranslated"], "text outside the catalogs:\n" + "\n".join(
        found["untranslated"]
    )
    assert not found["overflowing"], "text overflowing its box:\n" + "\n".join(found["overflowing"])
