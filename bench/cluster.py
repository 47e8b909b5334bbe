"""The cluster benchmark (docs/scaling.md): 1 node and 2 nodes behind nginx, the same clients.

For each cluster size it

1. makes a fresh PostgreSQL database seeded with T tables x k seated players, empties the
   benchmark's Redis database, starts the nodes (``python -m app serve`` in cluster mode, with
   bench/load.py's settings: short clocks, every rate limit raised) and nginx in front
   (app/cluster/nginx.py), and waits until every table has a live owner;
2. drives them through nginx with bench/load.py's client processes, unchanged (a random action
   from ``legal`` the moment a newer state offers one; ``--think-ms`` for people's pace);
3. after a warm-up, measures for S seconds: accepted actions per second, act->ack latency, and
   the CPU of each layer between two readings of ``/proc/PID/stat`` (nginx's master and
   workers; each node's server and its writer process; Redis; PostgreSQL's backends for the
   benchmark's database, and apart its shared WAL writer/checkpointer), per second and per
   accepted action; PostgreSQL transactions and rows written a second (``pg_stat_database``,
   approximate: backends report at most once a second) and Redis commands a second.

Then failover: a 2-node cluster, a table's players acting through nginx, its owner killed
with SIGKILL; the time from the kill to the first act the new owner accepts, with the default
lease and with a shorter one (bench/cluster_failover.py).

    python -m bench.cluster                               # 200 x 5, 1 and 2 nodes, failover
    python -m bench.cluster --tables 50 --seconds 5 --no-failover --json /tmp/cluster.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.cluster_counters import (
    board_intake_us,
    board_rows,
    pg_counters,
    redis_counters,
    rss_of,
)
from bench.cluster_failover import measure_failover
from bench.cluster_nodes import BenchCluster, Layers, cpu_between
from bench.cluster_report import COLUMNS, FAILOVER_COLUMNS, flatten, line, summarize
from bench.common import (
    chunks,
    format_table,
    machine_cpu,
    machine_info,
    raise_nofile,
)
from bench.load import GAME_OPTIONS, SERVER_ENV, HandCounter, worker_main

DATABASE = "postgresql+asyncpg://postgres@127.0.0.1:5432/t31_e_bench"
REDIS = "redis://127.0.0.1:6379/5"


# --------------------------------------------------------------------------- one cluster size


class Run:
    """One cluster of ``nodes`` nodes with its client processes, measured in windows."""

    def __init__(self, args: argparse.Namespace, nodes: int, workdir: Path) -> None:
        self.args = args
        self.nodes = nodes
        self.options = {**GAME_OPTIONS.get(args.game, {}), **json.loads(args.options)}
        self.cluster = BenchCluster(
            nodes,
            workdir,
            f"{args.database}_{nodes}n",
            args.redis,
            args.base_port + 10 * (nodes - 1),
            args.game,
            lease_seconds=args.lease,
            redis_prefix=f"t31e{nodes}n:",
        )
        self.database = self.cluster.database_url
        self.pipes: list[Any] = []
        self.procs: list[Any] = []
        self.windows: list[dict[str, Any]] = []
        self.info: dict[str, Any] = {"nodes": nodes, "tables": args.tables, "clients": args.clients}

    def start(self) -> None:
        args = self.args
        started = time.monotonic()
        seeded = self.cluster.start(args.tables, args.clients, self.options)
        self.info["tables_per_node"] = self.cluster.tables_served()
        self.layers = Layers(self.cluster)
        time.sleep(0.5)
        rss_before = self._rss()
        context = multiprocessing.get_context("spawn")
        for part in chunks(seeded, args.workers):
            parent_end, child_end = context.Pipe()
            config = {
                "port": self.cluster.port,
                "tables": part,
                "clients_per_table": args.clients,
                "game": args.game,
                "options": self.options,
                "deflate": args.deflate,
                "setup_concurrency": 5,
                "think": args.think_ms / 1000.0,
            }
            proc = context.Process(target=worker_main, args=(config, child_end), daemon=True)
            proc.start()
            self.procs.append(proc)
            self.pipes.append(parent_end)
        for pipe in self.pipes:
            pipe.recv()  # half the sockets (bench/load.py reads memory there; not here)
            pipe.send({"continue": True})
        ready = [pipe.recv() for pipe in self.pipes]
        self.info["sockets"] = sum(r["ready"] for r in ready)
        self.info["setup_errors"] = sum(r["setup_error_count"] for r in ready)
        if self.info["setup_errors"]:
            samples = [e for r in ready for e in r["setup_errors"]][:3]
            print(f"  {self.nodes} node(s): {self.info['setup_errors']} tables failed: {samples}")
        self.info["setup_seconds"] = round(time.monotonic() - started, 1)
        time.sleep(0.5)
        # resident memory a socket adds: nginx (two connections each: the client's and the
        # node's) and the nodes (bench/load.py measures a node's alone, docs/performance.md)
        rss_after = self._rss()
        for layer in ("nginx", "nodes"):
            grown = rss_after[layer] - rss_before[layer]
            self.info[f"{layer}_kib_per_socket"] = round(
                grown / max(1, self.info["sockets"]) / 1024, 1
            )
        print(
            f"  {self.nodes} node(s): {self.info['sockets']} sockets through nginx in "
            f"{self.info['setup_seconds']} s; tables per node {self.info['tables_per_node']}",
            flush=True,
        )

    def _rss(self) -> dict[str, int]:
        pids = self.layers.pids()
        nodes = [p for layer, ps in pids.items() if layer.startswith("node ") for p in ps]
        return {"nginx": rss_of(pids.get("nginx", [])), "nodes": rss_of(nodes)}

    def window(self) -> None:
        args = self.args
        counter = HandCounter(self.database)
        go = time.monotonic() + 0.3
        t0, t1 = go + args.warmup, go + args.warmup + args.seconds
        for pipe in self.pipes:
            pipe.send({"go": go, "t0": t0, "t1": t1, "grace": 1.0})
        time.sleep(max(0.0, t0 - time.monotonic()))
        cpu_a, machine_a = self.layers.reading(), machine_cpu()
        pg_a, redis_a = asyncio.run(pg_counters(self.database)), redis_counters(args.redis)
        hands_a, _ = counter.read()
        time.sleep(max(0.0, t1 - time.monotonic()))
        cpu_b, machine_b = self.layers.reading(), machine_cpu()
        redis_b = redis_counters(args.redis)
        hands_b, _ = counter.read()
        # the clients' reports come a second after t1: PostgreSQL's backends have reported
        # their counters by then (at most once a second each)
        reports = [pipe.recv() for pipe in self.pipes]
        pg_b = asyncio.run(pg_counters(self.database))
        window = {
            "reports": reports,
            "cpu": cpu_between(cpu_a, cpu_b),
            "machine_busy": (machine_b[0] - machine_a[0]) / max(1.0, machine_b[1] - machine_a[1]),
            "hands": hands_b - hands_a,
            "pg": {k: pg_b[k] - pg_a[k] for k in pg_b},
            "redis": {k: redis_b[k] - redis_a[k] for k in redis_b},
        }
        self.windows.append(window)
        self.info["pg_backends"] = len(self.layers.pids()["postgres"])
        rows, size = board_rows(args.redis, self.cluster.redis_prefix)
        self.info["board_rows"], self.info["board_row_bytes"] = rows, size
        self.info["board_intake_us_per_row"] = board_intake_us(
            args.redis, self.cluster.redis_prefix
        )
        print("   " + line(self.summary([window])), flush=True)

    def stop(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError, BrokenPipeError):
                pipe.send({"stop": True})
        for proc in self.procs:
            proc.join(15)
            if proc.is_alive():
                proc.terminate()
        self.cluster.stop()

    def summary(self, windows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        windows = self.windows if windows is None else windows
        return summarize(self.info, windows, self.args.seconds * len(windows))


def _each(runs: list[Run], method: str) -> None:
    """``method`` of every run at once, each in a thread (starting and stopping are mostly
    waiting: migrations, nodes booting, hands ending); the first failure is raised."""
    errors: list[BaseException] = []

    def call(run: Run) -> None:
        try:
            getattr(run, method)()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(run,)) for run in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def run_load(args: argparse.Namespace, workdir: Path) -> list[dict[str, Any]]:
    """Every cluster size up at once, their windows interleaved (1 node, 2 nodes, 1 node, ...)
    so that a noisy neighbour weighs on each alike; the clusters waiting their turn idle."""
    sizes = [int(n) for n in args.nodes.split(",") if n.strip()]
    print(f"== {args.tables} tables x {args.clients} clients, nodes: {sizes}", flush=True)
    runs = [Run(args, nodes, workdir) for nodes in sizes]
    try:
        _each(runs, "start")
        for round_ in range(args.rounds):
            print(f"== window {round_ + 1} of {args.rounds}", flush=True)
            for run in runs:
                run.window()
    finally:
        _each(runs, "stop")
    return [run.summary() for run in runs]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.cluster", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", default="trianta-ena")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--clients", type=int, default=5, help="clients (seated) per table")
    parser.add_argument("--nodes", default="1,2", help="cluster sizes to measure, in order")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds a window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before each")
    parser.add_argument("--rounds", type=int, default=2, help="windows per cluster size")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before an act")
    parser.add_argument("--options", default="{}", help="table options (JSON)")
    parser.add_argument("--deflate", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--database", default=DATABASE, help="recreated at every start")
    parser.add_argument("--redis", default=REDIS, help="its database is emptied at every start")
    parser.add_argument("--base-port", type=int, default=18500, help="nginx; nodes next")
    parser.add_argument("--lease", type=float, default=10.0, help="LEASE_SECONDS")
    parser.add_argument(
        "--short-lease", type=float, default=3.0, help="failover again with this lease (0: no)"
    )
    parser.add_argument("--failover-tables", type=int, default=20)
    parser.add_argument(
        "--failover-play", type=float, default=2.0, help="seconds played before each kill"
    )
    parser.add_argument("--failover-repeats", type=int, default=3, help="kills per lease")
    parser.add_argument("--no-load", action="store_true", help="failover only")
    parser.add_argument("--no-failover", action="store_true", help="load only")
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--keep-logs", default=None, help="copy the nodes' logs here")
    args = parser.parse_args(argv)

    raise_nofile()
    rows: list[dict[str, Any]] = []
    failovers: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="table31-cluster-") as tmp:
        workdir = Path(tmp)
        try:
            if not args.no_load:
                rows = run_load(args, workdir)
            if not args.no_failover:
                leases = [args.lease] + ([args.short_lease] if args.short_lease else [])
                print(f"== failover: 2 nodes, {args.failover_tables} tables", flush=True)
                for i, lease in enumerate(leases):
                    failovers.append(
                        measure_failover(
                            workdir=workdir,
                            database_url=f"{args.database}_failover{i}",
                            redis_url=args.redis,
                            base_port=args.base_port + 40 + 10 * i,
                            game=args.game,
                            options={**GAME_OPTIONS.get(args.game, {}), **json.loads(args.options)},
                            tables=args.failover_tables,
                            clients=args.clients,
                            lease_seconds=lease,
                            play=args.failover_play,
                            repeats=args.failover_repeats,
                        )
                    )
        finally:
            if args.keep_logs:
                Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
                for log in workdir.glob("*.log"):
                    shutil.copy(log, Path(args.keep_logs) / log.name)
    if rows:
        print()
        print(format_table([flatten(r) for r in rows], COLUMNS))
    if failovers:
        print()
        print(
            format_table(
                failovers,
                FAILOVER_COLUMNS,
            )
        )
    report = {
        "benchmark": "cluster",
        "game": args.game,
        "think_ms": args.think_ms,
        "machine": machine_info(),
        "server_env": SERVER_ENV,
        "runs": rows,
        "failover": failovers,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
        print(f"\nJSON written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
