"""A void hand keeps who sat in it (docs/review.md, "Void hands"), however it became void.

The store's own functions on a real database: a hand dealt with its seats
(``store.hand_started``) and voided in play (``store.mark_void``: an engine error, a close, a
shutdown; app/runtime/table/core.py) or at a start-up
(``void_unfinished_hands``: the restart's reason) keeps its players in its record and in
``hand_players`` (net 0); the lists name them; a hand dealt before seats were stored keeps
only its reason; and what a restored table's story reads (``load_table``: the last finished
hand, the hands voided since) names the void hands in order.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import store
from app.db.models import Hand, HandPlayer
from app.db.session import make_engine, make_sessionmaker
from app.db.store.recovery import RESTARTED, void_unfinished_hands
from app.review import lists

TABLE = "tvoid"


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(database_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


async def _people(db: async_sessionmaker[AsyncSession]) -> list[dict[str, Any]]:
    seats = []
    async with db.begin() as session:
        for seat, name in ((0, "Ada"), (2, "Ben")):
            player, _ = await store.create_player(session, name, bankroll=1000)
            seats.append(
                {"seat": seat, "player_id": player.id, "name": name, "bot": False, "stack": 100}
            )
        await store.create_table(
            session, table_id=TABLE, name="Void", game="vingt-un", options={}, created_by=None
        )
    return seats


async def _deal(
    db: async_sessionmaker[AsyncSession],
    hand_id: str,
    number: int,
    seats: list[dict[str, Any]] | None,
) -> None:
    async with db.begin() as session:
        await store.hand_started(
            session,
            hand_id=hand_id,
            table_id=TABLE,
            game="vingt-un",
            number=number,
            started_at=datetime.now(UTC) - timedelta(seconds=10 - number),
            seats=seats,
        )


async def test_a_void_hand_keeps_its_players(db: async_sessionmaker[AsyncSession]) -> None:
    seats = await _people(db)
    await _deal(db, "h1", 1, seats)
    await _deal(db, "h2", 2, None)  # dealt before the seats were stored
    async with db.begin() as session:
        await store.mark_void(session, "h1", "the server hit an error; stakes returned")
        await store.mark_void(session, "h2", "the host closed the table")
        await store.mark_void(session, "h1", "twice")  # a void hand is void once
    await _deal(db, "h3", 3, seats)
    async with db.begin() as session:
        assert await void_unfinished_hands(session) == {TABLE}

    async with db() as session:
        hands = {h.id: h for h in (await session.scalars(select(Hand))).all()}
        rows = (
            await session.execute(select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.net))
        ).all()
        assert sorted(rows) == [("h1", 0, 0), ("h1", 2, 0), ("h3", 0, 0), ("h3", 2, 0)]
        one = hands["h1"].record
        assert one is not None and one["void"] == "the server hit an error; stakes returned"
        assert one["seats_before"] == seats and (one["hand_id"], one["number"]) == ("h1", 1)
        assert "ended_at" in one and "started_at" in one
        two = hands["h2"].record
        assert two is not None and set(two) == {"void", "ended_at"}
        assert two["void"] == "the host closed the table"
        three = hands["h3"].record
        assert three is not None and three["void"] == RESTARTED
        assert [h.players for h in (hands["h1"], hands["h2"], hands["h3"])] == [2, 0, 2]

        page = await lists.hand_page(session, lists.Filters(table_id=TABLE))
        listed = {row["hand_id"]: row for row in page["hands"]}
        assert [p["name"] for p in listed["h1"]["players"]] == ["Ada", "Ben"]
        assert listed["h2"]["players"] == [] and listed["h3"]["seated"] == 2
        ben = await lists.hand_page(session, lists.Filters(player_id=seats[1]["player_id"]))
        assert {row["hand_id"] for row in ben["hands"]} == {"h1", "h3"}

        stored = await store.load_table(session, TABLE)
        assert stored.last_hand is None  # no hand finished here
        told = [(e["hand_id"], e["number"], e["reason"]) for e in stored.voids]
        assert told == [
            ("h1", 1, "the server hit an error; stakes returned"),
            ("h2", 2, "the host closed the table"),
            ("h3", 3, RESTARTED),
        ]
        assert all(e["kind"] == "hand_void" and e["t"] > 0 for e in stored.voids)
