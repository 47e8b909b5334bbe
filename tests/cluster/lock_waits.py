"""Waiting, without a clock, for a transaction to be blocked on another's lock: PostgreSQL
says so (``pg_stat_activity``), so a test checks an order ("B waits for A") rather than
sleeping and hoping B got as far as the lock meanwhile."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

PATIENCE = 30.0
"""Seconds after which the wait gives up: a deadline for a stuck run, never a measure."""

WAITING_ON_A_LOCK = text(
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
)


async def until_blocked(
    sessions: async_sessionmaker[AsyncSession], task: asyncio.Task[Any], what: str
) -> None:
    """Return once a transaction of this test's database waits on a lock while ``task`` is
    still running; fail at once if ``task`` ends first (it did not wait)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        assert not task.done(), f"{what}: it ended without waiting"
        async with sessions() as s:
            if await s.scalar(WAITING_ON_A_LOCK):
                return
        assert time.monotonic() < deadline, f"{what}: never waited on a lock"
        await asyncio.sleep(0.01)
