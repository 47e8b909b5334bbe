"""The house shared between nodes (app/db/store/house_bank.py, app/cluster/house.py), on real
PostgreSQL: reservations never add up to more than the house's balance at any commit, however
they are written; a payout from the house at a table uses up that table's reservation in the
hand's own transaction; two node processes reserving, paying and releasing against one house
2,400 times in all, now and then trying to over-commit it in plain SQL, never over-commit it;
a node's ClusterHouse mirrors its tables' reservations."""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.cluster.fence import Fenced, FencedWriter, fenced, is_fenced
from app.cluster.house import ClusterHouse
from app.db import ledger
from app.db.ledger import HOUSE, Movement
from app.db.models import Player
from app.db.session import make_engine, make_sessionmaker
from app.db.sqlstate import has_sqlstate
from app.db.store import house_bank, leases
from app.db.writer.batch import CONFLICT_STATES
from app.db.writer.thread import Writer
from app.games.core.money import Transfer
from tests.cluster.lock_waits import until_blocked

PLAYER = "p1"
NODES = {"n1": ["a1", "a2", "a3"], "n2": ["b1", "b2", "b3"]}
OPS_PER_PROCESS = 1_200


@dataclass
class Db:
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    url: str

    async def run(self, job: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        async with self.sessions() as s, s.begin():
            return await job(s, *args)


async def _setup(session: AsyncSession, house: int) -> None:
    """The house's float, a player with a big stack at each table, each table leased."""
    session.add(Player(id=PLAYER, name="Ada"))
    await ledger.transfer(session, None, HOUSE, house, "house float")
    for node, tables in NODES.items():
        await leases.register_node(session, node, f"addr-{node}", 60)
        for table_id in tables:
            await session.execute(
                text(
                    "INSERT INTO tables (id, name, game, options, status, created_at,"
                    " hands_played, private) VALUES (:t, :t, 'trente_et_quarante', '{}', 'open',"
                    " now(), 0, false)"
                ),
                {"t": table_id},
            )
            await ledger.transfer(
                session, None, ledger.stack(table_id, PLAYER), 10**9, "grant", table_id=table_id
            )
            await leases.assign(session, table_id, node)
            assert await leases.adopt(session, table_id, node) == 1


@pytest.fixture
async def db(cluster_database: str) -> AsyncIterator[Db]:
    engine = make_engine(cluster_database)
    found = Db(engine, make_sessionmaker(engine), cluster_database)
    await found.run(_setup, 100_000)
    yield found
    await engine.dispose()


def _node_of(table_id: str) -> str:
    return next(n for n, tables in NODES.items() if table_id in tables)


async def _as_owner(db: Db, table_id: str, job: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """``job`` in a transaction of its own, fenced as the table's owner (epoch 1)."""
    return await db.run(fenced, table_id, _node_of(table_id), 1, job, *args)


async def _pay(session: AsyncSession, table_id: str, amount: int) -> None:
    """A coup where the house pays ``amount`` at ``table_id``, through the ledger."""
    await ledger.record(
        session,
        [Movement(HOUSE, ledger.stack(table_id, PLAYER), amount, "win")],
        table_id=table_id,
    )


async def _grab(session: AsyncSession, table_id: str, amount: int) -> None:
    """Over-commit directly in SQL: a reservation set without asking :func:`reserve`."""
    await session.execute(
        text(
            "INSERT INTO house_reservations (table_id, amount) VALUES (:t, :a)"
            " ON CONFLICT (table_id) DO UPDATE SET amount = excluded.amount"
        ),
        {"t": table_id, "a": amount},
    )


async def _outcome(coro: Awaitable[Any]) -> BaseException | None:
    try:
        await coro
    except Exception as exc:
        return exc
    return None


async def test_reservations_never_exceed_the_house(db: Db) -> None:
    assert await _as_owner(db, "a1", house_bank.reserve, "a1", 60_000) == 60_000
    assert await _as_owner(db, "b1", house_bank.reserve, "b1", 60_000) == 40_000  # what is free
    assert await _as_owner(db, "a1", house_bank.reserve, "a1", 10_000) == 60_000  # never lowered
    assert await _as_owner(db, "a1", house_bank.release, "a1", 20_000) == 20_000
    assert await _as_owner(db, "b1", house_bank.reserve, "b1", 100_000) == 80_000
    assert await db.run(house_bank.snapshot) == house_bank.HouseSnapshot(
        100_000, {"a1": 20_000, "b1": 80_000}
    )

    # a payout at a1 uses up a1's reservation in the hand's own transaction
    async def paid(session: AsyncSession) -> tuple[int, int]:
        await _pay(session, "a1", 5_000)
        return (
            await house_bank.reservation(session, "a1"),
            await house_bank.house_balance(session),
        )

    assert await _as_owner(db, "a1", paid) == (15_000, 95_000)

    # unfenced, a reservation of a leased table is refused by the fence
    refused = await _outcome(db.run(house_bank.release, "a1", 10_000))
    assert isinstance(refused, Exception) and is_fenced(refused)

    # over-committing, however it is written, fails at commit and leaves nothing behind
    over = await _outcome(_as_owner(db, "a1", _grab, "a1", 15_001))
    assert house_bank.over_committed(over), over
    assert not is_fenced(over)

    async def take(session: AsyncSession) -> None:  # the house's own balance below them
        await ledger.transfer(session, HOUSE, None, 1, "take")

    assert house_bank.over_committed(await _outcome(db.run(take)))
    # a payout beyond the table's reservation: the house would owe the others' reservations
    assert house_bank.over_committed(await _outcome(_as_owner(db, "a1", _pay, "a1", 20_000)))
    assert await db.run(house_bank.snapshot) == house_bank.HouseSnapshot(
        95_000, {"a1": 15_000, "b1": 80_000}
    )
    assert await _as_owner(db, "a1", house_bank.release, "a1") == 0
    assert await db.run(house_bank.reservations) == {"b1": 80_000}


async def test_of_two_over_commitments_in_flight_the_second_to_commit_fails(db: Db) -> None:
    """The check locks the house's row: it runs after the other's commit, and sees it."""
    first, second = db.sessions(), db.sessions()
    await first.begin()
    await second.begin()
    await fenced(second, "b1", "n2", 1, _grab, "b1", 60_000)
    await second.execute(text("SELECT 1 FROM accounts WHERE id = 'house' FOR UPDATE"))
    await fenced(first, "a1", "n1", 1, _grab, "a1", 60_000)
    commit_first = asyncio.create_task(first.commit())
    await until_blocked(db.sessions, commit_first, "the first commit's check")
    assert not commit_first.done()  # its check waits for the house's row
    await second.commit()
    failed = await _outcome(commit_first)
    assert house_bank.over_committed(failed), failed
    await first.close()
    await second.close()
    assert await db.run(house_bank.reservations) == {"b1": 60_000}


# ------------------------------------------------------------------ two processes


def _no_verdict(exc: BaseException) -> bool:
    """PostgreSQL ended the transaction before the check could say anything: a deadlock or a
    serialization failure (SQLSTATE 40P01, 40001), which a busy machine's two processes meet
    now and then."""
    return has_sqlstate(exc, CONFLICT_STATES)


async def _house_balance_held(session: AsyncSession) -> int:
    """The house's balance, its row locked until this transaction ends: no other transaction
    can pay into the house before the commit's check, so a reservation of this balance plus one
    is an over-commitment whatever the other node does meanwhile (read unlocked, a stake lost
    to the house at the other node could commit in between and make it a fair reservation)."""
    value = await session.scalar(
        text("SELECT balance FROM accounts WHERE id = :h FOR UPDATE"), {"h": HOUSE}
    )
    return int(value)


async def _bank(url: str, node: str, seed: int, out: str) -> None:
    """One node's tables reserving, paying, taking stakes and releasing, a few operations per
    transaction (as the writer batches them); after every commit the house is checked from a
    connection of its own."""
    rng = random.Random(seed)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    tables = NODES[node]
    violations: list[str] = []
    over_tries = over_refused = done = commits = 0
    other: list[str] = []

    async def settle(session: AsyncSession, table_id: str) -> None:
        mine = await house_bank.reservation(session, table_id)
        moves = [Movement(ledger.stack(table_id, PLAYER), HOUSE, rng.randint(1, 4_000), "lost")]
        if mine and rng.random() < 0.6:  # the table never pays more than it reserved
            moves.append(
                Movement(HOUSE, ledger.stack(table_id, PLAYER), rng.randint(1, mine), "won")
            )
        await ledger.record(session, moves, table_id=table_id)

    async def reserve(session: AsyncSession, table_id: str) -> None:
        await house_bank.reserve(session, table_id, rng.randint(0, 40_000))

    async def release(session: AsyncSession, table_id: str) -> None:
        await house_bank.release(session, table_id, rng.choice([0, rng.randint(0, 20_000)]))

    async with engine.connect() as checker:
        while done < OPS_PER_PROCESS:
            if commits % 40 == 20:  # now and then, try to over-commit in plain SQL
                over_tries += 1
                table_id = rng.choice(tables)
                try:
                    async with sessions() as s, s.begin():
                        held = await _house_balance_held(s)
                        await fenced(s, table_id, node, 1, _grab, table_id, held + 1)
                except Exception as exc:
                    if _no_verdict(exc):  # a deadlock with the other node's transaction
                        over_tries -= 1  # says nothing of the check: tried again later
                    elif house_bank.over_committed(exc):
                        over_refused += 1
                    else:
                        other.append(f"{type(exc).__name__}: {exc}"[:300])
            async with sessions() as s, s.begin():
                for _ in range(min(rng.randint(1, 16), OPS_PER_PROCESS - done)):
                    table_id = rng.choice(tables)
                    job = rng.choice([reserve, reserve, settle, settle, release])
                    await fenced(s, table_id, node, 1, job, table_id)
                    done += 1
            commits += 1
            reserved, balance = (
                await checker.execute(
                    text(
                        "SELECT (SELECT coalesce(sum(amount), 0) FROM house_reservations),"
                        " (SELECT balance FROM accounts WHERE id = 'house')"
                    )
                )
            ).one()
            await checker.rollback()
            if reserved > balance:
                violations.append(f"{reserved} reserved > {balance}")
    await engine.dispose()
    report = {
        "done": done,
        "commits": commits,
        "violations": violations,
        "over_tries": over_tries,
        "over_refused": over_refused,
        "other": other,
    }
    Path(out).write_text(json.dumps(report))


def _banker(url: str, node: str, seed: int, out: str) -> None:
    asyncio.run(_bank(url, node, seed, out))


@pytest.mark.cluster
async def test_two_node_processes_never_over_commit_the_house(db: Db, tmp_path: Path) -> None:
    spawn = multiprocessing.get_context("spawn")
    outs = {node: tmp_path / f"{node}.json" for node in NODES}
    procs = [
        spawn.Process(target=_banker, args=(db.url, node, n, str(outs[node])))
        for n, node in enumerate(NODES)
    ]
    for p in procs:
        p.start()
    samples = 0
    watched: list[str] = []
    async with db.engine.connect() as conn:
        while any(p.is_alive() for p in procs):
            reserved, balance = (
                await conn.execute(
                    text(
                        "SELECT (SELECT coalesce(sum(amount), 0) FROM house_reservations),"
                        " (SELECT balance FROM accounts WHERE id = 'house')"
                    )
                )
            ).one()
            await conn.rollback()
            samples += 1
            if reserved > balance:
                watched.append(f"{reserved} > {balance}")
            await asyncio.sleep(0.005)
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0, 0]
    reports = [json.loads(out.read_text()) for out in outs.values()]
    assert sum(r["done"] for r in reports) == 2 * OPS_PER_PROCESS
    assert [r["violations"] for r in reports] == [[], []] and watched == []
    assert samples > 10
    assert all(r["over_tries"] > 0 and r["over_refused"] == r["over_tries"] for r in reports), (
        json.dumps(reports)  # whole: pytest's repr of the dicts cut off the counts and errors
    )
    snap = await db.run(house_bank.snapshot)
    assert sum(snap.reservations.values()) <= snap.balance
    audit = await db.run(ledger.audit)
    assert audit["balanced"] and audit["house"] == snap.balance
    paid = await db.run(
        lambda s: s.scalar(text("SELECT count(*) FROM ledger_entries WHERE source = 'house'"))
    )
    assert paid > 100  # the house did pay, through real ledger entries


# ------------------------------------------------------------------ the node's mirror


def _count(told: dict[str, int], table_id: str) -> None:
    told[table_id] += 1


async def test_a_nodes_house_mirrors_its_tables_reservations(db: Db) -> None:
    await _as_owner(db, "b1", house_bank.reserve, "b1", 80_000)  # another node's: 20,000 left
    inner = Writer(db.url)
    inner.start()
    tables: dict[str, Any] = {}
    house = ClusterHouse(inner, tables, balance=100_000)
    told: dict[str, int] = {"a1": 0, "a2": 0}
    try:
        for table_id in ("a1", "a2"):
            options = SimpleNamespace(max_stake=1_000, seats=7)  # cover: 14,000
            tables[table_id] = SimpleNamespace(
                options=options, writer=FencedWriter(inner, table_id, "n1", 1)
            )
            house.listen(table_id, functools.partial(_count, told, table_id))
            await house.settled()
        assert house.available_for("a1") == 14_000 and house.available_for("a2") == 6_000
        assert await db.run(house_bank.reservations) == {"b1": 80_000, "a1": 14_000, "a2": 6_000}
        assert told == {"a1": 1, "a2": 1}

        # a coup at a1 pays 3,000: the mirror drops at once, then a1 tops up again
        house.settle_at("a1", [Transfer(HOUSE, "seat:1", 3_000, "won")])
        assert house.available_for("a1") == 11_000 and house.balance == 97_000
        tables["a1"].writer.submit(_pay, "a1", 3_000)  # the hand's write, queued after
        await house.settled()
        assert house.available_for("a1") == 11_000  # nothing free to grow into
        assert await db.run(house_bank.reservation, "a1") == 11_000

        # the host funds the house: both grow, within the balance
        await db.run(lambda s: ledger.transfer(s, None, HOUSE, 10_000, "house top-up"))
        house.fund(10_000)
        await house.settled()
        snap = await db.run(house_bank.snapshot)
        mine = {t: snap.reservations[t] for t in ("a1", "a2")}
        assert mine == {t: house.available_for(t) for t in mine}
        assert sum(snap.reservations.values()) == snap.balance == 107_000

        # a2 closes: its reservation goes back
        house.forget("a2")
        await inner.flush()
        assert "a2" not in await db.run(house_bank.reservations)
        assert house.available_for("a2") == 0

        # a1 is lost to another node: the new owner's reservation stays, this node's jobs
        # are refused by the fence and change nothing here
        await db.run(leases.drop_node, "n1")
        assert await db.run(leases.adopt, "a1", "n2") == 2
        before = house.available_for("a1")
        await db.run(lambda s: ledger.transfer(s, None, HOUSE, 5_000, "house top-up"))
        await house.refresh()
        await house.settled()
        assert house.balance == 112_000 and house.available_for("a1") == before
        with pytest.raises(Fenced):
            await tables["a1"].writer.run(house_bank.reserve, "a1", 1)
    finally:
        await inner.close()
