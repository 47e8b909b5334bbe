"""The shared lobby board across real node processes: a table served by one node is announced
by its owner and is in the other node's lobby, and leaves it when closed (announced gone); a
private table is listed only to its opener and its players (and the host), on every node. And
one board against a real Redis: another node's announcement is in its lobby with no reload of
the board (the announcement, not the periodic reload, is what brings a table at once), what
it missed while its connection was down comes back at the reconnection, a dead node's rows
leave the lobby and then the hash.

No wait is measured: each is for a condition, with a deadline only for a stuck run."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis

from app.cluster.board import Board
from app.cluster.bus import LOBBY, Bus
from app.db.writer.factory import make_writer
from app.runtime.lobby import Lobby
from tests.client import Player
from tests.cluster.harness import Cluster
from tests.cluster.nodes_client import (
    clusters_fixture,  # noqa: F401 (the fixture ``clusters``)
    host,
    ids,
    join,
    other,
    owner_of,
    until,
)
from tests.cluster.redis_util import drop_prefix, fresh_prefix, need_redis
from tests.conftest import make_settings

PATIENCE = 30.0
"""Seconds after which a wait gives up: a deadline for a stuck run, never a measure."""


async def listed(client: Any, table_id: str) -> bool:
    response = await client.get("/api/tables")
    response.raise_for_status()
    return table_id in ids(response.json())


@pytest.mark.cluster
async def test_a_table_is_announced_and_in_every_lobby(clusters: Any) -> None:
    cluster: Cluster = clusters("t31_c_board", 2, base_port=18300)
    await cluster.wait_healthy_async()
    # the lobby channel, heard as a node would (a bus of the test's own)
    heard: list[dict[str, Any]] = []
    spy = Bus(cluster.redis_url, cluster.redis_prefix, "spy")
    spy.on(LOBBY, heard.append)
    await spy.start()
    try:
        assert await spy.wait_connected(PATIENCE), "the test's bus never subscribed"
        ana = await join(cluster.node_url("n1"), "Ana")
        response = await ana.post("/api/tables", json={"game": "vingt-un"})
        assert response.status_code == 201, response.text
        table_id = response.json()["table_id"]
        owner = await owner_of(cluster, table_id)
        elsewhere = other(cluster, owner)
        seen_at = await join(cluster.node_url(elsewhere), "Basil")

        async def announced(part: str) -> bool:
            return any(m.get("from") == owner and table_id in (m.get(part) or ()) for m in heard)

        await until(lambda: announced("set"), PATIENCE, "the owner announcing the table")
        await until(lambda: listed(seen_at, table_id), PATIENCE, "listed at the other node")
        # the row is the owner's summary: the same table as the owner shows it
        rows = (await seen_at.get("/api/tables")).json()
        row = next(r for r in rows if r["table_id"] == table_id)
        assert row["game"] == "vingt-un" and row["created_by"] == ana.player_id

        closed = await ana.post(f"/api/tables/{table_id}/close")
        assert closed.status_code == 200, closed.text

        async def gone() -> bool:
            return not await listed(seen_at, table_id)

        await until(lambda: announced("gone"), PATIENCE, "the owner announcing it gone")
        await until(gone, PATIENCE, "gone from the other node's lobby")
        for client in (ana, seen_at):
            await client.aclose()
    finally:
        await spy.stop()


@pytest.mark.cluster
async def test_a_private_table_is_listed_to_its_opener_and_players_only(
    clusters: Any,
) -> None:
    cluster: Cluster = clusters("t31_c_private", 2, base_port=18310)
    await cluster.wait_healthy_async()
    ana = await join(cluster.node_url("n1"), "Ana")
    response = await ana.post(
        "/api/tables", json={"game": "vingt-un", "private": True, "options": {"approval": False}}
    )
    assert response.status_code == 201, response.text
    table = response.json()
    table_id = table["table_id"]
    owner = await owner_of(cluster, table_id)
    elsewhere = other(cluster, owner)
    url = cluster.node_url(elsewhere)
    ana_there = await join(url, "Ana's other device")
    ana_there.headers["authorization"] = ana.headers["authorization"]
    basil = await join(url, "Basil")
    clio = await join(url, "Clio")
    the_host = host(cluster, elsewhere)

    await until(lambda: listed(ana_there, table_id), PATIENCE, "listed to its opener elsewhere")
    assert await listed(the_host, table_id)
    assert not await listed(basil, table_id)
    anonymous = (await the_host.get("/api/tables", headers={"authorization": ""})).json()
    assert table_id not in ids(anonymous)
    # the host's list at the other node carries its invite, as the owner's does
    rows = (await the_host.get("/api/admin/tables")).json()
    row = next(r for r in rows if r["table_id"] == table_id)
    assert row["invite_code"] == table["invite_code"]

    # Basil sits down with the invite, on a socket through the front: now it is his table too
    player = Player(cluster.url, cluster.ws_url, "Basil", basil.info["token"], basil.info)
    await player.connect(table_id, invite=table["invite_code"])
    await player.sit(100)
    await until(lambda: listed(basil, table_id), PATIENCE, "listed to a player seated at it")
    assert not await listed(clio, table_id)
    await player.close()
    for client in (ana, ana_there, basil, clio, the_host):
        await client.aclose()


def summary_of(table_id: str) -> dict[str, Any]:
    return {"table_id": table_id, "private": False, "created_by": "p1", "seats": []}


def row_of(table_id: str, owner: str) -> bytes:
    """A row as a node writes it (board.py): its owner and the table's summary."""
    return orjson.dumps({"owner": owner, "row": summary_of(table_id)})


async def test_a_board_lists_what_another_node_announces_without_a_reload(
    tmp_path: Path,
) -> None:
    """Another node announces a table, then its end: this board (not started: no periodic
    reload; nothing in the hash either) lists it, then no more, from the announcements
    alone."""
    url = need_redis()
    prefix = fresh_prefix()
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'unused.db'}")
    lobby = Lobby(make_writer(settings), settings)  # no tables of its own
    bus, there = Bus(url, prefix, "here"), Bus(url, prefix, "there")
    board = Board(bus, lobby, "here")
    try:
        for one in (bus, there):
            await one.start()
            assert await one.wait_connected(PATIENCE)
        assert board.listed_elsewhere() == []
        entry = {"owner": "there", "row": summary_of("t-new")}
        await there.publish(LOBBY, {"kind": "rows", "set": {"t-new": entry}, "gone": []})
        await until(lambda: _async("t-new" in ids(board.listed_elsewhere())), PATIENCE, "listed")
        await there.publish(LOBBY, {"kind": "rows", "set": {}, "gone": ["t-new"]})
        await until(lambda: _async(board.listed_elsewhere() == []), PATIENCE, "no more listed")
    finally:
        await board.stop()
        await there.stop()
        await bus.stop()
        await drop_prefix(url, prefix)


async def _async(value: bool) -> bool:
    return value


async def test_a_board_reloads_what_it_missed_and_forgets_dead_nodes(tmp_path: Path) -> None:
    url = need_redis()
    prefix = fresh_prefix()
    settings = make_settings(f"sqlite+aiosqlite:///{tmp_path / 'unused.db'}")
    lobby = Lobby(make_writer(settings), settings)  # no tables of its own
    bus = Bus(url, prefix, "here")
    board = Board(bus, lobby, "here")
    redis = aioredis.Redis.from_url(url)
    try:
        await bus.start()
        assert await bus.wait_connected(30)
        # another node's row with no announcement (as if it were lost): this board (not
        # started: no periodic reload) finds it once its connection is killed and made again
        await redis.set(f"{prefix}alive:there", "there", px=60_000)
        await redis.hset(f"{prefix}tables", "t-missed", row_of("t-missed", "there"))
        assert board.listed_elsewhere() == []
        clients = await redis.client_list()
        (bus_client,) = [c["id"] for c in clients if c.get("name") == "table31-here-bus"]
        await redis.execute_command("CLIENT", "KILL", "ID", bus_client)
        deadline = time.monotonic() + 30  # for a stuck run only, never a measure
        while "t-missed" not in ids(board.listed_elsewhere()) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert "t-missed" in ids(board.listed_elsewhere()), (
            "the reconnection did not reload the board"
        )
        assert bus.connects == 2
        # the node dies (its live mark expires): its table leaves the lobby, then the hash
        await redis.delete(f"{prefix}alive:there")
        await board.check_live()
        assert board.listed_elsewhere() == []
        await board.reload()
        assert await redis.hget(f"{prefix}tables", "t-missed") is None
    finally:
        await board.stop()
        await bus.stop()
        await redis.aclose()
        await drop_prefix(url, prefix)
