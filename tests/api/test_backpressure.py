"""Back-pressure: while the database writer is far behind, tables wait to deal their next hand
(WRITER_BACKLOG); the hand in play goes on, and dealing resumes once the writer catches up."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.runtime.table.effects import NEXT_HAND
from tests.api.table_clock import TableClock
from tests.api.test_socket import trianta_table
from tests.conftest import LiveServer, make_settings


async def play_until(people: list[Any], rng: random.Random, done: Any, timeout: float) -> None:
    """Everyone plays random legal actions until ``done(view)`` holds for the first player."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (people[0].view and done(people[0].view)):
        assert loop.time() < deadline, f"not reached; last view {people[0].view}"
        moved = False
        for person in people:
            action = person.random_legal(rng)
            if action is not None:
                await person.act(action)
                moved = True
        if not moved:
            await asyncio.sleep(0.05)


async def test_the_next_hand_waits_while_the_writer_is_behind(database_url: str) -> None:
    """The pause before the next hand is long here (an hour): the test runs it out itself
    (``ring_now``) once the writer is stuck, and sees on the table's clock that the deal,
    due, waits for the writer's backlog (``clock.waits``) rather than watching a second go
    by without a deal."""
    live = LiveServer(make_settings(database_url, writer_backlog=3, next_hand_seconds=3600))
    await live.start()
    gate = threading.Event()
    clock = TableClock()
    live.services.lobby.clock = clock
    try:
        _, people = await trianta_table(live, 2)
        first = (await people[0].wait_for(lambda v: v["hand_id"] is not None))["hand_id"]
        writer = live.services.writer

        async def held(_session: AsyncSession) -> None:
            gate.wait(60)  # the writer's thread is stuck: everything after it queues up

        async def nothing(_session: AsyncSession) -> None:
            return None

        actor = live.services.lobby.tables[people[0].table_id]
        # the hand in play is played to its end, and its end is told once it is stored
        await play_until(people, random.Random(5), lambda v: v["hand_id"] != first, 60)
        assert people[0].view is not None and people[0].view["hand_id"] is None
        stuck = writer.submit(held)
        for _ in range(4):
            writer.submit(nothing)
        assert writer.pending > 3
        # the pause runs out: the deal is due, and waits while the writer is behind
        dealing = asyncio.create_task(actor.ring_now(NEXT_HAND))
        deadline = asyncio.get_running_loop().time() + 30  # for a stuck run only
        while clock.waits < 3:  # it has looked at the backlog three times, and waits on
            assert not dealing.done() and actor.hand_id is None, "dealt while behind"
            assert asyncio.get_running_loop().time() < deadline, "the deal never came due"
            await asyncio.sleep(0.01)
        assert people[0].view["hand_id"] is None and actor.hand_id is None
        gate.set()
        await stuck
        assert await asyncio.wait_for(dealing, 30) is True  # the pause was set, and ran out
        second = await people[0].wait_for(lambda v: v["hand_id"] not in (None, first), 60)
        assert second["hand_id"] != first
        for person in people:
            await person.close()
    finally:
        gate.set()
        await live.stop()
