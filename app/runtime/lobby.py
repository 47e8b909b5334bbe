"""Every table in this process, by id: opening, recovering at start-up, bots, shutdown."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from app.core.config import Settings
from app.games.base import OptionError, parse_options
from app.games.cards import SeedSource, csprng_seed
from app.games.registry import game_class
from app.ops.metrics import Metrics
from app.runtime import store
from app.runtime.house import House
from app.runtime.protocol import ProtocolError
from app.runtime.records import SeatInfo, engine_account
from app.runtime.table import TableActor
from app.runtime.writer import DatabaseWriter

log = logging.getLogger("table31.lobby")

BOT_NAMES = ("Ada", "Basil", "Clio", "Dmitri", "Elena", "Faustine", "Georgios", "Helga", "Ines")


class Lobby:
    """The table registry: one :class:`TableActor` per open table."""

    def __init__(self, writer: DatabaseWriter, settings: Settings, seeds: SeedSource = csprng_seed):
        self.writer = writer
        self.settings = settings
        self.seeds = seeds
        self.tables: dict[str, TableActor] = {}
        self.house = House()
        self.metrics = Metrics()

    def get(self, table_id: str) -> TableActor | None:
        return self.tables.get(table_id)

    def listing(
        self, viewer: str | None = None, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """Open tables; a private one only for those who may enter it without an invite
        (its opener, its players) — or ``everything`` for the host."""
        return [
            t.summary()
            for t in self.tables.values()
            if not t.closed and (everything or not t.private or t.may_enter(viewer, None))
        ]

    async def open_table(
        self,
        *,
        game: str,
        name: str,
        options: dict[str, Any],
        created_by: str | None,
        private: bool = False,
    ) -> TableActor:
        """Check the options (raising OptionError naming the field) and open a table."""
        offered = self.settings.game_ids
        if game not in offered:
            raise OptionError("game", f"unknown game {game!r}; choose one of {list(offered)}")
        cls = game_class(game)
        parsed = parse_options(cls.OPTIONS, options)
        cls(parsed, seeds=self.seeds)  # the engine checks options that depend on each other
        table_id = store.new_id()[:12]
        invite = secrets.token_urlsafe(12) if private else None
        await self.writer.run(
            store.create_table,
            table_id=table_id,
            name=name,
            game=game,
            options=parsed,
            created_by=created_by,
            private=private,
            invite_code=invite,
        )
        actor = self._actor(
            table_id=table_id,
            name=name,
            game_cls=cls,
            options=parsed,
            created_by=created_by,
            private=private,
            invite_code=invite,
        )
        self.tables[table_id] = actor
        return actor

    def _actor(self, **table: Any) -> TableActor:
        """A table's actor, wired to this process's writer, settings, seeds, house, metrics."""
        return TableActor(
            writer=self.writer,
            settings=self.settings,
            seeds=self.seeds,
            house=self.house,
            metrics=self.metrics,
            **table,
        )

    async def recover(self) -> None:
        """At start-up: void the hands a crash interrupted and reopen every table with its
        seated players, stacks and between-hands state (RULES.md §0; issue: money)."""
        voided = await self.writer.run(store.void_unfinished_hands)
        stored_tables = await self.writer.run(store.load_tables)
        for stored in stored_tables:
            if stored.game not in self.settings.game_ids:
                log.error("table %s: unknown game %s, left closed", stored.table_id, stored.game)
                continue
            actor = self._actor(
                table_id=stored.table_id,
                name=stored.name,
                game_cls=game_class(stored.game),
                options=stored.options,
                created_by=stored.created_by,
                hands_played=stored.hands_played,
                private=stored.private,
                invite_code=stored.invite_code,
            )
            seat_of = {s.player_id: s.seat for s in stored.seats}
            for s in stored.seats:
                stack = stored.balances.get(f"stack:{stored.table_id}:{s.player_id}", 0)
                actor.engine.sit(s.seat, stack)
                actor.roster[s.seat] = SeatInfo(s.player_id, s.name, s.is_bot)
            for account_id, amount in stored.balances.items():
                mapped = engine_account(account_id, stored.table_id, seat_of)
                if mapped is not None and not mapped.startswith("seat:"):
                    actor.engine.balances[mapped] = amount
                elif mapped is None and amount:
                    log.error(
                        "table %s: %s holds %d chips with nobody seated",
                        stored.table_id,
                        account_id,
                        amount,
                    )
            if stored.state:
                actor.engine.restore(stored.state)
            # a void hand used its number up: the next hand is numbered after it
            actor.engine.hand_number = max(actor.engine.hand_number, stored.last_hand_number)
            if stored.table_id in voided:
                actor.engine.on_void()
                actor.notice("The server restarted: the hand in play was void, stakes returned.")
            actor.engine.take_log()
            actor.status = "paused" if stored.status == "paused" else "open"
            actor.pause_reason = stored.pause_reason if actor.status == "paused" else None
            self.tables[stored.table_id] = actor
            actor._arm_next_hand()
        if self.tables:
            log.info("recovered %d tables (%d voided hands)", len(self.tables), len(voided))

    async def add_bot(self, table: TableActor, seat: int | None = None) -> int:
        """Seat a bot playing the game's bot strategy, with a fresh bankroll of its own."""
        async with table.lock:
            free = [
                s
                for s in range(table.engine.max_seats)
                if s not in table.roster and s not in table._reserved
            ]
            if seat is None:
                candidates = [
                    s
                    for s in free
                    if table.engine.buy_in_limits(s)[0] <= table.engine.buy_in_limits(s)[1]
                ]
                if not candidates:
                    raise ValueError("the table is full")
                seat = candidates[0]
            elif seat not in free:
                raise ValueError(f"seat {seat} is taken")
            low, high = table.engine.buy_in_limits(seat)
            buy_in = min(high, max(low, self.settings.starting_bankroll // 2))
            used = {i.name for i in table.roster.values()}
            name = next((f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)" not in used), "Bot")
            table._reserved[seat] = "bot"
        try:
            player, _ = await self.writer.run(
                store.create_player,
                name,
                bankroll=max(buy_in, self.settings.starting_bankroll),
                is_bot=True,
            )
        finally:
            table._reserved.pop(seat, None)
        try:
            await table.seat_player(seat, player.id, name, buy_in, is_bot=True)
        except ProtocolError as err:
            raise ValueError(err.message) from None
        return seat

    async def shutdown(self, reason: str) -> None:
        for table in list(self.tables.values()):
            await table.shutdown(reason)
        await self.writer.flush()
