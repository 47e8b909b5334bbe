"""How a batch of jobs is written: in ONE transaction, or, should a job fail, again with
each job in a savepoint of its own. Shared by both forms of the writer."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.writer.base import Call, Result


async def write_batch(
    sessionmaker: async_sessionmaker[AsyncSession], calls: list[Call]
) -> tuple[list[Result], bool]:
    """Run jobs in ONE transaction; each job's result or exception, once the commit is over,
    and whether the batch had to be written again job by job. Shared by the writer's thread
    and the writer process (:mod:`app.db.writer.process`).

    Optimistic first: the jobs run straight, with no savepoint (a savepoint per job doubles
    a hand's cost on SQLite, docs/performance.md). Should any job fail, that transaction
    rolls back whole (nothing of it happened) and the batch runs again with each job in a
    savepoint of its own, so the failing job fails alone and the others commit together.
    Jobs only touch their session, so running one again is safe."""
    results = await _straight(sessionmaker, calls)
    if results is not None:
        return results, False
    return await _each_in_a_savepoint(sessionmaker, calls), True


async def _straight(
    sessionmaker: async_sessionmaker[AsyncSession], calls: list[Call]
) -> list[Result] | None:
    """Every job in one plain transaction; None if any job (or the commit) failed and the
    batch has more than one job (it is then run again, job by job)."""
    results: list[Result] = []
    try:
        async with sessionmaker() as session, session.begin():
            for job, args, kwargs in calls:
                results.append((True, await job(session, *args, **kwargs)))
    except (Exception, asyncio.CancelledError) as exc:
        # a job's own cancellation fails that job alone, not the writer
        if len(calls) > 1:
            return None
        return [(False, exc)]
    return results


async def _each_in_a_savepoint(
    sessionmaker: async_sessionmaker[AsyncSession], calls: list[Call]
) -> list[Result]:
    """Each job in a savepoint: a job that fails rolls back alone."""
    results: list[Result] = []
    try:
        async with sessionmaker() as session, session.begin():
            for job, args, kwargs in calls:
                try:
                    async with session.begin_nested():
                        results.append((True, await job(session, *args, **kwargs)))
                except (Exception, asyncio.CancelledError) as exc:
                    results.append((False, exc))
    except Exception as exc:  # the commit itself failed: nothing of the batch happened
        results = [(False, exc)] * len(calls)
    return results
