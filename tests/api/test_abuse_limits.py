"""Limits against abuse, through the real app: message budgets that survive reconnecting, a
flood that does not silence a neighbour on the same address, sockets from other sites, and
bot tables nobody watches (docs/protocol.md §5.6, §4.5, §4.6)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import websockets

from app.api.deps import COOKIE
from app.runtime import limits as limits_module
from app.runtime.limits import SWEEP_SECONDS
from tests import waiting
from tests.api.table_clock import TableClock
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, Serve


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


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


async def test_idle_budgets_are_forgotten_once_refilled(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The buckets of addresses that have gone are dropped once full again: memory stays
    bounded by the addresses of the last seconds.

    The sweep's time (app/runtime/limits.py reads ``time.monotonic`` for it alone) is the
    test's: held back while the sockets come and go, then moved on, so that the sweep is due
    while the buckets are refilling (one token takes 100 s here) and again once they are
    full; no wait on the wall."""
    live = await serve(
        trust_proxy_headers=True, address_messages_per_second=0.01, address_message_burst=50
    )
    sweep_time = SimpleNamespace(at=-1e9)  # long before the last sweep: none is due
    monkeypatch.setattr(limits_module, "time", SimpleNamespace(monotonic=lambda: sweep_time.at))
    limits = live.services.limits
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    before = limits.tracked
    addresses = [f"10.0.0.{i}" for i in range(5)]
    for address in addresses:
        async with websockets.connect(
            f"{live.ws_url}/ws/tables/{table_id}",
            additional_headers={"X-Forwarded-For": address},
        ) as ws:
            await ws.recv()
            await ws.send('{"type": "ping"}')  # a token of the address's budget
            await ws.recv()
    assert limits.tracked == before + 5
    deadline = time.monotonic() + 30  # for a stuck run only
    while any(address in limits.open for address in addresses):  # the server let them go
        assert time.monotonic() < deadline, limits.open
        await asyncio.sleep(0.01)

    # the sweep is due, the buckets still refilling (a token takes 100 s): all kept
    sweep_time.at = time.monotonic() + SWEEP_SECONDS + 1
    last = spectator(live)
    await last.connect(table_id)  # a socket coming or going looks them over
    assert limits.tracked == before + 5
    await last.close()
    # due again, long after they have refilled: all forgotten
    sweep_time.at = time.monotonic() + 1000
    last = spectator(live)
    await last.connect(table_id)
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
    spent = asyncio.Event()  # the flooder has been refused: the address's budget is spent
    closes: list[tuple[int, str]] = []
    pongs = 0

    async def flood() -> None:
        nonlocal pongs
        while not stop.is_set():
            async with websockets.connect(f"{live.ws_url}/ws/tables/{table_id}") as ws:
                reader = asyncio.create_task(_drain(ws, spent))
                with contextlib.suppress(websockets.ConnectionClosed):
                    while not stop.is_set():
                        for _ in range(50):
                            await ws.send('{"type": "ping"}')
                        await asyncio.sleep(0)
                await ws.close()  # when the test is over (the server closed it otherwise)
                pongs += await reader
                if ws.close_code is not None and ws.close_code != 1000:
                    closes.append((ws.close_code, ws.close_reason or ""))

    flooding_since = time.monotonic()
    flooder = asyncio.create_task(flood())
    await asyncio.wait_for(spent.wait(), 30)  # (a deadline for a stuck run only)
    answers: list[dict[str, Any]] = []
    started = time.monotonic()
    for i in range(30):
        # 15 a second, the first after a fifteenth of a second too: the honest socket's fair
        # share fills with time (a socket brings no burst of its own), and on a quick machine
        # the flooder spends the address's budget within milliseconds of connecting
        await asyncio.sleep(max(0.0, started + (i + 1) / 15 - time.monotonic()))
        answers.append(await honest.act({"kind": "stake", "amount": 10}, msg_id=f"h-{i}"))
    stop.set()
    await flooder
    # the budget over the whole flood, however long a busy machine made it: a burst and
    # 100 a second (the time the test saw encloses the time the server counted)
    flooded = time.monotonic() - flooding_since
    assert [a["id"] for a in answers] == [f"h-{i}" for i in range(30)]
    codes = [a.get("code") for a in answers]
    assert "rate_limited" not in codes, codes
    assert set(codes) == {"not_seated"}
    assert (1008, "too many messages") in closes
    assert pongs <= 200 + 100 * flooded, (pongs, flooded)
    await honest.close()


async def _drain(ws: Any, refused: asyncio.Event) -> int:
    """Read a socket until it closes; the pongs it got (``refused`` set at its first
    refusal for the rate)."""
    pongs = 0
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in ws:
            message = json.loads(raw)
            pongs += message["type"] == "pong"
            if message.get("code") == "rate_limited":
                refused.set()
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
        timeout=30,
        base_url=live.base_url,
        cookies={COOKIE: ada.token},
        headers={"origin": live.base_url},
    ) as host:
        opened = await host.post(
            "/api/tables", params={"admin_token": ADMIN_TOKEN}, json={"game": "greek-31"}
        )
        assert opened.status_code == 201, opened.text
    # a table the host closes no longer counts
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers=bearer(ADMIN_TOKEN)
    ) as host:
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
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers=bearer(ADMIN_TOKEN)
    ) as host:
        more = await host.post(f"/api/tables/{table_id}/bots", json={})  # the host: any
        assert more.status_code == 201, more.text
    await ada.close()


async def test_a_table_of_bots_rests_while_nobody_is_there(serve: Serve) -> None:
    """Bots alone would play forever (116 tables of them wrote 32 MB a minute): after
    BOT_TABLE_IDLE_SECONDS without a person the table finishes its hand and deals no more,
    and deals again as soon as someone connects.

    The table's clock (tests/api/table_clock.py) is moved on rather than waited for, and a
    table at rest is seen to have nothing set (no next hand, no bot, no clock), rather than
    seen not to deal for a while."""
    idle = 3600.0
    # (no empty-table sweep: the clock, moved on, would close the table of bots)
    live = await serve(bot_table_idle_seconds=idle, empty_table_close_minutes=0)
    clock = TableClock()
    live.services.lobby.clock = clock
    opener = await Player.join(live, "Opener")
    table_id = await opener.open_table("trianta-ena", turn_seconds=5, bet_seconds=5)
    for _ in range(2):
        assert (await opener.http.post(f"/api/tables/{table_id}/bots", json={})).is_success
    table = live.services.lobby.get(table_id)
    assert table is not None

    async def summary() -> dict[str, Any]:
        response = await opener.http.get(f"/api/tables/{table_id}")
        return response.json()  # type: ignore[no-any-return]

    async def until(
        predicate: Callable[[dict[str, Any]], bool], *, idling: bool = False
    ) -> dict[str, Any]:
        """Wait for ``predicate`` of the table's summary (``idling``: moving the table's clock
        on by the idle time at each look). The deadline is for a stuck run only."""
        deadline = time.monotonic() + 60
        while not predicate(found := await summary()):
            assert time.monotonic() < deadline, f"never: {found}"
            if idling:
                clock.pass_time(idle)
            await asyncio.sleep(0.02)
        return found

    await until(lambda s: s["hands_played"] >= 1)  # the bots play...
    assert not (await summary())["resting"]  # (not before the idle time has passed)
    rested = await until(lambda s: s["resting"] and not s["in_hand"], idling=True)  # ...rest
    # at rest, nothing is left set on its clock (a timer set before it came to rest runs out
    # and sets nothing more): nothing deals it a hand until someone comes
    await waiting.until(lambda: clock.pending == 0, "nothing left set on the table's clock")
    still = await summary()
    assert still["hands_played"] == rested["hands_played"] and still["resting"], still

    # a signed-in person: an anonymous socket keeps no table of bots dealing (test_bot_pool.py)
    watcher = await Player.join(live, "Watcher")
    await watcher.connect(table_id)
    assert watcher.view is not None and watcher.view["table"]["message"] is None
    woken = await until(lambda s: s["hands_played"] > rested["hands_played"])
    assert woken["resting"] is False
    await watcher.close()  # alone again: resting after the idle time, not at once
    assert (await summary())["resting"] is False
    await until(lambda s: s["resting"], idling=True)
    assert table.message is not None and "bots have stopped dealing" in table.message
    await opener.close()
