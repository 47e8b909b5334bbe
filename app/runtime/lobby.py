"""Every table in this process, by id: opening, recovering at start-up, bots, closing the
tables left empty, shutdown.

An empty table closes by itself (:meth:`Lobby.sweep_empty`): one with no person seated (bots
do not count) and no socket open for ``EMPTY_TABLE_CLOSE_MINUTES`` is closed as its opener's
close closes it (the hand in play void, bots stood up, every stack home), which frees a place
among its opener's open tables (``MAX_TABLES_PER_PLAYER``). The lobby sweeps every
:data:`SWEEP_SECONDS` on the one clock it is given (``Lobby.clock``, which its tables share).

What depends on where the tables are served (by this process alone, or by one node of
several) the lobby asks its :attr:`Lobby.hosting` (app/runtime/hosting.py): the row of a new
table, a table's writer, how a restored table starts, the tables served elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from app.analysis.bots import DEFAULT_LEVEL
from app.core.config import Settings
from app.db import ledger, store
from app.db.store.recovery import void_unfinished_hand
from app.db.writer.base import DatabaseWriter, storage_failure
from app.games.core.accounts import is_seat
from app.games.core.cards import SeedSource, csprng_seed
from app.games.core.options import OptionError, parse_options
from app.games.core.registry import game_class
from app.i18n.messages import N_, Text
from app.ops.clock import SYSTEM_CLOCK, Clock, Every
from app.ops.logs import error_line
from app.ops.metrics import Metrics
from app.runtime import notices
from app.runtime.blocks import Blocks
from app.runtime.bot_pool import BotPool, bot_names
from app.runtime.chat import CHAT_KEEP, Muted
from app.runtime.hosting import LocalHosting, TableHosting
from app.runtime.house import House
from app.runtime.openings import LimitReached, Openings
from app.runtime.protocol import ProtocolError
from app.runtime.records import SeatInfo, engine_account
from app.runtime.rooms import Rooms
from app.runtime.table.actor import REBUILDING, STORAGE_DOWN, TableActor
from app.runtime.table.effects import Effects

log = logging.getLogger("table31.lobby")

SWEEP_SECONDS = 60.0
"""How often the lobby looks for tables left empty (:meth:`Lobby.sweep_empty`)."""


class RestoreError(Exception):
    """A stored table that cannot be put back as it was."""


@dataclass
class Recovery:
    """The report of a start-up's recovery, for the host (``GET /api/admin/recovery``)."""

    recovered: int = 0
    voided_hands: int = 0
    closed: list[store.ClosedTable] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Tables of a game this server does not offer now (``ENABLED_GAMES``), left stored."""

    def to_json(self) -> dict[str, Any]:
        return {
            "recovered": self.recovered,
            "voided_hands": self.voided_hands,
            "closed": [asdict(c) for c in self.closed],
            "skipped": list(self.skipped),
        }


def admin_row(table: TableActor) -> dict[str, Any]:
    """A table as the host's list shows it: the summary, each seat's ``leaving`` (a removed
    seat stands up at the next moment the rules allow), a private table's invite link."""
    row = table.summary()
    for seat in row["seats"]:
        seat["leaving"] = seat["seat"] in table.leaving
    if table.private:
        row["invite_code"] = table.invite_code
        row["invite_path"] = f"/tables/{table.table_id}?invite={table.invite_code}"
    return row


class Lobby:
    """The table registry: one :class:`TableActor` per open table."""

    def __init__(
        self,
        writer: DatabaseWriter,
        settings: Settings,
        seeds: SeedSource = csprng_seed,
        clock: Clock = SYSTEM_CLOCK,
    ):
        self.writer = writer
        self.settings = settings
        self.seeds = seeds
        self.tables: dict[str, TableActor] = {}
        self.house = House()
        self.metrics = Metrics()
        self.recovery = Recovery()
        """What the last start-up recovered, and the tables it had to close (the host's page)."""
        self._opening: dict[str, int] = {}
        """Tables each player is opening now (their rows being written), counted as open."""
        self._bots_coming: dict[str, int] = {}
        """Bots being seated at each table now, counted as seated."""
        self.openings = Openings()
        """Tables each player opened in the last hour (its clock a test's to drive)."""
        self.bot_pool = BotPool(writer, settings)
        """The bots' players and their bank (app/runtime/bot_pool.py)."""
        self.hosting: TableHosting = LocalHosting(writer, settings.advertised_address)
        """Where the tables are served (app/runtime/hosting.py): this process alone, unless
        app/services.py gives it a node's."""
        self._rebuilding: set[str] = set()
        """Tables being rebuilt after a write of theirs failed (not the storage's)."""
        self._chores: set[asyncio.Task[None]] = set()
        self.clock = clock
        """The one clock (app/ops/clock.py): every table's, and how long one has been empty."""
        self.blocks = Blocks()
        """Who blocks whom, of the people connected here (app/runtime/blocks.py): every
        table's."""
        self._empty_since: dict[str, float] = {}
        """Tables found empty, and when (:attr:`clock`) they were first found so."""
        self._sweeper = Every(SWEEP_SECONDS, self._sweep_soon, clock)
        self.rooms = Rooms(self)
        """The open rooms (app/runtime/rooms.py): each plays at one of these tables."""
        self.on_hand_stored: Callable[[str], None] | None = None
        """Told of every hand whose record a table committed (its id): the services queue
        its analysis there (app/runtime/analyses.py)."""

    def get(self, table_id: str) -> TableActor | None:
        return self.tables.get(table_id)

    def listing(
        self, viewer: str | None = None, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """Open tables, this process's then those served elsewhere (:attr:`hosting`); a
        private one only for those who may enter it without an invite (its opener, its
        players) — or ``everything`` for the host."""
        here = [
            t.summary()
            for t in self.tables.values()
            if not t.closed and (everything or not t.private or t.may_enter(viewer, None))
        ]
        return here + self.hosting.listed_elsewhere(viewer, everything=everything)

    def host_rows(self) -> list[dict[str, Any]]:
        """Every open table as the host's list shows it (:func:`admin_row`), this
        process's then those served elsewhere."""
        here = [admin_row(table) for table in self.tables.values() if not table.closed]
        return here + self.hosting.host_rows_elsewhere()

    async def open_table(
        self,
        *,
        game: str,
        name: str,
        options: dict[str, Any],
        created_by: str | None,
        private: bool = False,
        max_open: int = 0,
        per_hour: int = 0,
        room: dict[str, Any] | None = None,
    ) -> TableActor:
        """Check the options (raising OptionError naming the field) and open a table. With
        ``max_open``, ``created_by`` may have at most that many open tables; with
        ``per_hour``, may have opened at most that many in the last hour (LimitReached, with
        the wait). With ``room`` (app/runtime/rooms.py), the room's row is written with the
        table's, and the table takes the room's invite code."""
        offered = self.settings.game_ids
        if game not in offered:
            raise OptionError(
                "game",
                Text(
                    N_("unknown game {game}; choose one of {games}"),
                    game=repr(game),
                    games=str(list(offered)),
                ),
            )
        cls = game_class(game)
        if private and "approval" not in options:  # seats by approval: on in private rooms
            options = {**options, "approval": True}
        parsed = parse_options(cls.OPTIONS, options)
        cls(parsed, seeds=self.seeds)  # the engine checks options that depend on each other
        table_id = store.new_id()[:12]
        invite = secrets.token_urlsafe(12) if private else None
        if room is not None:
            invite = room["invite_code"]
        opener = created_by or ""
        if max_open and created_by is not None:
            opened = self._opening.get(opener, 0) + self.hosting.opened_elsewhere(opener)
            opened += sum(t.created_by == opener and not t.closed for t in self.tables.values())
            if opened >= max_open:
                raise LimitReached(
                    Text(
                        N_(
                            "you have {opened} open tables, the most one player may open: play"
                            " at one of them, or close one (its page has 'Close table' for its"
                            " opener)"
                        ),
                        opened=opened,
                    )
                )
        counted = self.openings.take(created_by, per_hour)  # LimitReached: when, in words
        self._opening[opener] = self._opening.get(opener, 0) + 1
        row: dict[str, Any] = {"table_id": table_id, "name": name, "game": game, "options": parsed}
        row |= {"created_by": created_by, "private": private, "invite_code": invite}
        if room is not None:
            row["room"] = room
        try:
            await self.hosting.create(row)
        except BaseException:
            if counted:
                self.openings.give_back(opener)
            raise
        finally:
            if self._opening[opener] > 1:
                self._opening[opener] -= 1
            else:
                del self._opening[opener]
        actor = self._actor(
            table_id=table_id,
            name=name,
            game_cls=cls,
            options=parsed,
            created_by=created_by,
            private=private,
            invite_code=invite,
        )
        if room is not None:
            actor.room_id = room["room_id"]
        self.tables[table_id] = actor
        return actor

    def _actor(self, **table: Any) -> TableActor:
        """A table's actor, wired to this process's writer, settings, seeds, house, metrics."""
        actor = TableActor(
            writer=self.hosting.writer_for(table["table_id"]),
            settings=self.settings,
            clock=self.clock,
            seeds=self.seeds,
            house=self.house,
            metrics=self.metrics,
            **table,
        )
        actor.on_write_failed = self._write_failed
        actor.core.blocks = self.blocks
        actor.on_switch = self.rooms.switch
        actor.on_room_closed = self.rooms.table_closed
        actor.on_hand_stored = self._hand_stored
        return actor

    async def restore(self, table_id: str) -> TableActor | None:
        """Serve ``table_id`` from what the database holds, as a restart would: its
        unfinished hand void, then restored; a room's table with its room (app/runtime
        /rooms.py). None if it is closed, of a game not offered here, or could not be
        restored (closed now). A node adopting a table calls it (its hosting,
        app/runtime/hosting.py), and a room's switch for the table it made."""
        actor = await self._recover_one(table_id, None)
        if actor is not None:
            await self.rooms.restored(actor)
        return actor

    async def recover(self) -> None:
        """At start-up: void the hands a crash interrupted and reopen every table with its
        seated players, stacks and between-hands state (docs/protocol.md §5.7).

        Each table is recovered on its own: one whose stored state cannot be restored (or
        whose restored engine fails) is closed with every chip it holds returned through the
        ledger, logged, and listed in :attr:`recovery` for the host; every other table
        comes back. Unless the :attr:`hosting` restores them one by one instead (a node
        adopts the tables it claims)."""
        if not self.hosting.restores_at_start:
            return
        voided = await self.writer.run(store.void_unfinished_hands)
        self.recovery = Recovery(voided_hands=len(voided))
        await self.rooms.load()
        for table_id in await self.writer.run(store.open_table_ids):
            await self._recover_one(table_id, table_id in voided)
        if self.tables or self.recovery.closed:
            log.info(
                "recovered %d tables (%d voided hands, %d closed)",
                self.recovery.recovered,
                len(voided),
                len(self.recovery.closed),
            )

    async def _recover_one(
        self, table_id: str, voided: bool | None, told: int = 0
    ) -> TableActor | None:
        """Restore one table (``voided`` None: void its unfinished hand first); one that
        cannot be restored is closed, its chips returned. ``told``: the last version its
        watchers were told (a table rebuilt in this process counts on above it)."""
        writer = self.hosting.writer_for(table_id)
        try:
            if voided is None:
                voided = await writer.run(void_unfinished_hand, table_id)
                self.recovery.voided_hands += int(voided)
            stored = await writer.run(store.load_table, table_id)
            if stored.status == "closed":
                return None
            if stored.game not in self.settings.game_ids:
                # left as it is, chips and all: it comes back when the game is offered
                log.warning("table %s: game %s is not offered, left", table_id, stored.game)
                self.recovery.skipped.append(table_id)
                return None
            actor, restored = self._restore(stored, voided, told)
            await self._restore_chat(actor)
            await actor.start(restored)  # the first thing a restored table does: may it deal?
        except Exception as exc:  # one table must not stop the others
            if storage_failure(exc):
                raise  # nothing is wrong with the table: the database cannot be reached
            failed = self.tables.pop(table_id, None)
            if failed is not None and failed.house is not None:
                failed.house.forget(table_id)
            if self.hosting.held_elsewhere(exc):
                raise  # another process has it: nothing of it is this one's to close
            await self._close_unrestorable(table_id, exc)
            return None
        self.recovery.recovered += 1
        return actor

    def _restore(
        self, stored: store.StoredTable, voided: bool, told: int = 0
    ) -> tuple[TableActor, Effects]:
        """A table's actor as it was stored: seats and stacks from the ledger, the engine's
        between-hands state reconciled with the seats taken now (the core's ``restore``);
        with what its first section must carry out. Its versions go on above ``told`` (a
        version never goes back for a watcher that saw the table before it was rebuilt)."""
        actor = self._actor(
            table_id=stored.table_id,
            name=stored.name,
            game_cls=game_class(stored.game),
            options=stored.options,
            created_by=stored.created_by,
            hands_played=stored.hands_played,
            private=stored.private,
            invite_code=stored.invite_code,
            host_id=stored.host_id,
        )
        actor.room_id = stored.room_id
        self.tables[stored.table_id] = actor
        seat_of = {s.player_id: s.seat for s in stored.seats}
        seats = [
            (
                s.seat,
                SeatInfo(s.player_id, s.name, s.is_bot, s.bot_level if s.is_bot else None),
                stored.balances.get(ledger.stack(stored.table_id, s.player_id), 0),
            )
            for s in stored.seats
        ]
        accounts: dict[str, int] = {}
        for account_id, amount in stored.balances.items():
            mapped = engine_account(account_id, stored.table_id, seat_of)
            if mapped is not None and not is_seat(mapped):
                accounts[mapped] = amount
            elif mapped is None and amount:
                raise RestoreError(f"{account_id} holds {amount} chips with nobody seated")
        if stored.state and not isinstance(stored.state, dict):
            raise RestoreError("the stored state is not an object")
        notice = None
        if voided:
            notice = self.hosting.why_restored(stored.table_id)
        restored = actor.core.restore(
            seats=seats,
            accounts=accounts,
            state=stored.state or None,
            last_hand_number=stored.last_hand_number,
            status=stored.status,
            pause_reason=stored.pause_reason,
            version=max(self.hosting.first_version(stored.table_id), told),
            void_notice=notice,
            last_hand=stored.last_hand,
            voids=stored.voids,
        )
        return actor, restored

    async def _restore_chat(self, actor: TableActor) -> None:
        """The table's kept chat messages and mutes. A chat that cannot be read is logged
        and left behind: it never keeps a table from coming back."""
        try:
            stored = await self.writer.run(store.load_chat, actor.table_id, CHAT_KEEP)
        except Exception as exc:
            log.error("table %s: its chat could not be restored: %s", actor.table_id, exc)
            return
        muted = [Muted(player_id, name) for player_id, name in stored.muted]
        actor.chat.restore(stored.messages, muted, stored.last_id)

    async def _close_unrestorable(self, table_id: str, exc: BaseException) -> None:
        """Close a table that could not be restored, its chips back through the ledger."""
        reason = f"could not be restored at start-up: {error_line(exc)}"
        log.error("table %s %s", table_id, reason)
        try:
            closed = await self.hosting.writer_for(table_id).run(
                store.close_unrestorable_table, table_id, reason
            )
        except Exception as err:  # the server starts all the same
            log.error("table %s could not be closed either: %s", table_id, error_line(err))
            self.recovery.closed.append(
                store.ClosedTable(table_id, "?", "?", f"{reason}; closing failed too", {})
            )
            return
        self.recovery.closed.append(closed)

    async def add_bot(
        self,
        table: TableActor,
        seat: int | None = None,
        *,
        max_bots: int = 0,
        level: str = DEFAULT_LEVEL,
    ) -> int:
        """Seat a bot of the pool playing at ``level`` (app/analysis/bots.py), its buy-in
        from the bots' bank (app/runtime/bot_pool.py; ValueError when the bank cannot cover
        it). With ``max_bots``, the table may hold at most that many bots (LimitReached)."""
        table_id = table.table_id
        async with table.lock:
            coming = self._bots_coming.get(table_id, 0)
            bots = coming + sum(1 for i in table.roster.values() if i.is_bot)
            if max_bots and bots >= max_bots:
                raise LimitReached(Text(N_("a table may have at most {most} bots"), most=max_bots))
            self._bots_coming[table_id] = coming + 1
        try:
            return await self._add_bot(table, seat, level)
        finally:
            if self._bots_coming[table_id] > 1:
                self._bots_coming[table_id] -= 1
            else:
                del self._bots_coming[table_id]

    async def _add_bot(self, table: TableActor, seat: int | None, level: str) -> int:
        seat = await table.hold_bot_seat(seat)  # ValueError: none free
        low, high = table.engine.buy_in_limits(seat)
        buy_in = min(high, max(low, self.settings.starting_bankroll // 2))
        names = bot_names({i.name for i in table.roster.values()})
        try:
            player_id, name = await self.bot_pool.take(names, buy_in)
        finally:
            table.release_seat(seat)
        seated = False
        try:
            await table.seat_player(seat, player_id, name, buy_in, is_bot=True, bot_level=level)
            seated = True
        except ProtocolError as err:
            raise ValueError(err.message) from None
        finally:
            self.bot_pool.seated(player_id, seated)
        return seat

    # ------------------------------------------------------------------ empty tables

    def start_sweeping(self) -> None:
        """Look for tables left empty every :data:`SWEEP_SECONDS` (unless
        ``EMPTY_TABLE_CLOSE_MINUTES`` is 0)."""
        if self.settings.empty_table_close_minutes > 0:
            self._sweeper.start()

    def _sweep_soon(self) -> None:
        task = asyncio.create_task(self._sweep())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _sweep(self) -> None:
        await self.sweep_empty()

    @staticmethod
    def _empty(table: TableActor) -> bool:
        """No person seated (or sitting down: the seat held while the buy-in is written) and
        no socket open; bots may sit there."""
        people = [info for info in table.roster.values() if not info.is_bot]
        return (
            not people
            and not table.holding_seats
            and not any(not conn.closed for conn in table.connections)
        )

    async def sweep_empty(self) -> list[str]:
        """Close every table that has been empty (:meth:`_empty`) for
        ``EMPTY_TABLE_CLOSE_MINUTES`` or longer, as the host's or opener's close does; a
        table's time starts when a sweep first finds it empty and restarts whenever someone
        is there. Returns the ids of the tables closed."""
        minutes = self.settings.empty_table_close_minutes
        if minutes <= 0:
            return []
        now = self.clock.now()
        due: list[TableActor] = []
        for table_id, table in list(self.tables.items()):
            if table.closed or table.suspended or not self._empty(table):
                self._empty_since.pop(table_id, None)
                continue
            since = self._empty_since.setdefault(table_id, now)
            if now - since >= minutes * 60:
                due.append(table)
        for table_id in set(self._empty_since) - set(self.tables):
            del self._empty_since[table_id]
        closed: list[str] = []
        for table in due:
            if table.closed or table.lock.locked() or not self._empty(table):
                continue  # someone came meanwhile, or the table is busy: the next sweep sees
            reason = notices.nobody_here(minutes)
            try:
                await table.shutdown(reason, close_table=True)
            except Exception as exc:  # the storage failed: the guard takes over
                log.error("empty table %s could not close: %s", table.table_id, error_line(exc))
                continue
            self._empty_since.pop(table.table_id, None)
            log.info("table %s closed: empty for %g minutes", table.table_id, minutes)
            closed.append(table.table_id)
        return closed

    def _hand_stored(self, hand_id: str) -> None:
        """A table committed a hand's record: tell :attr:`on_hand_stored` (whatever it does
        wrong is logged, never the table's)."""
        if self.on_hand_stored is None:
            return
        try:
            self.on_hand_stored(hand_id)
        except Exception:
            log.exception("hand %s: told stored, the listener failed", hand_id)

    # ------------------------------------------------------------------ when a write fails

    def _write_failed(self, table_id: str, exc: BaseException) -> None:
        """A job of ``table_id`` failed and the table suspended itself. A storage failure
        stops every table (the storage guard heard of it from the writer); another failure
        (a bug in the job) is this table's alone: it is rebuilt from the database now."""
        if storage_failure(exc):
            self.suspend_all(STORAGE_DOWN)
            return
        self._rebuilding.add(table_id)
        task = asyncio.create_task(self._rebuild_one(table_id))
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _rebuild_one(self, table_id: str) -> None:
        try:
            await self.rebuild(table_id)
        except Exception as exc:  # the storage failed meanwhile: the guard takes over
            log.error("table %s could not be rebuilt yet: %s", table_id, error_line(exc))

    def suspend_all(self, reason: str) -> None:
        """Every table stops at once (app/runtime/storage.py): none deals on what may not be
        stored."""
        for actor in list(self.tables.values()):
            actor.suspend(reason)

    async def rebuild_suspended(self) -> int:
        """Rebuild every table that stopped (storage is back); how many."""
        suspended = [t for t, actor in self.tables.items() if actor.suspended]
        for table_id in suspended:
            await self.rebuild(table_id)
        return len(suspended)

    async def rebuild(self, table_id: str) -> TableActor | None:
        """Put a stopped table back as the database holds it, as a restart would: its
        unfinished hand void (stakes back), seats and stacks from the ledger, the engine's
        state from its last stored state. A storage failure raises (the table stays
        stopped); the old actor is replaced only once the new one is built."""
        old = self.tables.get(table_id)
        if old is not None:
            old.suspend(REBUILDING)  # a table stopped for another's failure, say
        told = old.version + 1 if old is not None else 0
        actor = await self._recover_one(table_id, None, told)
        self._rebuilding.discard(table_id)
        if actor is not None:
            actor.notice(notices.NOT_SAVED)
            log.info("table %s rebuilt from the database", table_id)
        elif old is not None and self.tables.get(table_id) is old:
            del self.tables[table_id]
        return actor

    async def shutdown(self, reason: str) -> None:
        self._sweeper.stop()
        for table in list(self.tables.values()):
            await table.shutdown(reason)
        await self.writer.flush()
