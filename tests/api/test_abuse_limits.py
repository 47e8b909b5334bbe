"""Limits against abuse, through the real app: message budgets that survive reconnecting, a
flood that does not silence a neighbour on the same address, sockets from other sites, and
bot tables nobody watches (docs/protocol.md §5.6, §4.5, §4.6)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import websockets

from app.api.deps import COOKIE
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


Serve = Callable[..., Any]


@pytest.fixture
async def serve(database_url: str) -> AsyncIterator[Serve]:
    """Start the real app with some settings changed (one server per test)."""
    servers: list[LiveServer] = []

    async def start(**overrides: Any) -> LiveServer:
        server = LiveServer(make_settings(database_url, **overrides))
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()


def spectator(live: LiveServer, name: str = "watcher") -> Player:
    return Player(live.base_url, live.ws_url, name, "", {})


async def test_a_message_budget_survives_reconnecting(serve: Serve) -> None:
    """Closing the last socket of an address and opening another once handed out a fresh
    burst: 8,200 pongs in 3 s against 100 a second and a burst of 200."""
    live = await serve(messages_per_second=20, message_burst=40, address_messages_per_second=100)
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    pongs = sockets = 0
    started = time.monotonic()
    while sockets < 25:
        flooder = spectator(live, f"flood{sockets}")
        await flooder.connect(table_id)
        for _ in range(39):  # with the act below, this socket's own burst
            await flooder.send({"type": "ping"})
        # an act is always answered, in order: the pings' answers have all come before it
        reply = await flooder.act({"kind": "x"}, msg_id=f"end-{sockets}")
        assert reply["code"] in ("not_seated", "rate_limited")
        await flooder.disconnect()
        pongs += sum(1 for m in flooder.notices if m["type"] == "pong")
        sockets += 1
        while live.services.limits.open:  # the server has let the socket go
            await asyncio.sleep(0.001)
    elapsed = time.monotonic() - started
    budget = live.settings.address_message_burst + 100 * elapsed
    assert pongs <= budget + 1, (pongs, elapsed)
    assert pongs < 25 * 40  # without the address's memory, every socket's burst went through


async def test_idle_budgets_are_forgotten_once_refilled(serve: Serve) -> None:
    """The buckets of addresses that have gone are dropped once full again: memory stays
    bounded by the addresses of the last seconds."""
    live = await serve(
        trust_proxy_headers=True, address_messages_per_second=1000, address_message_burst=50
    )
    limits = live.services.limits
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    before = limits.tracked
    for i in range(5):
        async with websockets.connect(
            f"{live.ws_url}/ws/tables/{table_id}",
            additional_headers={"X-Forwarded-For": f"10.0.0.{i}"},
        ) as ws:
            await ws.recv()
            await ws.send('{"type": "ping"}')
            await ws.recv()
    assert limits.tracked == before + 5  # kept while refilling (0.05 s here)
    await asyncio.sleep(1.1)  # past the sweep's interval
    last = spectator(live)
    await last.connect(table_id)  # a socket coming or going looks them over
    assert limits.tracked == before
    await last.close()


async def test_a_flood_does_not_silence_a_neighbour(serve: Serve) -> None:
    """A player on the same address as a flooder: every act is answered (an acked or
    refused act, or rate_limited with the act's id), within its fair share none is refused
    for the rate, and the flooder is still throttled and closed."""
    live = await serve(address_messages_per_second=100, address_message_burst=200)
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    honest = await Player.join(live, "Honest")
    await honest.connect(table_id)
    stop = asyncio.Event()
    closes: list[tuple[int, str]] = []
    pongs = 0

    async def flood() -> None:
        nonlocal pongs
        while not stop.is_set():
            async with websockets.connect(f"{live.ws_url}/ws/tables/{table_id}") as ws:
                reader = asyncio.create_task(_drain(ws))
                with contextlib.suppress(websockets.ConnectionClosed):
                    while not stop.is_set():
                        for _ in range(50):
                            await ws.send('{"type": "ping"}')
                        await asyncio.sleep(0)
                await ws.close()  # when the test is over (the server closed it otherwise)
                pongs += await reader
                if ws.close_code is not None and ws.close_code != 1000:
                    closes.append((ws.close_code, ws.close_reason or ""))

    flooder = asyncio.create_task(flood())
    await asyncio.sleep(0.3)  # the address's budget is spent
    answers: list[dict[str, Any]] = []
    started = time.monotonic()
    for i in range(30):
        answers.append(await honest.act({"kind": "stake", "amount": 10}, msg_id=f"h-{i}"))
        await asyncio.sleep(max(0.0, started + (i + 1) / 15 - time.monotonic()))  # 15 a second
    elapsed = time.monotonic() - started
    stop.set()
    await flooder
    assert [a["id"] for a in answers] == [f"h-{i}" for i in range(30)]
    codes = [a.get("code") for a in answers]
    assert "rate_limited" not in codes, codes
    assert set(codes) == {"not_seated"}
    assert (1008, "too many messages") in closes
    assert pongs <= 200 + 100 * (elapsed + 0.5), pongs
    await honest.close()


async def _drain(ws: Any) -> int:
    """Read a socket until it closes; the pongs it got."""
    pongs = 0
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in ws:
            pongs += json.loads(raw)["type"] == "pong"
    return pongs


async def test_every_refused_act_is_answered_with_its_id(serve: Serve) -> None:
    """Over the limit, each act is still answered (rate_limited, carrying its id), so the
    client knows which to send again; pings past the first go unanswered."""
    live = await serve(messages_per_second=5, message_burst=5)
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    p = spectator(live)
    await p.connect(table_id)
    for _ in range(5):
        await p.send({"type": "ping"})
    for i in range(10):
        await p.send({"type": "act", "id": f"a-{i}", "version": 0, "action": {"kind": "x"}})
    answers: list[dict[str, Any]] = []
    while len(answers) < 5 + 10:
        message = await p.receive()
        if message["type"] != "chat_history":  # the table's chat, sent after the first state
            answers.append(message)
    assert [m["type"] for m in answers[:5]] == ["pong"] * 5
    refused = answers[5:]
    assert {m["code"] for m in refused} == {"rate_limited"}
    assert [m["id"] for m in refused] == [f"a-{i}" for i in range(10)]
    await p.close()


async def test_a_socket_from_another_sites_page_is_refused(live: LiveServer) -> None:
    """A browser names the page opening a socket in Origin; another site's page (which would
    act with the visitor's cookie) is refused, this site's pages and clients that send no
    Origin (bots, scripts) are let in."""
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    url = f"{live.ws_url}/ws/tables/{table_id}"
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{live.settings.port + 1}"):
        async with websockets.connect(url, origin=origin) as ws:
            error = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
        assert error == {
            "type": "error",
            "code": "cross_site",
            "message": "a page of another site may not open this socket",
        }
        assert (ws.close_code, ws.close_reason) == (
            1008,
            "a page of another site may not open this socket",
        )
    assert live.services.limits.open == {}  # refused before it counted
    for origin in (f"http://127.0.0.1:{live.settings.port}", None):
        async with websockets.connect(url, origin=origin) as ws:
            assert json.loads(await ws.recv())["type"] == "state"


async def test_one_player_may_open_so_many_tables(serve: Serve) -> None:
    live = await serve(max_tables_per_player=2)
    ada = await Player.join(live, "Ada")
    for _ in range(2):
        await ada.open_table("greek-31")
    refused = await ada.http.post("/api/tables", json={"game": "greek-31"})
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "you have 2 open tables, the most one player may open: play at one of them, or close "
        "one (its page has 'Close table' for its opener)"
    )
    assert await (await Player.join(live, "Basil")).open_table("greek-31")  # another may
    # the host may open more, signed in as a player (the cookie) with the admin token
    async with httpx.AsyncClient(
        base_url=live.base_url, cookies={COOKIE: ada.token}, headers={"origin": live.base_url}
    ) as host:
        opened = await host.post(
            "/api/tables", params={"admin_token": ADMIN_TOKEN}, json={"game": "greek-31"}
        )
        assert opened.status_code == 201, opened.text
    # a table the host closes no longer counts
    async with httpx.AsyncClient(base_url=live.base_url, headers=bearer(ADMIN_TOKEN)) as host:
        closed = await host.post(f"/api/admin/tables/{opened.json()['table_id']}/close", json={})
        assert closed.status_code == 200, closed.text
        mine = [t for t in live.services.lobby.tables.values() if t.created_by == ada.player_id]
        closed = await host.post(f"/api/admin/tables/{mine[0].table_id}/close", json={})
        assert closed.status_code == 200, closed.text
    assert await ada.open_table("greek-31")
    await ada.close()


async def test_a_table_may_have_so_many_bots(serve: Serve) -> None:
    live = await serve(max_bots_per_table=2)
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("greek-31")
    added = await asyncio.gather(
        *(ada.http.post(f"/api/tables/{table_id}/bots", json={}) for _ in range(4))
    )  # at once: the bots being seated count too
    assert sorted(r.status_code for r in added) == [201, 201, 409, 409]
    refused = next(r for r in added if r.status_code == 409)
    assert refused.json()["detail"] == "a table may have at most 2 bots"
    async with httpx.AsyncClient(base_url=live.base_url, headers=bearer(ADMIN_TOKEN)) as host:
        more = await host.post(f"/api/tables/{table_id}/bots", json={})  # the host: any
        assert more.status_code == 201, more.text
    await ada.close()


async def test_a_table_of_bots_rests_while_nobody_is_there(serve: Serve) -> None:
    """Bots alone would play forever (116 tables of them wrote 32 MB a minute): after
    BOT_TABLE_IDLE_SECONDS without a person the table finishes its hand and deals no more,
    and deals again as soon as someone connects."""
    live = await serve(bot_table_idle_seconds=1.0)
    opener = await Player.join(live, "Opener")
    table_id = await opener.open_table("trianta-ena", turn_seconds=5, bet_seconds=5)
    for _ in range(2):
        assert (await opener.http.post(f"/api/tables/{table_id}/bots", json={})).is_success
    table = live.services.lobby.get(table_id)
    assert table is not None

    async def summary() -> dict[str, Any]:
        response = await opener.http.get(f"/api/tables/{table_id}")
        return response.json()  # type: ignore[no-any-return]

    async def until(predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(500):
            found = await summary()
            if predicate(found):
                return found
            await asyncio.sleep(0.02)
        raise AssertionError(f"never: {found}")

    await until(lambda s: s["hands_played"] >= 1)  # the bots play...
    rested = await until(lambda s: s["resting"] and not s["in_hand"])  # ...then rest
    await asyncio.sleep(1.1)
    still = await summary()
    assert still["hands_played"] == rested["hands_played"] and still["resting"], still

    watcher = spectator(live)
    await watcher.connect(table_id)
    assert watcher.view is not None and watcher.view["table"]["message"] is None
    woken = await until(lambda s: s["hands_played"] > rested["hands_played"])
    assert woken["resting"] is False
    await watcher.close()  # alone again: resting after the idle time, not at once
    assert (await summary())["resting"] is False
    await until(lambda s: s["resting"])
    assert table.message is not None and "bots have stopped dealing" in table.message
    await opener.close()
