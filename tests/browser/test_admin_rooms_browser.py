"""The server's owner above all rooms, and a room's hands, in a real Chromium (docs/rules.md
§0.15; docs/protocol/admin.md, "GET /api/admin/rooms"; docs/review.md, "Pages").

Ada opens a table of her own and a room; bots play a few hands at each, then the room's bots
stand up and Ada switches its game from the room's form: bots play at its second table too,
then all but one stand up (the list stays put). The room's page links to "Hands of this
evening", which follows the room to its second table. On the table's history page Ada picks the
room in the room filter: the address says ``?room_id=``, and the list holds the room's hands, at
both its tables, and none of her own table's. The owner
opens /admin: the room is listed with its host, the game and table it plays at now (a link),
its tables played and the bots seated there; the owner closes it with a reason, its card goes,
the host's log says so and the audit stays balanced. axe-core on the three pages; screenshots at
1366x657 and 390x844: /tmp/shots/rooms-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import ADMIN_TOKEN, NARROW, SHOTS, BrowserServer
from tests.browser.steps import choose_name

LAPTOP = {"width": 1366, "height": 657}
ROOM = "Lantern evening"
SIDE = "Lantern side table"
FIRST = {"turn_seconds": 5}
"""Greek 31 for bots (tests/browser/test_review_browser.py deals it so)."""


def shot(page: Any, name: str, full_page: bool = True) -> None:
    page.screenshot(path=str(SHOTS / f"rooms-{name}.png"), full_page=full_page)


def finished(page: Any, query: str) -> list[dict[str, Any]]:
    response = page.request.get(f"/api/hands?{query}&limit=100")
    assert response.status == 200, response.text()
    return [h for h in response.json()["hands"] if h["status"] == "finished"]


def wait_for_hands(page: Any, table_id: str, count: int, seconds: float = 120) -> None:
    """Until ``count`` hands have finished at the table (the deadline only ends a stuck run)."""
    deadline = time.monotonic() + seconds
    while len(finished(page, f"table_id={table_id}")) < count:
        assert time.monotonic() < deadline, f"fewer than {count} hands at {table_id}"
        page.wait_for_timeout(200)


def seat_bots(page: Any, table_id: str, count: int) -> None:
    for _ in range(count):
        added = page.request.post(f"/api/tables/{table_id}/bots", data={})
        assert added.status == 201, added.text()


def stand_bots_up(page: Any, table_id: str, seconds: float = 120) -> None:
    """Every bot at the table stands up (at the end of the hand in play); until none sits."""
    summary = page.request.get(f"/api/tables/{table_id}").json()
    for seat in summary["seats"]:
        gone = page.request.delete(f"/api/tables/{table_id}/bots/{seat['seat']}")
        assert gone.status == 200, gone.text()
    deadline = time.monotonic() + seconds
    while page.request.get(f"/api/tables/{table_id}").json()["seats"]:
        assert time.monotonic() < deadline, "the bots never stood up"
        page.wait_for_timeout(200)


def unlock(page: Any) -> None:
    page.goto("/admin")
    page.fill("#login-token", ADMIN_TOKEN)
    page.click("#login-submit")
    expect(page.locator("#admin-main")).to_be_visible()
    expect(page.locator("#audit-verdict")).to_be_visible()


def hand_ids(page: Any) -> set[str]:
    rows = page.locator("#hands-table tbody tr[data-hand-id]")
    return {rows.nth(i).get_attribute("data-hand-id") or "" for i in range(rows.count())}


@pytest.mark.browser
def test_the_owner_closes_a_room_and_its_hands_are_one_list(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(LAPTOP)
    choose_name(ada, "Ada Lantern")
    side = ada.request.post(
        "/api/tables", data={"game": "greek-31", "name": SIDE, "options": FIRST}
    )
    assert side.status == 201, side.text()
    side_id = side.json()["table_id"]
    made = ada.request.post("/api/rooms", data={"game": "greek-31", "name": ROOM, "options": FIRST})
    assert made.status == 201, made.text()
    room_id, first = made.json()["room_id"], made.json()["table_id"]
    seat_bots(ada, side_id, 3)
    seat_bots(ada, first, 3)
    ada.goto(made.json()["url"])
    hands_link = ada.locator(".room-hands-link")
    expect(hands_link).to_have_attribute("href", f"/tables/{first}/history?room_id={room_id}")
    wait_for_hands(ada, side_id, 1)
    wait_for_hands(ada, first, 2)
    stand_bots_up(ada, side_id)

    # the room's bots stand up; Ada switches the game from the room's form
    stand_bots_up(ada, first)
    ada.get_by_label("Next game").select_option("vingt-un")
    ada.locator("#room-switch").click()
    expect(ada.locator("#game-title")).to_have_text("Vingt-un")
    second = ada.evaluate("document.querySelector('#table-page').dataset.tableId")
    assert second != first
    expect(hands_link).to_have_attribute("href", f"/tables/{second}/history?room_id={room_id}")
    # the room's page with its links (the evening's hands beside its settle-up) passes axe
    found = grave(ada)
    assert not found, describe(found)
    ada.set_viewport_size(NARROW)
    shot(ada, "room-narrow", full_page=False)
    ada.set_viewport_size(LAPTOP)
    seat_bots(ada, second, 2)
    wait_for_hands(ada, second, 1)
    # the hands stop (a list that stays put), a bot stays seated alone (Vingt-un deals to two)
    stand_bots_up(ada, second)
    seat_bots(ada, second, 1)

    # the table's history: its own hands; the room filter offers the room, by name and date
    ada.goto(f"/tables/{side_id}/history")
    expect(ada.locator("#history-title")).to_have_text("Hands at this table")
    expect(ada.locator("#hands-table tbody tr[data-hand-id]").first).to_be_visible()
    side_hands = {h["hand_id"] for h in finished(ada, f"table_id={side_id}")}
    assert hand_ids(ada) <= side_hands
    picker = ada.get_by_label("Hands of")
    expect(picker).to_be_visible()
    expect(picker.locator("option", has_text=f"Room: {ROOM} · ")).to_have_count(1)
    picker.select_option(room_id)
    ada.locator("#room-filter-go").click()
    expect(ada).to_have_url(f"{live_server.url}/tables/{side_id}/history?room_id={room_id}")
    expect(ada.locator("#history-title")).to_have_text(
        f"Hands in the room {ROOM}, at each of its tables"
    )
    expect(picker).to_have_value(room_id)
    expect(ada.locator("#room-settle")).to_have_attribute("href", f"/settle?room={room_id}")
    room_hands = finished(ada, f"room_id={room_id}")
    assert {h["table_id"] for h in room_hands} == {first, second}
    newest = [h["hand_id"] for h in room_hands[:25]]
    rows = ada.locator("#hands-table tbody tr[data-hand-id]")
    expect(rows.first).to_have_attribute("data-hand-id", newest[0])
    shown = hand_ids(ada)
    assert shown and shown <= {h["hand_id"] for h in room_hands}, "only the room's hands"
    assert not shown & side_hands
    # table after table: the hands of both its games
    expect(ada.locator("#hands-table tbody")).to_contain_text("Greek 31")
    expect(ada.locator("#hands-table tbody")).to_contain_text("Vingt-un")
    # by game: Greek 31 alone is the room's first table
    ada.get_by_label("Game").select_option("greek-31")
    ada.locator(".list-filters button[type=submit]").click()
    expect(rows.first).to_contain_text("Greek 31")
    expect(ada.locator("#hands-table tbody")).not_to_contain_text("Vingt-un")
    ada.get_by_label("Game").select_option("")
    ada.locator(".list-filters button[type=submit]").click()
    expect(rows.first).to_have_attribute("data-hand-id", newest[0])
    found = grave(ada)
    assert not found, describe(found)
    shot(ada, "history-wide")
    ada.set_viewport_size(NARROW)
    shot(ada, "history-narrow")
    ada.set_viewport_size(LAPTOP)

    # the owner sees the room on /admin
    owner = open_page(LAPTOP)
    unlock(owner)
    card = owner.locator(f'.admin-room-card[data-room-id="{room_id}"]')
    expect(card).to_contain_text(ROOM)
    expect(card).to_contain_text("hosted by Ada Lantern")
    expect(card).to_contain_text("2 tables")
    expect(card.locator(".admin-room-now")).to_contain_text("Vingt-un")
    expect(card.locator(".admin-room-table")).to_have_attribute("href", f"/tables/{second}")
    expect(card.locator(".admin-room-seated li")).to_have_count(1)
    expect(card.locator(".admin-table-name")).to_have_attribute("href", f"/rooms/{room_id}")
    expect(owner.locator("#admin-actions")).to_contain_text(
        f"The room's host, Ada Lantern, switched the room \u201c{ROOM}\u201d to Vingt-un"
    )
    found = grave(owner)
    assert not found, describe(found)
    shot(owner, "admin-wide")
    owner.set_viewport_size(NARROW)
    shot(owner, "admin-narrow")
    owner.locator("#rooms-title").scroll_into_view_if_needed()
    shot(owner, "admin-narrow-rooms", full_page=False)
    owner.set_viewport_size(LAPTOP)

    # and closes it, with a reason: the card goes, the log says so, the audit balances
    card.locator('[data-act="close-room"]').click()
    reason = card.get_by_label(f"Why you close the room {ROOM}")
    expect(reason).to_be_focused()
    reason.fill("Lights out")
    found = grave(owner)
    assert not found, describe(found)
    card.scroll_into_view_if_needed()
    shot(owner, "admin-closing", full_page=False)
    card.locator('[data-act="close-room-confirm"]').click()
    expect(card).to_have_count(0)
    log = owner.locator("#admin-actions li").first
    expect(log).to_contain_text(f"Closed the room \u201c{ROOM}\u201d and its table")
    expect(log).to_contain_text("Lights out")
    expect(owner.locator("#audit-verdict")).to_have_attribute("data-balanced", "true")
    room = owner.request.get(f"/api/rooms/{room_id}").json()
    assert room["status"] == "closed" and room["table"] is None
    # the room's hands stay: its history, opened again, still lists them
    ada.reload()
    expect(rows.first).to_have_attribute("data-hand-id", newest[0])
    expect(ada.locator(".review-nav a")).to_have_text("Back to the table")
