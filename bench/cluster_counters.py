"""What the cluster benchmark reads besides CPU (bench/cluster.py): PostgreSQL's and Redis's
counters, the shared lobby board (its rows, their size, what taking one in costs a node) and
resident memory."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from bench.cluster_nodes import pg_connect
from bench.common import rss_bytes


async def pg_counters(url: str) -> dict[str, int]:
    db = await pg_connect(url)
    try:
        row = await db.fetchrow(
            "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database"
            " WHERE datname = current_database()"
        )
    finally:
        await db.close()
    return {k: int(v) for k, v in dict(row).items()}


def redis_counters(url: str) -> dict[str, int]:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        stats = client.info("stats")
        commands = client.info("commandstats")
    finally:
        client.close()
    return {
        "commands": int(stats.get("total_commands_processed", 0)),
        "publish": int(commands.get("cmdstat_publish", {}).get("calls", 0)),
        "net_in": int(stats.get("total_net_input_bytes", 0)),
        "net_out": int(stats.get("total_net_output_bytes", 0)),
    }


def board_rows(url: str, prefix: str) -> tuple[int, float]:
    """The shared lobby board (app/cluster/board.py): its rows and their mean size in bytes."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        rows = client.hgetall(prefix + "tables")
    finally:
        client.close()
    sizes = [len(v) for v in rows.values()]
    return len(sizes), round(sum(sizes) / max(1, len(sizes)), 1)


def board_intake_us(url: str, prefix: str, repeat: int = 20) -> float | None:
    """Micro-measure: CPU µs for a node to take in one row of another node's lobby message
    (the bus's ``orjson.loads`` of it and app/cluster/board.py's ``Board._heard``), with the
    rows the board holds now. Every node takes in every row any node publishes."""
    import types

    import orjson
    import redis

    from app.cluster.board import Board

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        raw = client.hgetall(prefix + "tables")
    finally:
        client.close()
    if not raw:
        return None
    rows = {(k.decode() if isinstance(k, bytes) else k): orjson.loads(v) for k, v in raw.items()}
    message = orjson.dumps({"kind": "rows", "set": rows, "gone": [], "from": "elsewhere"})
    board: Any = types.SimpleNamespace(rows={}, owners={}, live=set(), node_id="here")
    board._keep = lambda table_id, entry: Board._keep(board, table_id, entry)
    Board._heard(board, orjson.loads(message))  # warm
    best = float("inf")
    for _ in range(repeat):  # the quickest: what the code costs, not what the machine adds
        started = time.thread_time()
        Board._heard(board, orjson.loads(message))
        best = min(best, time.thread_time() - started)
    return round(1e6 * best / len(rows), 2)


def rss_of(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += rss_bytes(pid)
    return total
