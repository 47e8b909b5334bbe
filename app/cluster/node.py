"""A node of the cluster: its lease, the tables it serves, and what it does when it starts,
loses touch with PostgreSQL, or is asked to stop (docs/scaling.md).

Each table is served by exactly one node, the owner of its lease in PostgreSQL
(``table_leases``: owner, epoch). A lease expires with its owner's row in ``cluster_nodes``,
which the owner's heartbeat renews every ``LEASE_SECONDS / 5`` seconds, in one statement that
never waits on a table's writes. Every write of a table goes through the fence of its lease
(app/cluster/fence.py): the database refuses it unless it carries the lease's current epoch,
so a node that lost a table can write nothing more for it, whatever it believes.

The node

* heartbeats, and drops every table whose lease no longer names it with the epoch it serves
  under (another node took it): the actor stops at once, writes nothing, closes its sockets
  with 4409 for the clients to ask the front again;
* fences itself: a heartbeat that succeeded keeps the node acting until ``LEASE_SECONDS`` less
  1.5 s after it was SENT (the database's lease runs from a moment after that); past that moment
  with no newer success (PostgreSQL unreachable or slow) it drops every table at once, before
  any other node may take them, and adopts them again once PostgreSQL answers;
* claims a fair share of the orphans (tables whose owner is gone, or released, or that
  never had one) each round and adopts them: a new epoch, the hand the old owner left
  unfinished void through the new fence (stakes back), the table rebuilt as a restart
  rebuilds it (app/runtime/lobby.py), its versions counting on from ``epoch * 10**9`` so a
  client sees them only grow across owners;
* on SIGTERM hands its tables over: no new hand is dealt, each table finishes the hand in
  play, saves, flushes and releases its lease, then closes its sockets with 4409; a hand still
  in play after ``HANDOVER_SECONDS`` is void as a restart voids it. Then the node's row goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from app.cluster.bus import LOBBY
from app.cluster.node_tables import MOVED, Tables
from app.core.config import Settings
from app.db.store import leases
from app.db.types import AsyncSession, async_sessionmaker
from app.runtime import notices

if TYPE_CHECKING:
    from app.cluster.bus import Bus
    from app.runtime.lobby import Lobby
    from app.runtime.table.actor import TableActor

log = logging.getLogger("table31.node")
T = TypeVar("T")

SAFETY_SECONDS = 1.5
"""How long before its lease could expire in the database a node stops acting on its own
(half the lease at most)."""
HANDOVER_SECONDS = 8.0
"""How long a stopping node lets the hands in play finish before it voids those still going:
within the 10 s a container manager grants a stopping process (docker's stop timeout)."""
VOIDED = notices.NODE_RESTARTING
"""Why a hand still in play when a stopping node's time is up is void."""
ORPHANS_LIMIT = 1000
ADOPTING_AT_ONCE = 8
"""Tables a node adopts at the same time (a failed node's tables come back together)."""
ROUTE_SECONDS = 0.5
"""How long a node answers the front's route question for a table from its last look at the
lease: a failover's storm of reconnections asks PostgreSQL at most twice a second a table."""
ROUTES_KEPT = 10_000
"""Past this many remembered answers, those out of date are forgotten."""


class NodeTables(Tables, Protocol):
    """The tables a node serves, as the node sees them (``ClusterHosting``,
    app/cluster/hosting.py): the lobby, the epoch of each, adopting and dropping one."""

    lobby: Lobby

    async def adopt(self, table_id: str, epoch: int) -> TableActor | None: ...


class Node:
    """This process as a node of the cluster (``NODE_ID``)."""

    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[AsyncSession],
        hosting: NodeTables,
    ) -> None:
        self.id = settings.node_id
        self.address = settings.advertised_address
        self.lease = settings.lease_seconds
        self.interval = self.lease / 5
        self.safety = min(SAFETY_SECONDS, self.lease / 2)
        self.sessionmaker = sessionmaker
        self.hosting = hosting
        """The tables this node serves (their epochs), adopts and drops."""
        self.lobby = hosting.lobby
        self.valid_until = 0.0
        """``time.monotonic()`` until which the last heartbeat lets this node act."""
        self.acting = False
        """The node may serve tables (its lease is valid); False after a self-fence."""
        self.draining = False
        self.live_nodes = 1
        self.owned: dict[str, int] = {}
        """The leases this node holds (table id to epoch), as its last heartbeat read them."""
        self.bus: Bus | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._beat = asyncio.Event()
        self._adopting: set[str] = set()
        self._routes: dict[str, tuple[str, float]] = {}
        """Recent answers of :meth:`route` (address, until when), for ``ROUTE_SECONDS``."""
        self._skipped: set[str] = set()
        """Tables this node claimed but does not serve (closed, or a game it does not offer)."""

    # ------------------------------------------------------------------ the database

    async def _db(self, job: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run a lease job in a transaction of its own on the server's engine (not the
        writer's queue: a heartbeat never waits behind the tables' writes), within half a
        lease (a cut-off connection must not hold it for ever)."""
        async with (
            asyncio.timeout(max(1.0, self.lease / 2)),
            self.sessionmaker() as session,
            session.begin(),
        ):
            return await job(session, *args)

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Register, adopt this node's tables from an earlier run and a share of the
        orphans, then heartbeat and claim in the background."""
        sent = time.monotonic()
        await self._db(leases.register_node, self.id, self.address, self.lease)
        self.valid_until = sent + self.lease - self.safety
        self.acting = True
        await self._heartbeat()
        # the heartbeat and the watchdog run from now on: a first round of many adoptions
        # must not outlast the lease its first heartbeat gave
        self._tasks = [
            asyncio.create_task(self._heartbeats(), name="node-heartbeat"),
            asyncio.create_task(self._watchdog(), name="node-watchdog"),
        ]
        self._beat.clear()
        await self._claim()
        self._tasks.append(asyncio.create_task(self._claims(), name="node-claims"))
        log.info("node %s at %s serves %d tables", self.id, self.address, len(self.hosting.epochs))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []

    def poke(self) -> None:
        """Claim orphans now (the bus heard that a node released or lost tables)."""
        self._beat.set()

    def use_bus(self, bus: Bus) -> None:
        """Tell the other nodes at once, on the bus's lobby channel, when this node releases
        a table, and claim at once when another does (else the next heartbeat would)."""
        self.bus = bus
        bus.on(LOBBY, self._heard)

    def _heard(self, message: dict[str, Any]) -> None:
        if message.get("kind") == "released":
            self.poke()

    async def _announce(self, table_id: str) -> None:
        if self.bus is not None:
            try:
                await self.bus.publish(LOBBY, {"kind": "released", "tables": [table_id]})
            except Exception as exc:  # the others claim it at their next heartbeat
                log.warning("node %s: could not announce table %s: %s", self.id, table_id, exc)

    # ------------------------------------------------------------------ heartbeat

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self._heartbeat()
            except Exception:  # the next beat tries again; the watchdog guards meanwhile
                log.exception("node %s: heartbeat round failed", self.id)

    async def _heartbeat(self) -> None:
        sent = time.monotonic()
        tables = sum(1 for t in self.lobby.tables.values() if not t.closed)
        sockets = sum(len(t.connections) for t in self.lobby.tables.values())
        try:
            if not self.acting:  # fenced out: this node comes back as if it started
                await self._db(leases.register_node, self.id, self.address, self.lease)
            beat = await self._db(leases.heartbeat, self.id, self.lease, tables, sockets)
        except Exception as exc:
            log.warning("node %s: heartbeat failed: %s: %s", self.id, type(exc).__name__, exc)
            self._check_lease()
            return
        valid_until = sent + self.lease - self.safety
        if time.monotonic() > valid_until:  # an answer too late to count (the node stalled)
            self._check_lease()
            return
        if not beat.renewed:  # its row was gone: its leases were anyone's meanwhile
            await self._db(leases.register_node, self.id, self.address, self.lease)
        if not self.acting:
            log.info("node %s: PostgreSQL answers again; adopting tables again", self.id)
        self.valid_until = valid_until
        self.acting = True
        self.live_nodes = max(1, beat.live_nodes)
        self.owned = dict(beat.owned)
        for table_id, epoch in list(self.hosting.epochs.items()):
            if table_id in self._adopting or beat.owned.get(table_id) == epoch:
                continue
            # the heartbeat's snapshot may predate a table opened since: ask again
            held = await self._db(leases.lease_of, table_id)
            if held is None or held[0] != self.id or held[1] != epoch:
                log.warning("node %s: table %s was taken by another node", self.id, table_id)
                self.hosting.drop(table_id, MOVED)
        self._beat.set()

    async def _watchdog(self) -> None:
        while True:
            await asyncio.sleep(min(0.2, self.interval / 2))
            self._check_lease()

    def _check_lease(self) -> None:
        """Past the moment its last heartbeat lets it act, the node drops every table at
        once, writing nothing: another node may take them once the lease expires."""
        if not self.acting or time.monotonic() <= self.valid_until:
            return
        self.acting = False
        tables = list(self.hosting.epochs)
        log.error(
            "node %s: no heartbeat answered in time; it stops serving its %d tables",
            self.id,
            len(tables),
        )
        for table_id in tables:
            self.hosting.drop(table_id, MOVED)

    # ------------------------------------------------------------------ claiming

    async def _claims(self) -> None:
        while True:
            await self._beat.wait()
            self._beat.clear()
            try:
                await self._claim()
            except Exception:
                log.exception("node %s: claiming tables failed", self.id)

    async def _claim(self) -> None:
        """Adopt the tables whose lease still names this node (an earlier run of it, or
        before a self-fence) and a fair share of the orphans: ceil(orphans / live nodes),
        in random order after a short random wait, so that the nodes share them out;
        ``ADOPTING_AT_ONCE`` at a time (their jobs share the writer's transactions)."""
        if not self.acting or self.draining:
            return
        await self._adopt_some(list(self.owned), len(self.owned))
        orphans = [t for t in await self._db(leases.orphans, ORPHANS_LIMIT) if self._unserved(t)]
        if not orphans:
            return
        share = math.ceil(len(orphans) / self.live_nodes)
        await asyncio.sleep(random.uniform(0, self.interval / 4))
        random.shuffle(orphans)
        await self._adopt_some(orphans, share)

    async def _adopt_some(self, table_ids: list[str], share: int) -> None:
        """Adopt up to ``share`` of ``table_ids`` (those another node takes first do not
        count), ``ADOPTING_AT_ONCE`` at a time."""
        gate = asyncio.Semaphore(ADOPTING_AT_ONCE)
        taking = 0

        async def one(table_id: str) -> None:
            nonlocal taking
            async with gate:
                if taking >= share or not self.acting or self.draining:
                    return
                if not self._unserved(table_id):
                    return
                taking += 1
                if not await self._adopt(table_id):
                    taking -= 1

        await asyncio.gather(*(one(t) for t in table_ids))

    def _unserved(self, table_id: str) -> bool:
        """Not served here, nor being adopted or made here (a table the hosting holds an
        epoch for: a room's switch's new table is, from its commit to its restore)."""
        return (
            table_id not in self.lobby.tables
            and table_id not in self.hosting.epochs
            and table_id not in self._adopting
            and table_id not in self._skipped
        )

    async def _adopt(self, table_id: str) -> bool:
        """Take the lease (a new epoch) and serve the table; False if another node got it
        first, or the table is not one this node serves (its lease is released again)."""
        self._adopting.add(table_id)
        try:
            epoch = await self._db(leases.adopt, table_id, self.id)
            if epoch is None:
                return False
            log.info("node %s: took the lease of table %s (epoch %d)", self.id, table_id, epoch)
            try:
                actor = await self.hosting.adopt(table_id, epoch)
            except Exception as exc:
                log.error("node %s: adopting table %s failed: %s", self.id, table_id, exc)
                self.hosting.drop(table_id, MOVED)
                return False
            if actor is None:
                self._skipped.add(table_id)
                with contextlib.suppress(Exception):
                    await self._db(leases.release, table_id, self.id, epoch)
                return False
            if not self.acting or self.draining:  # fenced out (or stopping) meanwhile
                self.hosting.drop(table_id, MOVED)
                return False
            log.info("node %s: adopted table %s (epoch %d)", self.id, table_id, epoch)
            return True
        finally:
            self._adopting.discard(table_id)

    # ------------------------------------------------------------------ stopping

    async def hand_over(self, budget: float = HANDOVER_SECONDS) -> None:
        """SIGTERM: every table finishes its hand in play (none is dealt after it), is saved
        and released, its sockets closed with 4409; after ``budget`` seconds the hands
        still in play are void. Then this node's row goes."""
        self.draining = True
        for actor in self.lobby.tables.values():
            actor.draining = True
        try:  # no new table is placed here
            await self._db(leases.set_draining, self.id)
        except Exception as exc:
            log.warning("node %s: could not mark itself draining: %s", self.id, exc)
        deadline = time.monotonic() + budget
        tables: dict[str, int] = {}
        while new := {t: e for t, e in self.hosting.epochs.items() if t not in tables}:
            # (again for a table opened here meanwhile, placed before the others knew)
            tables |= new
            for table_id in new:
                if (table := self.lobby.tables.get(table_id)) is not None:
                    table.draining = True
            await asyncio.gather(
                *(self._hand_over(table_id, epoch, deadline) for table_id, epoch in new.items()),
                return_exceptions=True,
            )
        for task in self._tasks:
            task.cancel()
        try:
            await self._db(leases.drop_node, self.id)
        except Exception as exc:  # its lease expires by itself
            log.error("node %s: could not leave the cluster: %s", self.id, exc)
        log.info("node %s: handed over %d tables", self.id, len(tables))

    async def _hand_over(self, table_id: str, epoch: int, deadline: float) -> None:
        actor = self.lobby.tables.get(table_id)
        while actor is not None and _in_hand(actor) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if actor is None or self.lobby.tables.get(table_id) is not actor:
            return  # dropped meanwhile (another node has it)

        async def release() -> bool:
            try:
                await actor.writer.flush()
                return bool(await self._db(leases.release, table_id, self.id, epoch))
            except Exception as exc:  # the lease expires with the node; nothing is lost
                log.error("node %s: table %s not released: %s", self.id, table_id, exc)
                return False

        released = await actor.hand_over(VOIDED, release)
        self.hosting.drop(table_id, MOVED)
        if released:
            await self._announce(table_id)

    # ------------------------------------------------------------------ routes

    async def route(self, table_id: str) -> str:
        """The address of the node serving ``table_id``: this one if it does, else the
        lease's live owner, else this one (whose socket answers 4409: ask again)."""
        if table_id in self.hosting.epochs:
            return self.address
        now = time.monotonic()
        known = self._routes.get(table_id)
        if known is not None and known[1] > now:
            return known[0]
        try:
            address = await self._db(leases.route, table_id) or self.address
        except Exception:
            return self.address
        if len(self._routes) > ROUTES_KEPT:
            self._routes = {t: r for t, r in self._routes.items() if r[1] > now}
        self._routes[table_id] = (address, now + ROUTE_SECONDS)
        return address

    async def served_elsewhere(self, table_id: str) -> bool:
        """Whether a socket to ``table_id``, not served here, should ask again (4409)."""
        try:
            return await self._db(leases.table_is_open, table_id)
        except Exception:
            return True  # PostgreSQL will answer again: the client asks again then


def _in_hand(actor: TableActor) -> bool:
    return actor.hand_id is not None and not actor.closed
