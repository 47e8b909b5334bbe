"""SIGTERM on the real server process: the shutdown runs once. Each table with a hand in
play has that one hand voided (its stakes back), every socket is told why it closes, and no
table starts another hand (to be voided in turn) while the server stops."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.models import Hand
from app.db.session import make_engine
from tests.client import Player
from tests.restart.server import ServerProcess, servers

LONG = {"bet_seconds": 60, "turn_seconds": 60}
"""Long clocks: nothing moves on its own while the test looks."""


@pytest.fixture
async def server(database_url: str, tmp_path: Path) -> AsyncIterator[ServerProcess]:
    with servers() as started:
        process = ServerProcess(database_url, tmp_path / "server.log")
        started.append(process)
        await process.start()
        yield process


async def hands_by_status(database_url: str) -> dict[str, list[str]]:
    """Each table's hands' statuses, in the order they started."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(Hand.table_id, Hand.status).order_by(Hand.table_id, Hand.number)
                )
            ).all()
    finally:
        await engine.dispose()
    out: dict[str, list[str]] = {}
    for table_id, status in rows:
        out.setdefault(table_id, []).append(status)
    return out


async def test_one_sigterm_voids_one_hand_per_table_in_play(
    server: ServerProcess, database_url: str
) -> None:
    people: list[Player] = []
    tables: list[str] = []
    for n in range(2):
        host = await Player.join(server, f"Banker{n}")
        guest = await Player.join(server, f"Guest{n}")
        table_id = await host.open_table("trianta-ena", **LONG)
        for seat, (person, buy_in) in enumerate(((host, 300), (guest, 100))):
            await person.connect(table_id)
            await person.sit(buy_in, seat=seat)
        await guest.wait_for(lambda v: v["hand_id"] is not None)
        people += [host, guest]
        tables.append(table_id)
    # a table of bots alone, playing hand after hand
    bots = await host.open_table("vingt-un")
    for _ in range(2):
        assert (await server.admin("POST", f"/api/admin/tables/{bots}/bots")).status_code == 201
    tables.append(bots)
    for _ in range(500):  # the hands' first writes reach the database
        in_play = await hands_by_status(database_url)
        if all(in_play.get(t, ["none"])[-1] == "playing" for t in tables):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError(f"no hand in play at every table: {in_play}")

    server.terminate()

    stored = await hands_by_status(database_url)
    for table_id in tables:
        assert "playing" not in stored[table_id], stored[table_id]
    for table_id in tables[:2]:  # the people's: the hand in play, and no other
        assert stored[table_id] == [*in_play[table_id][:-1], "void"], stored[table_id]
    # the bots': the hand in play if there was one (between two hands, none)
    assert stored[bots].count("void") <= 1, stored[bots]
    assert stored[bots][-1] in ("void", "finished"), stored[bots]
    for person in people:
        await asyncio.wait_for(person.ws.wait_closed(), 30)
        closed = (person.ws.close_code, person.ws.close_reason)
        assert closed == (1001, "The server is restarting; back shortly"), (person.name, closed)
    log = server.output(20_000)
    assert log.count("shutting down: ") == len(tables), log
    assert log.count("shutting down: The server is restarting; back shortly") == len(tables)
    for person in people:
        await person.close()
