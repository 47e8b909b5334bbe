"""How a batch is written (app/db/writer/batch.py) when its COMMIT fails: the database may
have committed it before the answer was lost (PostgreSQL ending the connection as the commit
lands, a relay cut mid-answer), so its jobs are never written again. Each job fails with that
error instead, and the tables they came from are rebuilt from what the database holds
(docs/architecture.md, "When storage fails"). A job's own failure, before the commit, still
fails alone and the others commit together."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.db import ledger, store
from app.db.session import make_engine
from app.db.writer.base import Call, storage_failure
from app.db.writer.batch import write_batch

LOST = OperationalError("COMMIT", {}, ConnectionResetError("the answer was lost"))


class AnswerLost(Session):
    """A session whose next COMMIT lands in the database, then is reported as failed."""

    lose_next = 0


@event.listens_for(AnswerLost, "after_commit")
def _lose_the_answer(_session: Session) -> None:
    if AnswerLost.lose_next:
        AnswerLost.lose_next -= 1
        raise LOST


@pytest.fixture
async def sessions(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(database_url)
    try:
        yield async_sessionmaker(engine, expire_on_commit=False, sync_session_class=AnswerLost)
    finally:
        AnswerLost.lose_next = 0
        await engine.dispose()


async def _player(sessions: async_sessionmaker[AsyncSession], chips: int) -> str:
    async with sessions() as session, session.begin():
        player, _token = await store.create_player(session, "Ada", bankroll=chips, is_bot=False)
        return str(player.id)


def _pay(player_id: str, chips: int):  # type: ignore[no-untyped-def]
    async def job(session: AsyncSession) -> None:
        await ledger.transfer(session, ledger.bankroll(player_id), None, chips, "a stake")

    return job


async def _bankroll(sessions: async_sessionmaker[AsyncSession], player_id: str) -> int:
    async with sessions() as session:
        return await ledger.balance(session, ledger.bankroll(player_id))


@pytest.mark.parametrize("jobs", [1, 2, 5])
async def test_a_commit_whose_answer_is_lost_is_never_written_again(
    sessions: async_sessionmaker[AsyncSession], jobs: int
) -> None:
    player_id = await _player(sessions, 500)
    AnswerLost.lose_next = 1
    results, _rewritten = await write_batch(sessions, [(_pay(player_id, 10), (), {})] * jobs)
    # the database committed the batch once: every chip moved once, none twice
    assert await _bankroll(sessions, player_id) == 500 - 10 * jobs
    # and nobody is told it succeeded: each job failed with the lost commit, a storage
    # failure (the guard stops the tables and rebuilds them from the database)
    assert [ok for ok, _ in results] == [False] * jobs
    assert all(value is LOST or getattr(value, "orig", None) is LOST.orig for _, value in results)
    assert all(storage_failure(value) for _, value in results)


async def test_a_jobs_own_failure_still_fails_alone(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    player_id = await _player(sessions, 500)
    calls: list[Call] = [(_pay(player_id, chips), (), {}) for chips in (10, 1000, 20)]
    results, rewritten = await write_batch(sessions, calls)
    assert rewritten
    assert [ok for ok, _ in results] == [True, False, True]
    assert isinstance(results[1][1], ledger.InsufficientFunds)
    assert await _bankroll(sessions, player_id) == 470
