"""The database fences every write for a leased table with the lease's epoch
(app/cluster/fence.py, migrations/versions/0007_cluster.py): a write from a transaction not
fenced, or fenced with an epoch that is not the lease's, is refused by PostgreSQL itself; a
takeover waits for the transaction in flight and the old owner's next write is refused; a
table with no lease (a single server) is not checked. On real PostgreSQL, real writers."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import delete, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.cluster.fence import Fenced, FencedWriter, fenced, is_fenced
from app.db import ledger, store
from app.db.models import Account, Player, Seat
from app.db.session import make_engine, make_sessionmaker
from app.db.store import leases
from app.db.writer.base import DatabaseWriter
from app.db.writer.process import ProcessWriter
from app.db.writer.thread import Writer
from tests.cluster.lock_waits import until_blocked

LEASED, FREE, PLAYER = "tleased", "tfree", "p1"
Write = Callable[[AsyncSession, str], Awaitable[None]]


@dataclass
class Db:
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    url: str


async def _setup(session: AsyncSession) -> None:
    """Two tables with a seat, a hand, a stack, a chat message; no lease yet."""
    session.add(Player(id=PLAYER, name="Ada"))
    session.add(Player(id="p2", name="Bea"))
    await session.flush()
    await ledger.transfer(session, None, ledger.bankroll(PLAYER), 10_000, "grant")
    for table_id in (LEASED, FREE):
        await store.create_table(
            session, table_id=table_id, name=table_id, game="baccarat", options={}, created_by=None
        )
        await session.flush()
        await store.sit(session, table_id, 1, PLAYER, 100)
        await store.hand_started(
            session,
            hand_id=f"h-{table_id}",
            table_id=table_id,
            game="baccarat",
            number=1,
            started_at=datetime.now(UTC),
        )
        await store.chat_posted(session, table_id, _message(table_id, 1), 100)


def _message(table_id: str, n: int) -> dict[str, Any]:
    return {"id": n, "at": 0.0, "player_id": PLAYER, "name": "Ada", "seat": 1, "text": "hi"}


@pytest.fixture
async def db(cluster_database: str) -> AsyncIterator[Db]:
    engine = make_engine(cluster_database)
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        await _setup(s)
        await leases.register_node(s, "n1", "127.0.0.1:1", 30)
        await leases.register_node(s, "n2", "127.0.0.1:2", 30)
        await leases.assign(s, LEASED, "n1")
    async with sessions() as s, s.begin():
        assert await leases.adopt(s, LEASED, "n1") == 1
    async with sessions() as s, s.begin():
        assert await leases.adopt(s, LEASED, "n1") == 2  # epoch 1 is now stale
    yield Db(engine, sessions, cluster_database)
    await engine.dispose()


# ---------------------------------------------------------------- every kind of write


async def hand_insert(s: AsyncSession, t: str) -> None:
    await store.hand_started(
        s, hand_id=f"h2-{t}", table_id=t, game="baccarat", number=2, started_at=datetime.now(UTC)
    )


async def hand_update(s: AsyncSession, t: str) -> None:
    await store.mark_void(s, f"h-{t}", "test")


async def seat_insert(s: AsyncSession, t: str) -> None:
    s.add(Seat(table_id=t, seat=2, player_id="p2"))
    await s.flush()


async def seat_delete(s: AsyncSession, t: str) -> None:
    await s.execute(delete(Seat).where(Seat.table_id == t, Seat.seat == 1))


async def ledger_entry(s: AsyncSession, t: str) -> None:
    await ledger.transfer(s, ledger.bankroll(PLAYER), None, 1, "take", table_id=t)


async def stack_update(s: AsyncSession, t: str) -> None:
    account = ledger.stack(t, PLAYER)
    await s.execute(update(Account).where(Account.id == account).values(balance=99))


async def table_state(s: AsyncSession, t: str) -> None:
    await store.save_table_state(s, t, {"shoe": 1})


async def shoe_insert(s: AsyncSession, t: str) -> None:
    await s.execute(
        text(
            "INSERT INTO shoes (commit, table_id, seed, source, created_at)"
            " VALUES (:c, :t, 's', '[]', now())"
        ),
        {"c": f"c-{t}", "t": t},
    )


async def chat_message(s: AsyncSession, t: str) -> None:
    await store.chat_posted(s, t, _message(t, 2), 100)


async def chat_mute(s: AsyncSession, t: str) -> None:
    await store.chat_muted(s, t, "p2", "Bea", None)


async def reservation(s: AsyncSession, t: str) -> None:
    await s.execute(
        text("INSERT INTO house_reservations (table_id, amount) VALUES (:t, 0)"), {"t": t}
    )


WRITES: list[Write] = [
    hand_insert,
    hand_update,
    seat_insert,
    seat_delete,
    ledger_entry,
    stack_update,
    table_state,
    shoe_insert,
    chat_message,
    chat_mute,
    reservation,
]


async def _outcome(db: Db, job: Callable[[AsyncSession], Awaitable[None]]) -> BaseException | None:
    try:
        async with db.sessions() as s, s.begin():
            await job(s)
    except Exception as exc:
        return exc
    return None


@pytest.mark.parametrize("write", WRITES, ids=lambda w: w.__name__)
async def test_a_leased_tables_rows_take_only_writes_fenced_at_its_epoch(
    db: Db, write: Write
) -> None:
    unfenced = await _outcome(db, lambda s: write(s, LEASED))
    assert unfenced is not None and is_fenced(unfenced), unfenced

    stale = await _outcome(db, lambda s: fenced(s, LEASED, "n1", 1, write, LEASED))
    assert isinstance(stale, Fenced) and stale.epoch == 1, stale

    async def forged(s: AsyncSession) -> None:
        # a transaction that only claims the stale epoch (without table31_fence): refused too
        await s.execute(
            text("SELECT set_config('table31.fence_' || md5(:t), '1', true)"), {"t": LEASED}
        )
        await write(s, LEASED)

    assert is_fenced(await _outcome(db, forged) or Exception("accepted"))

    other_node = await _outcome(db, lambda s: fenced(s, LEASED, "n2", 2, write, LEASED))
    assert isinstance(other_node, Fenced)

    assert await _outcome(db, lambda s: fenced(s, LEASED, "n1", 2, write, LEASED)) is None


@pytest.mark.parametrize("write", WRITES, ids=lambda w: w.__name__)
async def test_a_table_with_no_lease_takes_unfenced_writes(db: Db, write: Write) -> None:
    """A single server: no lease row, nothing checked."""
    assert await _outcome(db, lambda s: write(s, FREE)) is None


async def test_the_table_row_itself_is_fenced_for_delete_and_not_for_a_new_table(db: Db) -> None:
    async def remove(s: AsyncSession) -> None:
        await s.execute(text("DELETE FROM chat_messages WHERE table_id = :t"), {"t": LEASED})

    assert is_fenced(await _outcome(db, remove) or Exception("accepted"))

    async def new_table(s: AsyncSession) -> None:
        await store.create_table(
            s, table_id="tnew", name="n", game="baccarat", options={}, created_by=None
        )
        await s.flush()
        await leases.assign(s, "tnew", "n1")
        epoch = await leases.adopt(s, "tnew", "n1")
        assert epoch == 1
        await fenced(s, "tnew", "n1", epoch, table_state, "tnew")

    assert await _outcome(db, new_table) is None


async def test_a_takeover_waits_for_the_write_in_flight_and_then_fences_the_old_owner(
    db: Db,
) -> None:
    old = db.sessions()
    await old.begin()
    await fenced(old, LEASED, "n1", 2, table_state, LEASED)  # in flight, lease share-locked
    async with db.sessions() as s, s.begin():
        await leases.drop_node(s, "n1")  # n1's lease expires (it went quiet)

    async def take_over() -> int | None:
        async with db.sessions() as s, s.begin():
            return await leases.adopt(s, LEASED, "n2")

    takeover = asyncio.create_task(take_over())
    await until_blocked(db.sessions, takeover, "the takeover")
    assert not takeover.done(), "the takeover did not wait for the transaction in flight"
    await fenced(old, LEASED, "n1", 2, hand_update, LEASED)  # still n1's: it goes through
    await old.commit()
    await old.close()
    assert await asyncio.wait_for(takeover, 30) == 3  # a deadline for a stuck run

    refused = await _outcome(db, lambda s: fenced(s, LEASED, "n1", 2, table_state, LEASED))
    assert isinstance(refused, Fenced)
    assert await _outcome(db, lambda s: fenced(s, LEASED, "n2", 3, table_state, LEASED)) is None
    async with db.sessions() as s:
        status = await s.scalar(
            text("SELECT status FROM hands WHERE id = :h"), {"h": f"h-{LEASED}"}
        )
    assert status == "void"  # the old owner's last fenced write committed before the takeover


def test_a_fenced_job_and_its_refusal_pickle() -> None:
    call: tuple[Any, ...] = (
        fenced,
        (LEASED, "n1", 2, store.save_table_state, LEASED, {"a": 1}),
        {},
    )
    assert pickle.loads(pickle.dumps(call))[1] == call[1]
    refusal = pickle.loads(pickle.dumps(Fenced(LEASED, "n1", 2, "lease: n2, 3")))
    assert isinstance(refusal, Fenced) and refusal.epoch == 2 and is_fenced(refusal)
    assert is_fenced(RuntimeError(str(refusal)))
    crossed = (
        "(sqlalchemy.dialects.postgresql.asyncpg.Error) <class 'asyncpg.exceptions.RaiseError'>"
    )
    assert is_fenced(RuntimeError(f"{crossed}: fenced: a write for table t from a transaction"))
    assert not is_fenced(RuntimeError("the database writer has stopped"))


@pytest.mark.parametrize("kind", ["thread", "process"])
async def test_a_fenced_writer_is_refused_once_another_node_adopts(db: Db, kind: str) -> None:
    inner: DatabaseWriter = Writer(db.url) if kind == "thread" else ProcessWriter(db.url)
    inner.start()
    try:
        writer = FencedWriter(inner, LEASED, "n1", 2)
        await writer.run(store.save_table_state, LEASED, {"n": 1})
        # several jobs in one batch: the refused one fails alone, the others are written
        good = writer.submit(store.save_table_state, LEASED, {"n": 2})
        stale = FencedWriter(inner, LEASED, "n1", 1).submit(table_state, LEASED)
        free = inner.submit(chat_mute, FREE)
        results = await asyncio.gather(good, stale, free, return_exceptions=True)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], Fenced), results

        async with db.sessions() as s, s.begin():
            await leases.drop_node(s, "n1")
        async with db.sessions() as s, s.begin():
            assert await leases.adopt(s, LEASED, "n2") == 3
        with pytest.raises(Fenced) as refused:
            await writer.run(store.save_table_state, LEASED, {"n": 3})
        assert is_fenced(refused.value) and refused.value.epoch == 2

        # n2 releases it, n1 adopts it again: the writer takes its new epoch
        async with db.sessions() as s, s.begin():
            assert await leases.release(s, LEASED, "n2", 3)
            await leases.register_node(s, "n1", "127.0.0.1:1", 30)
            epoch = await leases.adopt(s, LEASED, "n1")
        assert epoch == 4
        holder = {"epoch": epoch}
        writer.epoch = lambda: holder["epoch"]
        await writer.run(store.save_table_state, LEASED, {"n": 4})
        await writer.flush()
        assert writer.pending == 0 and writer.batches >= 1
        async with db.sessions() as s:
            state = await s.scalar(text("SELECT state FROM tables WHERE id = :t"), {"t": LEASED})
        assert state == {"n": 4}
    finally:
        await inner.close()
