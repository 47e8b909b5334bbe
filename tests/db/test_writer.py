"""The database writer (app/db/writer/thread.py) on a real, migrated database.

Jobs run on the writer's own thread and event loop, in the order they were queued, queued
ones together in one transaction with a savepoint each; results and exceptions come back to
the caller's loop; a failing job fails alone; close() writes what is queued and ends the
thread; and a slow job never holds up the caller's loop. SQLite by default (a fresh file per
test, read back through a second engine as the server does), PostgreSQL under
``TEST_DATABASE_URL``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import ledger, store
from app.db.models import Player, ServerSetting
from app.db.session import make_engine, make_sessionmaker
from app.db.writer.thread import Writer
from tests.conftest import LiveServer, make_settings


@pytest.fixture
async def reader(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """The main loop's own engine, for reads (as the server's REST and review pages)."""
    engine = make_engine(database_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


@pytest.fixture
async def writer(database_url: str) -> AsyncIterator[Writer]:
    w = Writer(database_url)
    w.start()
    try:
        yield w
    finally:
        await w.close()


def put(key: str, value: Any) -> Any:
    """A job: store a setting; returns where it ran (thread, loop)."""

    async def job(session: AsyncSession) -> tuple[int, asyncio.AbstractEventLoop]:
        await store.set_setting(session, key, value)
        return threading.get_ident(), asyncio.get_running_loop()

    return job


async def settings(reader: async_sessionmaker[AsyncSession]) -> dict[str, Any]:
    async with reader() as session:
        rows = await session.execute(select(ServerSetting.key, ServerSetting.value))
        return {k: v for k, v in rows}


def writer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "table31-writer"]


async def test_jobs_run_in_order_on_the_writers_thread_and_loop(
    writer: Writer, reader: async_sessionmaker[AsyncSession]
) -> None:
    order: list[int] = []

    def step(n: int) -> Any:
        async def job(session: AsyncSession) -> int:
            order.append(n)
            await store.set_setting(session, "last", n)
            return n

        return job

    futures = [writer.submit(step(n)) for n in range(200)]
    assert await asyncio.gather(*futures) == list(range(200))
    assert order == list(range(200))
    where = await writer.run(put("here", 1))
    assert where[0] != threading.get_ident()
    assert where[1] is not asyncio.get_running_loop()
    assert [t.ident for t in writer_threads()] == [where[0]]
    # queued together, they shared transactions (at most BATCH_LIMIT jobs each)
    assert writer.batches < 200
    assert writer.rewritten == 0  # no job failed: each batch written once, straight
    assert (await settings(reader))["last"] == 199


async def test_results_may_be_orm_objects_and_exceptions_come_back(writer: Writer) -> None:
    player, token = await writer.run(
        lambda s: store.create_player(s, "Ada", bankroll=500, is_bot=False)
    )
    # detached from the writer's (closed) session, but loaded: readable on this loop
    assert isinstance(player, Player) and player.name == "Ada" and player.created_at is not None
    assert token

    async def boom(_session: AsyncSession) -> None:
        raise ValueError("no such thing")

    with pytest.raises(ValueError, match="no such thing"):
        await writer.run(boom)
    with pytest.raises(ledger.InsufficientFunds) as caught:
        await writer.run(
            lambda s: ledger.transfer(s, ledger.bankroll(player.id), None, 501, "too much")
        )
    assert caught.value.account == ledger.bankroll(player.id)
    # a bug's exception and a refusal are answers, not the storage failing: the failure
    # metric (table31_writer_failures) counts only what an operator must act on
    assert writer.failures == 0
    assert await writer.run(lambda s: ledger.balance(s, ledger.bankroll(player.id))) == 500


async def test_a_failing_job_fails_alone_in_its_batch(
    writer: Writer, reader: async_sessionmaker[AsyncSession]
) -> None:
    started, gate = threading.Event(), threading.Event()

    async def hold(_session: AsyncSession) -> None:
        started.set()
        gate.wait(5)  # the writer's thread waits: what follows queues up behind it

    async def duplicate(session: AsyncSession) -> None:
        session.add(ServerSetting(key="a", value="again"))
        await session.flush()  # the primary key is taken: IntegrityError

    async def broken(_session: AsyncSession) -> None:
        raise RuntimeError("a bug in one job")

    held = writer.submit(hold)
    assert await asyncio.to_thread(started.wait, 5)
    batches, rewritten = writer.batches, writer.rewritten
    futures = [
        writer.submit(put("a", 1)),
        writer.submit(duplicate),
        writer.submit(put("b", 2)),
        writer.submit(broken),
        writer.submit(put("c", 3)),
    ]
    gate.set()
    await held
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert isinstance(results[1], IntegrityError)
    assert isinstance(results[3], RuntimeError)
    assert all(isinstance(r, tuple) for r in results[::2])
    assert writer.batches == batches + 2  # the hold's, then the five in ONE transaction
    assert writer.rewritten == rewritten + 1  # tried straight, then job by job in savepoints
    assert await settings(reader) == {"a": 1, "b": 2, "c": 3}
    # and the writer goes on
    await writer.run(put("d", 4))
    assert (await settings(reader))["d"] == 4


async def test_close_writes_what_is_queued_then_ends_its_thread(
    database_url: str, reader: async_sessionmaker[AsyncSession]
) -> None:
    writer = Writer(database_url)
    early = writer.submit(put("before-start", 0))  # queued before the thread exists
    writer.start()
    futures = [writer.submit(put(f"k{n}", n)) for n in range(50)]
    assert writer.pending > 0
    await writer.close()
    assert early.done() and all(f.done() for f in futures)
    assert all(not f.exception() for f in [early, *futures])
    assert writer_threads() == []
    assert writer.pending == 0
    stored = await settings(reader)
    assert stored["before-start"] == 0 and all(stored[f"k{n}"] == n for n in range(50))
    with pytest.raises(RuntimeError, match="stopped"):
        await writer.run(put("late", 1))
    await writer.close()  # twice is harmless
    # and it starts again
    writer.start()
    await writer.run(put("again", 1))
    await writer.close()
    assert writer_threads() == []


async def the_loop_runs_while(job: Any, started: Any, open_gate: Any, ticks: int = 20) -> Any:
    """Await ``job``, which blocks the writer until ``open_gate()`` is called. Once the job
    has ``started()`` in the writer, a ticker on this loop takes ``ticks`` turns of the loop
    (10 ms sleeps), then opens the gate: the job can end only if the caller's loop kept
    running while the writer was blocked (else the wait below runs out)."""

    async def ticker() -> None:
        while not started():
            await asyncio.sleep(0.01)
        for _ in range(ticks):
            await asyncio.sleep(0.01)
        open_gate()

    ticking = asyncio.create_task(ticker())
    result = await asyncio.wait_for(job, 120)  # a bound for a deadlock, never a duration
    await ticking
    return result


async def test_a_slow_job_never_blocks_the_callers_loop(writer: Writer) -> None:
    began, gate = threading.Event(), threading.Event()

    async def blocking(_session: AsyncSession) -> str:
        began.set()
        while not gate.wait(0.01):  # blocks the writer's thread and loop, not the caller's
            pass
        return "done"

    job = writer.run(blocking)
    assert await the_loop_runs_while(job, began.is_set, gate.set) == "done"


async def test_a_cancelled_caller_does_not_stop_the_writer(
    writer: Writer, reader: async_sessionmaker[AsyncSession]
) -> None:
    gate = threading.Event()

    async def hold(_session: AsyncSession) -> None:
        gate.wait(5)

    writer.submit(hold)
    waiting = asyncio.ensure_future(writer.run(put("x", 1)))
    await asyncio.sleep(0.05)
    waiting.cancel()
    gate.set()
    await writer.flush()
    assert (await settings(reader))["x"] == 1  # written all the same; nobody told
    assert writer.failures == 0


async def test_a_writer_on_a_database_it_cannot_open_fails_its_jobs_and_goes_on(
    tmp_path: Any,
) -> None:
    writer = Writer(f"sqlite+aiosqlite:///{tmp_path / 'missing-dir' / 'x.db'}")
    writer.start()
    try:
        with pytest.raises(Exception, match="unable to open"):
            await writer.run(put("a", 1))
        with pytest.raises(Exception, match="unable to open"):
            await writer.run(put("b", 2))
        assert writer.failures == 2
    finally:
        await writer.close()
    assert writer_threads() == []


async def test_the_server_starts_and_stops_its_writers_thread(database_url: str) -> None:
    server = LiveServer(make_settings(database_url))
    await server.start()
    try:
        assert len(writer_threads()) == 1
        services = server.services
        assert services.writer.url == database_url
        # the main engine (reads) and the writer's (its thread) on the same database
        await services.writer.run(put("shared", 1))
        assert (await settings(services.sessionmaker))["shared"] == 1
    finally:
        await server.stop()
    assert writer_threads() == []
