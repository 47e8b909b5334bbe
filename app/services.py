"""The pieces the app is made of, built once at start-up and injected everywhere."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.cluster import leases
from app.cluster.board import Board
from app.cluster.bus import Bus, listen_for_house
from app.cluster.house import ClusterHouse
from app.cluster.node import Node
from app.cluster.node_tables import open_house_once
from app.core.config import Settings
from app.db import store
from app.db.session import make_engine, make_sessionmaker
from app.db.writer.base import DatabaseWriter
from app.db.writer.factory import make_writer
from app.games.core.cards import SeedSource, csprng_seed
from app.ops.exposition import server_registry
from app.ops.metrics import Gauges
from app.runtime.house import open_house
from app.runtime.limits import AddressLimits
from app.runtime.lobby import Lobby

log = logging.getLogger("table31")


@dataclass
class Services:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    writer: DatabaseWriter
    lobby: Lobby
    admin_token: str
    starting_bankroll: int = 0
    limits: AddressLimits = field(default_factory=lambda: AddressLimits(30, 100.0, 200))
    node: Node | None = None
    """Cluster mode: this process as a node of the cluster (app/cluster/node.py)."""
    bus: Bus | None = None
    """Cluster mode: this node's line to the cluster's Redis (app/cluster/bus.py)."""
    board: Board | None = None
    """Cluster mode: the lobby board every node shares (app/cluster/board.py)."""
    metrics: CollectorRegistry = field(init=False)
    """What ``/metrics`` serves: the lobby's counters, :meth:`gauges`, the process's probes."""
    _drained: asyncio.Future[None] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.metrics = server_registry(self.lobby.metrics, self.gauges)
        if self.settings.cluster and self.bus is None:
            settings = self.settings
            self.bus = Bus(settings.redis_url, settings.redis_prefix, settings.node_id)
            self.board = Board(self.bus, self.lobby, settings.node_id)
            self.lobby.opened_elsewhere = self.board.opened_elsewhere  # MAX_TABLES_PER_PLAYER
            listen_for_house(self.bus, self.lobby)
            if self.node is not None:
                self.node.use_bus(self.bus)  # a table released is claimed at once
            self.metrics.register(self.bus.collector())

    def gauges(self) -> Gauges:
        """The server's gauges now: open sockets and tables, the database writer's queue."""
        tables = self.lobby.tables.values()
        return Gauges(
            connections=sum(len(t.connections) for t in tables),
            tables=dict(Counter(t.game_cls.id for t in tables if not t.closed)),
            writer_pending=self.writer.pending,
            writer_failures=self.writer.failures,
            node=self.settings.node_id if self.node is not None else "",
        )

    @classmethod
    def build(cls, settings: Settings, seeds: SeedSource = csprng_seed) -> Services:
        engine = make_engine(settings.database_url)
        sessionmaker = make_sessionmaker(engine)
        # the writer builds its own engine in its own process (or thread); this one serves
        # the reads
        writer = make_writer(settings)
        admin_token = settings.admin_token
        if not admin_token:
            admin_token = secrets.token_urlsafe(24)
            log.warning("ADMIN_TOKEN is not set; this run's host token is: %s", admin_token)
        lobby = Lobby(writer, settings, seeds)
        if settings.cluster:  # each table risks what it reserved of the house (in PostgreSQL)
            lobby.house = ClusterHouse(writer, lobby.tables)
        limits = AddressLimits(
            settings.max_connections_per_address,
            settings.address_messages_per_second,
            settings.address_message_burst,
        )
        return cls(
            settings,
            engine,
            sessionmaker,
            writer,
            lobby,
            admin_token,
            settings.starting_bankroll,
            limits,
            Node(settings, sessionmaker, lobby) if settings.cluster else None,
        )

    async def start(self) -> None:
        if self.bus is not None and self.board is not None:
            await self.bus.start()  # it connects (and reconnects) in the background
            self.board.start()
        self.writer.start()  # its process (or thread), event loop and engine
        if self.node is None and not self.settings.is_sqlite:
            # a single server on a database a cluster used: no lease may be left to fence its
            # writes (refused, with the reason, while a node still serves it)
            await self.writer.run(leases.end_cluster)
        opening = open_house if self.node is None else open_house_once  # nodes take turns
        self.lobby.house.balance = await self.writer.run(opening, self.settings.house_float)
        stored = await self.writer.run(store.get_setting, "starting_bankroll")
        if isinstance(stored, int):
            self.starting_bankroll = stored
        await self.lobby.recover()
        if self.node is not None:
            await self.node.start()  # it adopts its tables and its share of the orphans

    async def drain(self, reason: str) -> None:
        """The lobby's shutdown (each hand in play void, stakes back; every socket closed
        with ``reason``; the queue written), run once: a later call waits for that one. A
        node hands its tables over first: each finishes its hand in play, none is void
        (app/cluster/node.py)."""
        if self._drained is None:
            self._drained = asyncio.ensure_future(self._shutdown(reason))
        await asyncio.shield(self._drained)

    async def _shutdown(self, reason: str) -> None:
        if self.node is not None:
            await self.node.hand_over()
        await self.lobby.shutdown(reason)

    async def stop(self, reason: str = "The server is shutting down") -> None:
        """:meth:`drain` (unless a signal drained the lobby already), then the writer and the
        database connections end."""
        await self.drain(reason)
        if self.node is not None:
            await self.node.stop()
        if self.board is not None:
            await self.board.stop()  # this node's rows off the board
        if self.bus is not None:
            await self.bus.stop()
        await self.writer.close()  # what is queued is written, then its thread ends
        await self.engine.dispose()
