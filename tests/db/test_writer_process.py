"""The database writer as a process of its own (app/db/writer/process.py), the server's
default: jobs in order, batched, results and exceptions back across the pipe, a failing or
unpicklable job failing alone, a slow job never holding up the caller's loop, close() writing
what is queued, and a child that never outlives its server (``kill -9``). On a real, migrated
database (SQLite by default, PostgreSQL under ``TEST_DATABASE_URL``).

Jobs are module-level functions of this module: the child process imports them by name.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
import types
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.db import ledger, store
from app.db.models import Player, ServerSetting
from app.db.writer.process import ProcessWriter, WriterGone
from tests.conftest import ROOT, LiveServer, make_settings
from tests.db.test_writer import reader, settings, the_loop_runs_while

__all__ = ["reader"]  # a fixture, shared with tests/test_writer.py


@pytest.fixture
async def writer(database_url: str) -> AsyncIterator[ProcessWriter]:
    w = ProcessWriter(database_url)
    w.start()
    try:
        yield w
    finally:
        await w.close()


# ---------------------------------------------------------------- jobs (run in the child)


async def where(_session: AsyncSession) -> int:
    return os.getpid()


async def hold(_session: AsyncSession, gate: str, seconds: float = 10.0) -> None:
    """Block the writer until the file ``gate`` exists: what follows queues up behind."""
    Path(gate + ".started").touch()
    deadline = time.monotonic() + seconds
    while not Path(gate).exists() and time.monotonic() < deadline:
        time.sleep(0.01)


async def duplicate(session: AsyncSession, key: str) -> None:
    session.add(ServerSetting(key=key, value="again"))
    await session.flush()  # the primary key is taken: IntegrityError


async def broken(_session: AsyncSession) -> None:
    raise RuntimeError("a bug in one job")


class Unsendable(Exception):
    """An exception that pickles but cannot be rebuilt (its __init__ wants two arguments)."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"{a}/{b}")


async def raises_unsendable(_session: AsyncSession) -> None:
    raise Unsendable("x", "y")


async def gate_opened(_session: AsyncSession, gate: str) -> bool:
    """Block the writer until the file ``gate`` exists (or a long while: a deadlock);
    whether it was opened."""
    await hold(_session, gate, seconds=300)
    return Path(gate).exists()


async def gated(gate: str) -> None:
    while not Path(gate + ".started").exists():
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------- the tests


async def test_jobs_run_in_order_in_the_child_batched(
    writer: ProcessWriter, reader: async_sessionmaker[AsyncSession]
) -> None:
    futures = [writer.submit(store.set_setting, "last", n) for n in range(300)]
    futures += [writer.submit(store.set_setting, f"k{n}", n) for n in range(300)]
    await asyncio.gather(*futures)
    stored = await settings(reader)
    assert stored["last"] == 299  # in order: the last write wins
    assert all(stored[f"k{n}"] == n for n in range(300))
    assert writer.batches < 600  # queued together, they shared transactions
    assert writer.rewritten == 0
    assert writer.pending == 0
    child = await writer.run(where)
    assert child == writer.pid and child != os.getpid()


async def test_a_burst_larger_than_the_socket_takes_goes_through_whole_and_in_order(
    writer: ProcessWriter, reader: async_sessionmaker[AsyncSession]
) -> None:
    """Forty jobs of 256 KiB each (10 MiB) in one turn of the loop: far more than a socket
    buffer holds, so the drain thread sends the rest while the loop goes on."""
    futures = [writer.submit(store.set_setting, "big", f"{n:04d}" + "x" * 2**18) for n in range(40)]
    await asyncio.sleep(0)
    assert writer._draining  # the socket was full: the drain thread has the rest
    await asyncio.wait_for(asyncio.gather(*futures), 60)
    assert not writer._draining
    stored = await settings(reader)
    assert stored["big"].startswith("0039")  # the last one written last
    await writer.run(store.set_setting, "after", 1)  # and the loop writes again itself
    assert (await settings(reader))["after"] == 1


async def test_results_orm_objects_and_exceptions_come_back(writer: ProcessWriter) -> None:
    player, token = await writer.run(store.create_player, "Ada", bankroll=500, is_bot=False)
    assert isinstance(player, Player) and player.name == "Ada" and player.created_at is not None
    assert token
    with pytest.raises(ledger.InsufficientFunds) as caught:
        await writer.run(store.grant_or_take, player.id, -501, "too much")
    assert caught.value.account == ledger.bankroll(player.id) and caught.value.amount == 501
    with pytest.raises(RuntimeError, match="a bug in one job"):
        await writer.run(broken)
    with pytest.raises(RuntimeError, match="could not be sent back"):
        await writer.run(raises_unsendable)
    assert writer.failures == 0  # none of them was the storage failing
    assert await writer.run(ledger.balance, ledger.bankroll(player.id)) == 500


async def test_a_job_that_cannot_be_pickled_fails_alone_at_once(
    writer: ProcessWriter, reader: async_sessionmaker[AsyncSession]
) -> None:
    with pytest.raises(TypeError, match="must pickle"):
        await writer.run(lambda s: store.set_setting(s, "never", 1))
    await writer.run(store.set_setting, "after", 1)
    assert await settings(reader) == {"after": 1}


async def test_a_job_the_child_cannot_unpickle_is_answered_with_an_error(
    writer: ProcessWriter, reader: async_sessionmaker[AsyncSession]
) -> None:
    """A job from a module only the server has (made at run time here) pickles by name but
    cannot be loaded in the child: it fails alone, and its caller is told."""
    module = types.ModuleType("table31_only_here")

    async def job(_session: AsyncSession) -> None:
        return None

    job.__module__ = module.__name__
    job.__qualname__ = "job"
    module.job = job  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        lost = writer.submit(job)
        kept = writer.submit(store.set_setting, "beside", 1)
        with pytest.raises(RuntimeError, match="did not unpickle"):
            await asyncio.wait_for(lost, 60)
        await kept
    finally:
        del sys.modules[module.__name__]
    assert (await settings(reader))["beside"] == 1
    assert writer.pending == 0


async def test_a_failing_job_fails_alone_in_its_batch(
    writer: ProcessWriter, reader: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    gate = str(tmp_path / "gate")
    held = writer.submit(hold, gate)
    await asyncio.wait_for(gated(gate), 60)
    batches, rewritten = writer.batches, writer.rewritten
    futures = [
        writer.submit(store.set_setting, "a", 1),
        writer.submit(duplicate, "a"),
        writer.submit(store.set_setting, "b", 2),
        writer.submit(broken),
        writer.submit(store.set_setting, "c", 3),
    ]
    await asyncio.sleep(0.1)  # all five reach the child while it is held
    Path(gate).touch()
    await held
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert isinstance(results[1], IntegrityError)
    assert isinstance(results[3], RuntimeError)
    assert results[0::2] == [None, None, None]
    assert writer.batches == batches + 2  # the hold's, then the five in ONE transaction
    assert writer.rewritten == rewritten + 1
    assert await settings(reader) == {"a": 1, "b": 2, "c": 3}


async def test_a_slow_job_never_blocks_the_callers_loop(
    writer: ProcessWriter, tmp_path: Path
) -> None:
    gate = str(tmp_path / "gate")
    held = writer.run(gate_opened, gate)  # blocks the child until the gate file exists
    assert await the_loop_runs_while(held, Path(gate + ".started").exists, Path(gate).touch)


async def test_close_writes_what_is_queued_then_the_child_ends(
    database_url: str, reader: async_sessionmaker[AsyncSession]
) -> None:
    writer = ProcessWriter(database_url)
    writer.start()
    pid = writer.pid
    futures = [writer.submit(store.set_setting, f"k{n}", n) for n in range(100)]
    await writer.close()
    assert [f.exception() for f in futures] == [None] * 100
    assert writer.pending == 0
    stored = await settings(reader)
    assert all(stored[f"k{n}"] == n for n in range(100))
    assert pid is not None and not _alive(pid)
    with pytest.raises(WriterGone):
        await writer.run(store.set_setting, "late", 1)
    await writer.close()  # twice is harmless
    writer.start()  # and it starts again
    await writer.run(store.set_setting, "again", 1)
    await writer.close()


async def test_a_child_that_dies_fails_what_waits_and_refuses_more(
    writer: ProcessWriter, tmp_path: Path
) -> None:
    gate = str(tmp_path / "gate")
    held = writer.submit(hold, gate)
    await asyncio.wait_for(gated(gate), 60)
    queued = writer.submit(store.set_setting, "lost", 1)
    assert writer.pid is not None
    os.kill(writer.pid, signal.SIGKILL)
    for future in (held, queued):
        with pytest.raises(WriterGone):
            await asyncio.wait_for(future, 60)
    assert writer.pending == 0
    with pytest.raises(WriterGone):
        await writer.run(store.set_setting, "after", 1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead too (its parent has not reaped it yet)
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_dies_with_a_killed_server(database_url: str, tmp_path: Path) -> None:
    """``kill -9`` on the server takes its writer with it: the restarted server is the
    only writer, and the killed one's open transaction is rolled back."""
    script = textwrap.dedent(
        f"""
        import asyncio, sys, time
        from app.db.writer.process import ProcessWriter
        from app.db import store

        async def main():
            w = ProcessWriter({database_url!r})
            w.start()
            await w.run(store.set_setting, "up", 1)
            print(w.pid, flush=True)
            time.sleep(60)

        asyncio.run(main())
        """
    )
    server = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        assert _alive(child)
        server.kill()
        server.wait(10)
        deadline = time.monotonic() + 60  # for a stuck run only
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        server.kill()


async def test_the_server_runs_its_writer_in_a_process_by_default(database_url: str) -> None:
    assert Settings(database_url=database_url).database_writer == "process"
    settings_ = make_settings(database_url, database_writer="process")
    server = LiveServer(settings_)
    await server.start()
    try:
        writer = server.services.writer
        assert isinstance(writer, ProcessWriter) and writer.pid is not None
        assert _alive(writer.pid)
        assert await writer.run(where) == writer.pid
        pid = writer.pid
    finally:
        await server.stop()
    assert not _alive(pid)


# ---------------------------------------------------------------- one outcome per job


async def adds_a_duplicate_setting(session: AsyncSession) -> str:
    """Returns at once, but its row only meets the primary key at the flush: in a savepoint,
    when the savepoint ends (after the job has returned)."""
    session.add(ServerSetting(key="dup", value=2))
    return "returned"


async def test_a_job_whose_savepoint_fails_at_its_end_fails_alone(writer: ProcessWriter) -> None:
    """A batch written again job by job: a job that returned, but whose savepoint fails as it
    ends (the flush), has ONE outcome, a failure; the others commit and the writer goes on.
    Before, the savepoint's path recorded the job's success and then its failure, the child's
    ``zip(..., strict=True)`` raised, and nothing more was written (the full-disk crash)."""
    await writer.run(store.set_setting, "dup", 1)
    jobs = [
        writer.submit(store.set_setting, "before", 1),
        writer.submit(adds_a_duplicate_setting),
        writer.submit(store.set_setting, "after", 1),
    ]
    outcomes = await asyncio.gather(*jobs, return_exceptions=True)
    assert outcomes[0] is None and outcomes[2] is None, outcomes
    text = str(outcomes[1]).lower()
    assert isinstance(outcomes[1], Exception), outcomes
    assert "unique" in text or "duplicate" in text, outcomes[1]
    assert writer.alive
    await writer.run(store.set_setting, "later", 1)  # the writer still writes
    assert await writer.run(store.get_setting, "after") == 1
    assert await writer.run(store.get_setting, "dup") == 1


async def test_a_dead_writer_says_so_and_starts_again(writer: ProcessWriter) -> None:
    """kill -9 of the writer process: its jobs fail as the storage's failure (counted, the
    guard told), and :meth:`restart` brings a new one that writes."""
    heard: list[BaseException] = []
    writer.on_storage_failure = heard.append
    assert writer.pid is not None
    os.kill(writer.pid, signal.SIGKILL)
    with pytest.raises(WriterGone):
        await writer.run(store.set_setting, "lost", 1)
    assert heard and isinstance(heard[0], WriterGone)
    assert not writer.alive and writer.failures >= 1
    await writer.restart()
    assert writer.alive
    await writer.run(store.set_setting, "again", 1)
    assert await writer.run(store.get_setting, "again") == 1


# ---------------------------------------------------------------- conflicts written again


class Conflict(Exception):
    """What PostgreSQL raises for a deadlock's victim: an error whose SQLSTATE is 40P01."""

    sqlstate = "40P01"


CALLS: dict[str, int] = {}
"""How often each conflicting job ran, in the child."""


async def conflicts(session: AsyncSession, key: str, times: int) -> int:
    """Writes ``key``, but is a deadlock's victim the first ``times`` times it runs."""
    CALLS[key] = CALLS.get(key, 0) + 1
    session.add(ServerSetting(key=key, value=CALLS[key]))
    await session.flush()
    if CALLS[key] <= times:
        raise Conflict(f"deadlock detected ({CALLS[key]})")
    return CALLS[key]


async def bump(session: AsyncSession, key: str) -> None:
    """Adds one to the setting ``key``: run twice, it would count two."""
    await store.set_setting(session, key, int(await store.get_setting(session, key) or 0) + 1)


async def test_a_deadlock_victim_is_written_again_and_nothing_twice(writer: ProcessWriter) -> None:
    """A job that the database aborted for its conflict with another transaction did not
    happen: it is written again (up to three times in all), alone, and the jobs of its batch
    that did commit are not written twice. A job that keeps conflicting fails, as any job."""
    jobs = [
        writer.submit(bump, "counted"),
        writer.submit(conflicts, "second-try", 1),
        writer.submit(bump, "counted"),
    ]
    assert await asyncio.gather(*jobs) == [None, 2, None]  # it ran twice, wrote once
    assert await writer.run(store.get_setting, "counted") == 2  # not 3 or 4
    assert await writer.run(store.get_setting, "second-try") == 2
    assert await writer.run(conflicts, "alone", 2) == 3  # a batch of one, again and again
    with pytest.raises(Exception, match="deadlock detected \\(3\\)"):
        await writer.run(conflicts, "always", 5)
    assert await writer.run(store.get_setting, "always") is None
    assert writer.alive


async def lock_in_order(session: AsyncSession, first: str, second: str, gate: str) -> str:
    """Takes the row of ``first``, waits (once) until the other job holds its own first
    row, then takes ``second``: two such jobs in opposite orders deadlock."""
    for key in (first, second):
        await session.execute(
            select(ServerSetting).where(ServerSetting.key == key).with_for_update()
        )
        if key == first and not Path(gate + f".{first}").exists():
            Path(gate + f".{first}").touch()
            other = second
            deadline = time.monotonic() + 60.0
            while not Path(gate + f".{other}").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
    await store.set_setting(session, first, "done")
    return first


async def test_two_writers_that_deadlock_both_commit(database_url: str, tmp_path: Path) -> None:
    """Two writers (two nodes of a cluster) lock the same two rows in opposite orders:
    PostgreSQL aborts one as the deadlock's victim, and that one is written again once the
    other has committed, so both jobs succeed. (SQLite has one writer at a time: the second
    waits and both succeed as well.)"""
    nodes = ProcessWriter(database_url), ProcessWriter(database_url)
    for w in nodes:
        w.start()
    try:
        await nodes[0].run(store.set_setting, "x", 0)
        await nodes[0].run(store.set_setting, "y", 0)
        gate = str(tmp_path / "gate")
        done = await asyncio.gather(
            nodes[0].submit(lock_in_order, "x", "y", gate),
            nodes[1].submit(lock_in_order, "y", "x", gate),
        )
        assert sorted(done) == ["x", "y"]
        assert await nodes[0].run(store.get_setting, "x") == "done"
        assert await nodes[0].run(store.get_setting, "y") == "done"
    finally:
        for w in nodes:
            await w.close()
