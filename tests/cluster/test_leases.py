"""Leases (app/db/store/leases.py): which node owns each table, by the database's clock.

The race: three node PROCESSES, each with its own engine, claim 500 tables that have no lease
yet, go quiet until their leases have expired and others have adopted their tables, leave
(drop_node) and come back, release some tables, while the others adopt what is free (each step
cued by the test once the database shows the last one done, never by the clock). Every table
has one owner at a time, epochs only grow, no two processes ever hold the same table at the
same epoch, and a write fenced with an epoch that was taken over is refused by the database."""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.cluster.fence import Fenced, fenced
from app.db.session import make_engine, make_sessionmaker
from app.db.store import leases

TABLES = 500
LEASE = 1.0
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

        # a node's lease expires by the database's clock: alive (a long lease) it keeps its
        # table; renewed for a moment only, it loses it once that moment has passed there
        await job(leases.register_node, "n3", "10.0.0.3:8001", 30)
        await job(_make_tables, ["d"])
        assert await job(leases.adopt, "d", "n3") == 1
        assert await job(leases.adopt, "d", "n1") is None
        await job(leases.heartbeat, "n3", 0.2, 1, 0)
        deadline = time.monotonic() + 30  # for a stuck run only
        while (epoch := await job(leases.adopt, "d", "n1")) is None:
            assert time.monotonic() < deadline, "n3's lease never expired"
            await asyncio.sleep(0.05)
        assert epoch == 2
    finally:
        await engine.dispose()


# ------------------------------------------------------------------ the race


@dataclass
class Cues:
    """How the test conducts one racer (multiprocessing's events, which cross to a spawned
    process): each step of its script starts when the test says so, once the database shows
    that what the step needs has happened, never after so many seconds."""

    quiet: Any  # go quiet (no heartbeat, no write)...
    quieted: Any  # ... done, its tables noted in ``<out>.quiet``
    wake: Any  # speak again: write with what it still believes it holds
    drop: Any  # leave the cluster without handing over (drop_node)...
    dropped: Any  # ... done, its tables noted in ``<out>.drop``
    back: Any  # come back (register_node)
    stop: Any  # the race is over (the same event for every racer)
    released: Any  # a shared count: the leases it released of its own accord

    @classmethod
    def make(cls, context: Any, stop: Any) -> Cues:
        return cls(*(context.Event() for _ in range(6)), stop=stop, released=context.Value("i", 0))


async def _until_set(event: Any) -> None:
    """Wait for a cue from the test (polled: the event is another process's)."""
    while not event.is_set():
        await asyncio.sleep(0.02)


async def _is_set(event: Any) -> bool:
    return bool(event.is_set())


async def _mark(session: AsyncSession, table_id: str, node: str, epoch: int) -> None:
    await session.execute(
        text("UPDATE tables SET state = CAST(:s AS jsonb) WHERE id = :t"),
        {"t": table_id, "s": json.dumps({"owner": node, "epoch": epoch})},
    )


async def _race(url: str, node: str, index: int, out: str, cues: Cues) -> None:
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
    while not cues.stop.is_set():
        # each cue is taken up while the racer believes it holds some tables
        if belief and cues.quiet.is_set() and not cues.quieted.is_set():
            Path(f"{out}.quiet").write_text(json.dumps(belief))
            cues.quieted.set()
            await _until_set(cues.wake)  # quiet: its node row expires, others adopt
            await write_some(sorted(belief))  # before it learns anything: refused where taken
        if belief and cues.drop.is_set() and not cues.dropped.is_set():
            Path(f"{out}.drop").write_text(json.dumps(belief))
            await job(leases.drop_node, node)  # leaves without handing over
            belief.clear()
            cues.dropped.set()
            await _until_set(cues.back)  # meanwhile the others adopt what it held
            await job(leases.register_node, node, f"addr-{node}", LEASE)
        await beat_when_due()
        found = await job(leases.orphans, TABLES)
        rng.shuffle(found)
        for table_id in found[
            : min(CLAIMS_PER_ROUND, math.ceil(len(found) / live) + rng.randint(0, 3))
        ]:
            if cues.stop.is_set():
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
                with cues.released.get_lock():
                    cues.released.value += 1
        await asyncio.sleep(rng.uniform(0.01, 0.04))  # a node's pace between rounds
    await engine.dispose()
    Path(out).write_text(
        json.dumps(
            {
                "adopted": adopted,
                "accepted": accepted,
                "refused": refused,
                "released": released,
                "problems": problems,
            }
        )
    )


def _racer(url: str, node: str, index: int, out: str, cues: Cues) -> None:
    asyncio.run(_race(url, node, index, out, cues))


class _Watch:
    """Samples every lease from a connection of its own while the race runs: an epoch never
    goes down, and a lease never passes to another owner without a new epoch."""

    def __init__(self) -> None:
        self.samples = 0
        self.problems: list[str] = []

    async def run(self, url: str, stop: asyncio.Event) -> None:
        engine = make_engine(url)
        seen: dict[str, tuple[str | None, int]] = {}
        try:
            while not stop.is_set():
                async with engine.connect() as conn:
                    rows = list(
                        await conn.execute(text("SELECT table_id, owner, epoch FROM table_leases"))
                    )
                self.samples += 1
                for table_id, owner, epoch in rows:
                    before = seen.get(table_id)
                    if before is not None:
                        old_owner, old_epoch = before
                        if epoch < old_epoch:
                            self.problems.append(f"{table_id}: epoch {old_epoch} -> {epoch}")
                        if owner is not None and owner != old_owner and epoch == old_epoch:
                            self.problems.append(
                                f"{table_id}: {old_owner} -> {owner} at epoch {epoch}"
                            )
                    seen[table_id] = (owner, int(epoch))
                await asyncio.sleep(0.05)  # a sample's pace, not a wait
        finally:
            await engine.dispose()


RACE_PATIENCE = 120.0
"""Seconds after which the race's conductor gives up on a step: a deadline for a stuck run
(a racer that hangs), never a measure. The race itself ends when what it checks has
happened, however long a busy machine takes to get there."""


@pytest.mark.cluster
async def test_three_node_processes_race_for_500_tables(
    cluster_database: str, tmp_path: Path
) -> None:
    """The test conducts: once each racer holds tables, each in turn goes quiet until its
    node row has expired and another has adopted a table it believes it holds (its writes
    then are refused), then each in turn leaves until another has adopted one of its tables,
    and comes back; the race ends once every table has had an owner, every racer has
    released a lease of its own accord and the watcher has sampled the leases often."""
    ids = [f"t{n:03d}" for n in range(TABLES)]
    engine = make_engine(cluster_database)
    async with make_sessionmaker(engine)() as s, s.begin():
        await _make_tables(s, ids)  # no lease rows: none assigned first

    async def rows(sql: str, **params: Any) -> list[Any]:
        async with engine.connect() as conn:
            return list(await conn.execute(text(sql), params))

    spawn = multiprocessing.get_context("spawn")
    stop_racing = spawn.Event()
    cues = [Cues.make(spawn, stop_racing) for _ in range(3)]
    outs = [tmp_path / f"n{i}.json" for i in range(3)]
    procs = [
        spawn.Process(target=_racer, args=(cluster_database, f"n{i}", i, str(outs[i]), cues[i]))
        for i in range(3)
    ]
    stop = asyncio.Event()
    watch = _Watch()
    watcher = asyncio.create_task(watch.run(cluster_database, stop))

    async def until(what: str, check: Any) -> None:
        deadline = time.monotonic() + RACE_PATIENCE
        while not await check():
            assert all(p.is_alive() for p in procs), [p.exitcode for p in procs]
            assert time.monotonic() < deadline, f"the race is stuck: {what}"
            await asyncio.sleep(0.05)

    async def taken_from(node: str, held: dict[str, int], *, expired: bool) -> bool:
        """Another node adopted a table ``node`` believed it held (and ``node``'s row has
        expired, when ``expired``)."""
        if expired:
            alive = await rows(
                "SELECT 1 FROM cluster_nodes WHERE id = :n AND expires_at > now()", n=node
            )
            if alive:
                return False
        leased = await rows(
            "SELECT table_id, owner, epoch FROM table_leases WHERE table_id = ANY(:t)",
            t=list(held),
        )
        return any(owner != node and epoch > held[t] for t, owner, epoch in leased)

    for p in procs:
        p.start()
    try:

        async def everyone_holds_tables() -> bool:
            owners = {o for (o,) in await rows("SELECT DISTINCT owner FROM table_leases")}
            return {"n0", "n1", "n2"} <= owners

        await until("each racer holding tables", everyone_holds_tables)
        for i, racer in enumerate(cues):
            racer.quiet.set()
            await until(f"n{i} going quiet", lambda r=racer: _is_set(r.quieted))
            held = json.loads(Path(f"{outs[i]}.quiet").read_text())
            await until(
                f"a table of n{i}, quiet, adopted by another",
                lambda i=i, held=held: taken_from(f"n{i}", held, expired=True),
            )
            racer.wake.set()
        for i, racer in enumerate(cues):
            racer.drop.set()
            await until(f"n{i} leaving", lambda r=racer: _is_set(r.dropped))
            held = json.loads(Path(f"{outs[i]}.drop").read_text())
            await until(
                f"a table of n{i}, gone, adopted by another",
                lambda i=i, held=held: taken_from(f"n{i}", held, expired=False),
            )
            racer.back.set()

        async def done() -> bool:
            (leased,) = (await rows("SELECT count(*) FROM table_leases"))[0]
            return (
                leased == TABLES  # a lease row is made by the first adoption
                and all(racer.released.value > 0 for racer in cues)
                and watch.samples > 20
            )

        await until("every table owned, leases released, the leases watched", done)
    finally:
        stop_racing.set()
        for p in procs:
            await asyncio.to_thread(p.join, RACE_PATIENCE)
            if p.is_alive():
                p.kill()
        stop.set()
        await watcher
        await engine.dispose()
    assert [p.exitcode for p in procs] == [0, 0, 0]
    reports = [json.loads(out.read_text()) for out in outs]

    assert watch.problems == [] and watch.samples > 20
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
    assert all(r["refused"] > 0 for r in reports)  # each one's writes after its silence
    assert all(r["released"] > 0 for r in reports)

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
