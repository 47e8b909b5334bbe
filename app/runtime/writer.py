"""The persistence queue: every write runs here, in order.

Table actors never wait on the database to apply an action (issue 9: a slow database
delays settlement records, not play). They hand a job (an async function of a session) to
the writer; the writer runs the jobs in submission order, so a hand's record always lands
after the seat it was played from and before the leave that follows it. Jobs queued
together are written in one transaction, each in a savepoint of its own, so a busy server
settles many hands per commit and one failing job never takes the others with it.
Callers that need the answer (a buy-in checks the bankroll) await the job's future; the
others let it run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

log = logging.getLogger("table31.writer")

T = TypeVar("T")
BATCH_LIMIT = 64
"""Jobs written in one transaction when they are queued together (under load)."""
Job = Callable[[AsyncSession], Awaitable[Any]]


class Writer:
    """Runs database jobs one after another, each in one transaction."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker
        self._queue: asyncio.Queue[tuple[Job, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.failures = 0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="table31-writer")

    def submit(self, job: Callable[[AsyncSession], Awaitable[T]]) -> asyncio.Future[T]:
        """Queue a job; the returned future holds its result (or its exception)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        if self._task is not None and self._task.done():
            future.set_exception(RuntimeError("the database writer has stopped"))
            return future
        self._queue.put_nowait((job, future))
        return future

    async def run(self, job: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Queue a job and wait for its result."""
        return await self.submit(job)

    async def flush(self) -> None:
        """Wait until every job queued so far has run."""
        await self.run(_nothing)

    @property
    def pending(self) -> int:
        return self._queue.qsize()

    async def close(self) -> None:
        """Run what is queued, then stop."""
        if self._task is None:
            return
        self._queue.put_nowait(None)
        await self._task
        self._task = None

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < BATCH_LIMIT and not self._queue.empty():
                more = self._queue.get_nowait()
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                await self._run_batch(batch)
            except Exception:  # never let one batch stop the writer: callers would wait forever
                log.exception("database batch failed")
                for _, future in batch:
                    if not future.done():
                        future.set_exception(RuntimeError("the database batch failed"))
            if stop:
                return

    async def _run_batch(self, batch: list[tuple[Job, asyncio.Future[Any]]]) -> None:
        """Run queued jobs in ONE transaction, each inside a savepoint of its own: a job that
        fails rolls back alone (its caller gets the exception); the others commit together.
        Results are handed out only once the commit has succeeded."""
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]] = []
        try:
            async with self.sessionmaker() as session, session.begin():
                for job, future in batch:
                    try:
                        async with session.begin_nested():
                            outcomes.append((future, True, await job(session)))
                    except (Exception, asyncio.CancelledError) as exc:
                        # a job's own cancellation fails that job alone, not the writer
                        outcomes.append((future, False, exc))
        except Exception as exc:  # the commit itself failed: nothing of the batch happened
            outcomes = [(future, False, exc) for _, future in batch]
        for future, ok, value in outcomes:
            if future.done():
                continue
            if ok:
                future.set_result(value)
                continue
            self.failures += 1
            future.set_exception(value)
            # Retrieve it so an unawaited job's failure is logged, not lost.
            future.add_done_callback(_log_failure)


async def _nothing(_session: AsyncSession) -> None:
    return None


def _log_failure(future: asyncio.Future[Any]) -> None:
    exc = future.exception()
    if exc is not None:
        log.error("database job failed: %r", exc, exc_info=exc)
