"""Whether the database answers: ``SELECT 1``, on a session (``/healthz``) or on a URL
before anything else is started (``make run``'s first step, ``python -m app check-db``)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine


async def ping(session: AsyncSession) -> None:
    """Ask the database ``SELECT 1``; returns once it answered, raises what the driver
    raised if it did not."""
    await session.execute(text("SELECT 1"))


async def ping_url(url: str, *, connect_seconds: float, answer_seconds: float) -> None:
    """Connect to the database at ``url`` (giving up on a connection after
    ``connect_seconds``) and ask it ``SELECT 1``; returns once it answered within
    ``answer_seconds`` in all, raises what the driver raised (or :class:`TimeoutError`)
    if not. Nothing is kept open."""
    engine = create_async_engine(url, connect_args={"timeout": connect_seconds})
    try:
        async with asyncio.timeout(answer_seconds), engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    finally:
        await engine.dispose()
