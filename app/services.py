"""The pieces the app is made of, built once at start-up and injected everywhere."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry

from app.core.config import Settings
from app.db import store
from app.db.session import make_engine, make_sessionmaker
from app.db.types import AsyncEngine, AsyncSession, async_sessionmaker
from app.db.writer.base import DatabaseWriter
from app.db.writer.factory import make_writer
from app.games.core.cards import SeedSource, csprng_seed
from app.i18n.messages import N_
from app.ops.exposition import server_registry
from app.ops.metrics import Gauges
from app.runtime.analyses import Analyses, ProcessLoad, analysis_of_samples
from app.runtime.hosting import TableHosting
from app.runtime.limits import AddressLimits
from app.runtime.lobby import Lobby
from app.runtime.storage import StorageGuard

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
    analyses: Analyses = field(init=False)
    """The hands' analyses, computed in a process of their own (app/runtime/analyses.py)."""
    guard: StorageGuard = field(init=False)
    """Fail-stop: stops the tables while the database cannot store (app/runtime/storage.py)."""
    metrics: CollectorRegistry = field(init=False)
    """What ``/metrics`` serves: the lobby's counters, :meth:`gauges`, the process's probes."""
    _drained: asyncio.Future[None] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.guard = StorageGuard(
            self.writer,
            self.lobby,
            retry_seconds=self.settings.storage_retry_seconds,
            retry_max_seconds=self.settings.storage_retry_max_seconds,
            reload=self._reload_house,
        )
        self.metrics = server_registry(self.lobby.metrics, self.gauges)
        # the worker process starts with the first analysis wanted, not here
        self.analyses = Analyses(
            self.sessionmaker,
            self.writer,
            after_hand=self.settings.analysis_after_hand,
            analyse=analysis_of_samples(self.settings.analysis_samples),
            niceness=self.settings.analysis_niceness,
            busy=ProcessLoad().over(self.settings.analysis_busy_share),
        )
        self.lobby.on_hand_stored = self.analyses.hand_stored

    @property
    def hosting(self) -> TableHosting:
        """Where the tables are served: this process alone, or one node of a cluster
        (app/runtime/hosting.py; the lobby's)."""
        return self.lobby.hosting

    def gauges(self) -> Gauges:
        """The server's gauges now: open sockets and tables, the database writer's queue."""
        tables = self.lobby.tables.values()
        return Gauges(
            connections=sum(len(t.connections) for t in tables),
            tables=dict(Counter(t.game_cls.id for t in tables if not t.closed)),
            writer_pending=self.writer.pending,
            writer_failures=self.writer.failures,
            storage_ok=self.guard.ok,
            storage_trips=self.guard.trips,
            node=self.hosting.name,
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
        # where the tables are served, and the house they share: the single process's
        # (the lobby's own), unless this process is one node of a cluster (app/cluster/).
        # The cluster's code is imported only then: it brings Redis's and httpx's clients
        # (and httpx its command line's Rich, Pygments and Click), a tenth of the imports
        # of a server on SQLite, which never uses them.
        if settings.cluster:
            from app.cluster.hosting import ClusterHosting
            from app.cluster.house import ClusterHouse

            # each table risks what it reserved of the house (in PostgreSQL)
            lobby.house = ClusterHouse(writer, lobby.tables)
            lobby.hosting = ClusterHosting(settings, sessionmaker, lobby)
        elif not settings.is_sqlite:  # a database a cluster may have used
            from app.cluster.hosting import AloneOnPostgreSQL

            lobby.hosting = AloneOnPostgreSQL(writer, settings.advertised_address)
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
        )

    async def start(self) -> None:
        self.writer.start()  # its process (or thread), event loop and engine
        await self.hosting.start()
        self.lobby.house.balance = await self.hosting.open_house(self.settings.house_float)
        stored = await self.writer.run(store.get_setting, "starting_bankroll")
        if isinstance(stored, int):
            self.starting_bankroll = stored
        await self.lobby.recover()
        self.lobby.start_sweeping()  # tables left empty close by themselves
        await self.hosting.serve()

    async def _reload_house(self) -> None:
        """The house's balance as the ledger holds it (a coup settled in memory whose write
        failed never happened)."""
        self.lobby.house.balance = await self.hosting.open_house(self.settings.house_float)

    async def drain(self, reason: str) -> None:
        """The lobby's shutdown (each hand in play void, stakes back; every socket closed
        with ``reason``; the queue written), run once: a later call waits for that one. The
        hosting hands the tables over first (a node's: each finishes its hand in play, none
        is void)."""
        if self._drained is None:
            self._drained = asyncio.ensure_future(self._shutdown(reason))
        await asyncio.shield(self._drained)

    async def _shutdown(self, reason: str) -> None:
        await self.hosting.hand_over()
        await self.lobby.shutdown(reason)

    async def stop(self, reason: str = N_("The server is shutting down")) -> None:
        """:meth:`drain` (unless a signal drained the lobby already), then the writer and the
        database connections end."""
        await self.guard.stop()
        await self.drain(reason)
        await self.analyses.stop()  # its worker ends (before the writer: it stores through it)
        await self.hosting.stop()
        await self.writer.close()  # what is queued is written, then its thread ends
        await self.engine.dispose()
