"""A node's runtime across real processes (app/cluster/node.py): two nodes behind nginx on
PostgreSQL and Redis (tests/cluster/harness.py), leases of ``LEASE`` seconds.

* kill -9 of the node serving a table while a hand waits for a bet: the other node adopts it;
  the hand is void, the stakes back; the books balance; Ben's socket,
  asking the front again, is served by the new owner with a version above any the old one
  sent;
* a node stopped (SIGSTOP) past its lease while its table plays: the other node adopts the
  table; once the node runs again (SIGCONT) it drops the table without a write landing
  (the fence refuses them): no hand settled twice, every chip accounted for, and the table
  plays on at its new owner;
* a node in a network namespace of its own cut off from PostgreSQL, Redis and the front:
  it stops serving its table on its own (its last heartbeat's validity out) before the other
  node takes the lease, and once reconnected it serves none of what it lost.
* kill -9 of a node serving 20 tables: the other node serves them all again, adopting them
  together without outlasting its own lease.

Every test also checks the books: no hand settled twice, every chip accounted for. Every wait
is for a condition, with a deadline (``PATIENCE``) only for a stuck run: what is checked is
that a thing happens, or in which order two things happened, never how long it took.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable

import httpx
import pytest
import websockets

from tests.client import Player
from tests.cluster.harness import Cluster, cluster_factory  # noqa: F401 (a fixture)
from tests.cluster.node_steps import (
    BOTS_PLAY_ON,
    ENV,
    REDIS_DB,
    a_hand_waiting_for_ben,
    at,
    books_balance,
    connect_until_served,
    front,
    hands_of,
    owner,
    until,
)

pytestmark = pytest.mark.cluster

PATIENCE = 60.0
"""Seconds after which a wait gives up: a deadline for a stuck run, never a measure."""


async def serves_none(cluster: Cluster, node: str, table_id: str, owner_now: str) -> bool:
    """``node`` answers, serves no table, and names ``owner_now`` as ``table_id``'s node."""
    try:
        async with httpx.AsyncClient(base_url=cluster.node_url(node), timeout=30) as http:
            health = await http.get("/healthz")
            route = await http.get("/api/cluster/route", params={"table": table_id})
    except httpx.HTTPError:
        return False  # not reachable yet
    if health.status_code != 200 or route.status_code != 200:
        return False  # answering, not ready yet (a 503 names no tables)
    named = route.headers.get("x-table31-node")
    return health.json().get("tables") == 0 and named == cluster.node_address(owner_now)


async def waits_for_a_decision(banker: Player, ben: Player, hand_id: str) -> bool:
    """Whether the hand ``hand_id`` comes to wait for Ben's or the banker's decision (True),
    or ends first (False: a natural settled it at the deal)."""
    deadline = time.monotonic() + PATIENCE  # for a stuck run only
    while time.monotonic() < deadline:
        views = [p.view for p in (ben, banker)]
        deciding = any(v is not None and v["hand_id"] == hand_id and v["legal"] for v in views)
        betting = any(t["kind"] == "bet" for t in (ben.view or {}).get("legal", []))
        if deciding and not betting:
            return True
        if ben.view is not None and ben.view["hand_id"] != hand_id:
            return False
        await asyncio.sleep(0.1)
    raise AssertionError(f"hand {hand_id} neither waited for a decision nor ended")


async def refused_by(cluster: Cluster, node: str, table_id: str) -> int | None:
    """The close code of a socket to ``table_id`` opened straight at ``node``."""
    url = cluster.node_url(node).replace("http://", "ws://", 1) + f"/ws/tables/{table_id}"
    async with websockets.connect(url) as ws:
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), PATIENCE)
    return ws.close_code


async def test_kill_9_of_the_owner_mid_hand_another_node_adopts_the_table(
    cluster_factory: Callable[..., Cluster],  # noqa: F811
) -> None:
    cluster = cluster_factory("t31_b_kill", 2, base_port=18200, redis_db=REDIS_DB, env=ENV)
    await cluster.wait_healthy_async()
    table_id, banker, ben, hand_id = await a_hand_waiting_for_ben(cluster)
    for _ in range(6):
        # Ben's bet is down (in the engine, not the database: the hand's one write is at its
        # end), and the hand waits for a decision; a natural may settle it at the deal, with
        # none to take: then Ben bets in the next hand
        assert (await ben.act({"kind": "bet", "amount": 10}))["type"] == "ack"
        if await waits_for_a_decision(banker, ben, hand_id):
            break
        dealt = await ben.wait_for(
            lambda v, settled=hand_id: v["hand_id"] not in (None, settled) and bool(v["legal"]),
            PATIENCE,
        )
        hand_id = str(dealt["hand_id"])
    else:
        raise AssertionError("six hands in a row settled at the deal")
    before = ben.version

    async def in_play() -> bool:  # the hand's row is written (its chips are not, until its end)
        return any(h["id"] == hand_id for h in await hands_of(cluster, table_id))

    await until(in_play, PATIENCE, "the hand's row written")
    first = await owner(cluster, table_id)
    assert first is not None
    second = next(n for n in cluster.node_ids if n != first)
    # any node names the owner to the front; the other node sends a socket back to ask again
    # (4409), and says 4404 of a table that does not exist; each node's metrics name it
    async with httpx.AsyncClient(base_url=cluster.node_url(second), timeout=30) as http:
        route = await http.get("/api/cluster/route", params={"table": table_id})
        assert route.headers["x-table31-node"] == cluster.node_address(first)
        metrics = (
            await http.get("/metrics", headers={"authorization": f"Bearer {cluster.admin_token}"})
        ).text
        assert f'table31_node_info{{node="{second}"}} 1.0' in metrics
    assert await refused_by(cluster, second, table_id) == 4409
    assert await refused_by(cluster, second, "nosuchtable") == 4404

    cluster.kill(first)
    for person in (banker, ben):
        await person.close()
    ben = at(front(cluster), ben)
    await connect_until_served(ben, table_id, PATIENCE)
    assert await owner(cluster, table_id) == second
    assert ben.version > before, (ben.version, before)
    view = ben.view
    assert view is not None
    # the table says why the hand is void: its node stopped (not "the server restarted")
    told = {s["view"]["table"]["message"] for s in ben.states if "view" in s}
    assert "The node serving this table stopped: the hand in play was void, stakes returned." in (
        told
    ), told
    # the hand is void, the stake back in Ben's stack; the table deals on from there
    hands = {h["id"]: h for h in await hands_of(cluster, table_id)}
    assert hands[hand_id]["status"] == "void", hands
    seat = next(s for s in view["seats"] if s.get("player_id") == ben.player_id)
    assert seat["stack"] == 100, seat
    await books_balance(cluster, second)
    await ben.close()


async def test_a_node_stopped_past_its_lease_drops_its_table_and_writes_nothing(
    cluster_factory: Callable[..., Cluster],  # noqa: F811
) -> None:
    cluster = cluster_factory("t31_b_stop", 2, base_port=18210, redis_db=REDIS_DB, env=ENV)
    await cluster.wait_healthy_async()
    opener = await Player.join(front(cluster), "Opener")
    table_id = await opener.open_table("trianta-ena", **BOTS_PLAY_ON)
    first = await owner(cluster, table_id)
    assert first is not None
    second = next(n for n in cluster.node_ids if n != first)
    for _ in range(3):  # bots play on (the opener's socket keeps the table awake)
        response = await opener.http.post(f"/api/tables/{table_id}/bots", json={})
        assert response.status_code == 201, response.text
    await connect_until_served(opener, table_id, PATIENCE)

    async def dealt() -> bool:
        return sum(h["status"] == "finished" for h in await hands_of(cluster, table_id)) >= 3

    await until(dealt, PATIENCE, "three hands played")
    cluster.kill(first, signal.SIGSTOP)

    async def adopted() -> bool:
        return await owner(cluster, table_id) == second

    # stopped, the node renews nothing: its lease runs out and the other node adopts
    await until(adopted, PATIENCE, "the table adopted by the other node")
    played = len(await hands_of(cluster, table_id))

    cluster.kill(first, signal.SIGCONT)

    await until(
        lambda: serves_none(cluster, first, table_id, second),
        PATIENCE,
        "the stopped node drops the table once it runs again",
    )

    async def more_hands() -> bool:
        return len(await hands_of(cluster, table_id)) >= played + 3

    await until(more_hands, PATIENCE, "the new owner plays on")
    log = cluster.log_text(first)
    assert "stops serving" in log or "taken by another node" in log or "refused" in log, log[-2000:]
    await books_balance(cluster, second)
    await opener.close()


def _logged_at(log: str, marker: str) -> float:
    """The time (seconds of the day) of the first log line containing ``marker``."""
    line = next((line for line in log.splitlines() if marker in line), None)
    assert line is not None, f"nothing logged {marker!r}: {log[-2000:]}"
    clock = line.split()[1]  # 2026-01-01 12:34:56,789 ...
    hours, minutes, seconds = clock.replace(",", ".").split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


async def test_a_node_cut_off_stops_acting_before_another_takes_its_table(
    cluster_factory: Callable[..., Cluster],  # noqa: F811
) -> None:
    cluster = cluster_factory(
        "t31_b_cut", 1, netns=True, base_port=18230, redis_db=REDIS_DB, env=ENV
    )
    cut = cluster.add_node(netns=True)  # n2, in a network namespace of its own
    await cluster.wait_healthy_async(60)
    opener = await Player.join(front(cluster), "Opener")
    tables = [await opener.open_table("trianta-ena", **BOTS_PLAY_ON) for _ in range(2)]
    for table_id in tables:
        for _ in range(2):
            response = await opener.http.post(f"/api/tables/{table_id}/bots", json={})
            assert response.status_code == 201, response.text
    owners = {t: await owner(cluster, t) for t in tables}
    assert cut in owners.values(), owners
    table_id = next(t for t, node in owners.items() if node == cut)
    other_node = next(n for n in cluster.node_ids if n != cut)

    async def dealt() -> bool:
        return sum(h["status"] == "finished" for h in await hands_of(cluster, table_id)) >= 2

    await until(dealt, PATIENCE, "two hands played at the node to be cut off")
    cluster.cut_off(cut)

    async def adopted() -> bool:
        return await owner(cluster, table_id) == other_node

    await until(adopted, PATIENCE, "the table adopted by the other node")

    # the node cut off stopped acting on its own before the other could take its table: an
    # order, read from the two nodes' logs (one machine's clock)
    async def logged() -> bool:
        return f"took the lease of table {table_id}" in cluster.log_text(other_node)

    await until(logged, PATIENCE, "the takeover logged")
    stopped = _logged_at(cluster.log_text(cut), "stops serving")
    taken = _logged_at(cluster.log_text(other_node), f"took the lease of table {table_id}")
    assert stopped < taken, (stopped, taken)

    cluster.reconnect(cut)

    await until(
        lambda: serves_none(cluster, cut, table_id, other_node),
        PATIENCE,
        "the node, reconnected, serves none of what it lost",
    )
    assert await owner(cluster, table_id) == other_node
    await books_balance(cluster, other_node)
    await opener.close()


async def test_a_node_takes_over_many_tables_at_once_and_keeps_its_lease(
    cluster_factory: Callable[..., Cluster],  # noqa: F811
) -> None:
    cluster = cluster_factory("t31_b_many", 2, base_port=18240, redis_db=REDIS_DB, env=ENV)
    await cluster.wait_healthy_async()
    opener = await Player.join(front(cluster), "Opener")
    tables = [await opener.open_table("trianta-ena", min_bet=10, buy_in=100) for _ in range(40)]
    owners = {t: await owner(cluster, t) for t in tables}
    assert set(owners.values()) == {"n1", "n2"}, owners  # placed on the least loaded node
    moving = [t for t, node in owners.items() if node == "n1"]
    cluster.kill("n1")

    async def all_taken() -> bool:
        return all([await owner(cluster, t) == "n2" for t in moving])

    await until(all_taken, PATIENCE, f"the {len(moving)} tables of n1 taken over")

    async def all_served() -> bool:
        return cluster.log_text("n2").count("adopted table") >= len(moving)

    await until(all_served, PATIENCE, "every table taken over served")
    # adopting them all never outlasted the node's own lease
    assert "stops serving" not in cluster.log_text("n2")
    await books_balance(cluster, "n2")
    await opener.close()
