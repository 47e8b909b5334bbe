"""The host's controls and who may come in: admin refusals, chips through the
ledger, pause with a reason, remove a seat, close a table, private tables, recovery codes."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.api.test_socket import FAST, audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}

ADMIN_CALLS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/admin/audit", None),
    ("GET", "/api/admin/recovery", None),
    ("POST", "/api/admin/house", {"amount": 10}),
    ("GET", "/api/admin/bots", None),
    ("POST", "/api/admin/bots", {"amount": 10}),
    ("GET", "/api/admin/players", None),
    ("POST", "/api/admin/players/x/chips", {"amount": 5, "reason": "gift"}),
    ("GET", "/api/admin/tables", None),
    ("POST", "/api/admin/tables/x/pause", {"reason": "dinner"}),
    ("POST", "/api/admin/tables/x/resume", None),
    ("POST", "/api/admin/tables/x/close", {}),
    ("DELETE", "/api/admin/tables/x/seats/0", None),
    ("POST", "/api/admin/tables/x/bots", None),
    ("DELETE", "/api/admin/tables/x/bots/0", None),
    ("POST", "/api/admin/tables/x/seed", {"seed": "00"}),
    ("GET", "/api/admin/settings", None),
    ("PUT", "/api/admin/settings", {"starting_bankroll": 5}),
    ("GET", "/api/admin/actions", None),
    ("GET", "/api/admin/rooms", None),
    ("POST", "/api/admin/rooms/x/close", {"reason": "home time"}),
]


@pytest.mark.parametrize(("method", "path", "body"), ADMIN_CALLS)
async def test_every_admin_call_refuses_non_hosts(
    live: LiveServer, method: str, path: str, body: dict[str, Any] | None
) -> None:
    player = await Player.join(live, "Mallory")
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        for headers in (
            {},
            {"authorization": "Bearer wrong"},
            {"authorization": f"Bearer {player.token}"},
        ):
            response = await http.request(method, path, json=body, headers=headers)
            assert response.status_code == 403, (path, headers, response.text)
    await player.close()


async def test_the_refusal_list_covers_every_admin_route(live: LiveServer) -> None:
    """A new host call must join ADMIN_CALLS (so its refusal of non-hosts is tested)."""
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        paths = (await http.get("/openapi.json")).json()["paths"]
    routes = {
        (method.upper(), path)
        for path, methods in paths.items()
        if path.startswith("/api/admin")
        for method in methods
    }
    missing = {
        (method, path)
        for method, path in routes
        if not any(
            m == method and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", path), p)
            for m, p, _ in ADMIN_CALLS
        )
    }
    assert not missing, f"admin routes missing from ADMIN_CALLS: {sorted(missing)}"


async def test_host_seats_and_removes_a_bot_and_both_are_recorded(live: LiveServer) -> None:
    opener = await Player.join(live, "Opener")
    table_id = await opener.open_table("trianta-ena", **FAST)
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
        seat = (await host.post(f"/api/admin/tables/{table_id}/bots")).json()["seat"]
        removed = await host.delete(f"/api/admin/tables/{table_id}/bots/{seat}")
        assert removed.status_code == 200, removed.text
        assert removed.json()["seat"] == seat
        table = next(t for t in (await host.get("/api/admin/tables")).json())
        assert all(s["seat"] != seat or s["leaving"] for s in table["seats"])
        actions = (await host.get("/api/admin/actions")).json()
        assert [a["action"] for a in actions[:2]] == ["remove_bot", "add_bot"]
        assert actions[0]["detail"] == {"table_id": table_id, "seat": seat}
        nobody = await host.delete(f"/api/admin/tables/{table_id}/bots/7")
        assert nobody.status_code == 404
    await opener.close()


async def test_host_grants_and_takes_chips_through_the_ledger(live: LiveServer) -> None:
    player = await Player.join(live, "Ada")
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
        granted = await host.post(
            f"/api/admin/players/{player.player_id}/chips",
            json={"amount": 250, "reason": "birthday"},
        )
        assert granted.json()["bankroll"] == 1250
        taken = await host.post(
            f"/api/admin/players/{player.player_id}/chips",
            json={"amount": -1000, "reason": "correction"},
        )
        assert taken.json()["bankroll"] == 250
        too_much = await host.post(
            f"/api/admin/players/{player.player_id}/chips", json={"amount": -251, "reason": "no"}
        )
        assert too_much.status_code == 409
        house = await host.post("/api/admin/house", json={"amount": 500})
        assert house.status_code == 200
        result = (await host.get("/api/admin/audit")).json()
        assert result["balanced"] is True
        assert result["house"] == live.settings.house_float + 500
        actions = [a["action"] for a in (await host.get("/api/admin/actions")).json()]
        assert actions[:3] == ["fund_house", "take_chips", "grant_chips"]
        assert (await host.put("/api/admin/settings", json={"starting_bankroll": 77})).is_success
    newcomer = await Player.join(live, "Newcomer")
    assert newcomer.info["bankroll"] == 77
    for person in (player, newcomer):
        await person.close()


async def test_pause_shows_the_reason_and_stops_play(live: LiveServer) -> None:
    banker, player = await Player.join(live, "B"), await Player.join(live, "P")
    table_id = await banker.open_table("trianta-ena", **FAST)
    for i, person in enumerate((banker, player)):
        await person.connect(table_id)
        await person.sit(300 if i == 0 else 100, seat=i)
    await player.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
        await host.post(f"/api/admin/tables/{table_id}/pause", json={"reason": "pizza"})
        view = await player.wait_for(lambda v: v["table"]["status"] == "paused")
        assert view["table"]["pause_reason"] == "pizza" and view["deadline"] is None
        assert view["legal"] == []  # docs/protocol.md: every action in legal is accepted
        reply = await player.act({"kind": "bet", "amount": 1})
        assert reply["code"] == "table_paused" and "pizza" in reply["message"]
        await host.post(f"/api/admin/tables/{table_id}/resume")
        view = await player.wait_for(lambda v: v["table"]["status"] == "open")
        assert any(t["kind"] == "bet" for t in view["legal"])
        assert (await player.act({"kind": "bet", "amount": 1}))["type"] == "ack"
    await banker.close()
    await player.close()


async def test_remove_a_seat_and_close_a_table_return_the_stacks(live: LiveServer) -> None:
    banker, player = await Player.join(live, "B"), await Player.join(live, "P")
    table_id = await banker.open_table("trianta-ena", **FAST)
    for i, person in enumerate((banker, player)):
        await person.connect(table_id)
        await person.sit(300 if i == 0 else 100, seat=i)
    await player.wait_for(lambda v: v["hand_id"] is not None)
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
        removed = (await host.delete(f"/api/admin/tables/{table_id}/seats/1")).json()
        assert removed["pending"] is True  # in a hand: stands up when the hand is over
        row = next(t for t in (await host.get("/api/admin/tables")).json())
        assert {s["seat"]: s["leaving"] for s in row["seats"]} == {0: False, 1: True}
        await player.wait_for(lambda v: v["you"] is None, timeout=60)
        await live.services.writer.flush()
        me = (await player.http.get("/api/me")).json()
        assert me["bankroll"] >= 900  # the whole stack came back
        closed = await host.post(f"/api/admin/tables/{table_id}/close", json={"reason": "bye"})
        assert closed.json()["status"] == "closed"
        await live.services.writer.flush()
        assert (await banker.http.get("/api/me")).json()["bankroll"] + me["bankroll"] == 2000
        assert (await host.get(f"/api/tables/{table_id}")).status_code == 404
        assert (await audit(live))["balanced"] is True
    await banker.close()
    await player.close()


async def test_private_tables_need_their_invite(live: LiveServer) -> None:
    opener, stranger = await Player.join(live, "Opener"), await Player.join(live, "Stranger")
    response = await opener.http.post(
        "/api/tables", json={"game": "greek-31", "private": True, "options": {}}
    )
    table = response.json()
    table_id, invite = table["table_id"], table["invite_code"]
    assert table["private"] is True and invite
    listed = [t["table_id"] for t in (await stranger.http.get("/api/tables")).json()]
    assert table_id not in listed
    assert table_id in [t["table_id"] for t in (await opener.http.get("/api/tables")).json()]
    assert (await stranger.http.get(f"/api/tables/{table_id}")).status_code == 404
    assert (await stranger.http.get(f"/tables/{table_id}")).status_code == 404
    ok = await stranger.http.get(f"/api/tables/{table_id}", params={"invite": invite})
    assert ok.status_code == 200 and "invite_code" not in ok.json()
    with pytest.raises(ConnectionError):
        await stranger.connect(table_id)
    await stranger.connect(table_id, invite=invite)
    assert stranger.view is not None and stranger.view["table_id"] == table_id
    await opener.close()
    await stranger.close()


async def test_a_recovery_code_carries_the_identity_to_another_device(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    code = (await ada.http.post("/api/me/recovery")).json()["code"]
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
    ) as device:
        redeemed = await device.post("/api/session/recover", json={"code": code})
        assert redeemed.status_code == 200
        assert redeemed.json()["player_id"] == ada.player_id
        me = await device.get("/api/me")  # by the cookie the recovery set
        assert me.json()["player_id"] == ada.player_id
        assert (await device.post("/api/session/recover", json={"code": "nope"})).status_code == 404
    fresh = (await ada.http.post("/api/me/recovery")).json()["code"]
    assert fresh != code
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
    ) as device:
        stale = await device.post("/api/session/recover", json={"code": code})
        assert stale.status_code == 404
    await ada.close()
