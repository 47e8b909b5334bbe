"""Leases (app/cluster/leases.py): which node owns each table, by the database's clock.

The race: three node PROCESSES, each with its own engine, claim 500 tables that have no lease
yet, go quiet long enough for their leases to expire, leave (drop_node) and come back, release
some tables, while the others adopt what is free. Every table has one owner at a time, epochs
only grow, no two processes ever hold the same table at the same epoch, and a write fenced
with an epoch that was taken over is refused by the database."""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import random
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.cluster import leases
from app.cluster.fence import Fenced, fenced
from app.db.session import make_engine, make_sessionmaker

TABLES = 500
LEASE = 1.0
SILENCE = 1.6
RACE_SECONDS = 6.0
CLAIMS_PER_ROUND = 40


async def _make_tables(session: AsyncSession, ids: list[str], closed: tuple[str, ...] = ()) -> None:
    await session.execute(
        text(
            "INSERT INTO tables (id, name, game, options, status, created_at, hands_played,"
            " private) SELECT id, id, 'baccarat', '{}', 'open',"
            " now() + make_interval(secs => n), 0, false"
            " FROM unnest(CAST(:ids AS text[])) WITH ORDINALITY AS u(id, n)"
        ),
        {"ids": ids},
    )
    for table_id in closed:
        await session.execute(
            text("UPDATE tables SET status = 'closed' WHERE id = :t"), {"t": table_id}
        )


async def test_the_lease_jobs(cluster_database: str) -> None:
    engine = make_engine(cluster_database)
    sessions = make_sessionmaker(engine)

    async def job(f: Any, *args: Any) -> Any:
        async with sessions() as s, s.begin():
            return await f(s, *args)

    try:
        await job(_make_tables, ["a", "b", "c", "z"], ("z",))
        assert await job(leases.least_loaded_node) is None
        await job(leases.register_node, "n1", "10.0.0.1:8001", 30)
        await job(leases.register_node, "n2", "10.0.0.2:8001", 30)
        assert await job(leases.orphans, 10) == ["a", "b", "c"]  # oldest first, not closed
        await job(leases.assign, "a", "n1")
        assert await job(leases.lease_of, "a") == leases.Lease("n1", 0, True)
        assert await job(leases.orphans, 10) == ["b", "c"]
        assert await job(leases.adopt, "a", "n2") is None  # n1 holds it, alive
        assert await job(leases.adopt, "a", "n1") == 1
        assert await job(leases.adopt, "b", "n2") == 1  # no lease row: adopt makes it
        assert await job(leases.adopt, "nope", "n2") is None
        node = await job(leases.least_loaded_node)
        assert node is not None and (node.id, node.leases) in {("n1", 1), ("n2", 1)}
        assert node.id == "n1"  # a tie: the lowest id
        assert await job(leases.adopt, "c", "n1") == 1
        node = await job(leases.least_loaded_node)
        assert node is not None and node.id == "n2"
        beat = await job(leases.heartbeat, "n1", 30, 2, 5)
        assert beat.owned == {"a": 1, "c": 1} and beat.live_nodes == 2
        assert beat.renewed and not beat.was_expired
        assert await job(leases.route, "a") == "10.0.0.1:8001"

        assert not await job(leases.release, "a", "n1", 0)  # not its epoch
        assert await job(leases.release, "a", "n1", 1)
        assert await job(leases.lease_of, "a") == leases.Lease(None, 1, False)
        assert await job(leases.route, "a") is None
        assert await job(leases.orphans, 10) == ["a"]
        assert await job(leases.adopt, "a", "n2") == 2

        await job(leases.set_draining, "n2")
        node = await job(leases.least_loaded_node)
        assert node is not None and node.id == "n1"
        await job(leases.drop_node, "n2")  # its tables are orphans at once
        assert await job(leases.orphans, 10) == ["a", "b"]
        assert await job(leases.route, "b") is None
        assert await job(leases.lease_of, "b") == leases.Lease("n2", 1, False)
        assert await job(leases.adopt, "b", "n1") == 2
        beat = await job(leases.heartbeat, "n2", 30, 0, 0)  # back from the dead
        assert beat.was_expired and beat.owned == {"a": 2}
        assert not (await job(leases.heartbeat, "n9", 30, 0, 0)).renewed

        await job(leases.release_closed, "c")
        assert await job(leases.lease_of, "c") is None

        # a node's lease expires by the database's clock
        await job(leases.register_node, "n3", "10.0.0.3:8001", 0.2)
        await job(_make_tables, ["d"])
        assert await job(leases.adopt, "d", "n3") == 1
        assert await job(leases.adopt, "d", "n1") is None
        await asyncio.sleep(0.4)
        assert await job(leases.adopt, "d", "n1") == 2
    finally:
        await engine.dispose()


# ------------------------------------------------------------------ the race


async def _mark(session: AsyncSession, table_id: str, node: str, epoch: int) -> None:
    await session.execute(
        text("UPDATE tables SET state = CAST(:s AS jsonb) WHERE id = :t"),
        {"t": table_id, "s": json.dumps({"owner": node, "epoch": epoch})},
    )


async def _race(url: str, node: str, index: int, out: str) -> None:
    rng = random.Random(index)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)

    async def job(f: Any, *args: Any) -> Any:
        async with sessions() as s, s.begin():
            return await f(s, *args)

    adopted: list[tuple[str, int]] = []
    accepted: list[tuple[str, int]] = []
    problems: list[str] = []
    refused = released = 0
    belief: dict[str, int] = {}
    highest: dict[str, int] = {}

    def saw(table_id: str, epoch: int, strictly: bool) -> None:
        before = highest.get(table_id, 0)
        if epoch < before or (strictly and epoch == before):
            problems.append(f"{node}: {table_id} epoch {epoch} after {before}")
        highest[table_id] = max(before, epoch)

    async def write_some(tables: list[str]) -> None:
        nonlocal refused
        for table_id in tables:
            epoch = belief[table_id]
            try:
                await job(fenced, table_id, node, epoch, _mark, table_id, node, epoch)
            except Fenced:
                refused += 1
                del belief[table_id]
            else:
                accepted.append((table_id, epoch))

    last_beat = 0.0
    live = 1

    async def beat_when_due() -> None:
        """The heartbeat, every LEASE / 5 s (also in the middle of a long round of adoptions,
        or the node's own leases expire under it)."""
        nonlocal last_beat, live
        if time.monotonic() - last_beat < LEASE / 5:
            return
        last_beat = time.monotonic()
        beat = await job(leases.heartbeat, node, LEASE, len(belief), 0)
        for table_id, epoch in beat.owned.items():
            saw(table_id, epoch, strictly=False)
        for table_id in [t for t, e in belief.items() if beat.owned.get(t) != e]:
            del belief[table_id]
        live = max(1, beat.live_nodes)

    await job(leases.register_node, node, f"addr-{node}", LEASE)
    start = time.monotonic()
    end = start + RACE_SECONDS
    silence_at, drop_at = start + 0.5 + 1.7 * index, start + 5.2 - 1.7 * index
    while time.monotonic() < end:
        if silence_at and time.monotonic() >= silence_at:
            silence_at = 0.0
            await asyncio.sleep(SILENCE)  # quiet: its node row expires, others adopt
            await write_some(sorted(belief))  # before it learns anything: mostly refused
        if drop_at and time.monotonic() >= drop_at:
            drop_at = 0.0
            await job(leases.drop_node, node)  # leaves without handing over
            belief.clear()
            await asyncio.sleep(0.3)
            await job(leases.register_node, node, f"addr-{node}", LEASE)
        await beat_when_due()
        found = await job(leases.orphans, TABLES)
        rng.shuffle(found)
        for table_id in found[
            : min(CLAIMS_PER_ROUND, math.ceil(len(found) / live) + rng.randint(0, 3))
        ]:
            if time.monotonic() >= end:
                break
            await beat_when_due()
            epoch = await job(leases.adopt, table_id, node)
            if epoch is not None:
                saw(table_id, epoch, strictly=True)
                adopted.append((table_id, epoch))
                belief[table_id] = epoch
        await write_some(rng.sample(sorted(belief), min(len(belief), 15)))
        if belief and rng.random() < 0.2:
            table_id = rng.choice(sorted(belief))
            if await job(leases.release, table_id, node, belief.pop(table_id)):
                released += 1
        await asyncio.sleep(rng.uniform(0.01, 0.04))
    await engine.dispose()
    Path(out).write_text(
        json.dumps(
            {
                "adopted": adopted,
                "accepted": accepted,
                "refused": refused,
                "released": released,
                "problems": problems,
                "ran": time.monotonic() - start,
            }
        )
    )


def _racer(url: str, node: str, index: int, out: str) -> None:
    asyncio.run(_race(url, node, index, out))


async def _watch(url: str, stop: asyncio.Event) -> tuple[int, list[str]]:
    """Sample every lease from a connection of its own while the race runs: an epoch never
    goes down, and a lease never passes to another owner without a new epoch."""
    engine = make_engine(url)
    seen: dict[str, tuple[str | None, int]] = {}
    problems: list[str] = []
    samples = 0
    try:
        while not stop.is_set():
            async with engine.connect() as conn:
                rows = list(
                    await conn.execute(text("SELECT table_id, owner, epoch FROM table_leases"))
                )
            samples += 1
            for table_id, owner, epoch in rows:
                before = seen.get(table_id)
                if before is not None:
                    old_owner, old_epoch = before
                    if epoch < old_epoch:
                        problems.append(f"{table_id}: epoch {old_epoch} -> {epoch}")
                    if owner is not None and owner != old_owner and epoch == old_epoch:
                        problems.append(f"{table_id}: {old_owner} -> {owner} at epoch {epoch}")
                seen[table_id] = (owner, int(epoch))
            await asyncio.sleep(0.05)
    finally:
        await engine.dispose()
    return samples, problems


@pytest.mark.cluster
async def test_three_node_processes_race_for_500_tables(
    cluster_database: str, tmp_path: Path
) -> None:
    ids = [f"t{n:03d}" for n in range(TABLES)]
    engine = make_engine(cluster_database)
    async with make_sessionmaker(engine)() as s, s.begin():
        await _make_tables(s, ids)  # no lease rows: none assigned first
    await engine.dispose()

    spawn = multiprocessing.get_context("spawn")
    outs = [tmp_path / f"n{i}.json" for i in range(3)]
    procs = [
        spawn.Process(target=_racer, args=(cluster_database, f"n{i}", i, str(outs[i])))
        for i in range(3)
    ]
    stop = asyncio.Event()
    watcher = asyncio.create_task(_watch(cluster_database, stop))
    for p in procs:
        p.start()
    try:
        while any(p.is_alive() for p in procs):
            await asyncio.sleep(0.1)
    finally:
        for p in procs:
            p.join(30)
        stop.set()
    samples, watched = await watcher
    assert [p.exitcode for p in procs] == [0, 0, 0]
    reports = [json.loads(out.read_text()) for out in outs]

    assert watched == [] and samples > 20
    assert [r["problems"] for r in reports] == [[], [], []]
    adopted = [(t, e, n) for n, r in enumerate(reports) for t, e in r["adopted"]]
    by_claim = Counter((t, e) for t, e, _ in adopted)
    assert max(by_claim.values()) == 1, "two processes obtained the same table at one epoch"
    holders: dict[tuple[str, int], set[int]] = defaultdict(set)
    for n, r in enumerate(reports):
        for t, e in r["accepted"]:
            holders[(t, e)].add(n)
            assert (t, e) in by_claim
    assert all(len(h) == 1 for h in holders.values()), "two processes wrote at one epoch"
    assert {t for t, _, _ in adopted} == set(ids)
    assert len(adopted) > TABLES  # tables changed hands
    assert sum(r["refused"] for r in reports) > 0  # old owners' writes were refused
    assert sum(r["released"] for r in reports) > 0

    engine = make_engine(cluster_database)
    async with engine.connect() as conn:
        final = {
            t: int(e)
            for t, e in await conn.execute(text("SELECT table_id, epoch FROM table_leases"))
        }
        states: dict[str, Any] = dict(
            list(await conn.execute(text("SELECT id, state FROM tables")))
        )
    await engine.dispose()
    # every change of hands added exactly one to the epoch, and each was one adoption
    assert final == {t: c for t, c in Counter(t for t, _, _ in adopted).items()}
    for t, state in states.items():
        if state is not None:
            assert state["epoch"] <= final[t]
            assert reports[int(state["owner"][1:])]["adopted"].count([t, state["epoch"]]) == 1


async def _cluster_objects(url: str) -> tuple[int, int]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            functions = await conn.scalar(
                text("SELECT count(*) FROM pg_proc WHERE proname LIKE 'table31%'")
            )
            triggers = await conn.scalar(
                text("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'table31%'")
            )
    finally:
        await engine.dispose()
    return int(functions or 0), int(triggers or 0)


def test_the_cluster_migration_goes_down_and_up_on_postgresql(cluster_database: str) -> None:
    """0007 down drops its functions, triggers and tables; up makes them again, as the
    models describe them."""
    from tests.db.test_migrations import _alembic, _differences

    assert asyncio.run(_cluster_objects(cluster_database)) == (6, 13)
    _alembic(cluster_database, "downgrade", "0006")
    assert asyncio.run(_cluster_objects(cluster_database)) == (0, 0)
    _alembic(cluster_database, "upgrade", "head")
    assert asyncio.run(_cluster_objects(cluster_database)) == (6, 13)
    assert _differences(cluster_database) == []
