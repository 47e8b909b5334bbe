"""The load benchmark (docs/performance.md): Table 31 and the bare endpoint side by side.

For each size (T tables x k clients) it

1. starts the server as an operator would (``python -m app serve`` on a fresh SQLite file
   migrated with ``alembic upgrade head``, short timers, rate limits raised, a free port);
2. starts client worker processes (``multiprocessing``; each one asyncio loop holding many
   raw sockets, :class:`bench.common.RawWebSocket`), which create the players over REST, open
   the tables, connect, sit down, then play random actions from ``legal`` as fast as the game
   lets them (one act in flight per client; the next act as soon as a newer state offers one);
3. after a warm-up, measures for S seconds: accepted actions per second, act->ack and
   act->next-state latency (p50/p95/p99/max), ping->pong latency (the event loop's delay),
   messages and bytes per second, the server's CPU (``/proc/PID/stat``) and resident memory
   per connection (RSS delta / sockets), hands settled per second (from the database), how far
   settlement records lag behind play, and the client workers' own CPU;
4. does the same against :mod:`bench.bare` (same uvicorn settings, same clients, states of
   the same size: real project states replayed) and prints the ratios project / bare.

Examples::

    python -m bench.load                                   # the make bench default
    python -m bench.load --sizes 100x5,500x5,1000x5 --seconds 20 --json /tmp/load.json
    python -m bench.load --sizes 1000x5 --profile /tmp/prof   # py-spy on the server
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import http.cookiejar
import itertools
import json
import multiprocessing
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common import (
    ROOT,
    RawWebSocket,
    children,
    chunks,
    format_table,
    free_port,
    is_analysis_worker,
    machine_cpu,
    machine_info,
    migrate,
    open_websocket,
    percentiles,
    raise_nofile,
    recreate_postgres,
    rss_bytes,
    tree_cpu_seconds,
    wait_port,
)

HOST = "127.0.0.1"

GAME_OPTIONS: dict[str, dict[str, Any]] = {
    # clocks long enough not to fold a client the benchmark itself delays, short enough that
    # a table never stalls for long
    "trianta-ena": {"turn_seconds": 5, "bet_seconds": 5},
    "greek-31": {"turn_seconds": 5},
    "vingt-un": {"turn_seconds": 5},
    "trente-et-quarante": {"bet_seconds": 5, "turn_seconds": 5},
    "en-og-tredive": {"turn_seconds": 5},
}

SERVER_ENV = {
    "ENVIRONMENT": "development",
    "SECRET_KEY": "bench-secret-key-0123456789",
    "ADMIN_TOKEN": "bench-admin-token",
    "NEXT_HAND_SECONDS": "0.05",
    "BOT_DELAY_SECONDS": "0.01",
    "MESSAGES_PER_SECOND": "1000000",
    "MESSAGE_BURST": "1000000",
    "MAX_MESSAGE_BYTES": "65536",
    # every client connects from 127.0.0.1: the per-address limits must not bite either
    "MAX_CONNECTIONS_PER_ADDRESS": "1000000",
    "ADDRESS_MESSAGES_PER_SECOND": "1000000000",
    "ADDRESS_MESSAGE_BURST": "1000000000",
    "SIGNUPS_PER_HOUR": "0",
    "STARTING_BANKROLL": "1000000000",
    "HOUSE_FLOAT": "1000000000000",
    "PLAYERS_MAY_OPEN_TABLES": "true",
    "JOIN_CODE": "",
}


# =========================================================================== the clients


class Client:
    """One seat's player: a raw socket and a rules-blind policy (random action from legal)."""

    __slots__ = (
        "acted_version",
        "index",
        "leave_pending",
        "name",
        "pending_id",
        "pending_in_window",
        "pending_t",
        "rng",
        "sit_pending",
        "state_t",
        "table",
        "thinking",
        "token",
        "version",
        "view",
        "w",
        "wake",
        "ws",
    )

    def __init__(self, worker: Worker, table: int, index: int, token: str) -> None:
        self.w = worker
        self.table = table
        self.index = index
        self.token = token
        self.name = f"t{table}c{index}"
        self.ws: RawWebSocket | None = None
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.acted_version = -1
        self.pending_id: str | None = None
        self.pending_t = 0.0
        self.pending_in_window = False
        self.state_t = 0.0
        self.sit_pending = False
        self.leave_pending = False
        self.rng = random.Random(hash(self.name))
        self.wake = asyncio.Event()
        self.thinking = False

    # --------------------------------------------------------------- receiving

    def on_message(self, payload: bytes) -> None:
        w = self.w
        now = time.monotonic()
        in_window = w.t0 <= now < w.t1
        if in_window:
            w.messages += 1
            w.payload_bytes += len(payload)
        message = json.loads(payload)
        kind = message.get("type")
        if kind == "state":
            self.version = message["version"]
            self.view = message["view"]
            if in_window:
                w.states += 1
                if len(w.samples) < w.keep_samples and self.index == 0:
                    w.samples.append(payload.decode())
            if self.state_t:
                if self.pending_in_window or in_window:
                    w.state_latency.append(now - self.state_t)
                    if message.get("result") is not None:
                        # the act ended a hand: told once its write is committed
                        w.result_latency.append(now - self.state_t)
                self.state_t = 0.0
            self.wake.set()
            if w.running:
                self.decide(now)
        elif kind == "ack":
            if message.get("id") == self.pending_id:
                if self.pending_in_window:
                    w.acks += 1
                    w.ack_latency.append(now - self.pending_t)
                self.pending_id = None
                # states that came before the ack predate the act: wait for a newer one
                self.acted_version = max(self.acted_version, self.version)
                if w.running:
                    self.decide(now)
        elif kind == "error":
            code = message.get("code", "?")
            w.errors[code] += 1
            if message.get("id") is not None and message.get("id") == self.pending_id:
                self.pending_id = None
                self.state_t = 0.0
            else:
                self.sit_pending = False
                self.leave_pending = False
            self.wake.set()

    def on_close(self) -> None:
        w = self.w
        if not w.stopping:
            code = self.ws.close_code if self.ws is not None else None
            w.closed[str(code)] += 1

    # --------------------------------------------------------------- acting

    def decide(self, now: float) -> None:
        """Called on every state and ack while running: act, leave when broke, sit again."""
        view = self.view
        if view is None or self.ws is None:
            return
        you = view.get("you")
        if you is None:
            self.leave_pending = False
            if not self.sit_pending:
                self.sit()
            return
        self.sit_pending = False
        if self.pending_id is not None:
            return
        legal = view.get("legal")
        if not legal:
            if self.leave_pending:
                return
            for seat in view.get("seats", ()):
                if seat.get("seat") == you and seat.get("stack", 1) == 0:
                    # broke: stand up (at the next moment the rules allow) and buy in again
                    self.ws.send_text('{"type":"leave"}')
                    self.leave_pending = True
                    self.w.leaves += 1
            return
        if self.version <= self.acted_version:
            return
        if self.w.think > 0:
            # a person's pace: decide after a random pause (exponential, mean --think-ms),
            # then act on the newest view; latency is counted from the send
            if not self.thinking:
                self.thinking = True
                delay = self.rng.expovariate(1.0 / self.w.think)
                asyncio.get_running_loop().call_later(delay, self.thought)
            return
        self.act(now, legal)

    def thought(self) -> None:
        self.thinking = False
        view = self.view
        if not self.w.running or view is None or self.pending_id is not None:
            return
        legal = view.get("legal")
        if legal and view.get("you") is not None and self.version > self.acted_version:
            self.act(time.monotonic(), legal)

    def act(self, now: float, legal: list[dict[str, Any]]) -> None:
        assert self.ws is not None
        action = _random_action(legal, self.rng)
        self.pending_id = f"{self.name}-{next(self.w.ids)}"
        self.pending_t = self.state_t = now
        self.pending_in_window = self.w.t0 <= now < self.w.t1
        self.acted_version = self.version
        if self.pending_in_window:
            self.w.acts += 1
        self.ws.send_text(
            json.dumps(
                {"type": "act", "id": self.pending_id, "version": self.version, "action": action},
                separators=(",", ":"),
            )
        )

    def sit(self) -> None:
        assert self.view is not None and self.ws is not None
        limits = self.view.get("table", {}).get("buy_in", {"min": 100, "max": 100})
        low, high = int(limits["min"]), int(limits["max"])
        amount = low if low >= high else min(high, max(low, 1000))
        self.ws.send_text(json.dumps({"type": "sit", "seat": None, "buy_in": amount}))
        self.sit_pending = True
        self.w.sits += 1

    async def connect(self, table_id: str) -> None:
        self.ws = await open_websocket(
            HOST,
            self.w.port,
            f"/ws/tables/{table_id}?token={self.token}",
            self.on_message,
            self.on_close,
            deflate=self.w.deflate,
        )
        await self.until(lambda: self.view is not None)

    async def until(self, predicate: Any, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: timed out in setup (view {self.view})")
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), min(left, 2.0))

    async def take_seat(self) -> None:
        for _ in range(50):
            self.sit()
            await self.until(
                lambda: not self.sit_pending or (self.view or {}).get("you") is not None
            )
            if (self.view or {}).get("you") is not None:
                self.sit_pending = False
                return
            await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name}: could not sit down")


def _random_action(templates: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A uniformly random action fitting ``legal`` (as ``app.games.core.actions.random_action``)."""
    template = rng.choice(templates)
    action: dict[str, Any] = {"kind": template["kind"]}
    for name, spec in template.get("params", {}).items():
        if "one_of" in spec:
            action[name] = rng.choice(spec["one_of"])
        elif "subset_of" in spec:
            action[name] = rng.sample(
                list(spec["subset_of"]), rng.randint(spec["min"], spec["max"])
            )
        else:
            action[name] = rng.randint(spec["min"], spec["max"])
    return action


@dataclass
class Worker:
    """One client process: many clients on one event loop."""

    port: int
    tables: list[Any]
    """Table numbers to open over REST, or (number, table_id, tokens) already seeded."""
    clients_per_table: int
    game: str
    options: dict[str, Any]
    deflate: bool
    setup_concurrency: int
    keep_samples: int = 0
    think: float = 0.0
    """Mean seconds a client waits before acting (0: at once)."""
    t0: float = float("inf")
    t1: float = float("inf")
    running: bool = False
    stopping: bool = False
    ids: Any = field(default_factory=lambda: itertools.count(1))
    clients: list[Client] = field(default_factory=list)
    acts: int = 0
    acks: int = 0
    states: int = 0
    messages: int = 0
    payload_bytes: int = 0
    sits: int = 0
    leaves: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    closed: Counter[str] = field(default_factory=Counter)
    ack_latency: array.array[float] = field(default_factory=lambda: array.array("d"))
    state_latency: array.array[float] = field(default_factory=lambda: array.array("d"))
    result_latency: array.array[float] = field(default_factory=lambda: array.array("d"))
    ping_latency: array.array[float] = field(default_factory=lambda: array.array("d"))
    samples: list[str] = field(default_factory=list)
    setup_errors: list[str] = field(default_factory=list)

    async def setup(self, tables: list[Any]) -> None:
        import httpx

        limits = httpx.Limits(max_connections=self.setup_concurrency)
        # no cookie jar: the session cookie would make every later POST /api/session return
        # the first player again
        no_cookies = http.cookiejar.CookieJar(
            http.cookiejar.DefaultCookiePolicy(allowed_domains=[])
        )
        async with httpx.AsyncClient(
            base_url=f"http://{HOST}:{self.port}", timeout=120, limits=limits, cookies=no_cookies
        ) as client:
            gate = asyncio.Semaphore(self.setup_concurrency)
            results = await asyncio.gather(
                *(self._setup_table(client, gate, t) for t in tables), return_exceptions=True
            )
        for result in results:
            if isinstance(result, BaseException):
                self.setup_errors.append(repr(result)[:300])

    async def _setup_table(self, http: Any, gate: asyncio.Semaphore, table: Any) -> None:
        async with gate:
            if isinstance(table, int):  # over REST: players, the table, then sit down
                tokens = []
                for i in range(self.clients_per_table):
                    r = await http.post("/api/session", json={"name": f"t{table}c{i}"})
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
                r = await http.post(
                    "/api/tables",
                    json={"game": self.game, "name": f"bench {table}", "options": self.options},
                    headers={"authorization": f"Bearer {tokens[0]}"},
                )
                r.raise_for_status()
                number, table_id = table, r.json()["table_id"]
            else:  # seeded in the database: the players are seated already
                number, table_id, tokens = table
            clients = [Client(self, number, i, tok) for i, tok in enumerate(tokens)]
            for client in clients:
                await client.connect(table_id)
        for client in clients:
            if (client.view or {}).get("you") is None:
                await client.take_seat()
        self.clients.extend(clients)

    async def probe(self) -> None:
        """Ping the server every 20 ms on a spectator socket: the event loop's own delay."""
        sent: list[float] = []

        def on_message(payload: bytes) -> None:
            if payload.startswith(b'{"type":"pong"') and sent:
                t = sent.pop(0)
                if self.t0 <= t < self.t1:
                    self.ping_latency.append(time.monotonic() - t)

        first = self.clients[0].ws if self.clients else None
        if first is None:
            return
        ws = await open_websocket(
            HOST, self.port, first.path.split("?")[0], on_message, deflate=self.deflate
        )
        while self.running and not self.stopping:
            if len(sent) < 50:
                sent.append(time.monotonic())
                ws.send_text('{"type":"ping"}')
            await asyncio.sleep(0.02)
        ws.close()

    def _reset(self) -> None:
        self.acts = self.acks = self.states = self.messages = self.payload_bytes = 0
        self.sits = self.leaves = 0
        self.errors = Counter()
        self.closed = Counter()
        self.ack_latency = array.array("d")
        self.state_latency = array.array("d")
        self.result_latency = array.array("d")
        self.ping_latency = array.array("d")
        self.samples = []

    async def window(self, go: float, t0: float, t1: float, grace: float) -> dict[str, Any]:
        """Play from ``go`` to ``t1``, measuring from ``t0``; then pause (stop acting)."""
        loop = asyncio.get_running_loop()
        self._reset()
        self.t0, self.t1 = t0, t1
        marks: dict[str, Any] = {}

        def mark(name: str) -> None:
            marks[name] = (
                time.process_time(),
                sum(c.ws.wire_in for c in self.clients if c.ws is not None),
                sum(c.ws.wire_out for c in self.clients if c.ws is not None),
            )

        now = time.monotonic()
        loop.call_later(max(0.0, t0 - now), mark, "t0")
        loop.call_later(max(0.0, t1 - now), mark, "t1")
        await asyncio.sleep(max(0.0, go - time.monotonic()))
        self.running = True
        probe = asyncio.create_task(self.probe())
        start = time.monotonic()
        for client in self.clients:
            client.decide(start)
        await asyncio.sleep(max(0.0, t1 - time.monotonic()))
        self.running = False
        await asyncio.sleep(grace)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(probe, 2)
        cpu0, in0, out0 = marks.get("t0", (0.0, 0, 0))
        cpu1, in1, out1 = marks.get("t1", (0.0, 0, 0))
        return {
            "sockets": sum(1 for c in self.clients if c.ws is not None and not c.ws.closed),
            "acts": self.acts,
            "acks": self.acks,
            "states": self.states,
            "messages": self.messages,
            "payload_bytes": self.payload_bytes,
            "wire_in": in1 - in0,
            "wire_out": out1 - out0,
            "cpu": cpu1 - cpu0,
            "sits": self.sits,
            "leaves": self.leaves,
            "errors": dict(self.errors),
            "closed": dict(self.closed),
            "ack_latency": self.ack_latency.tobytes(),
            "state_latency": self.state_latency.tobytes(),
            "result_latency": self.result_latency.tobytes(),
            "ping_latency": self.ping_latency.tobytes(),
            "samples": self.samples,
            "pending_at_end": sum(1 for c in self.clients if c.pending_id is not None),
        }

    def close_all(self) -> None:
        self.stopping = True
        for client in self.clients:
            if client.ws is not None:
                client.ws.close()


def worker_main(config: dict[str, Any], pipe: Any) -> None:
    """A client process: set up its tables, report ready, then play each window it is sent."""
    raise_nofile()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()

    async def run() -> None:
        worker = Worker(**config)
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        # half the tables, a pause for the server's memory to be read, then the other half:
        # memory per connection is the slope between the two (fixed costs cancel out)
        half = len(worker.tables) // 2
        await worker.setup(worker.tables[:half])
        pipe.send({"half": len(worker.clients)})
        await loop.run_in_executor(None, pipe.recv)
        await worker.setup(worker.tables[half:])
        pipe.send(
            {
                "ready": len(worker.clients),
                "setup_seconds": time.monotonic() - started,
                "setup_errors": worker.setup_errors[:5],
                "setup_error_count": len(worker.setup_errors),
            }
        )
        while True:
            command = await loop.run_in_executor(None, pipe.recv)
            if command.get("stop"):
                break
            result = await worker.window(
                command["go"], command["t0"], command["t1"], command["grace"]
            )
            pipe.send(result)
        worker.close_all()
        await asyncio.sleep(0.2)

    asyncio.run(run())


# =========================================================================== the servers


@dataclass
class Server:
    kind: str
    proc: subprocess.Popen[bytes]
    port: int
    workdir: Path
    database: Path | None
    log_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_server(
    kind: str,
    game: str,
    workdir: Path,
    *,
    samples: Path | None = None,
    database_url: str | None = None,
    seed: tuple[int, int, dict[str, Any]] | None = None,
) -> tuple[Server, list[tuple[int, str, list[str]]]]:
    """Start the project (fresh migrated database, optionally seeded with ``seed`` = (tables,
    clients, options) already seated) or the bare endpoint. Returns the seeded tables."""
    port = free_port()
    env = {**os.environ, **SERVER_ENV, "PORT": str(port), "HOST": HOST, "ENABLED_GAMES": game}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    database: Path | str | None = None
    seeded: list[tuple[int, str, list[str]]] = []
    if kind == "project":
        if database_url:
            fresh_postgres(database_url)
            url = database = database_url
        else:
            database = workdir / "bench.db"
            url = f"sqlite+aiosqlite:///{database}"
        migrate(url)
        if seed is not None:
            seeded = asyncio.run(seed_database(url, game, *seed))
        env["DATABASE_URL"] = url
        command = [sys.executable, "-m", "app", "serve"]
    else:
        if samples is not None:
            env["BENCH_SAMPLES"] = str(samples)
        command = [sys.executable, "-m", "bench.bare", "--host", HOST, "--port", str(port)]
    log_path = workdir / f"{kind}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = Server(kind, proc, port, workdir, database, log_path)
    try:
        wait_port(HOST, port, 300, proc)
    except Exception:
        server.stop()
        raise
    return server, seeded


async def seed_database(
    url: str, game: str, tables: int, clients: int, options: dict[str, Any]
) -> list[tuple[int, str, list[str]]]:
    """Players, tables and seats written with the app's own store functions before the
    server starts; the server then recovers the tables with everyone seated, as after a
    restart. Much faster than thousands of REST calls queued behind one writer."""
    from app.db import store
    from app.db.session import make_engine, make_sessionmaker
    from app.games.core.options import parse_options
    from app.games.core.registry import game_class

    cls = game_class(game)
    parsed = parse_options(cls.OPTIONS, options)
    engine = make_engine(url)
    sessionmaker = make_sessionmaker(engine)
    out: list[tuple[int, str, list[str]]] = []
    try:
        for first in range(0, tables, 50):
            async with sessionmaker() as session, session.begin():
                for number in range(first, min(tables, first + 50)):
                    table_id = store.new_id()[:12]
                    await store.create_table(
                        session,
                        table_id=table_id,
                        name=f"bench {number}",
                        game=game,
                        options=parsed,
                        created_by=None,
                    )
                    probe = cls(parsed)
                    tokens = []
                    for seat in range(clients):
                        player, token = await store.create_player(
                            session, f"t{number}c{seat}", bankroll=10**9
                        )
                        low, high = probe.buy_in_limits(seat)
                        amount = low if low >= high else min(high, max(low, 1000))
                        await store.sit(session, table_id, seat, player.id, amount)
                        probe.sit(seat, amount)
                        tokens.append(token)
                    out.append((number, table_id, tokens))
    finally:
        await engine.dispose()
    return out


def fresh_postgres(url: str) -> None:
    """Drop and create the (benchmark's own) PostgreSQL database named in ``url``."""
    recreate_postgres(url)


class HandCounter:
    """Finished hands and the newest one's end, read from the server's database."""

    def __init__(self, database: Path | str | None) -> None:
        self.database = database

    def read(self) -> tuple[int, float | None]:
        if self.database is None:
            return 0, None
        if isinstance(self.database, str):
            return asyncio.run(self._read_postgres(self.database))
        try:
            with contextlib.closing(
                sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
            ) as db:
                db.execute("PRAGMA busy_timeout=5000")
                count, newest = db.execute(
                    "SELECT count(*), max(ended_at) FROM hands WHERE status = 'finished'"
                ).fetchone()
        except sqlite3.Error:
            return 0, None
        return int(count), _timestamp(newest)

    async def _read_postgres(self, url: str) -> tuple[int, float | None]:
        import asyncpg
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        db = await asyncpg.connect(
            host=parsed.host or "127.0.0.1",
            port=parsed.port or 5432,
            user=parsed.username or "postgres",
            password=parsed.password,
            database=parsed.database,
        )
        try:
            row = await db.fetchrow(
                "SELECT count(*), max(ended_at) FROM hands WHERE status = 'finished'"
            )
        finally:
            await db.close()
        return int(row[0]), _timestamp(row[1])


def _timestamp(newest: Any) -> float | None:
    """A stored ``ended_at`` (a datetime, or SQLite's text) as unix seconds."""
    if not newest:
        return None
    stamp = newest if isinstance(newest, datetime) else datetime.fromisoformat(str(newest))
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.timestamp()


def server_gauges(port: int) -> dict[str, float]:
    """The server's own gauges at this moment (``/metrics``): the database jobs queued, the
    garbage collections so far (how many, how long in all, how many over 10 ms) and the
    longest pause."""
    import urllib.request

    wanted = {
        "table31_writer_pending": "writer_pending",
        "table31_gc_pause_longest_seconds": "gc_pause_longest_s",
        "table31_malloc_trim_longest_seconds": "trim_longest_s",
        "table31_malloc_trims_total": "trims",
        "table31_gc_sweeps_total": "gc_sweeps",
    }
    for generation in (0, 1, 2):
        label = f'{{generation="{generation}"}}'
        wanted[f"table31_gc_pause_seconds_count{label}"] = f"gc{generation}_count"
        wanted[f"table31_gc_pause_seconds_sum{label}"] = f"gc{generation}_s"
        short = f'table31_gc_pause_seconds_bucket{{generation="{generation}",le="0.01"}}'
        wanted[short] = f"gc{generation}_short"
    found: dict[str, float] = {}
    try:
        scrape = urllib.request.Request(
            f"http://{HOST}:{port}/metrics",
            headers={"Authorization": f"Bearer {SERVER_ENV['ADMIN_TOKEN']}"},  # the host's only
        )
        with urllib.request.urlopen(scrape, timeout=10) as response:
            for line in response.read().decode().splitlines():
                name, _, value = line.partition(" ")
                if name in wanted:
                    found[wanted[name]] = float(value)
    except (OSError, ValueError):
        return {}
    return found


def profile_server(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("NOTICE: py-spy is not installed (pip install py-spy); no profile", flush=True)
        return None
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(max(1, int(seconds))),
            "--rate",
            "200",
            "--format",
            "raw",
            "--nonblocking",
            "--subprocesses",  # the database writer's process too
            "--output",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def summarize_profile(path: Path, top: int = 25) -> dict[str, Any]:
    """Self and inclusive sample shares per function from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    with open(path) as f:
        for line in f:
            stack, _, count_text = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            count = int(count_text)
            total += count
            frames = [_short(frame) for frame in stack.split(";")]
            own[frames[-1]] += count
            for frame in set(frames):
                inclusive[frame] += count
    share = lambda c: round(100.0 * c / total, 1) if total else 0.0  # noqa: E731
    return {
        "samples": total,
        "self": [(name, share(c)) for name, c in own.most_common(top)],
        "inclusive": [(name, share(c)) for name, c in inclusive.most_common(top * 2)],
    }


def _short(frame: str) -> str:
    """``func (path/to/module.py:123)`` -> ``func (module.py)``."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    file = where.rsplit(":", 1)[0]
    parts = file.split("/")
    short = "/".join(parts[-2:]) if len(parts) > 1 else file
    return f"{name} ({short})"


# =========================================================================== one run


class Target:
    """One server (project or bare) with its client processes, measured in windows."""

    def __init__(
        self, kind: str, args: argparse.Namespace, tables: int, clients: int, workdir: Path
    ) -> None:
        self.kind = kind
        self.args = args
        self.tables = tables
        self.clients = clients
        self.workdir = workdir
        self.options = {**GAME_OPTIONS.get(args.game, {}), **json.loads(args.options)}
        self.server: Server | None = None
        self.procs: list[Any] = []
        self.pipes: list[Any] = []
        self.windows: list[dict[str, Any]] = []
        self.info: dict[str, Any] = {"target": kind, "tables": tables, "clients": clients}
        self.samples: list[str] = []

    def start(self, samples: Path | None = None) -> None:
        args = self.args
        started = time.monotonic()
        seed = None
        if self.kind == "project" and args.setup == "seed":
            seed = (self.tables, self.clients, self.options)
        self.server, seeded = start_server(
            self.kind,
            args.game,
            self.workdir,
            samples=samples,
            database_url=args.database if self.kind == "project" else None,
            seed=seed,
        )
        time.sleep(0.5)
        self.rss_idle = rss_bytes(self.server.pid)
        assignments: list[Any] = seeded or list(range(self.tables))
        context = multiprocessing.get_context("spawn")
        for i, part in enumerate(chunks(assignments, args.workers)):
            parent_end, child_end = context.Pipe()
            config = {
                "port": self.server.port,
                "tables": part,
                "clients_per_table": self.clients,
                "game": args.game,
                "options": self.options,
                "deflate": args.deflate,
                "setup_concurrency": args.setup_concurrency,
                "keep_samples": 64 if i == 0 and self.kind == "project" else 0,
                "think": args.think_ms / 1000.0,
            }
            proc = context.Process(target=worker_main, args=(config, child_end), daemon=True)
            proc.start()
            self.procs.append(proc)
            self.pipes.append(parent_end)
        halves = [pipe.recv() for pipe in self.pipes]
        time.sleep(0.5)
        self.sockets_half = sum(h["half"] for h in halves)
        self.rss_half = rss_bytes(self.server.pid)
        for pipe in self.pipes:
            pipe.send({"continue": True})
        ready = [pipe.recv() for pipe in self.pipes]
        self.sockets = sum(r["ready"] for r in ready)
        self.info["sockets"] = self.sockets
        self.info["setup"] = args.setup if self.kind == "project" else "rest"
        self.info["setup_seconds"] = round(time.monotonic() - started, 1)
        time.sleep(0.5)
        self.rss_connected = rss_bytes(self.server.pid)
        errors = sum(r["setup_error_count"] for r in ready)
        if errors:
            self.info["setup_errors"] = errors
            print(f"  {self.kind}: {errors} tables failed setup: {ready[0]['setup_errors']}")
        print(
            f"  {self.kind}: {self.sockets} sockets ready in {self.info['setup_seconds']} s",
            flush=True,
        )

    def window(self, profile: Path | None = None) -> dict[str, Any]:
        """Play one window: warm-up, then ``--seconds`` measured."""
        assert self.server is not None
        args = self.args
        counter = HandCounter(self.server.database)
        go = time.monotonic() + 0.3
        t0 = go + args.warmup
        t1 = t0 + args.seconds
        for pipe in self.pipes:
            pipe.send({"go": go, "t0": t0, "t1": t1, "grace": 1.0})
        time.sleep(max(0.0, t0 - time.monotonic()))
        (cpu_a, kids_a, analysis_a), (busy_a, total_a) = (
            tree_cpu_seconds(self.server.pid),
            machine_cpu(),
        )
        gauges_a = server_gauges(self.server.port) if self.kind == "project" else {}
        hands_a, _ = counter.read()
        spy = profile_server(self.server.pid, args.seconds, profile) if profile else None
        time.sleep(max(0.0, t1 - time.monotonic()))
        (cpu_b, kids_b, analysis_b), (busy_b, total_b) = (
            tree_cpu_seconds(self.server.pid),
            machine_cpu(),
        )
        wall_b = time.time()
        rss = rss_bytes(self.server.pid)
        kids_rss = sum(
            rss_bytes(child) for child in children(self.server.pid) if not is_analysis_worker(child)
        )
        hands_b, newest = counter.read()
        gauges = server_gauges(self.server.port) if self.kind == "project" else {}
        pending = gauges.get("writer_pending")
        reports = [pipe.recv() for pipe in self.pipes]
        window = {
            "reports": reports,
            "server_cpu": cpu_b - cpu_a,  # the writer process included, the analysis not
            "writer_cpu": kids_b - kids_a,
            "analysis_cpu": analysis_b - analysis_a,
            "writer_rss": kids_rss,
            "machine_busy": (busy_b - busy_a) / max(1.0, total_b - total_a),
            "rss": rss,
            "hands": hands_b - hands_a if self.server.database else None,
            "lag": round(wall_b - newest, 2) if newest else None,
            "writer_pending": int(pending) if pending is not None else None,
            "gc_pause_longest_s": gauges.get("gc_pause_longest_s"),
            "trim_longest_s": gauges.get("trim_longest_s"),
            # collections during the window: how many, and how long they stopped the loop
            **{
                key: round(gauges[key] - gauges_a[key], 4)
                for key in (
                    *(f"gc{g}_{what}" for g in (0, 1, 2) for what in ("count", "s", "short")),
                    "gc_sweeps",
                )
                if key in gauges and key in gauges_a
            },
        }
        if spy is not None:
            spy.wait(120)
            if profile is not None and profile.exists():
                window["profile"] = summarize_profile(profile)
                window["profile_file"] = str(profile)
        for report in reports:
            self.samples.extend(report.pop("samples", []))
        self.windows.append(window)
        last = self.summary_of([window])
        print(_line(last), flush=True)
        return window

    def stop(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(Exception):
                pipe.send({"stop": True})
        for proc in self.procs:
            proc.join(15)
            if proc.is_alive():
                proc.terminate()
        if self.server is not None:
            self.server.stop()

    def summary(self) -> dict[str, Any]:
        return self.summary_of(self.windows)

    def summary_of(self, windows: list[dict[str, Any]]) -> dict[str, Any]:
        seconds = self.args.seconds * len(windows)
        ack, state, ping = array.array("d"), array.array("d"), array.array("d")
        result = array.array("d")
        errors: Counter[str] = Counter()
        closed: Counter[str] = Counter()
        totals: Counter[str] = Counter()
        client_cpu = 0.0
        for window in windows:
            for report in window["reports"]:
                ack.frombytes(report["ack_latency"])
                state.frombytes(report["state_latency"])
                result.frombytes(report.get("result_latency", b""))
                ping.frombytes(report["ping_latency"])
                errors.update(report["errors"])
                closed.update(report["closed"])
                client_cpu += report["cpu"]
                for key in (
                    "acts",
                    "acks",
                    "states",
                    "messages",
                    "payload_bytes",
                    "wire_in",
                    "wire_out",
                    "sits",
                    "leaves",
                ):
                    totals[key] += report[key]
        cores = os.cpu_count() or 1
        server_cpu = sum(w["server_cpu"] for w in windows)
        hands = [w["hands"] for w in windows if w["hands"] is not None]
        lags = [w["lag"] for w in windows if w["lag"] is not None]
        rss = windows[-1]["rss"] if windows else 0
        out = dict(self.info)
        out.update(
            {
                "windows": len(windows),
                "seconds": seconds,
                "actions_per_s": round(totals["acks"] / seconds, 1),
                "acts_sent_per_s": round(totals["acts"] / seconds, 1),
                "ack_ms": percentiles(ack),
                "state_ms": percentiles(state),
                "result_ms": percentiles(result),
                "ping_ms": percentiles(ping),
                "messages_in_per_s": round(totals["messages"] / seconds, 1),
                "states_per_s": round(totals["states"] / seconds, 1),
                "bytes_in_per_s": round(totals["payload_bytes"] / seconds),
                "wire_in_per_s": round(totals["wire_in"] / seconds),
                "wire_out_per_s": round(totals["wire_out"] / seconds),
                "mean_message_bytes": round(totals["payload_bytes"] / max(1, totals["messages"])),
                "server_cpu_pct": round(100.0 * server_cpu / seconds, 1),
                # of which the database writer's process (0 for a thread writer, counted
                # with the server's own threads)
                "writer_process_cpu_pct": round(
                    100.0 * sum(w.get("writer_cpu", 0.0) for w in windows) / seconds, 1
                ),
                # the analysis's worker, apart: spare CPU spent on finished hands
                "analysis_process_cpu_pct": round(
                    100.0 * sum(w.get("analysis_cpu", 0.0) for w in windows) / seconds, 1
                ),
                "writer_process_rss_mib": round(windows[-1].get("writer_rss", 0) / 2**20, 1)
                if windows
                else 0,
                # CPU per accepted action: the figure a noisy neighbour does not move much
                "server_cpu_us_per_action": round(1e6 * server_cpu / max(1, totals["acks"])),
                "client_cpu_us_per_action": round(1e6 * client_cpu / max(1, totals["acks"])),
                "client_cpu_pct": round(100.0 * client_cpu / seconds, 1),
                "machine_busy_pct": round(
                    100.0 * cores * sum(w["machine_busy"] for w in windows) / max(1, len(windows)),
                    1,
                ),
                "cores": cores,
                "server_rss_mib": round(rss / 2**20, 1),
                "rss_per_connection_kib": round(
                    (rss - self.rss_idle) / max(1, self.sockets) / 1024, 1
                ),
                # connected and seated, before any play: the sockets' own cost
                "rss_per_connection_idle_kib": round(
                    (self.rss_connected - self.rss_idle) / max(1, self.sockets) / 1024, 1
                ),
                # the slope: what the second half of the sockets added, per socket (the fixed
                # costs of the first connections, such as database pools, cancel out)
                "rss_per_connection_marginal_kib": round(
                    (self.rss_connected - self.rss_half)
                    / max(1, self.sockets - self.sockets_half)
                    / 1024,
                    1,
                ),
                "hands_per_s": round(sum(hands) / seconds, 1) if hands else None,
                "settlement_lag_s": max(lags) if lags else None,
                "writer_pending": max(
                    (w["writer_pending"] for w in windows if w.get("writer_pending") is not None),
                    default=None,
                ),
                "gc_pause_longest_ms": max(
                    (
                        round(w["gc_pause_longest_s"] * 1000, 1)
                        for w in windows
                        if w.get("gc_pause_longest_s") is not None
                    ),
                    default=None,
                ),
                "malloc_trim_longest_ms": max(
                    (
                        round(w["trim_longest_s"] * 1000, 1)
                        for w in windows
                        if w.get("trim_longest_s") is not None
                    ),
                    default=None,
                ),
                "full_gcs": sum(int(w.get("gc2_count", 0)) for w in windows)
                if any("gc2_count" in w for w in windows)
                else None,
                "gc_ms_per_s": round(
                    sum(w.get(f"gc{g}_s", 0) for w in windows for g in (0, 1, 2)) * 1000 / seconds,
                    1,
                )
                if any("gc2_s" in w for w in windows)
                else None,
                # collections in the windows that stopped the loop for over 10 ms
                "gc_over_10ms": sum(
                    int(w.get(f"gc{g}_count", 0) - w.get(f"gc{g}_short", 0))
                    for w in windows
                    for g in (0, 1, 2)
                )
                if any("gc2_short" in w for w in windows)
                else None,
                "gc_sweeps": sum(int(w.get("gc_sweeps", 0)) for w in windows)
                if any("gc_sweeps" in w for w in windows)
                else None,
                "sits": totals["sits"],
                "leaves": totals["leaves"],
                "errors": dict(errors),
                "closed": dict(closed),
            }
        )
        profiles = [w["profile"] for w in windows if w.get("profile")]
        if profiles:
            out["profile"] = profiles[-1]
            out["profile_file"] = windows[-1].get("profile_file")
        return out


def run_size(args: argparse.Namespace, tables: int, clients: int) -> list[dict[str, Any]]:
    """Both targets at one size, their windows interleaved (project, bare, project, ...), so
    that a noisy neighbour weighs on both alike."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="table31-bench-") as tmp:
        workdir = Path(tmp)
        targets: list[Target] = []
        try:
            print(f"== {tables} tables x {clients} clients ({args.game})", flush=True)
            order = ["project", "bare"] if args.target == "both" else [args.target]
            for round_ in range(args.rounds):
                for kind in order:
                    target = next((t for t in targets if t.kind == kind), None)
                    if target is None:
                        target = Target(kind, args, tables, clients, workdir)
                        samples = None
                        project = next((t for t in targets if t.kind == "project"), None)
                        if kind == "bare" and project is not None and project.samples:
                            samples = workdir / "samples.json"
                            samples.write_text(json.dumps(project.samples))
                        target.start(samples)
                        targets.append(target)
                    profile = None
                    if args.profile and kind == "project" and round_ == args.rounds - 1:
                        profile = Path(args.profile) / f"{kind}-{tables}x{clients}.txt"
                        profile.parent.mkdir(parents=True, exist_ok=True)
                    target.window(profile)
        finally:
            for target in targets:
                target.stop()
            if args.keep_logs:
                for log in workdir.glob("*.log"):
                    shutil.copy(log, Path(args.keep_logs) / f"{tables}x{clients}-{log.name}")
        rows = [t.summary() for t in targets]
        for row in rows:
            print(f"{row['target']:>8} total:" + _line(row)[2:], flush=True)
    return rows


def _line(r: dict[str, Any]) -> str:
    return (
        f"   {r['actions_per_s']:.0f} actions/s, ack p50 {r['ack_ms']['p50']} p99 "
        f"{r['ack_ms']['p99']} ms, state p99 {r['state_ms']['p99']} ms, act->result p99 "
        f"{r.get('result_ms', {}).get('p99')} ms, ping p99 "
        f"{r['ping_ms']['p99']} ms, server CPU {r['server_cpu_pct']}%, clients CPU "
        f"{r['client_cpu_pct']}%, machine {r['machine_busy_pct']}%, "
        f"{r['rss_per_connection_kib']} KiB/conn, "
        + (f"gcs >10 ms {r['gc_over_10ms']}, " if r.get("gc_over_10ms") is not None else "")
        + f"errors {r['errors']}, closed {r['closed']}"
    )


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    by_size: dict[tuple[int, int], dict[str, dict[str, Any]]] = {}
    for r in rows:
        by_size.setdefault((r["tables"], r["clients"]), {})[r["target"]] = r
    for (tables, clients), pair in by_size.items():
        if "project" in pair and "bare" in pair:
            p, b = pair["project"], pair["bare"]
            out.append(
                {
                    "tables": tables,
                    "clients": clients,
                    "throughput_ratio": round(
                        p["actions_per_s"] / max(1e-9, b["actions_per_s"]), 3
                    ),
                    "p99_ratio": round(p["ack_ms"]["p99"] / max(1e-9, b["ack_ms"]["p99"]), 2),
                    "state_p99_ratio": round(
                        p["state_ms"]["p99"] / max(1e-9, b["state_ms"]["p99"]), 2
                    ),
                    "cpu_per_action_ratio": round(
                        p["server_cpu_us_per_action"] / max(1, b["server_cpu_us_per_action"]), 2
                    ),
                    "project_ack_p99_ms": p["ack_ms"]["p99"],
                    "targets": {
                        "p99_ack_under_50ms": p["ack_ms"]["p99"] < 50,
                        "throughput_at_least_half_of_bare": p["actions_per_s"]
                        >= 0.5 * b["actions_per_s"],
                        # per connection: the slope between half and all the sockets, and
                        # the whole growth after play (the writer's queue and hands included)
                        "under_40_kib_per_connection_slope": p["rss_per_connection_marginal_kib"]
                        < 40,
                        "under_40_kib_per_connection_after_play": p["rss_per_connection_kib"] < 40,
                    },
                }
            )
    return out


COLUMNS = [
    ("target", "target"),
    ("tables", "T"),
    ("clients", "k"),
    ("sockets", "sockets"),
    ("actions_per_s", "actions/s"),
    ("ack_p50", "ack p50"),
    ("ack_p95", "p95"),
    ("ack_p99", "p99"),
    ("ack_max", "max"),
    ("state_p50", "state p50"),
    ("state_p99", "p99"),
    ("ping_p99", "ping p99"),
    ("messages_in_per_s", "msgs/s"),
    ("wire_in_mib_s", "MiB/s"),
    ("mean_message_bytes", "B/msg"),
    ("server_cpu_pct", "srv CPU%"),
    ("writer_process_cpu_pct", "writer CPU%"),
    ("analysis_process_cpu_pct", "analysis CPU%"),
    ("server_cpu_us_per_action", "srv µs/act"),
    ("client_cpu_pct", "cli CPU%"),
    ("rss_per_connection_idle_kib", "KiB/conn idle"),
    ("rss_per_connection_marginal_kib", "KiB/conn slope"),
    ("rss_per_connection_kib", "KiB/conn"),
    ("hands_per_s", "hands/s"),
    ("settlement_lag_s", "lag s"),
    ("writer_pending", "queued jobs"),
    ("gc_pause_longest_ms", "gc max ms"),
    ("malloc_trim_longest_ms", "trim max ms"),
    ("full_gcs", "full gcs"),
    ("gc_ms_per_s", "gc ms/s"),
    ("gc_over_10ms", "gcs >10 ms"),
    ("gc_sweeps", "sweeps"),
]


def flatten(row: dict[str, Any]) -> dict[str, Any]:
    flat = dict(row)
    for prefix in ("ack", "state", "ping"):
        for q in ("p50", "p95", "p99", "max"):
            flat[f"{prefix}_{q}"] = row[f"{prefix}_ms"][q]
    flat["wire_in_mib_s"] = round(row["wire_in_per_s"] / 2**20, 2)
    return flat


def parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes = []
    for part in text.split(","):
        t, _, k = part.strip().partition("x")
        sizes.append((int(t), int(k or 5)))
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", default="trianta-ena")
    parser.add_argument("--tables", type=int, default=200, help="tables (ignored with --sizes)")
    parser.add_argument("--clients", type=int, default=5, help="clients per table")
    parser.add_argument("--sizes", default=None, help="several sizes, e.g. 100x5,500x5,1000x5")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds a window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before each")
    parser.add_argument(
        "--rounds", type=int, default=2, help="windows per target, interleaved project/bare"
    )
    parser.add_argument(
        "--setup",
        choices=("seed", "rest"),
        default="seed",
        help="seed: players, tables and seats written to the fresh database before the server"
        " starts (it recovers them); rest: all through POST /api/session, POST /api/tables and"
        " sit messages (slow: every call waits for the one database writer)",
    )
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean pause before each act, like a person's (default 0: act at once, a closed"
        " loop where latency = acts in flight / throughput)",
    )
    parser.add_argument(
        "--setup-concurrency",
        type=int,
        default=5,
        help="REST calls in flight per worker while setting up (keep the sum under the"
        " server's database pool of 15: a request holds a pooled connection while it waits"
        " for the writer, which needs one too)",
    )
    parser.add_argument("--options", default="{}", help="table options (JSON) over the defaults")
    parser.add_argument("--target", choices=("both", "project", "bare"), default="both")
    parser.add_argument(
        "--deflate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="clients offer permessage-deflate, as browsers do (default: yes)",
    )
    parser.add_argument(
        "--database",
        default=None,
        help="a PostgreSQL URL for the project (its database is dropped and created afresh,"
        " e.g. postgresql+asyncpg://postgres@127.0.0.1:5432/bench_load); default: SQLite file",
    )
    parser.add_argument("--profile", default=None, help="folder for a py-spy profile")
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--keep-logs", default=None, help="copy the servers' logs here")
    args = parser.parse_args(argv)

    nofile = raise_nofile()
    sizes = parse_sizes(args.sizes) if args.sizes else [(args.tables, args.clients)]
    need = max(t * k for t, k in sizes) + 200
    if nofile < need:
        print(f"NOTICE: open-file limit {nofile} < {need}; the largest sizes may fail")
    rows: list[dict[str, Any]] = []
    for tables, clients in sizes:
        rows.extend(run_size(args, tables, clients))
    print()
    print(format_table([flatten(r) for r in rows], COLUMNS))
    ratio_rows = ratios(rows)
    if ratio_rows:
        print()
        print(
            format_table(
                ratio_rows,
                [
                    ("tables", "T"),
                    ("clients", "k"),
                    ("throughput_ratio", "throughput project/bare"),
                    ("p99_ratio", "ack p99 project/bare"),
                    ("state_p99_ratio", "state p99 project/bare"),
                    ("cpu_per_action_ratio", "server CPU/action project/bare"),
                    ("project_ack_p99_ms", "project ack p99 ms"),
                ],
            )
        )
    for r in rows:
        if r.get("profile"):
            print(f"\nprofile of {r['target']} {r['tables']}x{r['clients']} (self %):")
            for name, pct in r["profile"]["self"][:15]:
                print(f"  {pct:5.1f}  {name}")
    report = {
        "benchmark": "load",
        "game": args.game,
        "deflate_offered": args.deflate,
        "think_ms": args.think_ms,
        "workers": args.workers,
        "machine": machine_info(),
        "server_env": SERVER_ENV,
        "options": {**GAME_OPTIONS.get(args.game, {}), **json.loads(args.options)},
        "runs": rows,
        "ratios": ratio_rows,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
        print(f"\nJSON written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
