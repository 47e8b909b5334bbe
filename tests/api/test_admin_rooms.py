"""The server's owner above all rooms, through the real app (docs/protocol/admin.md, "GET
/api/admin/rooms" and "POST /api/admin/rooms/{room_id}/close"; docs/rules.md §0.15): the open
rooms listed with their host, their table now and who sits there; a room closed from there
closes its table for good (the hand in play void, every stack home) and the room with it,
in the host's log, the audit balanced after. And a player's own rooms (``GET /api/rooms``) and a
room's hand history page (``/tables/{id}/history?room_id=``), for whom may see the room only
(docs/review.md, "Pages").
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.test_rooms import FRIENDS, bankroll, closed_with, open_room, play_a_hand, switch
from tests.api.test_socket import audit
from tests.api.test_table_host import host_log
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.waiting import until

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}


async def as_owner(live: LiveServer, method: str, path: str, **kw: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        return await http.request(method, path, **kw)


async def listed(live: LiveServer, room_id: str) -> dict[str, Any] | None:
    response = await as_owner(live, "GET", "/api/admin/rooms")
    assert response.status_code == 200, response.text
    return next((r for r in response.json() if r["room_id"] == room_id), None)


async def test_the_owner_lists_the_open_rooms_and_closes_one_with_its_table(
    database_url: str,
) -> None:
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
        start = {p.name: await bankroll(p) for p in (ada, ben)}
        opened = await open_room(ada, "vingt-un", name="Friday")
        room_id, first = opened["room_id"], opened["table_id"]
        for p in (ada, ben):
            await p.connect(first)
        await cy.connect(first)  # watching
        await ada.sit(200, seat=0)
        await ben.sit(100, seat=1)

        # the owner's only: no token, or a player's, is refused and changes nothing
        async with httpx.AsyncClient(base_url=live.base_url) as stranger:
            assert (await stranger.get("/api/admin/rooms")).status_code == 403
            refused = await stranger.post(f"/api/admin/rooms/{room_id}/close", json={})
            assert refused.status_code == 403
        assert (await ada.http.get("/api/admin/rooms")).status_code == 403
        refused = await ada.http.post(f"/api/admin/rooms/{room_id}/close", json={})
        assert refused.status_code == 403
        assert live.services.lobby.rooms.get(room_id) is not None

        room = await listed(live, room_id)
        assert room is not None, "the open room is listed"
        assert room["name"] == "Friday" and room["url"] == f"/rooms/{room_id}"
        assert room["host"] == {"player_id": ada.player_id, "name": "Ada"}
        assert room["table"]["table_id"] == first and room["table"]["game"] == "vingt-un"
        assert room["table"]["path"] == f"/tables/{first}"
        assert room["tables_played"] == 1 and room["hands"] == 0
        assert [(s["seat"], s["name"]) for s in room["seated"]] == [(0, "Ada"), (1, "Ben")]
        assert room["watching"] == 1

        # the room moves to Greek 31: the list follows it
        await switch(ada, "greek-31")
        second = (await closed_with(ada))[0]["table_id"]
        await closed_with(ben)
        await closed_with(cy)
        room = await listed(live, room_id)
        assert room is not None and room["tables_played"] == 2
        assert room["table"]["table_id"] == second and room["table"]["game"] == "greek-31"
        assert [s["name"] for s in room["seated"]] == ["Ada", "Ben"]

        # a hand in play when the owner closes the room: it is void, every stack goes home
        for p in (ada, ben):
            await p.connect(second)
            await p.wait_for(lambda v: any(t["kind"] == "ready" for t in v["legal"]))
            assert (await p.act({"kind": "ready"}))["type"] == "ack"
        actor = live.services.lobby.get(second)
        assert actor is not None
        await until(lambda: actor.core.hand is not None, "a hand dealt at Greek 31")
        closed = await as_owner(
            live, "POST", f"/api/admin/rooms/{room_id}/close", json={"reason": "Closing time"}
        )
        assert closed.status_code == 200, closed.text
        assert closed.json() == {"room_id": room_id, "status": "closed", "table_id": second}
        for p in (ada, ben):
            await until(lambda p=p: p.ws.close_code is not None, f"{p.name}'s socket closed")
            assert p.ws.close_code == 1001
        assert actor.closed and live.services.lobby.rooms.get(room_id) is None
        assert {p.name: await bankroll(p) for p in (ada, ben)} == start
        view = (await cy.http.get(f"/api/rooms/{room_id}")).json()
        assert view["status"] == "closed" and view["table"] is None
        assert (await ada.http.get(f"/api/tables/{second}")).status_code == 404
        assert await listed(live, room_id) is None

        # in the host's log, with the reason; the audit balances
        entry = next(r for r in await host_log(live) if r["action"] == "close_room")
        assert entry["detail"] == {"room_id": room_id, "name": "Friday", "table_id": second}
        assert entry["note"] == "Closing time"
        result = await audit(live)
        assert result["balanced"] is True, result

        # clear refusals: a room closed already, a room never opened
        again = await as_owner(live, "POST", f"/api/admin/rooms/{room_id}/close", json={})
        assert again.status_code == 409 and "closed already" in again.json()["detail"]
        nothing = await as_owner(live, "POST", "/api/admin/rooms/nope/close", json={})
        assert nothing.status_code == 404 and nothing.json()["detail"] == "no such room"
        for p in (ada, ben, cy):
            await p.close()
    finally:
        await live.stop()


async def test_a_private_room_is_listed_with_its_invite_and_closes_without_players(
    database_url: str,
) -> None:
    """A private room's links carry its invite; a room nobody sits in closes as well (its
    table closed, no chips to move)."""
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        ada = await Player.join(live, "Ada")
        opened = await open_room(ada, "greek-31", name="Hidden", private=True)
        room_id, table_id = opened["room_id"], opened["table_id"]
        room = await listed(live, room_id)
        assert room is not None and room["private"] is True
        invite = opened["invite_code"]
        assert room["url"] == f"/rooms/{room_id}?invite={invite}"
        assert room["table"]["path"] == f"/tables/{table_id}?invite={invite}"
        assert room["seated"] == [] and room["watching"] == 0
        closed = await as_owner(live, "POST", f"/api/admin/rooms/{room_id}/close")
        assert closed.status_code == 200, closed.text
        assert closed.json()["table_id"] == table_id
        actor = live.services.lobby.get(table_id)
        assert actor is None or actor.closed
        entry = next(r for r in await host_log(live) if r["action"] == "close_room")
        assert entry["note"] == "The host closed this room"
        assert (await audit(live))["balanced"] is True
        await ada.close()
    finally:
        await live.stop()


async def test_a_players_rooms_and_a_rooms_history_page_for_whom_may_see_it(
    database_url: str,
) -> None:
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
        public = await open_room(ada, "vingt-un", name="Friday")
        await ben.connect(public["table_id"])
        await ben.sit(100)
        hidden = await open_room(ada, "greek-31", name="Upstairs", private=True)

        # Ben sat in Friday; Ada opened both; Cy played in none; nobody signed out sees any
        mine = (await ben.http.get("/api/rooms")).json()
        assert [(r["room_id"], r["name"]) for r in mine] == [(public["room_id"], "Friday")]
        assert mine[0]["tables"] == 1 and mine[0]["hands"] == 0
        assert mine[0]["games"] == ["vingt-un"] and mine[0]["status"] == "open"
        names = [r["name"] for r in (await ada.http.get("/api/rooms")).json()]
        assert sorted(names) == ["Friday", "Upstairs"]
        assert (await cy.http.get("/api/rooms")).json() == []
        async with httpx.AsyncClient(base_url=live.base_url) as stranger:
            assert (await stranger.get("/api/rooms")).status_code == 401

        # the room's hand history: for whom may see one of its tables
        page = f"/tables/{public['table_id']}/history"
        shown = await cy.http.get(page, params={"room_id": public["room_id"]})
        assert shown.status_code == 200
        assert "Hands in the room Friday, at each of its tables" in shown.text
        refused = await cy.http.get(page, params={"room_id": hidden["room_id"]})
        assert refused.status_code == 404 and "This room is not here" in refused.text
        invited = await cy.http.get(
            page, params={"room_id": hidden["room_id"], "invite": hidden["invite_code"]}
        )
        assert invited.status_code == 200 and "Upstairs" in invited.text
        assert (await ada.http.get(page, params={"room_id": hidden["room_id"]})).status_code == 200
        assert (await cy.http.get(page, params={"room_id": "nope"})).status_code == 404
        # the settle-up page of a room links to its hands
        settle = await ben.http.get("/settle", params={"room": public["room_id"]})
        assert f"{page}?room_id={public['room_id']}" in settle.text
        # the room's page links to them, beside its settle-up
        room_page = await ben.http.get(f"/rooms/{public['room_id']}")
        assert f"{page}?room_id={public['room_id']}" in room_page.text
        assert "Hands of this evening" in room_page.text
        for p in (ada, ben, cy):
            await p.close()
    finally:
        await live.stop()


async def test_a_hand_played_counts_in_the_players_rooms(database_url: str) -> None:
    """``hands`` counts the room's finished hands, at every table."""
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        ada, ben = [await Player.join(live, n) for n in ("Ada", "Ben")]
        opened = await open_room(ada, "vingt-un", options={**FRIENDS, "turn_seconds": 60})
        for p in (ada, ben):
            await p.connect(opened["table_id"])
            await p.sit(200)
            await p.wait_for(lambda v: any(t["kind"] == "ready" for t in v["legal"]))
            assert (await p.act({"kind": "ready"}))["type"] == "ack"
        actor = live.services.lobby.get(opened["table_id"])
        await play_a_hand([ada, ben], actor, 3)
        mine = (await ben.http.get("/api/rooms")).json()
        assert mine[0]["hands"] == 1
        room = await listed(live, opened["room_id"])
        assert room is not None and room["hands"] == 1
        for p in (ada, ben):
            await p.close()
    finally:
        await live.stop()
