"""A cluster of real processes for the cross-process tests and the bench.

``Cluster(name, nodes=2, base_port=18400)`` gives: a fresh PostgreSQL database named ``name``
(migrated once), a Redis URL with its own db number and key prefix (``<name>:`` unless given;
keys under it removed at start and stop, nothing else), nodes ``n1``, ``n2``, … running
``python -m app serve`` as processes of their own on ``base_port + 1``, ``+ 2``, …, and nginx
in front on ``base_port`` (app/cluster/nginx.py, the same front as ``make cluster``).

    from tests.cluster.harness import cluster_factory, need_cluster  # fixtures

    async def test_x(cluster_factory):
        cluster = cluster_factory("t31_b_failover", nodes=3, base_port=18100,
                                  env={"LEASE_SECONDS": "3"})
        await cluster.wait_healthy_async()
        cluster.kill("n1")                     # SIGKILL: its whole process group
        cluster.start("n1")                    # the same NODE_ID again
        cluster.start("n2", netns=True)        # in a namespace of its own (netns.py)
        cluster.cut_off("n2"); cluster.reconnect("n2")

``stop()`` always cleans up (nodes, nginx, socat, namespaces, Redis keys, the database unless
``keep_database``); it also runs at exit. What a run killed hard left behind (processes whose
pids it wrote in its folder, the nginx of its pid file) is stopped when a cluster of the same
name starts again.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shutil
import signal
import socket
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy.engine import make_url

from app.cluster.launcher import (
    NodeProcess,
    drop_database,
    ensure_database,
    migrate,
    node_env,
    wait_healthy,
)
from app.cluster.nginx import SOCKET_READ_TIMEOUT, Front, nginx_binary
from tests.cluster.netns import Namespace, netns_problem

PG_SERVER = os.environ.get("CLUSTER_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432")
"""The PostgreSQL server the clusters' databases are created on (no database in the URL)."""
REDIS_SERVER = os.environ.get("CLUSTER_REDIS_URL", "redis://127.0.0.1:6379")
"""The Redis server (no db number in the URL)."""
ADMIN_TOKEN = "cluster-admin-token"
SECRET_KEY = "cluster-secret-key-0123456789"

TEST_ENV = {
    "ENVIRONMENT": "test",
    "LOG_FORMAT": "text",
    "NEXT_HAND_SECONDS": "0.05",
    "BOT_DELAY_SECONDS": "0.01",
    "MESSAGES_PER_SECOND": "1000",
    "MESSAGE_BURST": "1000",
    "SIGNUPS_PER_HOUR": "0",
    "MAX_TABLES_PER_PLAYER": "0",
    "MAX_TABLES_PER_HOUR": "0",
    "MAX_BOTS_PER_TABLE": "0",
    "BOTS_FLOAT": "1000000",
}
"""The nodes' settings unless a cluster's ``env`` says otherwise: the test suite's
(tests/conftest.py ``make_settings``)."""

_LIVE: list[Cluster] = []


def _host_port(url: str, default_port: int) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default_port


def _reachable(url: str, default_port: int) -> bool:
    host, port = _host_port(url, default_port)
    try:
        with socket.create_connection((host, port), 2):
            return True
    except OSError:
        return False


def cluster_problem() -> str | None:
    """Why a cluster cannot run here (no nginx, PostgreSQL or Redis), or None."""
    if not nginx_binary():
        return "nginx is not installed"
    if not _reachable(PG_SERVER, 5432):
        return f"PostgreSQL is not reachable at {PG_SERVER}"
    if not _reachable(REDIS_SERVER, 6379):
        return f"Redis is not reachable at {REDIS_SERVER}"
    return None


def need_cluster(netns: bool = False) -> None:
    """Skip the test, saying why, when a cluster (with namespaces: ``netns``) cannot run."""
    problem = cluster_problem() or (netns_problem() if netns else None)
    if problem:
        pytest.skip(f"cluster test skipped: {problem}")


def _stop_stale(folder: Path) -> None:
    """Stop what a run killed hard left: the pids it wrote (if they are still ours: the
    command line names the app, nginx or socat)."""
    for pid_file in [folder / "pids", folder / "front" / "nginx.pid"]:
        if not pid_file.exists():
            continue
        for line in pid_file.read_text().split():
            try:
                pid = int(line)
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except (ValueError, OSError):
                continue
            if any(mark in cmdline for mark in (b"app\x00serve", b"nginx", b"socat")):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        pid_file.unlink(missing_ok=True)


class Cluster:
    """Nodes, nginx, a database and a Redis prefix of one test (see the module's docstring)."""

    def __init__(
        self,
        name: str,
        nodes: int = 2,
        *,
        base_port: int,
        redis_db: int = 0,
        redis_prefix: str | None = None,
        env: Mapping[str, str] | None = None,
        folder: Path | None = None,
        keep_database: bool = False,
        front_workers: int = 1,
        front_socket_timeout: str = SOCKET_READ_TIMEOUT,
    ) -> None:
        if not name.replace("_", "").isalnum() or not name.islower():
            raise ValueError("a cluster's name is its database's: lower-case letters, digits, _")
        self.name = name
        self.base_port = base_port
        self.database_url = f"{PG_SERVER}/{name}"
        self.redis_url = f"{REDIS_SERVER}/{redis_db}"
        self.redis_prefix = redis_prefix if redis_prefix is not None else f"{name[:31]}:"
        self.admin_token = ADMIN_TOKEN
        self.keep_database = keep_database
        self.folder = folder or Path(tempfile.gettempdir()) / "table31-cluster" / name
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("NODE_", "PYTEST"))},
            **TEST_ENV,
            **node_env({}, self.database_url, self.redis_url, ADMIN_TOKEN, SECRET_KEY),
            "REDIS_PREFIX": self.redis_prefix,
            **(env or {}),
        }
        self.nodes: dict[str, NodeProcess] = {}
        self.namespaces: dict[str, Namespace] = {}
        for _ in range(nodes):
            self._add()
        self.front = Front(
            self.folder / "front",
            f"127.0.0.1:{base_port}",
            self._addresses(),
            workers=front_workers,
            socket_timeout=front_socket_timeout,
        )
        self._set_up = False

    # -- where things are

    @property
    def url(self) -> str:
        """The front's base URL (what a browser opens)."""
        return f"http://127.0.0.1:{self.base_port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.base_port}"

    @property
    def node_ids(self) -> list[str]:
        return list(self.nodes)

    def node_url(self, node: str) -> str:
        """A node's own base URL (not through the front)."""
        return self.nodes[node].base_url

    def node_address(self, node: str) -> str:
        """``ip:port`` as the node advertises it (the route endpoint's answer)."""
        return self.nodes[node].address

    def node_pid(self, node: str) -> int | None:
        """The node's process id while it runs, else None."""
        return self.nodes[node].pid

    def log(self, node: str) -> Path:
        """The node's log file (every start appended, after a ``=== ... starting`` line)."""
        return self.nodes[node].log

    def log_text(self, node: str) -> str:
        path = self.log(node)
        return path.read_text(errors="replace") if path.exists() else ""

    # -- life

    def _add(self) -> str:
        node_id = f"n{len(self.nodes) + 1}"
        port = self.base_port + len(self.nodes) + 1
        self.nodes[node_id] = NodeProcess(
            node_id, "127.0.0.1", port, dict(self.env), self.folder / f"{node_id}.log"
        )
        return node_id

    def _addresses(self) -> list[str]:
        return [n.address for n in self.nodes.values()]

    def setup(self) -> Cluster:
        """Database fresh and migrated, Redis keys cleared, every node and nginx started (not
        waited for: :meth:`wait_healthy`)."""
        _stop_stale(self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        _LIVE.append(self)
        self._set_up = True
        ensure_database(self.database_url, fresh=True)
        migrate(self.database_url)
        self.clear_redis()
        for node in self.nodes:
            self.start(node)
        self.front.start()
        self._write_pids()
        return self

    def start(
        self, node: str, *, netns: bool = False, env: Mapping[str, str] | None = None
    ) -> None:
        """Start ``node`` (again: the same NODE_ID and port); ``netns``: in a network namespace
        of its own (the front is told its new address); ``env``: settings for this run only."""
        member = self.nodes[node]
        if member.alive:
            raise RuntimeError(f"node {node} is running")
        space = self.namespaces.pop(node, None)
        if space is not None:
            space.remove()
        run_env = {**self.env, **(env or {})}
        if netns:
            pg = make_url(run_env["DATABASE_URL"])
            redis_port = _host_port(run_env["REDIS_URL"], 6379)[1]
            space = Namespace(member.port, (pg.port or 5432, redis_port))
            space.create()
            self.namespaces[node] = space
            run_env["DATABASE_URL"] = pg.set(host=space.host_ip).render_as_string(False)
            run_env["REDIS_URL"] = run_env["REDIS_URL"].replace("127.0.0.1", space.host_ip)
            member.host, member.prefix = space.node_ip, space.prefix
        else:
            member.host, member.prefix = "127.0.0.1", []
        run_env["NODE_ADDRESS"] = member.address
        member.env = run_env
        member.start()
        self._write_pids()
        if self.front.running and sorted(self.front.nodes) != sorted(self._addresses()):
            self.front.reload(self._addresses())

    def add_node(self, *, netns: bool = False, env: Mapping[str, str] | None = None) -> str:
        """One more node (the next NODE_ID and port), started, and the front told."""
        node = self._add()
        self.start(node, netns=netns, env=env)
        self.front.reload(self._addresses())
        return node

    def kill(self, node: str, sig: int = signal.SIGKILL) -> None:
        """``sig`` to the node (SIGKILL: its whole process group, at once)."""
        self.nodes[node].signal(sig)

    def wait_exit(self, node: str, timeout: float = 60.0) -> int | None:
        """The node's exit status once it has ended; None if still running after ``timeout``."""
        return self.nodes[node].wait(timeout)

    def cut_off(self, node: str) -> None:
        """The node (started with ``netns=True``) loses PostgreSQL, Redis and the front."""
        self.namespaces[node].cut_off()

    def reconnect(self, node: str) -> None:
        self.namespaces[node].reconnect()

    def wait_healthy(self, timeout: float = 60.0, nodes: list[str] | None = None) -> None:
        """Every running node (or ``nodes``) answers ``/healthz``, and the front does."""
        members = [self.nodes[n] for n in (nodes or self.nodes) if self.nodes[n].alive]

        def dead() -> str | None:
            for member in members:
                if not member.alive:
                    tail = self.log_text(member.node_id)[-3000:]
                    return f"node {member.node_id} stopped:\n{tail}"
            return None

        wait_healthy([m.base_url for m in members], timeout, dead)
        wait_healthy([self.url], timeout)

    async def wait_healthy_async(
        self, timeout: float = 60.0, nodes: list[str] | None = None
    ) -> None:
        """:meth:`wait_healthy` without blocking the test's event loop."""
        await asyncio.to_thread(self.wait_healthy, timeout, nodes)

    def clear_redis(self) -> None:
        """Delete this cluster's keys (its prefix only; never a whole db)."""
        if not self.redis_prefix:
            return
        import redis

        client = redis.Redis.from_url(self.redis_url)
        try:
            keys = list(client.scan_iter(match=self.redis_prefix + "*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()

    def _write_pids(self) -> None:
        pids = [str(n.process.pid) for n in self.nodes.values() if n.process is not None]
        pids += [str(p.pid) for s in self.namespaces.values() for p in s.forwarders]
        (self.folder / "pids").write_text("\n".join(pids) + "\n")

    def stop(self, timeout: float = 30.0) -> None:
        """Stop everything this cluster started; quietly, whatever state it is in."""
        if not self._set_up:
            return
        self._set_up = False
        for space in self.namespaces.values():  # a node cut off would wait out its budget
            with contextlib.suppress(Exception):
                space.reconnect()
        for member in self.nodes.values():
            member.signal(signal.SIGTERM)
        for member in self.nodes.values():
            member.stop(timeout)
        self.front.stop()
        for space in self.namespaces.values():
            space.remove()
        self.namespaces.clear()
        # Redis or PostgreSQL gone: nothing to clear or drop then
        with contextlib.suppress(Exception):
            self.clear_redis()
        if not self.keep_database:
            with contextlib.suppress(Exception):
                drop_database(self.database_url)
        (self.folder / "pids").unlink(missing_ok=True)
        if self in _LIVE:
            _LIVE.remove(self)

    def __enter__(self) -> Cluster:
        self.setup()
        self.wait_healthy()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@atexit.register
def _stop_all() -> None:
    for cluster in list(_LIVE):
        cluster.stop(timeout=10)


@pytest.fixture
def cluster_factory() -> Iterator[Callable[..., Cluster]]:
    """``make(name, nodes=2, *, base_port, netns=False, **kwargs) -> Cluster`` set up (not
    waited for); skips the test with its reason when nginx, PostgreSQL or Redis (or, with
    ``netns``, namespaces) are missing; every cluster made is stopped after the test."""
    made: list[Cluster] = []

    def make(name: str, nodes: int = 2, *, netns: bool = False, **kwargs: Any) -> Cluster:
        need_cluster(netns=netns)
        cluster = Cluster(name, nodes, **kwargs)
        made.append(cluster)
        cluster.setup()
        return cluster

    yield make
    for cluster in made:
        cluster.stop()
