"""What the node runtime's cross-process tests share (tests/cluster/test_node.py,
test_handover.py): a Trianta Ena table whose hand waits for a person, sockets that ask the
front again until a node serves them, and what PostgreSQL says of a table's hands."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import httpx
import websockets

from tests.client import Player
from tests.cluster.harness import Cluster
from tests.cluster.settlement_checks import chip_faults, fetch, settlement_faults

REDIS_DB = 2
"""Helper B's Redis db (each cluster has its own key prefix in it too)."""
LEASE = 3.0
ENV = {"LEASE_SECONDS": str(LEASE)}
OPTIONS = {"min_bet": 10, "buy_in": 100, "banker_multiple": 3, "bet_seconds": 60}
"""Long clocks: the hand waits for the person's bet as long as a test needs."""
BANKER_SEAT, BEN_SEAT = 3, 0
BOTS_PLAY_ON = {"min_bet": 1, "max_bet": 2, "buy_in": 100}
"""A Trianta Ena table of bots that plays on for hundreds of hands: bets of one or two chips
from stacks of 100 (at 10 a bet a bot was broke within 22 hands, and a table that deals no
more never "plays on" after a node stops or is cut off)."""


def front(cluster: Cluster) -> Any:
    """The front as :class:`tests.client.Player` sees a server."""
    return SimpleNamespace(base_url=cluster.url, ws_url=cluster.ws_url)


def straight(cluster: Cluster, node: str) -> Any:
    """A node itself (not through the front), as a server."""
    base = cluster.node_url(node)
    return SimpleNamespace(base_url=base, ws_url=base.replace("http://", "ws://", 1))


def at(server: Any, person: Player) -> Player:
    """``person`` again, talking to ``server``."""
    return Player(server.base_url, server.ws_url, person.name, person.token, person.info)


async def owner(cluster: Cluster, table_id: str) -> str | None:
    """The live node that holds ``table_id``'s lease, read from PostgreSQL."""
    rows = await fetch(
        cluster.database_url,
        "SELECT l.owner FROM table_leases l JOIN cluster_nodes c ON c.id = l.owner"
        " WHERE l.table_id = $1 AND c.expires_at > now()",
        table_id,
    )
    return str(rows[0]["owner"]) if rows else None


async def a_hand_waiting_for_ben(cluster: Cluster) -> tuple[str, Player, Player, str]:
    """A Trianta Ena table through the front: the banker and Ben seated, a hand dealt and
    waiting for Ben's bet. (table id, banker, Ben, the hand's id)."""
    server = front(cluster)
    banker, ben = [await Player.join(server, name) for name in ("Banker", "Ben")]
    table_id = await banker.open_table("trianta-ena", **OPTIONS)
    for person in (banker, ben):
        await connect_until_served(person, table_id, 60)  # a deadline for a stuck run
    await banker.sit(300, seat=BANKER_SEAT)
    await ben.sit(100, seat=BEN_SEAT)
    view = await ben.wait_for(lambda v: v["hand_id"] is not None and v["legal"], 60)
    return table_id, banker, ben, str(view["hand_id"])


async def connect_until_served(person: Player, table_id: str, timeout: float) -> float:
    """Open ``person``'s socket to ``table_id`` until a node serves it (a socket closed with
    4409, or a node the front cannot reach yet, is asked again after 250 ms, as the page
    does); the seconds it took."""
    start = time.monotonic()
    while True:
        try:
            await person.connect(table_id)
            return time.monotonic() - start
        except (ConnectionError, OSError, websockets.WebSocketException, TimeoutError) as exc:
            if person.ws is not None:
                code = person.ws.close_code
                assert code in (None, 1006, 4409), f"closed with {code}: {exc}"
            with_reader = person._reader
            if with_reader is not None:
                with_reader.cancel()
            if time.monotonic() - start > timeout:
                raise AssertionError(f"{table_id} not served within {timeout} s") from exc
            await asyncio.sleep(0.25)


async def closed_with(person: Player, timeout: float) -> int | None:
    """Wait for ``person``'s socket to be closed by the server; its close code."""
    assert person._reader is not None
    await asyncio.wait_for(asyncio.shield(person._reader), timeout)
    return person.ws.close_code


async def hands_of(cluster: Cluster, table_id: str) -> list[dict[str, Any]]:
    rows = await fetch(
        cluster.database_url,
        "SELECT id, number, status FROM hands WHERE table_id = $1 ORDER BY number",
        table_id,
    )
    return [dict(row) for row in rows]


async def stack_of(cluster: Cluster, table_id: str, player_id: str) -> int:
    rows = await fetch(
        cluster.database_url,
        "SELECT balance FROM accounts WHERE id = $1",
        f"stack:{table_id}:{player_id}",
    )
    return int(rows[0]["balance"]) if rows else 0


async def books_balance(cluster: Cluster, node: str) -> None:
    """The host's audit (at ``node``) balances, no hand was settled twice, every chip is
    accounted for."""
    async with httpx.AsyncClient(
        base_url=cluster.node_url(node),
        headers={"authorization": f"Bearer {cluster.admin_token}"},
        timeout=20,
    ) as http:
        audit = (await http.get("/api/admin/audit")).json()
    assert audit["balanced"] is True and not audit["negative_accounts"], audit
    assert await settlement_faults(cluster.database_url) == []
    assert await chip_faults(cluster.database_url) == []


async def until(check: Any, timeout: float, what: str) -> Any:
    """Wait for ``check()`` to be truthy; ``timeout`` is a deadline for a stuck run, never a
    measure (the callers give 60 s)."""
    start = time.monotonic()
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() - start < timeout, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.1)
