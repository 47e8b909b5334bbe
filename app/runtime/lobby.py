"""Every table in this process, by id: opening, recovering at start-up, bots, shutdown."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from app.cluster import node_tables as cluster_node
from app.cluster.fence import is_fenced
from app.core.config import Settings
from app.core.names import BOT_MARK
from app.db import ledger, store
from app.db.store.recovery import void_unfinished_hand
from app.db.writer.base import DatabaseWriter
from app.games.core.accounts import is_seat
from app.games.core.cards import SeedSource, csprng_seed
from app.games.core.options import OptionError, parse_options
from app.games.core.registry import game_class
from app.ops.metrics import Metrics
from app.runtime.chat import CHAT_KEEP, Muted
from app.runtime.house import House
from app.runtime.protocol import ProtocolError
from app.runtime.records import SeatInfo, engine_account
from app.runtime.table.actor import TableActor
from app.runtime.table.hand_record import SEATED_KEY

log = logging.getLogger("table31.lobby")

BOT_NAMES = ("Ada", "Basil", "Clio", "Dmitri", "Elena", "Faustine", "Georgios", "Helga", "Ines")
BOT_NUMBERS = 12
"""Bots are named "Ada (bot)", then "Ada 2 (bot)" up to "Ines 11 (bot)": 99 names to choose
from, past the people's own names."""


def bot_names(used: set[str]) -> list[str]:
    """The names a new bot may take, in order of preference, none of them in ``used`` (the
    table's names): "Basil (bot)", then "Basil 2 (bot)" and so on. Every one ends with
    ``(bot)``, which no person's name may (app/core/names.py)."""
    names = [f"{n} {BOT_MARK}" for n in BOT_NAMES]
    names += [f"{n} {i} {BOT_MARK}" for i in range(2, BOT_NUMBERS) for n in BOT_NAMES]
    return [name for name in names if name not in used]


class LimitReached(Exception):
    """A player has used up a share of the server: tables opened, bots at a table (the routes
    answer 409 with the message)."""


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


def _one_line(exc: BaseException) -> str:
    """An exception as one short line for a log and the host's page: its type and message."""
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Lobby:
    """The table registry: one :class:`TableActor` per open table."""

    def __init__(self, writer: DatabaseWriter, settings: Settings, seeds: SeedSource = csprng_seed):
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
        self.node_id = settings.node_id if settings.cluster else ""
        """Cluster mode: this node's id (app/cluster/node.py); else empty."""
        self.epochs: dict[str, int] = {}
        """Cluster mode: the lease epoch under which this node serves each of its tables."""
        self.opened_elsewhere: Callable[[str], int] = lambda _player: 0
        """Cluster mode: the open tables a player opened that other nodes serve (the board)."""

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
        max_open: int = 0,
    ) -> TableActor:
        """Check the options (raising OptionError naming the field) and open a table. With
        ``max_open``, ``created_by`` may have at most that many open tables (LimitReached)."""
        offered = self.settings.game_ids
        if game not in offered:
            raise OptionError("game", f"unknown game {game!r}; choose one of {list(offered)}")
        cls = game_class(game)
        parsed = parse_options(cls.OPTIONS, options)
        cls(parsed, seeds=self.seeds)  # the engine checks options that depend on each other
        table_id = store.new_id()[:12]
        invite = secrets.token_urlsafe(12) if private else None
        opener = created_by or ""
        if max_open and created_by is not None:
            opened = self._opening.get(opener, 0) + self.opened_elsewhere(opener)
            opened += sum(t.created_by == opener and not t.closed for t in self.tables.values())
            if opened >= max_open:
                raise LimitReached(
                    f"you have {opened} open tables, the most one player may open: play at "
                    "one of them, or close one (its page has 'Close table' for its opener)"
                )
        self._opening[opener] = self._opening.get(opener, 0) + 1
        row: dict[str, Any] = {"table_id": table_id, "name": name, "game": game, "options": parsed}
        row |= {"created_by": created_by, "private": private, "invite_code": invite}
        try:
            if self.node_id:  # its lease too, in the same transaction (app/cluster/node.py)
                self.epochs[table_id] = await self.writer.run(
                    cluster_node.create_table_leased, self.node_id, **row
                )
            else:
                await self.writer.run(store.create_table, **row)
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
        self.tables[table_id] = actor
        return actor

    def _actor(self, **table: Any) -> TableActor:
        """A table's actor, wired to this process's writer, settings, seeds, house, metrics."""
        return TableActor(
            writer=self._writer_for(table["table_id"]),
            settings=self.settings,
            seeds=self.seeds,
            house=self.house,
            metrics=self.metrics,
            **table,
        )

    def _writer_for(self, table_id: str) -> DatabaseWriter:
        """The writer of a table's actor; in cluster mode every job goes through the fence of
        this node's lease on the table (app/cluster/fence.py)."""
        return cluster_node.table_writer(self, table_id) if self.node_id else self.writer

    async def adopt(self, table_id: str, epoch: int) -> TableActor | None:
        """Cluster mode: serve ``table_id`` under lease ``epoch`` (app/cluster/node.py): its
        unfinished hand void through the new fence, then restored as at a restart. None if
        it is closed, of a game not offered here, or could not be restored (closed now)."""
        self.epochs[table_id] = epoch
        if (actor := await self._recover_one(table_id, None)) is None:
            self.epochs.pop(table_id, None)
        return actor

    def drop(self, table_id: str, reason: str) -> None:
        """Cluster mode: stop serving ``table_id`` at once, writing nothing more for it."""
        self.epochs.pop(table_id, None)
        if (actor := self.tables.pop(table_id, None)) is not None:
            actor.drop(reason, cluster_node.Dropped(table_id))

    async def recover(self) -> None:
        """At start-up: void the hands a crash interrupted and reopen every table with its
        seated players, stacks and between-hands state (docs/protocol.md §5.7).

        Each table is recovered on its own: one whose stored state cannot be restored (or
        whose restored engine fails) is closed with every chip it holds returned through the
        ledger, logged, and listed in :attr:`recovery` for the host; every other table
        comes back. A node adopts the tables it claims instead (:meth:`adopt`)."""
        if self.node_id:
            return
        voided = await self.writer.run(store.void_unfinished_hands)
        self.recovery = Recovery(voided_hands=len(voided))
        for table_id in await self.writer.run(store.open_table_ids):
            await self._recover_one(table_id, table_id in voided)
        if self.tables or self.recovery.closed:
            log.info(
                "recovered %d tables (%d voided hands, %d closed)",
                self.recovery.recovered,
                len(voided),
                len(self.recovery.closed),
            )

    async def _recover_one(self, table_id: str, voided: bool | None) -> TableActor | None:
        """Restore one table (``voided`` None: void its unfinished hand first); one that
        cannot be restored is closed, its chips returned."""
        writer = self._writer_for(table_id)
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
            actor = self._restore(stored, voided)
            await self._restore_chat(actor)
            actor._arm_next_hand()  # the first thing a restored table does: may it deal?
        except Exception as exc:  # one table must not stop the others
            failed = self.tables.pop(table_id, None)
            if failed is not None and failed.house is not None:
                failed.house.forget(table_id)
            if self.node_id and is_fenced(exc):
                raise  # another node has it: nothing of it is this node's to close
            await self._close_unrestorable(table_id, exc)
            return None
        self.recovery.recovered += 1
        return actor

    def _restore(self, stored: store.StoredTable, voided: bool) -> TableActor:
        """A table's actor as it was stored: seats and stacks from the ledger, the engine's
        between-hands state reconciled with the seats taken now."""
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
        self.tables[stored.table_id] = actor
        seat_of = {s.player_id: s.seat for s in stored.seats}
        stacks: list[tuple[int, int]] = []
        for s in stored.seats:
            stack = stored.balances.get(ledger.stack(stored.table_id, s.player_id), 0)
            stacks.append((s.seat, stack))
            actor.roster[s.seat] = SeatInfo(s.player_id, s.name, s.is_bot)
        accounts: dict[str, int] = {}
        for account_id, amount in stored.balances.items():
            mapped = engine_account(account_id, stored.table_id, seat_of)
            if mapped is not None and not is_seat(mapped):
                accounts[mapped] = amount
            elif mapped is None and amount:
                raise RestoreError(f"{account_id} holds {amount} chips with nobody seated")
        if stored.state and not isinstance(stored.state, dict):
            raise RestoreError("the stored state is not an object")
        # the seats sitting out keep their seats and stacks, out of the engine (presence.py)
        away = actor.restore_presence(stored.state or None, dict(stacks))
        actor.engine = actor.game_cls.rebuild(
            actor.options,
            seeds=actor.seeds,
            stacks=[(seat, stack) for seat, stack in stacks if seat not in away],
            accounts=accounts,
            state=stored.state or None,
            # a void hand used its number up: the next hand is numbered after it
            hand_number=stored.last_hand_number,
            reconcile=True,
            seated_then=stored.state.get(SEATED_KEY) if stored.state else None,
        )
        actor.version = self.epochs.get(stored.table_id, 0) * cluster_node.VERSION_BASE
        if voided:
            actor.engine.on_void()
            moved = stored.table_id in self.epochs  # cluster mode: adopted from another node
            why = "The node serving this table stopped" if moved else "The server restarted"
            actor.notice(f"{why}: the hand in play was void, stakes returned.")
        actor.engine.take_log()
        actor.status = "paused" if stored.status == "paused" else "open"
        actor.pause_reason = stored.pause_reason if actor.status == "paused" else None
        # the reconciled state is the table's state from now on
        actor._state_dirty = bool(stored.state)
        if actor._state_dirty:
            actor.writer.submit(store.save_table_state, actor.table_id, actor.stored_state())
            actor._state_dirty = False
        return actor

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
        reason = f"could not be restored at start-up: {_one_line(exc)}"
        log.error("table %s %s", table_id, reason)
        try:
            closed = await self._writer_for(table_id).run(
                store.close_unrestorable_table, table_id, reason
            )
        except Exception as err:  # the server starts all the same
            log.error("table %s could not be closed either: %s", table_id, _one_line(err))
            self.recovery.closed.append(
                store.ClosedTable(table_id, "?", "?", f"{reason}; closing failed too", {})
            )
            return
        self.recovery.closed.append(closed)

    async def add_bot(
        self, table: TableActor, seat: int | None = None, *, max_bots: int = 0
    ) -> int:
        """Seat a bot playing the game's bot strategy, with a fresh bankroll of its own. With
        ``max_bots``, the table may hold at most that many bots (LimitReached)."""
        table_id = table.table_id
        async with table.lock:
            coming = self._bots_coming.get(table_id, 0)
            bots = coming + sum(1 for i in table.roster.values() if i.is_bot)
            if max_bots and bots >= max_bots:
                raise LimitReached(f"a table may have at most {max_bots} bots")
            self._bots_coming[table_id] = coming + 1
        try:
            return await self._add_bot(table, seat)
        finally:
            if self._bots_coming[table_id] > 1:
                self._bots_coming[table_id] -= 1
            else:
                del self._bots_coming[table_id]

    async def _add_bot(self, table: TableActor, seat: int | None) -> int:
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
            names = bot_names({i.name for i in table.roster.values()})
            table._reserved[seat] = "bot"
        try:
            # a name no person at this server has (the writer checks), none at this table
            player, name = await self.writer.run(
                store.create_bot, names, bankroll=max(buy_in, self.settings.starting_bankroll)
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
