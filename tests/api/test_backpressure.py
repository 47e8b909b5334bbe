"""Back-pressure: while the database writer is far behind, tables wait to deal their next hand
(WRITER_BACKLOG); the hand in play goes on, and dealing resumes once the writer catches up."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

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
    live = LiveServer(make_settings(database_url, writer_backlog=3))
    await live.start()
    gate = threading.Event()
    try:
        _, people = await trianta_table(live, 2)
        first = (await people[0].wait_for(lambda v: v["hand_id"] is not None))["hand_id"]
        writer = live.services.writer

        async def held(_session: AsyncSession) -> None:
            gate.wait(30)  # the writer's thread is stuck: everything after it queues up

        async def nothing(_session: AsyncSession) -> None:
            return None

        stuck = writer.submit(held)
        for _ in range(4):
            writer.submit(nothing)
        assert writer.pending > 3
        # the hand in play is not held back: it is played to its end
        await play_until(people, random.Random(5), lambda v: v["hand_id"] != first, 30)
        assert people[0].view is not None and people[0].view["hand_id"] is None
        await asyncio.sleep(1.0)  # twenty times NEXT_HAND_SECONDS: no deal while it is behind
        assert people[0].view["hand_id"] is None
        gate.set()
        await stuck
        second = await people[0].wait_for(lambda v: v["hand_id"] not in (None, first), 10)
        assert second["hand_id"] != first
        for person in people:
            await person.close()
    finally:
        gate.set()
        await live.stop()
