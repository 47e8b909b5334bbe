"""Does analysing every finished hand slow play? (docs/review.md, "The analysis";
docs/performance.md.)

The server (``python -m app serve`` on a fresh SQLite file) runs twice, the same way but for
``ANALYSIS_AFTER_HAND``: off, then on. Each time a player opens T tables of bots that play by
themselves (``BOT_TABLE_IDLE_SECONDS=0``; at the server's own pace by default: a bot
thinks 0.6 s, 3 s between hands), and for S seconds a probe measures what a player
feels: the socket's ping -> pong round trip at one of the tables (the event loop's delay) and
a REST call's (``GET /api/tables``). At the end: hands settled a second, the analyses kept and
how long after each hand's end its analysis was kept (from the database), and the CPU seconds
of the server's process and of the analysis's worker. Play is not slowed when the round trips
with the analysis on match those without, within the machine's noise, while the analyses keep
up with the hands (their lag stays seconds, not a growing queue).

::

    python -m bench.analysis_served                     # vingt-un, 20 tables of bots, 30 s
    python -m bench.analysis_served --game trianta-ena --tables 40 --bot-delay 0.1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.common import (
    ROOT,
    children,
    cpu_seconds,
    format_table,
    free_port,
    is_analysis_worker,
    migrate,
    percentiles,
    wait_port,
)

HOST = "127.0.0.1"
OPTIONS: dict[str, dict[str, Any]] = {
    "trianta-ena": {"turn_seconds": 5, "bet_seconds": 5},
    "greek-31": {"turn_seconds": 5},
    "vingt-un": {"turn_seconds": 5},
    "trente-et-quarante": {"bet_seconds": 5, "turn_seconds": 5},
    "en-og-tredive": {"turn_seconds": 5},
}
ENV = {
    "ENVIRONMENT": "development",
    "SECRET_KEY": "bench-secret-key-0123456789",
    "ADMIN_TOKEN": "bench-admin-token",
    "BOT_TABLE_IDLE_SECONDS": "0",
    "SIGNUPS_PER_HOUR": "0",
    "MAX_TABLES_PER_PLAYER": "0",
    "MAX_TABLES_PER_HOUR": "0",
    "MAX_BOTS_PER_TABLE": "0",
    "BOTS_FLOAT": "1000000000",
    "STARTING_BANKROLL": "1000000",
    "HOUSE_FLOAT": "1000000000",
    "JOIN_CODE": "",
    "LOG_FORMAT": "text",
}


def start(
    workdir: Path, game: str, analysis: bool, pace: tuple[float, float]
) -> tuple[subprocess.Popen[bytes], int, Path]:
    database = workdir / f"analysis-{'on' if analysis else 'off'}.db"
    url = f"sqlite+aiosqlite:///{database}"
    migrate(url)
    port = free_port()
    env = {**os.environ, **ENV, "PORT": str(port), "HOST": HOST, "ENABLED_GAMES": game}
    env |= {"DATABASE_URL": url, "ANALYSIS_AFTER_HAND": "true" if analysis else "false"}
    env |= {"BOT_DELAY_SECONDS": str(pace[0]), "NEXT_HAND_SECONDS": str(pace[1])}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    log = open(workdir / f"server-{'on' if analysis else 'off'}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve"], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    wait_port(HOST, port, 120, proc)
    return proc, port, database


def by_role(server: int) -> dict[str, list[int]]:
    """The server's child processes: the analysis's worker and the others (the database
    writer, multiprocessing's resource tracker)."""
    out: dict[str, list[int]] = {"worker": [], "others": []}
    for pid in children(server):
        out["worker" if is_analysis_worker(pid) else "others"].append(pid)
    return out


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


async def open_tables(
    http: httpx.AsyncClient, game: str, tables: int, bots: int
) -> tuple[str, list[str]]:
    """The bench's player (its token) and its tables of bots, dealing."""
    made = await http.post("/api/session", json={"name": "Bench"})
    made.raise_for_status()
    http.headers["authorization"] = f"Bearer {made.json()['token']}"
    ids = []
    for n in range(tables):
        opened = await http.post(
            "/api/tables", json={"game": game, "name": f"Bench {n}", "options": OPTIONS[game]}
        )
        opened.raise_for_status()
        table_id = str(opened.json()["table_id"])
        for _ in range(bots):
            (await http.post(f"/api/tables/{table_id}/bots", json={})).raise_for_status()
        ids.append(table_id)
    return str(made.json()["token"]), ids


async def probe(
    http: httpx.AsyncClient, port: int, token: str, table_id: str, seconds: float
) -> tuple[list[float], list[float]]:
    """Ping -> pong at a table and GET /api/tables, every 50 ms, for ``seconds``."""
    pings: list[float] = []
    rests: list[float] = []
    async with websockets.connect(
        f"ws://{HOST}:{port}/ws/tables/{table_id}?token={token}", max_size=None
    ) as socket:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            sent = time.perf_counter()
            await socket.send(json.dumps({"type": "ping"}))
            while json.loads(await socket.recv()).get("type") != "pong":
                pass
            pings.append(time.perf_counter() - sent)
            sent = time.perf_counter()
            (await http.get("/api/tables")).raise_for_status()
            rests.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)
    return pings, rests


def stored(database: Path, since: datetime, until: datetime) -> dict[str, Any]:
    """The hands settled in ``[since, until)``, those of them whose analysis is kept, and
    each one's lag (seconds from the hand's end to its analysis kept)."""
    window = (since.isoformat(sep=" "), until.isoformat(sep=" "))
    with sqlite3.connect(database) as db:
        hands = db.execute(
            "SELECT count(*) FROM hands WHERE status = 'finished'"
            " AND ended_at >= ? AND ended_at < ?",
            window,
        ).fetchone()[0]
        rows = db.execute(
            "SELECT h.ended_at, a.created_at FROM hand_analyses a JOIN hands h ON h.id = a.hand_id"
            " WHERE h.ended_at >= ? AND h.ended_at < ?",
            window,
        ).fetchall()
    lags = [
        (datetime.fromisoformat(made) - datetime.fromisoformat(ended)).total_seconds()
        for ended, made in rows
    ]
    return {"hands": hands, "analysed": len(lags), "lag": percentiles(lags, scale=1.0)}


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)  # as SQLite keeps a moment


async def run_one(args: argparse.Namespace, analysis: bool) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="bench-analysis-"))
    proc, port, database = start(workdir, args.game, analysis, (args.bot_delay, args.next_hand))
    seconds = args.seconds
    try:
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
            token, ids = await open_tables(http, args.game, args.tables, args.bots)
            await asyncio.sleep(args.warmup)  # every table dealing, the worker started
            since = now()
            roles = by_role(proc.pid)
            before = [cpu_seconds(proc.pid), cpu_of(roles["worker"]), cpu_of(roles["others"])]
            pings, rests = await probe(http, port, token, ids[0], seconds)
            after = [cpu_seconds(proc.pid), cpu_of(roles["worker"]), cpu_of(roles["others"])]
            until = now()
        server_cpu, worker_cpu, others_cpu = (b - a for a, b in zip(before, after, strict=True))
        await asyncio.sleep(args.grace)  # the last hands' analyses kept
        out = stored(database, since, until)
        return {
            "analysis": "on" if analysis else "off",
            "hands/s": round(out["hands"] / seconds, 2),
            "analysed": f"{out['analysed']}/{out['hands']}" if analysis else "-",
            "lag p50 s": out["lag"]["p50"],
            "lag p95 s": out["lag"]["p95"],
            "lag max s": out["lag"]["max"],
            "ping p50 ms": percentiles(pings)["p50"],
            "ping p99 ms": percentiles(pings)["p99"],
            "ping max ms": percentiles(pings)["max"],
            "rest p50 ms": percentiles(rests)["p50"],
            "rest p99 ms": percentiles(rests)["p99"],
            "server cpu %": round(100 * server_cpu / seconds),
            "worker cpu %": round(100 * worker_cpu / seconds),
            "writer cpu %": round(100 * others_cpu / seconds),
        }
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="vingt-un", choices=sorted(OPTIONS))
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--bots", type=int, default=3, help="bots a table")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before")
    parser.add_argument(
        "--grace", type=float, default=10.0, help="seconds after for the last analyses"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, help="BOT_DELAY_SECONDS (the server's default)"
    )
    parser.add_argument(
        "--next-hand", type=float, default=3.0, help="NEXT_HAND_SECONDS (the server's default)"
    )
    parser.add_argument("--json", default=None, help="write the results here")
    args = parser.parse_args()
    rows = [asyncio.run(run_one(args, analysis)) for analysis in (False, True)]
    print(format_table(rows, [(k, k) for k in rows[0]]))
    if args.json:
        Path(args.json).write_text(json.dumps({"game": args.game, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
