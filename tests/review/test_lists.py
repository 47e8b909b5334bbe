"""Hand lists: newest first, filtered by game and date, paged by cursor, served by an index
(issue 7, "Hand lists"; app/review/lists.py; migrations/versions/0003_review_indexes.py).

The plans are checked on the database the suite runs on: SQLite's ``EXPLAIN QUERY PLAN``, or
PostgreSQL's ``EXPLAIN`` (``TEST_DATABASE_URL``), with sequential and bitmap scans turned off so
the plan shows whether an index *can* serve the query (a tiny table would be scanned anyway).
Every list must read one index in its order, seeking to the cursor: no sort, no OFFSET.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import GameTable, Hand, HandPlayer, Player
from app.db.session import make_engine, make_sessionmaker
from app.review.lists import Filters, explain, hand_page, list_query

T0 = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
PLAYERS = ["pa", "pb", "pc"]


@pytest.fixture
async def session(database_url: str) -> AsyncIterator[AsyncSession]:
    engine = make_engine(database_url)
    async with make_sessionmaker(engine)() as s:
        yield s
    await engine.dispose()


async def fill(session: AsyncSession) -> list[dict[str, Any]]:
    """Two tables, three players, 240 hands over two nights (some ending at the same moment,
    so the cursor's tie-break by id matters); returns the hands."""
    await session.execute(
        insert(Player),
        [
            {"id": p, "name": p.upper(), "token_hash": f"h-{p}", "is_bot": False, "created_at": T0}
            for p in PLAYERS
        ],
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
    "table": (Filters(table_id="t1"), "ix_hands_table_ended"),
    "table and dates": (
        Filters(table_id="t1", since=T0, until=T0 + timedelta(days=3)),
        "ix_hands_table_ended",
    ),
    "player": (Filters(player_id="pa"), "ix_hand_players_player"),
    "player and game": (Filters(player_id="pa", game="vingt-un"), "ix_hand_players_player_game"),
    "game": (Filters(game="vingt-un"), "ix_hands_game_ended"),
    "everything": (Filters(), "ix_hands_ended"),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_every_list_reads_an_index_in_order_from_the_cursor(
    session: AsyncSession, case: str
) -> None:
    await fill(session)
    filters, index = CASES[case]
    cursor = f"{(T0 + timedelta(days=1)).isoformat()}|h0100"
    sqlite = session.bind is not None and session.bind.dialect.name == "sqlite"
    query = list_query(filters, cursor, 20, sqlite=sqlite)
    assert "OFFSET" not in str(query.compile(dialect=postgresql.dialect())).upper()
    if not sqlite:
        await session.execute(text("SET enable_seqscan = off"))
        await session.execute(text("SET enable_bitmapscan = off"))
    plan = await explain(session, query)
    joined = "\n".join(plan)
    assert index in joined, plan
    if sqlite:
        assert "TEMP B-TREE" not in joined, plan  # no sort: the index gives the order
        seek = next(line for line in plan if index in line)
        assert "<(?,?)" in seek.replace(" ", ""), plan  # the cursor is in the index search
        assert "SCAN" not in seek, plan
    else:
        assert "Sort" not in joined, plan
        assert "Seq Scan" not in joined, plan
        assert "ROW(" in joined, plan  # the cursor is an index condition
