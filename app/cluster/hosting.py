"""A node's :class:`~app.runtime.hosting.TableHosting`: the tables this node serves under
their leases, and the others' (docs/scaling.md).

app/services.py gives the lobby a :class:`ClusterHosting` in cluster mode, as it gives it a
``ClusterHouse``; the lobby, the table socket and the routes call it as they call the single
process's ``LocalHosting``. What it does differently:

* a new table is written with its lease, in one transaction (node_tables.py: a table opened,
  or one a room's switch makes in the old table's transaction, :meth:`ClusterHosting.new_table`),
  and its actor writes through the fence of the lease's epoch (a write the fence refuses drops
  the table: another node has it); a restored table's versions count on from ``epoch × 10⁹``;
* the lobby restores no table at start: the node (node.py) adopts the tables it claims, one
  by one (:meth:`ClusterHosting.adopt`), and drops those it loses (:meth:`ClusterHosting.drop`);
  a stop hands every table over first (``Node.hand_over``);
* the tables other nodes serve are on the shared board (board.py): the lobby's and the host's
  lists, the tables a player opened; a socket for a table another node serves (or will, once it
  adopts it) is told to ask again (4409); the front asks which node serves a table
  (``GET /api/cluster/route``); a table's REST request reaching the wrong node runs at its
  owner (forward.py); the host's grant to the house is told on the bus (bus.py).

:class:`AloneOnPostgreSQL` is the single process on PostgreSQL, a database a cluster may have
used: at start the cluster's leftovers go (``leases.end_cluster``).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from prometheus_client import CollectorRegistry

from app.cluster.board import Board
from app.cluster.bus import Bus, house_funded, listen_for_house
from app.cluster.fence import is_fenced
from app.cluster.forward import Forwarder, Forwarding
from app.cluster.node import Node
from app.cluster.node_tables import (
    FIRST_EPOCH,
    VERSION_BASE,
    Dropped,
    create_table_leased,
    leased,
    open_house_once,
    table_writer,
)
from app.core.config import Settings
from app.db.store import leases
from app.db.types import AsyncSession, async_sessionmaker
from app.db.writer.base import DatabaseWriter
from app.games.core.coded import Coded
from app.runtime import notices
from app.runtime.hosting import LocalHosting
from app.runtime.lobby import Lobby
from app.runtime.table.actor import TableActor
from app.runtime.table.effects import Job

ADOPTED = notices.NODE_STOPPED
"""The notice of a table a node adopted, its hand in play void."""


class ClusterHosting:
    """This process as one node of a cluster, for the lobby (see the module's docstring)."""

    restores_at_start = False

    def __init__(
        self, settings: Settings, sessionmaker: async_sessionmaker[AsyncSession], lobby: Lobby
    ) -> None:
        self.node_id = settings.node_id
        self.lobby = lobby
        self.writer: DatabaseWriter = lobby.writer
        self.sessionmaker = sessionmaker
        self.epochs: dict[str, int] = {}
        """The lease epoch under which this node serves each of its tables."""
        self.bus = Bus(settings.redis_url, settings.redis_prefix, settings.node_id)
        """This node's line to the cluster's Redis (bus.py)."""
        self.board = Board(self.bus, lobby, settings.node_id)
        """The lobby board every node shares (board.py)."""
        self.node = Node(settings, sessionmaker, self)
        """Its lease, heartbeat, adoptions and handover (node.py)."""
        listen_for_house(self.bus, lobby)
        self.node.use_bus(self.bus)  # a table released is claimed at once

    @property
    def name(self) -> str:
        return self.node_id

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        await self.bus.start()  # it connects (and reconnects) in the background
        self.board.start()

    async def open_house(self, float_amount: int) -> int:
        # nodes starting at once take turns: the opening float is granted once
        return await self.writer.run(open_house_once, float_amount)

    async def serve(self) -> None:
        await self.node.start()  # it adopts its tables and its share of the orphans

    async def hand_over(self) -> None:
        """Each table finishes its hand in play (none is void), is released and its sockets
        closed with 4409 (node.py)."""
        await self.node.hand_over()

    async def stop(self) -> None:
        await self.node.stop()
        await self.board.stop()  # this node's rows off the board
        await self.bus.stop()

    def install(self, app: FastAPI, metrics: CollectorRegistry) -> None:
        """A table's requests answered by the node that serves it, innermost (after the
        body limit and the origin check: forward.py); the bus's and the forwarding's
        counters on ``/metrics``."""
        metrics.register(self.bus.collector())
        forwarder = Forwarder(self.bus, self.board, self.sessionmaker, app)
        metrics.register(forwarder.collector())
        app.add_middleware(Forwarding, forwarder=forwarder)

    # ------------------------------------------------------------------ a table

    async def create(self, row: dict[str, Any]) -> None:
        """The table and its lease, in the same transaction (node_tables.py)."""
        self.epochs[row["table_id"]] = await self.writer.run(
            create_table_leased, self.node_id, **row
        )

    def new_table(self, table_id: str, job: Job) -> Job:
        """``job`` (a room's switch, through the old table's fence), then the new table's
        lease for this node, in the same transaction (node_tables.py ``leased``)."""
        return Job(leased, (self.node_id, table_id, job.run, *job.args), job.kwargs)

    def table_made(self, table_id: str) -> None:
        """Served here under the lease its job wrote (the node claims no table it holds an
        epoch for: node.py)."""
        self.epochs[table_id] = FIRST_EPOCH

    def writer_for(self, table_id: str) -> DatabaseWriter:
        """Every job through the fence of this node's lease on the table (fence.py)."""
        return table_writer(self, table_id)

    def first_version(self, table_id: str) -> int:
        return self.epochs.get(table_id, 0) * VERSION_BASE

    def why_restored(self, table_id: str) -> Coded:
        return ADOPTED if table_id in self.epochs else notices.RESTARTED

    def held_elsewhere(self, exc: BaseException) -> bool:
        return is_fenced(exc)

    async def adopt(self, table_id: str, epoch: int) -> TableActor | None:
        """Serve ``table_id`` under lease ``epoch`` (node.py): its unfinished hand void
        through the new fence, then restored as at a restart. None if it is closed, of a
        game not offered here, or could not be restored (closed now)."""
        self.epochs[table_id] = epoch
        if (actor := await self.lobby.restore(table_id)) is None:
            self.epochs.pop(table_id, None)
        return actor

    def drop(self, table_id: str, reason: str) -> None:
        """Stop serving ``table_id`` at once, writing nothing more for it."""
        self.epochs.pop(table_id, None)
        if (actor := self.lobby.tables.pop(table_id, None)) is not None:
            actor.drop(reason, Dropped(table_id))

    # ------------------------------------------------------------------ the tables elsewhere

    def opened_elsewhere(self, player_id: str) -> int:
        return self.board.opened_elsewhere(player_id)

    def listed_elsewhere(self, viewer: str | None, *, everything: bool) -> list[dict[str, Any]]:
        return self.board.listed_elsewhere(viewer, everything=everything)

    def host_rows_elsewhere(self) -> list[dict[str, Any]]:
        return self.board.admin_rows()

    async def served_elsewhere(self, table_id: str) -> bool:
        return await self.node.served_elsewhere(table_id)

    async def route(self, table_id: str) -> str:
        return await self.node.route(table_id)

    async def house_funded(self, amount: int) -> None:
        await house_funded(self.bus, amount)


class AloneOnPostgreSQL(LocalHosting):
    """A single server on PostgreSQL, a database a cluster may have used: at start the
    cluster's leases, reservations and node rows go (a lease left behind would fence every
    write for its table), refused while a node still serves the database
    (``leases.end_cluster``)."""

    async def start(self) -> None:
        await self.writer.run(leases.end_cluster)
