"""The cluster benchmark's report (bench/cluster.py): one cluster size's windows summed up,
the line printed after each window, and the tables printed at the end."""

from __future__ import annotations

import array
import os
from collections import Counter
from typing import Any

from bench.common import percentiles


def summarize(
    info: dict[str, Any], windows: list[dict[str, Any]], seconds: float
) -> dict[str, Any]:
    """Throughput, latency, and each layer's CPU a second and per accepted action (``nodes``
    and ``writers``: all the nodes' servers, all their writer processes), with PostgreSQL's and
    Redis's counters, over ``windows`` (``seconds`` measured in all)."""
    ack, state = array.array("d"), array.array("d")
    totals: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    closed: Counter[str] = Counter()
    cpu: Counter[str] = Counter()
    pg: Counter[str] = Counter()
    red: Counter[str] = Counter()
    for window in windows:
        cpu.update(window["cpu"])
        pg.update(window["pg"])
        red.update(window["redis"])
        totals["hands"] += window["hands"]
        for report in window["reports"]:
            ack.frombytes(report["ack_latency"])
            state.frombytes(report["state_latency"])
            errors.update(report["errors"])
            closed.update(report["closed"])
            totals["acks"] += report["acks"]
            totals["client_cpu"] += report["cpu"]
    acks = max(1, totals["acks"])
    layers = dict(cpu)
    layers["nodes"] = sum(v for k, v in cpu.items() if k.startswith("node "))
    layers["writers"] = sum(v for k, v in cpu.items() if k.startswith("writer "))
    server_side = sum(v for k, v in cpu.items())
    cores = os.cpu_count() or 1
    return {
        **info,
        "actions_per_s": round(totals["acks"] / seconds, 1),
        "ack_ms": percentiles(ack),
        "state_ms": percentiles(state),
        "cpu_pct": {k: round(100 * v / seconds, 1) for k, v in sorted(layers.items())},
        "cpu_us_per_action": {k: round(1e6 * v / acks) for k, v in sorted(layers.items())},
        "server_side_cpu_us_per_action": round(1e6 * server_side / acks),
        "client_cpu_us_per_action": round(1e6 * totals["client_cpu"] / acks),
        "machine_busy_pct": round(
            100 * cores * sum(w["machine_busy"] for w in windows) / max(1, len(windows)), 1
        ),
        "hands_per_s": round(totals["hands"] / seconds, 1),
        "pg_commits_per_s": round(pg["xact_commit"] / seconds, 1),
        "pg_rows_written_per_s": round(
            (pg["tup_inserted"] + pg["tup_updated"] + pg["tup_deleted"]) / seconds, 1
        ),
        "redis_commands_per_s": round(red["commands"] / seconds, 1),
        "redis_publish_per_s": round(red["publish"] / seconds, 1),
        "redis_in_kib_per_s": round(red["net_in"] / seconds / 1024, 1),
        "redis_out_kib_per_s": round(red["net_out"] / seconds / 1024, 1),
        "errors": dict(errors),
        "closed": dict(closed),
    }


def line(r: dict[str, Any]) -> str:
    us = r["cpu_us_per_action"]
    parts = ", ".join(f"{k} {v}" for k, v in us.items() if k not in ("nodes", "writers"))
    return (
        f"{r['nodes']} node(s): {r['actions_per_s']:.0f} actions/s, ack p50 {r['ack_ms']['p50']}"
        f" p99 {r['ack_ms']['p99']} ms; CPU µs/action: {parts}; hands/s {r['hands_per_s']},"
        f" PG commits/s {r['pg_commits_per_s']}, Redis cmds/s {r['redis_commands_per_s']}"
        f" (out {r['redis_out_kib_per_s']} KiB/s),"
        f" machine {r['machine_busy_pct']}%, errors {r['errors']}, closed {r['closed']}"
    )


COLUMNS = [
    ("nodes", "nodes"),
    ("sockets", "sockets"),
    ("actions_per_s", "actions/s"),
    ("ack_p50", "ack p50 ms"),
    ("ack_p99", "ack p99 ms"),
    ("us_nginx", "nginx µs/act"),
    ("us_nodes", "nodes µs/act"),
    ("us_writers", "writers µs/act"),
    ("us_redis", "redis µs/act"),
    ("us_postgres", "pg µs/act"),
    ("us_postgres shared", "pg shared µs/act"),
    ("server_side_cpu_us_per_action", "all µs/act"),
    ("client_cpu_us_per_action", "clients µs/act"),
    ("hands_per_s", "hands/s"),
    ("pg_commits_per_s", "pg commits/s"),
    ("pg_rows_written_per_s", "pg rows/s"),
    ("redis_commands_per_s", "redis cmds/s"),
    ("redis_out_kib_per_s", "redis out KiB/s"),
    ("board_row_bytes", "board B/row"),
    ("board_intake_us_per_row", "board µs/row in"),
    ("nginx_kib_per_socket", "nginx KiB/sock"),
    ("nodes_kib_per_socket", "nodes KiB/sock"),
    ("pg_backends", "pg conns"),
    ("machine_busy_pct", "machine %"),
]

FAILOVER_COLUMNS = [
    ("lease_seconds", "lease s"),
    ("victim_tables", "tables lost"),
    ("kill_to_first_state_s", "kill->state s"),
    ("kill_to_first_ack_s", "kill->ack s (median)"),
    ("kill_to_first_ack_min_s", "min"),
    ("kill_to_first_ack_max_s", "max"),
    ("kill_to_browser_served_s", "kill->browser served s (median)"),
    ("kill_to_browser_served_max_s", "max"),
    ("kill_to_all_tables_served_s", "kill->all served s (max)"),
    ("reconnect_attempts", "reconnects"),
]


def flatten(row: dict[str, Any]) -> dict[str, Any]:
    flat = dict(row)
    flat["ack_p50"], flat["ack_p99"] = row["ack_ms"]["p50"], row["ack_ms"]["p99"]
    for layer, us in row["cpu_us_per_action"].items():
        flat[f"us_{layer}"] = us
    return flat
