"""``python -m app cluster`` (``make cluster``): a whole cluster on one machine.

It migrates the database once, starts ``NODES`` nodes (``python -m app serve`` with
``NODE_ID=n1``, ``n2``, …, each on a port of its own on 127.0.0.1), puts nginx in front on
``PORT`` (app/cluster/nginx.py), waits until every node and the front answer ``/healthz``, prints
where to open, and serves until stopped. On SIGINT or SIGTERM it stops what it started, and
only that: each node gets SIGTERM (its tables finish their hands and are handed over), then
nginx. A node that stops on its own is reported; the others take its tables over.

The same pieces (:class:`NodeProcess`, :func:`ensure_database`, :func:`migrate`,
:func:`wait_healthy`) run the test harness's clusters (tests/cluster/harness.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from app.cluster.nginx import Front, nginx_binary
from app.db import databases

ROOT = Path(__file__).resolve().parents[2]
"""The project's folder: alembic.ini and migrations/ are there."""

DEFAULT_DATABASE_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/table31"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
STOP_BUDGET = 40.0
"""Seconds a node is given to hand its tables over after SIGTERM before it is killed."""

T = TypeVar("T")


def run_async(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(make())`` in a thread of its own: callable from a running event loop
    (an async test) as well as from plain code."""
    result: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


def _database(url: str, *, drop: bool, create: bool) -> bool:
    """:func:`app.db.databases.prepare`, from outside any event loop."""
    return run_async(lambda: databases.prepare(url, drop=drop, create=create))


def ensure_database(url: str, *, fresh: bool = False) -> bool:
    """Create the database ``url`` names if it is missing (``fresh``: drop it first). True
    when it was created."""
    return _database(url, drop=fresh, create=True)


def drop_database(url: str) -> None:
    """Drop the database ``url`` names, closing its connections."""
    _database(url, drop=True, create=False)


def migrate(url: str, python: str = sys.executable) -> None:
    """``alembic upgrade head`` on ``url``, once, before any node starts (two nodes migrating
    at once would race)."""
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run(
        [python, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the migrations failed:\n{done.stderr.strip()[-2000:]}")


def healthy(base_url: str, timeout: float = 2.0) -> bool:
    """``GET base_url/healthz`` answers 200."""
    try:
        with urllib.request.urlopen(f"{base_url}/healthz", timeout=timeout) as answer:
            return bool(answer.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def wait_healthy(
    base_urls: Sequence[str], timeout: float = 60.0, alive: Callable[[], str | None] = lambda: None
) -> None:
    """Wait until every one of ``base_urls`` answers ``/healthz``; ``alive`` names a process
    that has died meanwhile (then waiting is pointless: RuntimeError at once)."""
    deadline = time.monotonic() + timeout
    waiting = list(base_urls)
    while waiting:
        dead = alive()
        if dead:
            raise RuntimeError(dead)
        waiting = [url for url in waiting if not healthy(url)]
        if not waiting:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"not healthy after {timeout:g} s: {', '.join(waiting)}")
        time.sleep(0.2)


@dataclass
class NodeProcess:
    """One node: ``python -m app serve`` as a process (and process group) of its own, its
    output appended to ``log``. ``prefix`` runs it inside something (``ip netns exec NAME``)."""

    node_id: str
    host: str
    port: int
    env: dict[str, str]
    log: Path
    python: str = sys.executable
    prefix: list[str] = field(default_factory=list)
    with_parent: bool = False
    """SIGTERM to the node when the thread that started it ends (the launcher, killed hard):
    only for a process started from a thread that lives as long as it must run."""
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        return f"http://{self.address}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.alive and self.process is not None else None

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        if self.alive:
            raise RuntimeError(f"node {self.node_id} is running already")
        self.log.parent.mkdir(parents=True, exist_ok=True)
        env = {
            **self.env,
            "NODE_ID": self.node_id,
            "HOST": self.host,
            "PORT": str(self.port),
            "NODE_ADDRESS": self.address,
        }
        with open(self.log, "ab") as out:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            out.write(f"\n=== {stamp} starting node {self.node_id} on {self.address}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                [*self.prefix, self.python, "-m", "app", "serve"],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: a kill reaches its writer process too
                preexec_fn=term_with_parent if self.with_parent else None,
            )

    def signal(self, signum: int) -> None:
        """``signum`` to the node; SIGKILL to its whole group (a machine that dies takes the
        node's database writer with it)."""
        if self.process is None or self.process.poll() is not None:
            return
        if signum == signal.SIGKILL:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        else:
            self.process.send_signal(signum)

    def wait(self, timeout: float) -> int | None:
        """Its exit status once it has ended, None if it is still running after ``timeout``."""
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout: float = STOP_BUDGET) -> None:
        """SIGTERM, then SIGKILL after ``timeout``; whatever is left of its group goes too."""
        if self.process is None:
            return
        self.signal(signal.SIGTERM)
        if self.wait(timeout) is None:
            self.signal(signal.SIGKILL)
            self.wait(10)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


def term_with_parent() -> None:
    """In the child, before it runs: SIGTERM when the parent's thread ends (Linux's
    PR_SET_PDEATHSIG; elsewhere nothing). A launcher killed with SIGKILL cannot stop its
    nodes itself; they then stop as after Ctrl-C, handing their tables over."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def node_env(
    base: Mapping[str, str], database_url: str, redis_url: str, admin_token: str, secret_key: str
) -> dict[str, str]:
    """What every node of one cluster shares: the database, Redis, the host's token, the
    secret, and the front's headers trusted (only the front reaches a node)."""
    return {
        **base,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "ADMIN_TOKEN": admin_token,
        "SECRET_KEY": secret_key,
        "TRUST_PROXY_HEADERS": "true",
    }


def _settings_env() -> dict[str, str]:
    """The environment, over the ``.env`` file's values (as the settings read them)."""
    from dotenv import dotenv_values

    values = {k: v for k, v in dotenv_values(ROOT / ".env").items() if v is not None}
    if Path.cwd() != ROOT:
        values.update({k: v for k, v in dotenv_values(".env").items() if v is not None})
    return {**values, **os.environ}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app cluster",
        description="Several nodes behind nginx, on PostgreSQL and Redis (docs/scaling.md)",
    )
    parser.add_argument(
        "--nodes", type=int, default=int(os.environ.get("NODES", "2")), help="NODES; 2"
    )
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8000")), help="the front's; 8000"
    )
    parser.add_argument(
        "--host", default=os.environ.get("HOST", "127.0.0.1"), help="where the front listens"
    )
    parser.add_argument("--node-port", type=int, default=0, help="the first node's port; PORT + 1")
    parser.add_argument("--dir", default=".cluster", help="nginx's files and the nodes' logs")
    args = parser.parse_args(argv)
    if args.nodes < 1:
        parser.error("--nodes must be at least 1")
    return run(args.nodes, args.host, args.port, args.node_port or args.port + 1, Path(args.dir))


def run(nodes: int, host: str, port: int, node_port: int, directory: Path) -> int:
    """The launcher: see the module's docstring. Returns the exit status."""
    env = _settings_env()
    database_url = env.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    if not database_url.startswith("postgresql"):
        print(
            f"table31 cluster: DATABASE_URL is {database_url}; cluster mode needs PostgreSQL "
            f"(unset it for {DEFAULT_DATABASE_URL})",
            file=sys.stderr,
        )
        return 2
    if not nginx_binary():
        print("table31 cluster: nginx is not installed (apt-get install nginx)", file=sys.stderr)
        return 2
    redis_url = env.get("REDIS_URL") or DEFAULT_REDIS_URL
    admin_token = env.get("ADMIN_TOKEN") or secrets.token_urlsafe(24)
    secret_key = env.get("SECRET_KEY") or secrets.token_urlsafe(32)
    directory = directory.resolve()
    directory.mkdir(parents=True, exist_ok=True)

    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())

    shared = node_env(env, database_url, redis_url, admin_token, secret_key)
    members = [
        NodeProcess(
            f"n{i + 1}",
            "127.0.0.1",
            node_port + i,
            shared,
            directory / f"n{i + 1}.log",
            with_parent=True,
        )
        for i in range(nodes)
    ]
    front = Front(
        directory / "front", f"{host}:{port}", [m.address for m in members], with_parent=True
    )
    try:
        if ensure_database(database_url):
            print(f"table31 cluster: created the database {database_url}")
        migrate(database_url)
        for member in members:
            member.start()
        front.start()

        def dead() -> str | None:
            if stop.is_set():
                return "stopped before the nodes were ready"
            for member in members:
                if not member.alive:
                    return f"node {member.node_id} stopped at start: see {member.log}"
            return None

        wait_healthy([m.base_url for m in members], 90, dead)
        wait_healthy([f"http://127.0.0.1:{port}"], 20)
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(
            f"table31 cluster: {nodes} node(s) behind nginx: open http://{shown}:{port}\n"
            f"  host's token: {admin_token if 'ADMIN_TOKEN' not in env else '(ADMIN_TOKEN)'}\n"
            f"  nodes: {', '.join(f'{m.node_id} {m.address}' for m in members)}\n"
            f"  logs: {directory}/n*.log, {front.directory}/error.log; Ctrl-C stops them all",
            flush=True,
        )
        reported: set[str] = set()
        while not stop.wait(1.0):
            for member in members:
                if not member.alive and member.node_id not in reported:
                    reported.add(member.node_id)
                    print(
                        f"table31 cluster: node {member.node_id} stopped; the others take "
                        f"its tables (see {member.log})",
                        file=sys.stderr,
                        flush=True,
                    )
        return 0
    except RuntimeError as exc:
        print(f"table31 cluster: {exc}", file=sys.stderr)
        return 1
    finally:
        print("table31 cluster: stopping the nodes (their tables finish their hands)", flush=True)
        stoppers = [threading.Thread(target=m.stop) for m in members]
        for thread in stoppers:
            thread.start()
        for thread in stoppers:
            thread.join()
        front.stop()
        print("table31 cluster: stopped", flush=True)
