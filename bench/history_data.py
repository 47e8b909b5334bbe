"""A large synthetic history, and how fast the hand lists stay on it (docs/review.md).

    python -m bench.history_data --hands 1000000                          # SQLite file
    python -m bench.history_data --hands 200000 \\
        --database postgresql+asyncpg://postgres@127.0.0.1:5432/review_bench  # recreated!

Fills a freshly migrated database by bulk inserts: players, tables, ``--hands`` finished hands
(two to five players each, at the table's game, one every few seconds over many nights), their
``hand_players`` rows, each hand's ledger entries and the tables' sittings (buy-in, top-up,
cash-out). Records are a few bytes (the lists never read them), so a million hands fit in a
few gigabytes less. Then times each list the review side serves (``app/review/lists.py``), as
the API runs it: the first page, a page deep in the history (from a cursor half-way back),
and fifty pages walked one after the other, plus the player page's figures, sessions and chart
points. Prints a table and the plans, and writes JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Base, GameTable, Hand, HandPlayer, LedgerEntry, Player
from app.db.session import make_engine, make_sessionmaker
from app.games.core.registry import GAME_IDS
from app.review import sessions, stats
from app.review.lists import Filters, explain, hand_page, list_query
from bench.common import format_table, machine_info, migrate

START = datetime(2024, 1, 5, 19, 0, tzinfo=UTC)
BATCH = 20_000


def _ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i:08d}" for i in range(n)]


async def fill(url: str, hands: int, players: int, tables: int, seed: int) -> dict[str, Any]:
    """Bulk insert the history; returns what was made and how long it took."""
    rng = random.Random(seed)
    engine = make_engine(url)
    maker = make_sessionmaker(engine)
    people = _ids("p", players)
    rooms = _ids("t", tables)
    game_of = {t: GAME_IDS[i % len(GAME_IDS)] for i, t in enumerate(rooms)}
    regulars = {t: rng.sample(people, min(len(people), 8)) for t in rooms}
    started = time.perf_counter()
    async with maker() as session:
        await session.execute(
            insert(Player),
            [{"id": p, "name": f"Player {p[-4:]}", "is_bot": False,
              "created_at": START} for p in people],
        )  # fmt: skip
        await session.execute(
            insert(Account),
            [{"id": f"bankroll:{p}", "kind": "bankroll", "player_id": p, "table_id": None,
              "balance": 0} for p in people],
        )  # fmt: skip
        await session.execute(
            insert(GameTable),
            [{"id": t, "name": f"Table {t[-4:]}", "game": game_of[t], "options": {},
              "status": "open", "created_at": START, "hands_played": 0} for t in rooms],
        )  # fmt: skip
        await session.commit()
    made: dict[str, Any] = {"hands": 0, "hand_players": 0, "ledger_entries": 0}
    moment = START
    hand_rows: list[dict[str, Any]] = []
    player_rows: list[dict[str, Any]] = []
    ledger_rows: list[dict[str, Any]] = []
    entry_id = 0

    async def flush() -> None:
        async with maker() as session:
            if hand_rows:
                await session.execute(insert(Hand), hand_rows)
            if player_rows:
                await session.execute(insert(HandPlayer), player_rows)
            if ledger_rows:
                await session.execute(insert(LedgerEntry), ledger_rows)
            await session.commit()
        made["hands"] += len(hand_rows)
        made["hand_players"] += len(player_rows)
        made["ledger_entries"] += len(ledger_rows)
        hand_rows.clear()
        player_rows.clear()
        ledger_rows.clear()

    for i in range(hands):
        moment += timedelta(seconds=rng.randint(1, 6))
        if moment.hour == 2:  # the night is over: the next starts at 19:00
            moment += timedelta(hours=17)
        table = rooms[rng.randrange(tables)]
        game = game_of[table]
        seated = rng.sample(regulars[table], rng.randint(2, 5))
        hand_id = f"h{i:010d}"
        if i % 50 == 0:  # sittings come and go
            for p in seated[:2]:
                for reason, source, target in (
                    ("buy-in", f"bankroll:{p}", f"stack:{table}:{p}"),
                    ("top-up", f"bankroll:{p}", f"stack:{table}:{p}"),
                    ("cash-out", f"stack:{table}:{p}", f"bankroll:{p}"),
                ):
                    entry_id += 1
                    ledger_rows.append(
                        {"id": entry_id, "created_at": moment, "source": source,
                         "target": target, "amount": 100, "reason": reason,
                         "hand_id": None, "table_id": table}
                    )  # fmt: skip
        stake = rng.randint(1, 50)
        winner, loser = seated[0], seated[1]
        entry_id += 1
        ledger_rows.append(
            {"id": entry_id, "created_at": moment, "source": f"stack:{table}:{loser}",
             "target": f"stack:{table}:{winner}", "amount": stake, "reason": "stake lost",
             "hand_id": hand_id, "table_id": table}
        )  # fmt: skip
        hand_rows.append(
            {"id": hand_id, "table_id": table, "game": game, "number": i + 1,
             "status": "finished", "started_at": moment - timedelta(seconds=30),
             "ended_at": moment, "players": len(seated), "staked": stake,
             "record": {"version": 1, "bench": True}}
        )  # fmt: skip
        for seat, p in enumerate(seated):
            net = stake if p == winner else -stake if p == loser else 0
            player_rows.append(
                {"hand_id": hand_id, "player_id": p, "seat": seat, "net": net,
                 "ended_at": moment, "game": game}
            )  # fmt: skip
        if len(hand_rows) >= BATCH:
            await flush()
            if made["hands"] % 200_000 == 0:
                print(f"  {made['hands']:,} hands", file=sys.stderr)
    await flush()
    async with maker() as session:
        if engine.dialect.name == "postgresql":
            await move_id_sequences(session)
        await session.execute(text("ANALYZE"))  # fresh statistics, as a running server has
        await session.commit()
    await engine.dispose()
    made["seconds"] = round(time.perf_counter() - started, 1)
    made["players"] = players
    made["tables"] = tables
    return made


def serial_id_columns() -> list[tuple[str, str]]:
    """The tables (and their key) whose primary key is one whole number the database numbers
    itself (``ledger_entries``, ``host_actions``): a sequence on PostgreSQL."""
    return [
        (table.name, table.autoincrement_column.name)
        for table in Base.metadata.sorted_tables
        if table.autoincrement_column is not None
    ]


async def move_id_sequences(session: AsyncSession) -> None:
    """Past the ids the bulk inserts gave: rows inserted with their ``id`` leave the column's
    sequence where it was, and a server started on this database would then number its first
    ledger entry 1 again (a duplicate ``ledger_entries_pkey``). An empty table's sequence
    stays at 1."""
    for table, key in serial_id_columns():
        await session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{key}'),"
                f" coalesce(max({key}), 1), max({key}) IS NOT NULL) FROM {table}"
            )
        )


async def _timed(call: Callable[[], Awaitable[Any]], repeat: int) -> dict[str, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t0) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


async def measure(url: str, repeat: int) -> dict[str, Any]:
    """Time every list: first page, a deep page, fifty pages in a row; the player page."""
    engine = make_engine(url)
    maker = make_sessionmaker(engine)
    rows: list[dict[str, Any]] = []
    plans: dict[str, list[str]] = {}
    async with maker() as session:
        table = str(await session.scalar(select(GameTable.id).limit(1).offset(3)))
        player = str(await session.scalar(select(Player.id).limit(1).offset(7)))
        game = str(
            await session.scalar(
                select(HandPlayer.game)
                .where(HandPlayer.player_id == player)
                .group_by(HandPlayer.game)
                .order_by(func.count().desc())
                .limit(1)
            )
        )
        last = await session.scalar(
            select(Hand.ended_at)
            .where(Hand.table_id == table)
            .order_by(Hand.ended_at.desc())
            .limit(1)
        )
        assert last is not None
        last = last if last.tzinfo else last.replace(tzinfo=UTC)
        cases = {
            "a table": Filters(table_id=table),
            "a table, one night": Filters(
                table_id=table, since=last - timedelta(hours=30), until=last - timedelta(hours=6)
            ),
            "a player": Filters(player_id=player),
            "a player, one game": Filters(player_id=player, game=game),
            "a game": Filters(game=game),
            "every hand": Filters(),
        }
        for name, filters in cases.items():
            middle = await _cursor_half_way(session, filters)

            async def first(f: Filters = filters) -> Any:
                return await hand_page(session, f, limit=20, viewer_id=player)

            async def deep(f: Filters = filters, c: str | None = middle) -> Any:
                return await hand_page(session, f, before=c, limit=20, viewer_id=player)

            async def walk(f: Filters = filters, c: str | None = middle) -> Any:
                cursor = c
                for _ in range(50):
                    page = await hand_page(session, f, before=cursor, limit=20, viewer_id=player)
                    cursor = page["next"]
                    if cursor is None:
                        break

            rows.append(
                {
                    "list": name,
                    "first_page_ms": (await _timed(first, repeat))["median_ms"],
                    "deep_page_ms": (await _timed(deep, repeat))["median_ms"],
                    "fifty_pages_ms": (await _timed(walk, max(1, repeat // 5)))["median_ms"],
                }
            )
            sqlite = engine.dialect.name == "sqlite"
            plans[name] = await explain(session, list_query(filters, middle, 20, sqlite=sqlite))
        figures = await _timed(lambda: stats.player_figures(session, player), repeat)
        sittings = await _timed(lambda: sessions.player_sessions(session, player), repeat)
        chart = await _timed(lambda: stats.bankroll_points(session, player), max(1, repeat // 5))
        ledger = await _timed(lambda: sessions.table_sessions(session, table), repeat)
    await engine.dispose()
    return {
        "lists": rows,
        "player_page": {
            "figures_ms": figures["median_ms"],
            "sessions_ms": sittings["median_ms"],
            "chart_points_ms": chart["median_ms"],
            "table_ledger_ms": ledger["median_ms"],
        },
        "plans": plans,
    }


async def _cursor_half_way(session: AsyncSession, filters: Filters) -> str | None:
    """The cursor of the page that starts half-way back in this list (found by walking the
    index with an offset once, outside the timings)."""
    sqlite = session.bind is not None and session.bind.dialect.name == "sqlite"
    query = list_query(filters, None, 1, sqlite=sqlite)
    total = int(
        await session.scalar(select(func.count()).select_from(query.limit(None).subquery())) or 0
    )
    if total < 2:
        return None
    row = (await session.execute(query.limit(1).offset(total // 2))).first()
    if row is None:
        return None
    ended: datetime = row[6]
    ended = ended if ended.tzinfo else ended.replace(tzinfo=UTC)
    return f"{ended.isoformat()}|{row[0]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history_data", description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument(
        "--database", default="", help="a SQLAlchemy URL (default: a new SQLite file)"
    )
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default="", help="write the report here")
    args = parser.parse_args(argv)
    url = args.database
    if not url:
        folder = Path(tempfile.mkdtemp(prefix="table31-history-"))
        url = f"sqlite+aiosqlite:///{folder / 'history.db'}"
    elif url.startswith("postgresql"):
        from bench.engines import fresh_postgres_database

        asyncio.run(fresh_postgres_database(url))
    print(f"database: {url}", file=sys.stderr)
    migrate(url)
    made = asyncio.run(fill(url, args.hands, args.players, args.tables, args.seed))
    print(
        f"filled: {made['hands']:,} hands, {made['hand_players']:,} hand_players, "
        f"{made['ledger_entries']:,} ledger entries in {made['seconds']} s",
        file=sys.stderr,
    )
    timings = asyncio.run(measure(url, args.repeat))
    report = {
        "database": url.split(":", 1)[0],
        "made": made,
        **timings,
        "machine": machine_info(),
    }
    print(
        format_table(
            timings["lists"],
            [
                ("list", "list"),
                ("first_page_ms", "first page ms"),
                ("deep_page_ms", "deep page ms"),
                ("fifty_pages_ms", "50 pages ms"),
            ],
        )
    )
    print("player page:", json.dumps(timings["player_page"]))
    for name, plan in timings["plans"].items():
        print(f"plan, {name}:")
        for line in plan:
            print(f"    {line}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
