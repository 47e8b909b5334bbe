"""The pieces the app is made of, built once at start-up and injected everywhere."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.db.session import make_engine, make_sessionmaker
from app.games.cards import SeedSource, csprng_seed
from app.runtime import store
from app.runtime.house import open_house
from app.runtime.limits import AddressLimits
from app.runtime.lobby import Lobby
from app.runtime.writer import DatabaseWriter, make_writer

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
        self.lobby.house.balance = await self.writer.run(open_house, self.settings.house_float)
        stored = await self.writer.run(store.get_setting, "starting_bankroll")
        if isinstance(stored, int):
            self.starting_bankroll = stored
        await self.lobby.recover()

    async def stop(self, reason: str = "The server is shutting down") -> None:
        await self.lobby.shutdown(reason)
        await self.writer.close()  # what is queued is written, then its thread ends
        await self.engine.dispose()
