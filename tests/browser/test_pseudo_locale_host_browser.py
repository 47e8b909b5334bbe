"""The pages :data:`~tests.browser.test_pseudo_locale_browser.PAGES` cannot reach by an address
alone, read in the pseudo-locale ``qps`` as its check reads them (the same :data:`FIND`): the
host's page once the token opens it (a table with a player and a bot, a room, the host's log,
a table's close confirmation), a player's own page (figures, sessions, devices) and the
lobby's recovery link once made. True data may show as it is: names, the dates and times
written in the page's formats (the pseudo-locale writes them as English does), the hosts'
reasons.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN, NARROW, WIDE, BrowserServer
from tests.browser.test_pseudo_locale_browser import DATA, FIND
from tests.browser.test_trianta_ena_browser import FAST

HOST_DATA = (
    ".player-name",  # players' names
    ".admin-seat-name",
    ".admin-table-name",  # tables' and rooms' names
    ".admin-room-card .admin-room-now strong",  # the game's title
    ".admin-table-head .table-item-game",
    ".admin-log-note",  # the reasons the host typed
    ".admin-pause-reason",
    "#admin-actions time",  # a moment, as the page's format writes it
)

PLAYER_DATA = (
    "#player-name",  # the player's name
    ".device-label",  # the browser's and the system's own names ("Firefox on Windows", worded)
    "#devices-table td:nth-child(2)",  # signed in, last used: moments
    "#devices-table td:nth-child(3)",
    "#sessions-table td:nth-child(1)",  # the table's name and the game's title
    "#sessions-table td:nth-child(2)",  # sat down, left: moments
    "#sessions-table td:nth-child(3)",
    "#games-table td:first-child",  # the game's title
)

PLAYER_PENDING: tuple[str, ...] = ()
"""(The hands' list, static/js/hand-list.js, is the history page's: checked there with rows.)"""

LINK_INPUT = re.compile(r"input#[\w-]*\.invite-link:")
"""FIND's line for a link's read-only input (its value is the link: it scrolls)."""


def qps_page(open_page: Any, live_server: BrowserServer, viewport: dict[str, int]) -> Any:
    page = open_page(viewport)
    page.context.add_cookies([{"name": "t31_lang", "value": "qps", "url": live_server.url}])
    return page


def check(page: Any, pending: tuple[str, ...], data: tuple[str, ...]) -> None:
    assert page.locator("html").get_attribute("lang") == "qps"
    found = page.evaluate(FIND, [list(pending), [*DATA, *data]])
    assert not found["untranslated"], "text outside the catalogs:\n" + "\n".join(
        found["untranslated"]
    )
    # a link to copy is a read-only input, which scrolls its value in every language
    overflowing = [line for line in found["overflowing"] if not LINK_INPUT.match(line)]
    assert not overflowing, "text overflowing its box:\n" + "\n".join(overflowing)


def signed_up(page: Any, name: str) -> dict[str, Any]:
    response = page.request.post("/api/session", data={"name": name})
    assert response.status == 200, response.text()
    return dict(response.json())


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "phone"])
def test_the_host_page_in_the_pseudo_locale(
    open_page: Any, live_server: BrowserServer, viewport: dict[str, int]
) -> None:
    page = qps_page(open_page, live_server, viewport)
    player = signed_up(page, f"Ψεύδο Α {viewport['width']}")
    table = page.request.post(
        "/api/tables", data={"game": "trianta-ena", "name": "Ψ τραπέζι", "options": FAST}
    )
    assert table.status == 201, table.text()
    table_id = table.json()["table_id"]
    room = page.request.post(
        "/api/rooms", data={"game": "vingt-un", "name": "Ψ δωμάτιο", "options": {}}
    )
    assert room.status == 201, room.text()
    host = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    for call in (
        page.request.post(f"/api/admin/tables/{table_id}/bots", data={}, headers=host),
        page.request.post(
            f"/api/admin/players/{player['player_id']}/chips",
            data={"amount": 50, "reason": "Ψ"},
            headers=host,
        ),
        page.request.post(
            f"/api/admin/tables/{table_id}/pause", data={"reason": "Ψ"}, headers=host
        ),
    ):
        assert call.ok, call.text()

    page.goto("/admin")
    page.locator("#login-form").wait_for()
    check(page, (), HOST_DATA)
    page.fill("#login-token", ADMIN_TOKEN)
    page.click("#login-submit")
    expect(page.locator("#audit-verdict")).to_be_visible()
    card = page.locator(f'.admin-table-card[data-table-id="{table_id}"]')
    expect(card.locator(".admin-seat")).to_have_count(1)
    expect(page.locator("#admin-actions li").first).to_be_visible()
    page.locator("#show-bots").check()
    card.locator('[data-act="close"]').click()
    expect(card.locator(".admin-close")).to_be_visible()
    check(page, (), HOST_DATA)


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["wide", "phone"])
def test_a_player_page_and_the_recovery_link_in_the_pseudo_locale(
    open_page: Any, live_server: BrowserServer, viewport: dict[str, int]
) -> None:
    page = qps_page(open_page, live_server, viewport)
    player = signed_up(page, f"Ψεύδο Β {viewport['width']}")

    page.goto("/")
    page.click("#recovery-make")
    expect(page.locator("#recovery-code")).to_be_visible()
    check(page, (), ("#recovery-result code",))  # the page's address

    page.goto(f"/players/{player['player_id']}")
    expect(page.locator("#devices-table tbody tr")).to_have_count(1)
    expect(page.locator("#chart-img")).to_be_visible()
    check(page, PLAYER_PENDING, PLAYER_DATA)
