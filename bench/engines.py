"""The engines and the database, without sockets (docs/performance.md).

1. **Engines**: hands per second per game for the pure engines with bots (every action
   checked against ``legal`` as the server does, :func:`app.simulate.play_hand`), and the same
   with what the server adds after every action: each seat's view built and JSON-encoded
   (the broadcast's cost without sockets).
2. **Database**: settled hands per second through the writer on SQLite and on PostgreSQL
   (when reachable). The hands are played by a real :class:`app.runtime.table.core.TableCore`
   whose writer only captures jobs, so each hand's jobs are exactly the server's
   (``store.hand_started``, then ``store.hand_finished`` with its record and ledger entries);
   they are then run against a fresh, migrated database: through
   :class:`app.db.writer.process.ProcessWriter` as the server does (row "batch 1": in
   the writer's own process, all jobs queued at once, so it writes up to ``BATCH_LIMIT`` of
   them per transaction), then on one session of the benchmark's own loop, B jobs per
   transaction. "CPU ms/hand" is this process and the writer's together; "loop CPU ms/hand"
   is the benchmark's (the server's) event-loop thread alone.

::

    python -m bench.engines                      # the make bench default
    python -m bench.engines --hands 2000 --json /tmp/engines.json
    python -m bench.engines --postgres postgresql+asyncpg://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.runtime.protocol import encode
from bench.common import (
    cpu_seconds,
    deal_next_hand,
    format_table,
    machine_info,
    migrate,
    recreate_postgres,
)

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/bench"
DB_GAME_OPTIONS = {"buy_in": 100_000, "turn_seconds": 30, "bet_seconds": 20}
Call = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], dict[str, Any]]
"""A database job as the table core asks for it: a store function and its arguments."""


# =========================================================================== engines


def engine_rate(game_id: str, seconds: float, *, views: bool, seed: int = 7) -> dict[str, Any]:
    """Hands a second for ``game_id``'s bots; with ``views`` also every seat's view + JSON
    after every action (what the table core does for a broadcast)."""
    from app.games.core.registry import game_class
    from app.simulate import seed_stream, settle_between_hands

    cls = game_class(game_id)
    game = cls({}, seeds=seed_stream(seed))
    rng = random.Random(seed)
    stack = 1000
    for seat in range(cls.SIM_PLAYERS):
        game.sit(seat, game.sim_stack(seat, stack))
    hands = actions = encoded = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        settle_between_hands(game, rng)
        for seat in game.seated:
            game.sim_rebuy(seat, stack)
        if not game.can_start():
            raise RuntimeError(f"{game_id}: the table cannot deal")
        actions += _play_hand(game, rng, views)
        hands += 1
        if views:
            encoded = actions * len(game.seated)
    elapsed = time.perf_counter() - started
    out = {
        "hands_per_s": round(hands / elapsed, 1),
        "actions_per_hand": round(actions / max(1, hands), 1),
        "actions_per_s": round(actions / elapsed),
    }
    if views:
        out["views_per_s"] = round(encoded / elapsed)
    return out


def _play_hand(game: Any, rng: random.Random, views: bool) -> int:
    """:func:`app.simulate.play_hand` with ``check`` on, optionally building the views."""
    from app.games.core.actions import action_fits

    game.start_hand()
    steps = 0
    while True:
        done = game.take_completed()
        if done is not None:
            game.take_log()
            return steps
        seat = min(game.to_act())
        action = game.bot_action(seat, rng)
        if not action_fits(action, game.legal_actions(seat)):
            raise RuntimeError(f"{game.id}: bot chose an illegal action {action}")
        game.apply(seat, action)
        steps += 1
        if views:
            # as a broadcast does: the engine's views for every seat at once, then each
            # seat's legal actions, encoded (app/runtime/table/broadcast.py, TableActor._broadcast)
            for viewer, view in game.views(game.seated).items():
                view["legal"] = game.legal_actions(viewer)
                encode({"type": "state", "version": steps, "view": view})
        if steps > 10_000:
            raise RuntimeError(f"{game.id}: hand did not end")


# =========================================================================== the database


class CaptureWriter:
    """Keeps the jobs a table's core asks for instead of running them, so a real table core
    can play hands at full speed and leave its exact writes."""

    def __init__(self) -> None:
        self.jobs: list[Call] = []

    def keep(self, *steps: Any) -> None:
        """The jobs of these steps' effects, in order."""
        for fx in steps:
            for job in (*fx.jobs, *fx.background):
                self.jobs.append((job.run, job.args, dict(job.kwargs)))


async def _prepare(url: str, game_id: str, players: int) -> tuple[Any, Any, Any]:
    """A migrated database with a table and ``players`` seated; a table core to play there."""
    from app.core.config import Settings
    from app.db import store
    from app.db.session import make_engine
    from app.db.writer.process import ProcessWriter
    from app.games.core.registry import game_class
    from app.runtime.table.core import TableCore

    await asyncio.to_thread(migrate, url)
    engine = make_engine(url, inline=True)  # as the writer's own engine: statements inline
    writer = ProcessWriter(url)  # the server's writer: a process of its own
    writer.start()
    capture = CaptureWriter()
    settings = Settings(
        environment="test",
        database_url=url,
        secret_key="bench-secret-key-0123456789",
        next_hand_seconds=3600,
        bot_delay_seconds=3600,
    )
    table_id = store.new_id()[:12]
    core = TableCore(
        table_id=table_id,
        name="bench",
        game_cls=game_class(game_id),
        options=dict(DB_GAME_OPTIONS),
        settings=settings,
        clock=time.time,
    )
    await writer.run(
        store.create_table,
        table_id=table_id,
        name="bench",
        game=game_id,
        options=core.options,
        created_by=None,
    )
    for seat in range(players):
        player, _ = await writer.run(store.create_player, f"p{seat}", bankroll=10**9)
        low, _high = core.engine.buy_in_limits(seat)
        await writer.run(store.sit, table_id, seat, player.id, low)
        capture.keep(core.take_seat(seat, player.id, f"p{seat}", low))
    for job, args, kwargs in capture.jobs:  # the buy-ins, not timed
        await writer.run(job, *args, **kwargs)
    capture.jobs.clear()
    return engine, writer, (core, capture)


def _play(core: Any, capture: CaptureWriter, hands: int, seed: int = 11) -> int:
    """Play ``hands`` hands through the core (bots' choices), keeping their jobs."""
    rng = random.Random(seed)
    played = 0
    while played < hands:
        capture.keep(*deal_next_hand(core, rng))
        if not core.engine.in_hand:
            break
        while core.engine.in_hand:
            engine = core.engine
            seat = min(engine.to_act())
            capture.keep(core.apply_for(seat, engine.bot_action(seat, rng)))
        played += 1
    return played


async def _run_batched(sessionmaker: Any, jobs: list[Call], batch: int) -> None:
    """Run ``jobs`` in order, ``batch`` of them per transaction."""
    for start in range(0, len(jobs), batch):
        async with sessionmaker() as session, session.begin():
            for job, args, kwargs in jobs[start : start + batch]:
                await job(session, *args, **kwargs)


async def db_rate(url: str, game_id: str, hands: int, batch: int, players: int) -> dict[str, Any]:
    """Settled hands a second on ``url`` (a fresh database), ``batch`` jobs a transaction."""
    from app.db.session import make_sessionmaker

    engine, writer, (core, capture) = await _prepare(url, game_id, players)
    try:
        played = _play(core, capture, hands)
        jobs = list(capture.jobs)
        entries = _ledger_entries(capture)
        batches_before = writer.batches
        started = time.perf_counter()
        cpu_started = time.process_time() + cpu_seconds(writer.pid)
        loop_cpu_started = time.thread_time()
        if batch == 1:
            for job, args, kwargs in jobs:  # exactly as the server: to the writer, in order
                writer.submit(job, *args, **kwargs)
            await writer.flush()
        else:
            await _run_batched(make_sessionmaker(engine), jobs, batch)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() + cpu_seconds(writer.pid) - cpu_started
        loop_cpu = time.thread_time() - loop_cpu_started
        if writer.failures:
            raise RuntimeError(f"{writer.failures} database jobs failed")
        return {
            "hands": played,
            "jobs": len(jobs),
            "transactions": (
                writer.batches - batches_before  # as the writer took them (flush's included)
                if batch == 1
                else -(-len(jobs) // batch)
            ),
            "ledger_entries_per_hand": round(entries / max(1, played), 1),
            "hands_per_s": round(played / elapsed, 1),
            "ms_per_hand": round(1000 * elapsed / max(1, played), 2),
            # this process's CPU and the writer process's: what a hand costs the server
            # besides the wait
            "cpu_ms_per_hand": round(1000 * cpu / max(1, played), 2),
            # the event loop's own thread: with the writer in its process, what persistence
            # still costs the loop that serves the sockets (pickling jobs, resolving futures)
            "loop_cpu_ms_per_hand": round(1000 * loop_cpu / max(1, played), 2),
            "record_bytes": _record_bytes(capture),
        }
    finally:
        await writer.close()
        await engine.dispose()


def _record_bytes(capture: CaptureWriter) -> int:
    """The mean size of a hand's stored record (JSON)."""
    sizes = [
        len(value.record)  # encoded JSON text
        for _, args, _ in capture.jobs
        for value in args
        if hasattr(value, "record")
    ]
    return round(sum(sizes) / len(sizes)) if sizes else 0


def _ledger_entries(capture: CaptureWriter) -> int:
    """Ledger movements in the captured finished hands (``FinishedHand`` arguments)."""
    return sum(
        len(value.movements)
        for _, args, _ in capture.jobs
        for value in args
        if hasattr(value, "movements")
    )


def postgres_reachable(url: str) -> bool:
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    try:
        with socket.create_connection((parsed.host or "127.0.0.1", parsed.port or 5432), 2):
            return True
    except OSError:
        return False


async def fresh_postgres_database(url: str) -> None:
    """Create (or recreate) the benchmark's own database, e.g. ``bench``."""
    await asyncio.to_thread(recreate_postgres, url)


async def database_runs(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    targets: list[tuple[str, str | None]] = [("sqlite", None)]
    if args.postgres.lower() != "none":
        if postgres_reachable(args.postgres):
            targets.append(("postgresql", args.postgres))
        else:
            print(f"NOTICE: PostgreSQL at {args.postgres} is not reachable: skipped", flush=True)
    batches = [int(b) for b in args.batches.split(",")]
    for name, url in targets:
        for batch in batches:
            with tempfile.TemporaryDirectory(prefix="table31-db-") as tmp:
                if url is None:
                    db_url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
                else:
                    try:
                        await fresh_postgres_database(url)
                    except Exception as exc:
                        print(f"NOTICE: cannot create the PostgreSQL database: {exc!r}; skipped")
                        break
                    db_url = url
                result = await db_rate(db_url, args.db_game, args.hands, batch, args.players)
            row = {"database": name, "batch": batch, **result}
            rows.append(row)
            print(
                f"  {name:10} batch {batch:3}: {row['hands_per_s']:8.1f} hands/s "
                f"({row['ms_per_hand']} ms a hand, {row['transactions']} transactions)",
                flush=True,
            )
    return rows


# =========================================================================== main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.engines", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=1.5, help="per game and mode")
    parser.add_argument("--games", default="all", help="comma-separated game ids, or all")
    parser.add_argument("--hands", type=int, default=500, help="hands per database run")
    parser.add_argument("--batches", default="1,10,50", help="jobs per transaction to try")
    parser.add_argument("--players", type=int, default=5, help="seated at the database table")
    parser.add_argument("--db-game", default="trianta-ena")
    parser.add_argument(
        "--postgres",
        default=DEFAULT_POSTGRES,
        help="PostgreSQL URL (its database is recreated), or none",
    )
    parser.add_argument("--skip-db", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    from app.games.core.registry import GAME_IDS

    games = GAME_IDS if args.games == "all" else tuple(args.games.split(","))
    print("== engines (bots, every action checked against legal)", flush=True)
    engine_rows = []
    for game_id in games:
        bare = engine_rate(game_id, args.seconds, views=False)
        viewed = engine_rate(game_id, args.seconds, views=True)
        row = {
            "game": game_id,
            "hands_per_s": bare["hands_per_s"],
            "actions_per_hand": bare["actions_per_hand"],
            "actions_per_s": bare["actions_per_s"],
            "with_views_hands_per_s": viewed["hands_per_s"],
            "with_views_actions_per_s": viewed["actions_per_s"],
            "views_per_s": viewed["views_per_s"],
        }
        engine_rows.append(row)
        print(f"  {game_id:20} {row['hands_per_s']:9.1f} hands/s", flush=True)
    print()
    print(
        format_table(
            engine_rows,
            [
                ("game", "game"),
                ("hands_per_s", "hands/s"),
                ("actions_per_hand", "actions/hand"),
                ("actions_per_s", "actions/s"),
                ("with_views_hands_per_s", "hands/s +views"),
                ("with_views_actions_per_s", "actions/s +views"),
                ("views_per_s", "views+JSON/s"),
            ],
        )
    )
    db_rows: list[dict[str, Any]] = []
    if not args.skip_db:
        print(f"\n== database: settled hands of {args.db_game} through the writer", flush=True)
        db_rows = asyncio.run(database_runs(args))
        print()
        print(
            format_table(
                db_rows,
                [
                    ("database", "database"),
                    ("batch", "jobs/transaction"),
                    ("hands", "hands"),
                    ("transactions", "transactions"),
                    ("ledger_entries_per_hand", "ledger entries/hand"),
                    ("hands_per_s", "hands/s"),
                    ("ms_per_hand", "ms/hand"),
                    ("cpu_ms_per_hand", "CPU ms/hand"),
                    ("loop_cpu_ms_per_hand", "loop CPU ms/hand"),
                    ("record_bytes", "record bytes"),
                ],
            )
        )
        for name in ("sqlite", "postgresql"):
            one = next((r for r in db_rows if r["database"] == name and r["batch"] == 1), None)
            best = max(
                (r for r in db_rows if r["database"] == name),
                key=lambda r: r["hands_per_s"],
                default=None,
            )
            if one and best and best["batch"] != 1:
                print(
                    f"{name}: batching {best['batch']} jobs a transaction: "
                    f"x{best['hands_per_s'] / one['hands_per_s']:.1f} hands/s"
                )
    report = {
        "benchmark": "engines",
        "machine": machine_info(),
        "engines": engine_rows,
        "database": db_rows,
        "db_game": args.db_game,
        "db_options": DB_GAME_OPTIONS,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
        print(f"\nJSON written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
