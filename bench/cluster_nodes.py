"""A cluster for the benchmark: a fresh PostgreSQL database seeded with seated tables, N nodes
(``python -m app serve`` with ``NODE_ID`` and ``REDIS_URL``) and nginx in front
(:class:`app.cluster.nginx.Front`, the product's own front); and the CPU of each of its layers
read from ``/proc/PID/stat`` (nginx's master and workers, each node's server and its writer
process, Redis, PostgreSQL's backends for the benchmark's database).

The nodes are the launcher's (app/cluster/launcher.py: ``NodeProcess``, ``node_env``), as
``make cluster`` starts them, with bench/load.py's settings on top (short clocks, every rate
limit raised: ``SERVER_ENV``), on a database seeded before they start, as bench/load.py does
for one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.common import ROOT, children, cpu_seconds, migrate, wait_port
from bench.load import HOST, SERVER_ENV, fresh_postgres, seed_database

if TYPE_CHECKING:
    from app.cluster.launcher import NodeProcess

Seeded = list[tuple[int, str, list[str]]]
"""(table number, table id, the seated players' tokens) per table."""


# --------------------------------------------------------------------------- PostgreSQL


def pg_connect(url: str, database: str | None = None) -> Any:
    import asyncpg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return asyncpg.connect(
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password,
        database=database or parsed.database,
    )


async def leased(url: str) -> dict[str, str]:
    """table id -> owner node of every lease held by a live node."""
    db = await pg_connect(url)
    try:
        rows = await db.fetch(
            "SELECT l.table_id, l.owner FROM table_leases l JOIN cluster_nodes n"
            " ON n.id = l.owner WHERE n.expires_at > now()"
        )
    finally:
        await db.close()
    return {r["table_id"]: r["owner"] for r in rows}


def owners(url: str) -> dict[str, str]:
    return asyncio.run(leased(url))


async def place(url: str, table_ids: list[str], nodes: list[tuple[str, str]]) -> None:
    """Share the seeded tables out round-robin: each lease assigned to a node (epoch 0, as
    a table opened on the least-loaded node is, app/db/store/leases.py), each node registered
    ahead for a minute so that none takes another's tables as orphans while it starts (a
    node registers itself again at its start, with its own lease, and adopts its tables)."""
    from app.db.session import make_engine, make_sessionmaker
    from app.db.store import leases

    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session, session.begin():
            for node_id, address in nodes:
                await leases.register_node(session, node_id, address, 60.0)
            for i, table_id in enumerate(table_ids):
                await leases.assign(session, table_id, nodes[i % len(nodes)][0])
    finally:
        await engine.dispose()


# --------------------------------------------------------------------------- Redis


def redis_pid(url: str) -> int | None:
    """The Redis server's pid (``INFO server``), if it runs on this machine."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=5)
        pid = int(client.info("server")["process_id"])
        client.close()
    except Exception:
        return None
    return pid if Path(f"/proc/{pid}").exists() else None


def clear_redis(url: str, prefix: str) -> None:
    """Delete the keys under one cluster's prefix (other clusters' keys, and other Redis
    databases, are left alone)."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        keys = list(client.scan_iter(match=prefix + "*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


# --------------------------------------------------------------------------- the cluster


@dataclass
class BenchCluster:
    """N nodes and nginx on ports ``base_port`` (nginx), ``base_port + 1`` ... (nodes), on
    the database ``database_url`` (made afresh) and the Redis keys under ``redis_prefix``."""

    nodes_wanted: int
    workdir: Path
    database_url: str
    redis_url: str
    base_port: int
    game: str
    lease_seconds: float = 10.0
    redis_prefix: str = "t31e:"
    nginx_workers: int = 1
    nodes: list[NodeProcess] = field(default_factory=list)
    front: Any = None
    seeded: Seeded = field(default_factory=list)

    @property
    def port(self) -> int:
        """Where the clients connect: nginx."""
        return self.base_port

    def start(self, tables: int, clients: int, options: dict[str, Any]) -> Seeded:
        """Fresh database, seeded with ``tables`` x ``clients`` seated players, the tables
        shared out evenly between the nodes (:func:`place`); the cluster's Redis keys removed;
        the nodes, then nginx; returns once every table has a live owner whose actor is up
        (a socket that came earlier would be told 4409, "ask again")."""
        from app.cluster.launcher import NodeProcess, node_env
        from app.cluster.nginx import Front

        fresh_postgres(self.database_url)
        migrate(self.database_url)
        self.seeded = asyncio.run(
            seed_database(self.database_url, self.game, tables, clients, options)
        )
        ids = [(f"n{i + 1}", f"{HOST}:{self.base_port + 1 + i}") for i in range(self.nodes_wanted)]
        asyncio.run(place(self.database_url, [t for _, t, _ in self.seeded], ids))
        clear_redis(self.redis_url, self.redis_prefix)
        env = node_env(
            {**os.environ, **SERVER_ENV},
            self.database_url,
            self.redis_url,
            SERVER_ENV["ADMIN_TOKEN"],
            SERVER_ENV["SECRET_KEY"],
        )
        env.update(
            {
                "ENABLED_GAMES": self.game,
                "LEASE_SECONDS": str(self.lease_seconds),
                "REDIS_PREFIX": self.redis_prefix,
                "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            }
        )
        for i in range(self.nodes_wanted):
            port = self.base_port + 1 + i
            log = self.workdir / f"{self.redis_prefix.strip(':')}-n{i + 1}.log"
            self.nodes.append(NodeProcess(f"n{i + 1}", HOST, port, env, log))
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            wait_port(HOST, node.port, 300, node.process)
        self.front = Front(
            self.workdir / f"nginx-{self.base_port}",
            f"{HOST}:{self.port}",
            [n.address for n in self.nodes],
            workers=self.nginx_workers,
            access_log=False,
        )
        self.front.start()
        self.wait_adopted(len(self.seeded), timeout=120 + tables * 0.5)
        # and still served a lease later: a node whose first adoptions outlast its first
        # heartbeat's lease drops its tables once and adopts them again (seen at 100 tables
        # on one node); clients that connected in between would be told 4409
        time.sleep(self.lease_seconds)
        self.wait_adopted(len(self.seeded), timeout=120 + tables * 0.5)
        return self.seeded

    def tables_served(self) -> dict[str, int]:
        """node id -> tables its actors hold (its ``/metrics``)."""
        out = {}
        for node in self.nodes:
            if not node.alive:
                continue
            total = 0
            with contextlib.suppress(OSError, ValueError):
                url = urllib.request.Request(
                    f"http://{node.address}/metrics",
                    headers={"Authorization": f"Bearer {SERVER_ENV['ADMIN_TOKEN']}"},
                )
                with urllib.request.urlopen(url, timeout=10) as response:
                    for line in response.read().decode().splitlines():
                        if line.startswith("table31_tables{"):
                            total += int(float(line.rsplit(" ", 1)[1]))
            out[node.node_id] = total
        return out

    def wait_adopted(self, count: int, timeout: float) -> dict[str, int]:
        """Wait until ``count`` tables have a live owner and the nodes' actors hold as many."""
        deadline = time.monotonic() + timeout
        leased: dict[str, int] = {}
        served: dict[str, int] = {}
        while time.monotonic() < deadline:
            for node in self.nodes:
                if node.process is not None and node.process.returncode not in (None, -9):
                    raise RuntimeError(f"node {node.node_id} exited: see {node.log}")
            leased = {}
            for owner in owners(self.database_url).values():
                leased[owner] = leased.get(owner, 0) + 1
            served = self.tables_served()
            if sum(leased.values()) >= count and all(
                served.get(n, 0) >= k for n, k in leased.items()
            ):
                return leased
            time.sleep(0.5)
        raise TimeoutError(f"tables not all adopted in {timeout} s: leases {leased}, {served}")

    def owner_of(self, table_id: str) -> NodeProcess | None:
        owner = owners(self.database_url).get(table_id)
        return next((n for n in self.nodes if n.node_id == owner and n.alive), None)

    def kill(self, node: NodeProcess) -> None:
        """kill -9 of the node's process group: no goodbye, no handover, its writer process
        gone with it (as when its machine dies)."""
        node.signal(signal.SIGKILL)
        node.wait(10)

    def stop(self) -> None:
        """SIGKILL to every node (its process group), then nginx: a benchmark's cluster is not
        worth a graceful stop, whose hands waiting for players who stopped acting would each
        wait out the hand-over's budget (the next run makes its database afresh anyway)."""
        for node in self.nodes:
            node.signal(signal.SIGKILL)
        for node in self.nodes:
            node.wait(10)
        if self.front is not None:
            with contextlib.suppress(Exception):
                self.front.stop()
        clear_redis(self.redis_url, self.redis_prefix)


# --------------------------------------------------------------------------- CPU by layer


def _comm_and_cmdline(pid: int) -> tuple[str, str]:
    try:
        with open(f"/proc/{pid}/comm") as f:
            comm = f.read().strip()
        with open(f"/proc/{pid}/cmdline", "rb") as g:
            cmdline = g.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "", ""
    return comm, cmdline


def postgres_pids(database: str) -> tuple[list[int], list[int]]:
    """(the backends connected to ``database``, the server's shared processes: WAL writer,
    checkpointer, background writer, autovacuum). A backend's title names its database."""
    own: list[int] = []
    shared: list[int] = []
    shared_names = ("walwriter", "checkpointer", "background writer", "autovacuum")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        comm, cmdline = _comm_and_cmdline(int(entry))
        if comm != "postgres" and not comm.startswith("postgres"):
            continue
        words = cmdline.split()
        if f" {database} " in f" {cmdline} " and len(words) > 2:
            own.append(int(entry))
        elif any(name in cmdline for name in shared_names):
            shared.append(int(entry))
    return own, shared


class Layers:
    """The processes of each layer of a cluster, found again at every reading (PostgreSQL's
    backends come and go with the nodes' pools; a process that ended within a window takes its
    CPU with it, which the pools' long-lived connections make rare)."""

    def __init__(self, cluster: BenchCluster) -> None:
        from sqlalchemy.engine import make_url

        self.cluster = cluster
        self.database = make_url(cluster.database_url).database or ""
        self.redis = redis_pid(cluster.redis_url)

    def pids(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        front = self.cluster.front
        if front is not None and front.process is not None:
            master = front.process.pid
            out["nginx"] = [master, *children(master)]
        for node in self.cluster.nodes:
            if node.pid is not None:
                out[f"node {node.node_id}"] = [node.pid]
                out[f"writer {node.node_id}"] = children(node.pid)
        if self.redis is not None:
            out["redis"] = [self.redis]
        own, shared = postgres_pids(self.database)
        out["postgres"] = own
        out["postgres shared"] = shared
        return out

    def reading(self) -> dict[str, dict[int, float]]:
        out: dict[str, dict[int, float]] = {}
        for layer, pids in self.pids().items():
            seen = out.setdefault(layer, {})
            for pid in pids:
                with contextlib.suppress(OSError, ValueError, IndexError):
                    seen[pid] = cpu_seconds(pid)
        return out


def cpu_between(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
) -> dict[str, float]:
    """CPU seconds each layer used between two readings (a process new in the window counts
    from its start)."""
    return {
        layer: round(sum(t - before.get(layer, {}).get(pid, 0.0) for pid, t in pids.items()), 4)
        for layer, pids in after.items()
    }
