"""Hand lists: newest first, filtered by game and date, paged by cursor, served by an index
(app/review/lists.py; migrations/versions/0003_review_indexes.py).

The plans are checked on the database the suite runs on: SQLite's ``EXPLAIN QUERY PLAN``, or
PostgreSQL's ``EXPLAIN`` (``TEST_DATABASE_URL``), with sequential and bitmap scans turned off so
the plan shows whether an index *can* serve the query (a tiny table would be scanned anyway).
Every list must read one index in its order, seeking to the cursor: no sort, no OFFSET.

SQLite (no statistics) picks the index made for each list, and the test names it. PostgreSQL's
choice depends on its statistics: with them (``ANALYZE``, as autovacuum soon runs on a live
database) it may well read ``(ended_at, id)`` and filter the table's rows instead of reading
``(table_id, ended_at, id)``. Both plans are fine; what matters is their shape, so the test
analyzes the tables first (the plan must not depend on whether autovacuum has run yet) and checks
that the list's own table is read by an index scan that seeks to the cursor, with no sort and no
sequential scan anywhere, whichever index that is.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Hand, HandPlayer, Player
from app.review.lists import Filters, explain, hand_page, list_query

T0 = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
PLAYERS = ["pa", "pb", "pc"]


async def fill(session: AsyncSession) -> list[dict[str, Any]]:
    """Two tables, three players, 240 hands over two nights (some ending at the same moment,
    so the cursor's tie-break by id matters); returns the hands."""
    await session.execute(
        insert(Player),
        [{"id": p, "name": p.upper(), "is_bot": False, "created_at": T0} for p in PLAYERS],
    )
    await session.execute(
        insert(GameTable),
        [
            {
                "id": "t1",
                "name": "One",
                "game": "vingt-un",
                "options": {},
                "status": "open",
                "created_at": T0,
                "hands_played": 0,
            },
            {
                "id": "t2",
                "name": "Two",
                "game": "greek-31",
                "options": {},
                "status": "open",
                "created_at": T0,
                "hands_played": 0,
            },
        ],
    )
    hands = []
    for i in range(240):
        table, game = ("t1", "vingt-un") if i % 3 else ("t2", "greek-31")
        ended = T0 + timedelta(minutes=(i // 4) * 10)  # four hands share each moment
        if i >= 120:
            ended += timedelta(days=1)
        hands.append(
            {
                "id": f"h{i:04d}",
                "table_id": table,
                "game": game,
                "number": i + 1,
                "status": "finished",
                "started_at": ended - timedelta(minutes=1),
                "ended_at": ended,
                "players": 2,
                "staked": 10,
                "record": {},
            }
        )
    await session.execute(insert(Hand), hands)
    rows = []
    for i, hand in enumerate(hands):
        for p in (PLAYERS[i % 3], PLAYERS[(i + 1) % 3]):
            rows.append(
                {
                    "hand_id": hand["id"],
                    "player_id": p,
                    "seat": PLAYERS.index(p),
                    "net": (i % 7) - 3,
                    "ended_at": hand["ended_at"],
                    "game": hand["game"],
                }
            )
    await session.execute(insert(HandPlayer), rows)
    await session.commit()
    return hands


def newest_first(hands: list[dict[str, Any]]) -> list[str]:
    return [h["id"] for h in sorted(hands, key=lambda h: (h["ended_at"], h["id"]), reverse=True)]


async def walk(session: AsyncSession, filters: Filters, limit: int) -> list[str]:
    seen: list[str] = []
    before = None
    for _ in range(1000):
        page = await hand_page(session, filters, before=before, limit=limit, viewer_id="pa")
        assert len(page["hands"]) <= limit
        seen += [row["hand_id"] for row in page["hands"]]
        before = page["next"]
        if before is None:
            return seen
        assert len(page["hands"]) == limit
    raise AssertionError("the pages never ended")


async def test_pages_by_cursor_give_every_hand_once_newest_first(session: AsyncSession) -> None:
    hands = await fill(session)
    assert await walk(session, Filters(), 7) == newest_first(hands)
    t1 = [h for h in hands if h["table_id"] == "t1"]
    assert await walk(session, Filters(table_id="t1"), 11) == newest_first(t1)
    pa = [h for i, h in enumerate(hands) if "pa" in (PLAYERS[i % 3], PLAYERS[(i + 1) % 3])]
    assert await walk(session, Filters(player_id="pa"), 9) == newest_first(pa)
    pa_greek = [h for h in pa if h["game"] == "greek-31"]
    assert await walk(session, Filters(player_id="pa", game="greek-31"), 5) == newest_first(
        pa_greek
    )
    night = T0 + timedelta(days=1, hours=5)  # the second night's first hands
    second = [h for h in t1 if night <= h["ended_at"] < night + timedelta(hours=4)]
    got = await walk(
        session, Filters(table_id="t1", since=night, until=night + timedelta(hours=4)), 6
    )
    assert got == newest_first(second) and got


async def test_a_row_says_the_game_when_who_sat_and_the_viewers_result(
    session: AsyncSession,
) -> None:
    await fill(session)
    page = await hand_page(session, Filters(table_id="t2"), limit=3, viewer_id="pa")
    row = page["hands"][0]
    assert row["game"] == "greek-31" and row["ended_at"] == "2026-11-22T05:50:00+00:00"
    assert [p["name"] for p in row["players"]] and all("player_id" in p for p in row["players"])
    mine = next((p for p in row["players"] if p["player_id"] == "pa"), None)
    assert (row["your_net"] is None) == (mine is None)


CASES = {
    # the filters, the table the list is read from, and the index SQLite reads it by
    "table": (Filters(table_id="t1"), "hands", "ix_hands_table_ended"),
    "table and dates": (
        Filters(table_id="t1", since=T0, until=T0 + timedelta(days=3)),
        "hands",
        "ix_hands_table_ended",
    ),
    "player": (Filters(player_id="pa"), "hand_players", "ix_hand_players_player"),
    "player and game": (
        Filters(player_id="pa", game="vingt-un"),
        "hand_players",
        "ix_hand_players_player_game",
    ),
    "game": (Filters(game="vingt-un"), "hands", "ix_hands_game_ended"),
    "everything": (Filters(), "hands", "ix_hands_ended"),
}

# A PostgreSQL plan node's first line: "->  Index Scan Backward using ix on hands  (cost=…)".
PG_NODE = re.compile(
    r"^\s*(?:->\s+)?(?P<node>[A-Z][A-Za-z ]*?)(?:\s+using (?P<index>\S+))?"
    r"(?: on (?P<table>\w+))?(?:\s+\w+)?\s+\(cost="
)
# The cursor as PostgreSQL writes it: "ROW(ended_at, (id)::text) < ROW('…'::timestamp…, 'h0100'…)".
PG_CURSOR = re.compile(r"ROW\(ended_at, \(?(?:hand_)?id\)?(?:::text)?\) < ROW\(")


def pg_nodes(plan: list[str]) -> list[dict[str, Any]]:
    """The nodes of a PostgreSQL text plan: kind, index, table and their detail lines."""
    nodes: list[dict[str, Any]] = []
    for line in plan:
        match = PG_NODE.match(line)
        if match:
            nodes.append({**match.groupdict(), "details": []})
        elif nodes:
            nodes[-1]["details"].append(line.strip())
    return nodes


def check_pg_plan(plan: list[str], table: str) -> None:
    """An index scan of ``table`` seeks to the cursor; nothing sorts or scans a whole table."""
    nodes = pg_nodes(plan)
    assert nodes and nodes[0]["node"] == "Limit", plan
    kinds = [n["node"] for n in nodes]
    assert not [k for k in kinds if "Sort" in k], plan  # the index gives the order
    assert not [k for k in kinds if k.startswith(("Seq Scan", "Bitmap"))], plan
    scans = [
        n
        for n in nodes
        if n["table"] == table and n["node"].startswith(("Index Scan", "Index Only Scan"))
    ]
    assert scans, plan
    seeks = [
        n
        for n in scans
        if any(d.startswith("Index Cond:") and PG_CURSOR.search(d) for d in n["details"])
    ]
    assert seeks, plan  # the cursor is an index condition, not a filter on the rows read
    # and the scan reads the index backwards: newest first without a sort
    assert all("Backward" in n["node"] for n in seeks), plan


def test_the_plan_check_tells_a_seek_from_a_sort_or_a_filter() -> None:
    """The PostgreSQL checks pass the plans PostgreSQL gives and fail the bad ones."""
    cursor = (
        "ROW(ended_at, (id)::text) < ROW('2026-11-21 20:00:00+00'::timestamp with time zone,"
        " 'h0100'::text)"
    )
    good = [
        "Limit  (cost=0.14..4.48 rows=21 width=59)",
        "  ->  Index Scan Backward using ix_hands_ended on hands"
        "  (cost=0.14..16.66 rows=80 width=59)",
        f"        Index Cond: ((ended_at IS NOT NULL) AND ({cursor}))",
        "        Filter: ((table_id)::text = 't1'::text)",
    ]
    check_pg_plan(good, "hands")
    filtered = [*good[:2], "        Index Cond: (table_id = 't1')", f"        Filter: ({cursor})"]
    sorted_ = [
        good[0],
        "  ->  Sort  (cost=20.27..20.41 rows=53 width=59)",
        "        Sort Key: ended_at DESC, id DESC",
        "        ->  Index Scan using ix_hands_ended on hands  (cost=0.14..16.66 rows=80 width=59)",
        f"              Index Cond: ({cursor})",
    ]
    seq = [good[0], "  ->  Seq Scan on hands  (cost=0.00..6.40 rows=240 width=42)"]
    for bad in (filtered, sorted_, seq):
        with pytest.raises(AssertionError):
            check_pg_plan(bad, "hands")
    with pytest.raises(AssertionError):
        check_pg_plan(good, "hand_players")  # the player's lists are read from hand_players


@pytest.mark.parametrize("case", list(CASES))
async def test_every_list_reads_an_index_in_order_from_the_cursor(
    session: AsyncSession, case: str
) -> None:
    await fill(session)
    filters, table, index = CASES[case]
    cursor = f"{(T0 + timedelta(days=1)).isoformat()}|h0100"
    sqlite = session.bind is not None and session.bind.dialect.name == "sqlite"
    query = list_query(filters, cursor, 20, sqlite=sqlite)
    assert "OFFSET" not in str(query.compile(dialect=postgresql.dialect())).upper()
    if not sqlite:
        await session.execute(text("ANALYZE hands, hand_players"))
        await session.execute(text("SET enable_seqscan = off"))
        await session.execute(text("SET enable_bitmapscan = off"))
    plan = await explain(session, query)
    joined = "\n".join(plan)
    if sqlite:
        assert index in joined, plan
        assert "TEMP B-TREE" not in joined, plan  # no sort: the index gives the order
        seek = next(line for line in plan if index in line)
        assert "<(?,?)" in seek.replace(" ", ""), plan  # the cursor is in the index search
        assert "SCAN" not in seek, plan
    else:
        check_pg_plan(plan, table)
