"""Operations: health, metrics, limits that trip while others are still served,
and a graceful shutdown that voids the hand in play and returns its stakes."""

from __future__ import annotations

import json
import logging

import httpx
import pytest
import websockets

from app.db.session import make_engine
from app.ops import logs
from tests.api.test_socket import FAST, audit, trianta_table
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.waiting import until


async def test_healthz_and_metrics(live: LiveServer) -> None:
    _, people = await trianta_table(live, 2)
    await people[1].wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    await people[1].act({"kind": "bet", "amount": 1})
    await people[1].act({"kind": "nonsense"})
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        health = await http.get("/healthz")
        assert health.status_code == 200 and health.json()["database"] == "ok"
        assert (await http.get("/metrics")).status_code == 403  # the host's only
        text = (await http.get("/metrics", headers={"authorization": f"Bearer {ADMIN_TOKEN}"})).text
    assert "table31_connections 2" in text
    assert 'table31_tables{game="trianta-ena"} 1' in text
    assert 'table31_actions_total{game="trianta-ena"} 1' in text
    assert 'table31_errors_total{code="unknown_action"} 1' in text
    assert "table31_action_seconds_count 1" in text
    assert 'table31_gc_pause_seconds_count{generation="2"}' in text
    for person in people:
        await person.close()


async def test_healthz_reports_an_unreachable_database(database_url: str) -> None:
    server = LiveServer(make_settings(database_url))
    await server.start()
    services = server.services
    unreachable = make_engine("sqlite+aiosqlite:////nonexistent-dir/table31.db")
    try:
        services.sessionmaker.configure(bind=unreachable)
        async with httpx.AsyncClient(timeout=30, base_url=server.base_url) as http:
            response = await http.get("/healthz")
        assert response.status_code == 503
        assert response.json()["status"] == "unhealthy"
    finally:
        services.sessionmaker.configure(bind=services.engine)
        await unreachable.dispose()
        await server.stop()


async def test_a_flood_is_refused_and_closed_while_others_are_served(database_url: str) -> None:
    server = LiveServer(make_settings(database_url, messages_per_second=5.0, message_burst=5))
    await server.start()
    try:
        flooder, calm = await Player.join(server, "Flood"), await Player.join(server, "Calm")
        table_id = await calm.open_table("trianta-ena", **FAST)
        await calm.connect(table_id)
        await flooder.connect(table_id)
        for _ in range(400):
            try:
                await flooder.send(json.dumps({"type": "ping"}))
            except websockets.ConnectionClosed:
                break
        # the server's close reaches the client soon, later on a loaded machine
        await until(lambda: flooder.ws.close_code is not None, "the flooder's socket closed")
        codes = [e["code"] for e in flooder.errors]
        assert "rate_limited" in codes
        assert flooder.ws.close_code == 1008
        # the calm client is still served at once
        await calm.send({"type": "ping"})
        assert (await calm.next_of("pong", timeout=30))["type"] == "pong"
        await calm.close()
        await flooder.http.aclose()
    finally:
        await server.stop()


async def test_huge_messages_and_too_many_connections_are_refused(database_url: str) -> None:
    server = LiveServer(make_settings(database_url, max_connections_per_address=3))
    await server.start()
    try:
        p = await Player.join(server, "Many")
        table_id = await p.open_table("trianta-ena", **FAST)
        await p.connect(table_id)
        await p.send("{" + " " * 10_000 + "}")
        assert (await p.next_of("error"))["code"] == "message_too_large"
        # beyond the frame limit the socket layer itself refuses (1009), server keeps going
        extra = [
            await websockets.connect(f"{server.ws_url}/ws/tables/{table_id}") for _ in range(3)
        ]
        refused = json.loads(await extra[-1].recv())
        assert refused["code"] == "rate_limited" and "too many connections" in refused["message"]
        for ws in extra:
            await ws.close()
        await p.send({"type": "ping"})
        assert (await p.next_of("pong"))["type"] == "pong"
        await p.close()
    finally:
        await server.stop()


async def test_behind_a_proxy_a_forged_forwarded_hop_does_not_escape_the_limits(
    database_url: str,
) -> None:
    """The proxy appends the real address; whatever the client put before it is ignored."""
    server = LiveServer(
        make_settings(database_url, max_connections_per_address=2, trust_proxy_headers=True)
    )
    await server.start()
    try:
        p = await Player.join(server, "Proxied")
        table_id = await p.open_table("trianta-ena", **FAST)
        sockets = [
            await websockets.connect(
                f"{server.ws_url}/ws/tables/{table_id}",
                additional_headers={"X-Forwarded-For": f"10.9.9.{i}, 203.0.113.7"},
            )
            for i in range(3)
        ]
        first = json.loads(await sockets[0].recv())
        assert first["type"] == "state"
        refused = json.loads(await sockets[-1].recv())
        assert refused["code"] == "rate_limited" and "too many connections" in refused["message"]
        # another real address is its own
        other = await websockets.connect(
            f"{server.ws_url}/ws/tables/{table_id}",
            additional_headers={"X-Forwarded-For": "203.0.113.8"},
        )
        assert json.loads(await other.recv())["type"] == "state"
        for ws in [*sockets, other]:
            await ws.close()
    finally:
        await server.stop()


async def test_graceful_shutdown_voids_the_hand_and_returns_stakes(database_url: str) -> None:
    server = LiveServer(make_settings(database_url))
    await server.start()
    _, (banker, player) = await trianta_table(server, 2)
    # a natural (the player's or the banker's) ends a hand with no decision in it: bet again in
    # the next hand until one stops at the player's hit or stand
    for _ in range(20):
        await player.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
        before = {s["seat"]: s["stack"] for s in player.view["seats"]}
        betting = player.view["hand_id"]
        assert (await player.act({"kind": "bet", "amount": 5}))["type"] == "ack"
        await player.wait_for(
            lambda v, betting=betting: (
                any(t["kind"] in ("hit", "stand", "bet") for t in v["legal"])
                and (v["hand_id"] != betting or v["legal"][0]["kind"] != "bet")
            )
        )
        if any(t["kind"] in ("hit", "stand") for t in player.view["legal"]):
            break
    else:
        raise AssertionError("twenty hands in a row ended without a decision")
    hand_id = player.view["hand_id"]
    await server.stop()  # SIGTERM's path: the lobby's shutdown, then uvicorn's
    assert banker.ws.close_code in (1001, 1012)
    await banker.http.aclose()
    await player.http.aclose()

    again = LiveServer(make_settings(database_url))
    await again.start()
    try:
        assert (await audit(again))["balanced"] is True
        async with httpx.AsyncClient(timeout=30, base_url=again.base_url) as http:
            hands = (await http.get("/api/hands")).json()["hands"]
            voided = next(h for h in hands if h["hand_id"] == hand_id)
            assert voided["status"] == "void"
        table = next(iter(again.services.lobby.tables.values()))
        assert {s: table.engine.stack(s) for s in table.roster} == before
    finally:
        await again.stop()


async def test_the_logs_never_carry_a_socket_token_or_invite(
    live: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """uvicorn logs every socket's path with its query string: the credentials in it (a
    player's token, a private table's invite) are blanked before the line is written."""
    names = ("", "uvicorn", "uvicorn.error", "uvicorn.access")
    saved = {n: (logging.getLogger(n).handlers[:], logging.getLogger(n).level) for n in names}
    saved_propagate = {n: logging.getLogger(n).propagate for n in names}
    player = await Player.join(live, "Quiet")
    try:
        logs.configure()
        logging.getLogger("uvicorn.error").setLevel(logging.INFO)
        response = await player.http.post(
            "/api/tables", json={"game": "greek-31", "private": True, "options": {}}
        )
        table = response.json()
        await player.connect(table["table_id"], invite=table["invite_code"])
        logging.getLogger("table31").info("check /recover?code=R3C0VERY&x=1")
    finally:
        logs.stop()  # the writing thread writes what is queued, then ends
        for n, (handlers, level) in saved.items():
            logger = logging.getLogger(n)
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = saved_propagate[n]
    err = capsys.readouterr().err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    accepted = [e["msg"] for e in lines if "WebSocket" in e["msg"]]
    assert accepted and f"/ws/tables/{table['table_id']}?token=" in accepted[0]
    for secret in (player.token, table["invite_code"], "R3C0VERY"):
        assert secret not in err
    await player.close()
