"""How a batch of jobs is written: in ONE transaction, or, should a job fail, again with
each job in a savepoint of its own. Shared by both forms of the writer."""

from __future__ import annotations

import asyncio
import contextlib

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.sqlstate import has_sqlstate
from app.db.writer.base import Call, Result


async def write_batch(
    sessionmaker: async_sessionmaker[AsyncSession],
    calls: list[Call],
    tries: int | None = None,
) -> tuple[list[Result], bool]:
    """Run jobs in ONE transaction; each job's result or exception, once the commit is over,
    and whether the batch had to be written again job by job. Shared by the writer's thread
    and the writer process (:mod:`app.db.writer.process`).

    Optimistic first: the jobs run straight, with no savepoint (a savepoint per job doubles
    a hand's cost on SQLite, docs/performance.md). Should any job fail, that transaction
    rolls back whole (nothing of it happened) and the batch runs again with each job in a
    savepoint of its own, so the failing job fails alone and the others commit together.
    Jobs only touch their session, so running one again is safe.

    A job that failed because PostgreSQL aborted its transaction (or its savepoint) for a
    conflict with another transaction (a deadlock's victim, a serialization failure: two
    nodes of a cluster writing the same rows in another order) did not happen, and says
    nothing of the job: it is written again, up to :data:`CONFLICT_TRIES` times in all.

    A COMMIT that fails otherwise is never written again, in either form: its answer may
    have been lost after the database committed it (:func:`_committed`)."""
    tries = CONFLICT_TRIES if tries is None else tries
    results = await _straight(sessionmaker, calls)
    rewritten = results is None
    if results is None:
        results = await _each_in_a_savepoint(sessionmaker, calls)
    again = [i for i, (ok, value) in enumerate(results) if not ok and conflicted(value)]
    if again and tries > 1:
        redone, redone_rewritten = await write_batch(
            sessionmaker, [calls[i] for i in again], tries - 1
        )
        for i, outcome in zip(again, redone, strict=True):
            results[i] = outcome
        rewritten = rewritten or redone_rewritten
    return results, rewritten


CONFLICT_TRIES = 3
"""How many times a batch is written when PostgreSQL aborts it for a conflict with another
transaction (a deadlock or a serialization failure)."""

CONFLICT_STATES = frozenset({"40P01", "40001"})
"""SQLSTATE: deadlock detected, serialization failure."""


def conflicted(exc: BaseException) -> bool:
    """True when ``exc`` is the database aborting a transaction for its conflict with
    another one (run again, it will most likely pass)."""
    return has_sqlstate(exc, CONFLICT_STATES)


async def _straight(
    sessionmaker: async_sessionmaker[AsyncSession], calls: list[Call]
) -> list[Result] | None:
    """Every job in one plain transaction; None if any job failed and the batch has more
    than one job (it is then run again, job by job). The jobs' statements are all sent
    before the COMMIT (the flush), so a constraint a job breaks fails here, as the job's.
    A COMMIT that fails fails every job, and is never written again (:func:`_committed`)."""
    results: list[Result] = []
    async with sessionmaker() as session:
        try:
            await session.begin()
            for job, args, kwargs in calls:
                results.append((True, await job(session, *args, **kwargs)))
            await session.flush()
        except (Exception, asyncio.CancelledError) as exc:
            # a job's own cancellation fails that job alone, not the writer
            await _roll_back(session)
            if len(calls) > 1:
                return None
            return [(False, exc)]
        failed = await _committed(session)
    if failed is not None:
        if len(calls) > 1 and conflicted(failed):
            return None  # aborted, so not committed: written again, job by job
        return [(False, failed)] * len(calls)
    return results


async def _committed(session: AsyncSession) -> BaseException | None:
    """COMMIT the session's transaction; None once committed, else what failed.

    A COMMIT whose answer never came (the connection ended, PostgreSQL restarted, the
    network cut as it landed) may have been committed all the same: so its jobs are never
    written again, which could move their chips twice. Each of them fails instead, with
    that error, and the tables they came from are rebuilt from what the database holds
    (app/runtime/storage.py). Only a conflict (:func:`conflicted`: PostgreSQL aborted the
    transaction) says for sure that nothing was committed."""
    try:
        await session.commit()
    except Exception as exc:
        await _roll_back(session)
        return exc
    return None


async def _roll_back(session: AsyncSession) -> None:
    """End a failed transaction; a connection that is gone has nothing left to end."""
    with contextlib.suppress(Exception):
        await session.rollback()


async def _each_in_a_savepoint(
    sessionmaker: async_sessionmaker[AsyncSession], calls: list[Call]
) -> list[Result]:
    """Each job in a savepoint: a job that fails rolls back alone. Should the COMMIT
    fail, every job fails with it (:func:`_committed`)."""
    results: list[Result] = []
    async with sessionmaker() as session:
        try:
            await session.begin()
            for job, args, kwargs in calls:
                # ONE outcome per job: the savepoint's own end (its flush, its release) can
                # fail after the job returned (a constraint met at the flush, a full disk),
                # and then the job failed, not succeeded and failed
                try:
                    async with session.begin_nested():
                        value = await job(session, *args, **kwargs)
                except (Exception, asyncio.CancelledError) as exc:
                    results.append((False, exc))
                else:
                    results.append((True, value))
        except Exception as exc:  # the transaction itself failed: nothing of it happened
            await _roll_back(session)
            return [(False, exc)] * len(calls)
        failed = await _committed(session)
    if failed is not None:
        return [(False, failed)] * len(calls)
    return results
