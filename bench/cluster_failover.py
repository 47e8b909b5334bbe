"""Failover, measured (docs/scaling.md): a table's seated players act on it through nginx, the
node that owns the table is killed with SIGKILL, and the clock runs from the kill to the first
act the new owner accepts (its ``ack``), and to the moment a player whose page reconnects as
the browser's does is served again.

The players are bench/load.py's clients (the same rules-blind policy: a random action from
``legal`` the moment a newer state offers one) that connect again, through the front, when
their socket ends. While the dead node's lease runs, the front still routes the table to it
(nginx answers 502: nothing listens there) or a node answers 4409 "ask again". Two ways of
coming back, at the same table:

* *eager*: every 100-250 ms, as long as it takes: when the cluster serves the table again;
* *browser*: static/js/socket.js's own policy: after a drop, 0.5, 1, 2, 4, 8, 15 s (each
  x0.5-1.5); after a 4409, 0.25 s doubling to 2 s (each x1-2): what a player sees.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

from bench.cluster_nodes import BenchCluster, leased
from bench.common import open_websocket, wait_port
from bench.load import HOST, Client, Worker

BACKOFF_MS = (500, 1000, 2000, 4000, 8000, 15000)
"""static/js/socket.js: the waits after a socket that dropped (or could not open)."""
MOVED_MS, MOVED_MAX_MS = 250, 2000
"""static/js/socket.js: the waits after a 4409 ("served by another node: ask again")."""
ANOTHER_NODE = 4409


class ReturningClient(Client):
    """A load client that connects again when its socket ends (eagerly, or as the browser's
    page does), and notes its first state and its first ``ack`` after ``since`` (the kill)."""

    __slots__ = (
        "attempts",
        "browser",
        "drops",
        "first_ack",
        "first_state",
        "fresh",
        "moved",
        "path",
        "returning",
        "since",
    )

    def __init__(
        self, worker: Worker, table: int, index: int, token: str, table_id: str, browser: bool
    ):
        super().__init__(worker, table, index, token)
        self.path = f"/ws/tables/{table_id}?token={token}"
        self.browser = browser
        self.since = float("inf")
        self.first_state: float | None = None
        self.first_ack: float | None = None
        self.attempts = self.drops = self.moved = 0
        self.returning = False
        self.fresh = True
        """The socket is one opened after ``since`` (not the dead node's, whose last frames may
        still arrive after the kill)."""

    def on_message(self, payload: bytes) -> None:
        now = time.monotonic()
        self.moved = 0  # served (socket.js: any message)
        if now >= self.since and self.fresh:
            kind = json.loads(payload).get("type")
            if kind == "state" and self.first_state is None:
                self.first_state = now
            elif kind == "ack" and self.first_ack is None:
                self.first_ack = now
        super().on_message(payload)

    def on_close(self) -> None:
        if self.returning:  # a failed attempt's socket: counted by _return
            return
        super().on_close()
        if not self.w.stopping:
            self.returning = True
            code = self.ws.close_code if self.ws is not None else None
            asyncio.get_running_loop().create_task(self._return(code))

    def _wait(self, code: int | None) -> float:
        if not self.browser:
            return random.uniform(0.1, 0.25)
        if code == ANOTHER_NODE:
            base = min(MOVED_MS * 2**self.moved, MOVED_MAX_MS)
            self.moved += 1
            return (base + random.random() * base) / 1000
        base = BACKOFF_MS[min(self.drops, len(BACKOFF_MS) - 1)]
        self.drops += 1
        return (base / 2 + random.random() * base) / 1000

    async def _return(self, code: int | None) -> None:
        while not self.w.stopping:
            await asyncio.sleep(self._wait(code))
            self.attempts += 1
            self.view, self.version, self.acted_version = None, -1, -1
            self.pending_id, self.sit_pending, self.leave_pending = None, False, False
            try:
                ws = await open_websocket(
                    HOST, self.w.port, self.path, self.on_message, self.on_close, timeout=5
                )
            except (OSError, ConnectionError, TimeoutError) as exc:
                self.w.closed[_why(exc)] += 1
                code = None
                continue
            self.drops = 0  # opened (socket.js: "open" resets the backoff)
            if ws.closed:  # told "ask again" (4409) at once: on_close was ignored meanwhile
                self.w.closed[str(ws.close_code)] += 1
                code = ws.close_code
                continue
            self.ws = ws
            self.fresh = True
            self.returning = False
            return


def _why(exc: BaseException) -> str:
    text = str(exc)
    return text.split("HTTP/1.1 ", 1)[1][:3] if "HTTP/1.1 " in text else type(exc).__name__


async def _probe(
    cluster: BenchCluster, table: tuple[int, str, list[str]], play: float, repeats: int
) -> dict[str, Any]:
    """Seat the table's players, let them play, kill the table's owner, time it; ``repeats``
    times (the killed node started again each time, empty: the next kill is of the node that
    took everything)."""
    number, table_id, tokens = table
    worker = Worker(
        port=cluster.port,
        tables=[],
        clients_per_table=len(tokens),
        game=cluster.game,
        options={},
        deflate=False,
        setup_concurrency=1,
    )
    # the first two players come back eagerly, the others as the browser's page does
    clients = [
        ReturningClient(worker, number, i, tok, table_id, browser=i >= 2)
        for i, tok in enumerate(tokens)
    ]
    for client in clients:
        await client.connect(table_id)
    worker.clients.extend(clients)
    for client in clients:
        if (client.view or {}).get("you") is None:
            await client.take_seat()
    worker.t0, worker.t1, worker.running = time.monotonic(), float("inf"), True
    for client in clients:
        client.decide(time.monotonic())
    loop = asyncio.get_running_loop()
    kills = []
    try:
        for i in range(repeats):
            kills.append(await _kill_owner(cluster, worker, clients, table_id, play))
            if i < repeats - 1:
                victim = next(n for n in cluster.nodes if n.node_id == kills[-1]["victim"])
                victim.start()
                await loop.run_in_executor(None, wait_port, HOST, victim.port, 120, victim.process)
    finally:
        worker.running = False
        worker.close_all()
        await asyncio.sleep(0.2)
    acks = sorted(k["kill_to_first_ack_s"] for k in kills if k["kill_to_first_ack_s"] is not None)
    states = sorted(
        k["kill_to_first_state_s"] for k in kills if k["kill_to_first_state_s"] is not None
    )
    browsers = sorted(
        k["kill_to_browser_served_s"] for k in kills if k["kill_to_browser_served_s"] is not None
    )
    return {
        "lease_seconds": cluster.lease_seconds,
        "tables": len(cluster.seeded),
        "kills": kills,
        "victim": kills[0]["victim"],
        "survivors": kills[0]["survivors"],
        "victim_tables": kills[0]["victim_tables"],
        "kill_to_first_ack_s": acks[len(acks) // 2] if acks else None,
        "kill_to_first_ack_min_s": acks[0] if acks else None,
        "kill_to_first_ack_max_s": acks[-1] if acks else None,
        "kill_to_first_state_s": states[len(states) // 2] if states else None,
        "kill_to_browser_served_s": browsers[len(browsers) // 2] if browsers else None,
        "kill_to_browser_served_max_s": browsers[-1] if browsers else None,
        "kill_to_all_tables_served_s": max(k["kill_to_all_tables_served_s"] for k in kills),
        "reconnect_attempts": sum(c.attempts for c in clients),
        "refusals": dict(worker.closed),
    }


async def _kill_owner(
    cluster: BenchCluster,
    worker: Worker,
    clients: list[ReturningClient],
    table_id: str,
    play: float,
) -> dict[str, Any]:
    """One kill: after ``play`` seconds of acts, SIGKILL the table's owner and wait for the
    first ``ack`` from the node that adopts it, then for all the dead node's tables."""
    loop = asyncio.get_running_loop()
    before = worker.acks
    await asyncio.sleep(play)
    # acting now (a table between hands, or waiting out a clock, may pause for a while)
    patience = time.monotonic() + 20
    while worker.acks == before and time.monotonic() < patience:
        await asyncio.sleep(0.05)
    victim = await loop.run_in_executor(None, cluster.owner_of, table_id)
    if victim is None or worker.acks == before:
        where = victim.node_id if victim else None
        seen = [
            (c.index, (c.view or {}).get("phase"), bool((c.view or {}).get("legal")), c.pending_id)
            for c in clients
        ]
        raise RuntimeError(
            f"the probe table plays nowhere (owner {where}, {worker.acks} acks; errors "
            f"{dict(worker.errors)}; clients {seen})"
        )
    victim_tables = sum(
        1 for o in (await leased(cluster.database_url)).values() if o == victim.node_id
    )
    for client in clients:
        client.first_ack = client.first_state = None
    killed = time.monotonic()
    for client in clients:
        client.since, client.fresh = killed, False
    cluster.kill(victim)
    deadline = killed + cluster.lease_seconds * 3 + 30
    while time.monotonic() < deadline and not any(c.first_ack for c in clients):
        await asyncio.sleep(0.005)
    acked = [c.first_ack for c in clients if c.first_ack]
    states = [c.first_state for c in clients if c.first_state]
    # a browser-like player served again (it may have come back before the eager ones acted)
    while time.monotonic() < deadline and not any(c.first_state for c in clients if c.browser):
        await asyncio.sleep(0.01)
    browsers = [c.first_state for c in clients if c.browser and c.first_state]
    await loop.run_in_executor(None, cluster.wait_adopted, len(cluster.seeded), 120)
    result = {
        "victim": victim.node_id,
        "victim_tables": victim_tables,
        "survivors": [n.node_id for n in cluster.nodes if n is not victim],
        "kill_to_first_ack_s": round(min(acked) - killed, 3) if acked else None,
        "kill_to_first_state_s": round(min(states) - killed, 3) if states else None,
        "kill_to_browser_served_s": round(min(browsers) - killed, 3) if browsers else None,
        "kill_to_all_tables_served_s": round(time.monotonic() - killed, 2),
    }
    print(
        f"  failover, lease {cluster.lease_seconds:g} s: kill -9 {victim.node_id} "
        f"({victim_tables} of {len(cluster.seeded)} tables) -> first state "
        f"{result['kill_to_first_state_s']} s, first ack {result['kill_to_first_ack_s']} s, "
        f"a browser-like player served {result['kill_to_browser_served_s']} s, "
        f"all its tables served {result['kill_to_all_tables_served_s']} s",
        flush=True,
    )
    return result


def measure_failover(
    *,
    workdir: Path,
    database_url: str,
    redis_url: str,
    base_port: int,
    game: str,
    options: dict[str, Any],
    tables: int,
    clients: int,
    lease_seconds: float,
    play: float = 2.0,
    repeats: int = 3,
) -> dict[str, Any]:
    """A 2-node cluster of ``tables`` x ``clients``, one table's players acting, its owner
    killed: the figures of :func:`_probe`."""
    cluster = BenchCluster(
        2,
        workdir,
        database_url,
        redis_url,
        base_port,
        game,
        lease_seconds=lease_seconds,
        redis_prefix=f"t31e{base_port}:",
    )
    try:
        seeded = cluster.start(tables, clients, options)
        # wait out the first round of adoption, so the kill finds the leases settled
        time.sleep(min(2.0, lease_seconds / 5))
        result = asyncio.run(_probe(cluster, seeded[0], play, repeats))
    finally:
        cluster.stop()
    return result
