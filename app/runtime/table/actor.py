"""One table's actor: applies one thing at a time, sends each connection its own view, and
hands what must be stored to the writer (docs/architecture.md).

Everything that changes a table goes through sections under :attr:`TableActor.lock`, so the
engine sees one action at a time. After each change the actor

1. stamps the engine's new log events with the time,
2. if a hand ended, queues its record, ledger movements and the table's state as ONE
   database job (docs/rules.md §0: the record and its chips in one transaction),
3. bumps the version and sends every connection its own view (the engine's ``view`` is
   the single place where hidden cards are filtered),
4. re-arms the decision timer, the bots and the next hand.

A crash loses nothing: the database holds the stacks as they were before the hand being
played, that hand is marked void at restart, and the table continues from its last state.

The actor is one object, one lock and one state; its code is in rooms of one job each, the
classes it joins: :mod:`~app.runtime.table.presence` (ready to deal, sitting out),
:mod:`~app.runtime.table.seating` (sitting, topping up, leaving),
:mod:`~app.runtime.table.hand_record` (a hand's start, record and end),
:mod:`~app.runtime.table.voiding` (a void hand, the engine rebuilt),
:mod:`~app.runtime.table.broadcast` (each connection's state),
:mod:`~app.runtime.table.house_sync` (a house-banked table's limits),
:mod:`~app.runtime.table.clocks` and :mod:`~app.runtime.table.bots` (what happens when
nobody clicks), :mod:`~app.runtime.table.wording` (why an action does not fit),
:mod:`~app.runtime.table.chat` (the table's chat, reactions and their moderation), over the
state they share (:mod:`~app.runtime.table.state`). This module holds what comes in (a
connection, a message, the host) and what follows every change (:meth:`TableActor._changed`).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from app.core.security import same_secret
from app.db import store
from app.db.writer.base import DatabaseWriter
from app.games.core.actions import Action, action_fits
from app.games.core.cards import seeded_source
from app.games.core.errors import Refused
from app.ops.logs import set_context
from app.runtime.act_ids import AcceptedActs
from app.runtime.connection import Connection
from app.runtime.protocol import (
    Act,
    Chat,
    ErrorCode,
    Leave,
    Message,
    Mute,
    Ping,
    ProtocolError,
    React,
    RemoveChat,
    Resync,
    Sit,
    StandUp,
    TopUp,
    encode,
)
from app.runtime.table.bots import Bots
from app.runtime.table.broadcast import Broadcast
from app.runtime.table.chat import ChatRoom
from app.runtime.table.clocks import Clocks
from app.runtime.table.hand_record import HandRecord
from app.runtime.table.house_sync import HouseSync
from app.runtime.table.presence import TABLE_KINDS, Presence
from app.runtime.table.seating import Seating
from app.runtime.table.voiding import Voiding
from app.runtime.table.wording import explain

log = logging.getLogger("table31.table")


class TableActor(
    Presence, Seating, HandRecord, Voiding, Broadcast, HouseSync, Clocks, Bots, ChatRoom
):
    """The authoritative state of one table, in memory, and everyone connected to it: one
    actor per table, whose rooms (its base classes) share one state and one lock."""

    def may_enter(self, player_id: str | None, invite: str | None) -> bool:
        """A private table is reachable only by its invite link (or by its opener and the
        players already seated); an open one by anyone."""
        if not self.private:
            return True
        if invite and self.invite_code and same_secret(invite, self.invite_code):
            return True
        return player_id is not None and (
            player_id == self.created_by or self.seat_of(player_id) is not None
        )

    def summary(self) -> dict[str, Any]:
        """The table as the lobby and ``GET /api/tables/{id}`` show it."""
        low, high = self.engine.buy_in_limits(None)
        return {
            "table_id": self.table_id,
            "name": self.name,
            "game": self.game_cls.id,
            "game_title": self.game_cls.title,
            "options": dict(self.options),
            "buy_in": {"min": low, "max": high},
            "status": self.status,
            "paused": self.status == "paused",
            "pause_reason": self.pause_reason,
            "private": self.private,
            "max_seats": self.engine.max_seats,
            "seats": [
                {"seat": s, "player_id": i.player_id, "name": i.name, "bot": i.is_bot}
                for s, i in sorted(self.roster.items())
            ],
            "players": len(self.roster),
            "spectators": sum(1 for c in self.connections if self.seat_of(c.player_id) is None),
            "hands_played": self.hands_played,
            "in_hand": self.engine.in_hand,
            "resting": self.resting,
            "created_by": self.created_by,
        }

    # ------------------------------------------------------------------ connections

    async def connect(self, conn: Connection) -> None:
        async with self.lock:
            if self.moved is not None:  # cluster mode: another node serves it now
                conn.close(4409, self.moved[:120])
                return
            self.connections.add(conn)
            self._someone_came()  # a resting table deals again, from this state on
            self._changed(notify_only=conn if self.seat_of(conn.player_id) is None else None)
            self._send_chat_history(conn)  # after its first state (docs/protocol/socket.md §5.9)

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            if self._alone_since is None and not self._someone_here():
                self._alone_since = time.monotonic()
            if self.seat_of(conn.player_id) is not None and not self.closed:
                self._changed()

    async def handle(self, conn: Connection, message: Message) -> None:
        """Apply one message from a client; errors go back to that client only."""
        if isinstance(message, Ping):
            conn.send(encode({"type": "pong"}))
            return
        if isinstance(message, Chat | React | Mute | RemoveChat):
            try:  # chat changes nothing of the game: it never waits for the lock (chat.py)
                self._chat_message(conn, message)
            except ProtocolError as err:
                self.metrics.error(err.code)
                conn.send(encode(err.to_message()))
            return
        if isinstance(message, StandUp):
            try:  # the opener's, over the socket (the host's is over REST)
                if conn.player_id is None or conn.player_id != self.created_by:
                    raise ProtocolError(
                        ErrorCode.NOT_ALLOWED, "only the player who opened this table may"
                    )
                await self.stand_up(message.seat, message.away_at_least)
            except ProtocolError as err:
                self.metrics.error(err.code)
                conn.send(encode(err.to_message()))
            return
        if isinstance(message, Sit):
            # A buy-in waits for the database: it must not hold the table's lock meanwhile.
            try:
                await self._sit(conn, message)
            except ProtocolError as err:
                self.metrics.error(err.code)
                conn.send(encode(err.to_message()))
            return
        started = time.perf_counter()
        async with self.lock:
            set_context(self.table_id, self.hand_id)
            self._sync_house()
            try:
                if self.closed:
                    raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
                if isinstance(message, Act):
                    self._act(conn, message)
                    self.metrics.action(self.game_cls.id, time.perf_counter() - started)
                elif isinstance(message, Leave):
                    self._leave(conn)
                elif isinstance(message, TopUp):
                    await self._top_up(conn, message)
                elif isinstance(message, Resync):
                    self._send_state(conn)
            except ProtocolError as err:
                self.metrics.error(err.code)
                conn.send(encode(err.to_message()))

    # ------------------------------------------------------------------ acts

    def _act(self, conn: Connection, act: Act) -> None:
        seat = self.seat_of(conn.player_id)
        if seat is None or conn.player_id is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "sit down before you act", act.id)
        seen = self._accepted.get(conn.player_id)
        if seen is None:
            seen = self._accepted[conn.player_id] = AcceptedActs()
        if act.id in seen:
            conn.send(encode({"type": "ack", "id": act.id}))
            return
        if self.status == "paused":
            why = f": {self.pause_reason}" if self.pause_reason else ""
            raise ProtocolError(ErrorCode.TABLE_PAUSED, f"the host paused this table{why}", act.id)
        kind = act.action.get("kind")
        if kind not in self.game_cls.ACTION_KINDS and not (self.friends and kind in TABLE_KINDS):
            raise ProtocolError(
                ErrorCode.UNKNOWN_ACTION, f"{self.game_cls.title} has no action {kind!r}", act.id
            )

        def accepted() -> None:
            seen.add(act.id)
            conn.send(encode({"type": "ack", "id": act.id}))
            self._note_decision(seat, "player")

        if self.friends and kind in TABLE_KINDS:
            # the table's own actions (ready, deal_now, sit_out, sit_in): checked here, as no
            # engine knows them
            if not action_fits(act.action, self._table_legal(seat)):
                raise self._refused(act, seat)
            accepted()
            self._table_act(seat, act.action)
            return
        if self.status != "open" or seat in self.away:
            raise self._refused(act, seat)  # nothing of the game is offered now
        # the game's own action: the engine checks it against its legal, once (Game.apply)
        try:
            self._apply(seat, act.action, by="player", accepted=accepted)
        except Refused:
            raise self._refused(act, seat) from None

    def _refused(self, act: Act, seat: int) -> ProtocolError:
        """The error for an act that fits nothing offered to ``seat`` (nothing has changed):
        the table moved on since the view it was sent from, or nothing is the seat's to do,
        or the allowed range in words."""
        if act.version < self.version:
            return ProtocolError(
                ErrorCode.STALE_VERSION,
                f"the table has moved on (version {self.version}); look again",
                act.id,
            )
        templates = self._legal(seat)
        if not templates:
            return ProtocolError(ErrorCode.NOT_YOUR_TURN, "it is not your turn", act.id)
        return ProtocolError(ErrorCode.ILLEGAL_ACTION, explain(act.action, templates), act.id)

    def _apply(
        self, seat: int, action: Action, *, by: str, accepted: Callable[[], None] | None = None
    ) -> None:
        """Apply an action (the engine checks it: a player's that does not fit raises
        :class:`Refused`, nothing changed), call ``accepted`` once it is in, record it, and
        publish the change."""
        entry: dict[str, Any] = {"t": self.clock(), "seat": seat, "action": action}
        if by != "player":
            entry["by"] = by
        entry["v"] = self.version + 1  # the version this change is published as (replay)
        try:
            self.engine.apply(seat, action, by_clock=by == "timeout")
        except Refused:
            if by == "player":
                raise  # the sender is told; the table is as it was
            default = self.engine.default_action(seat)
            if by == "bot" and action != default:
                log.error("table %s: bot chose an illegal action %s", self.table_id, action)
                self._apply(seat, default, by="bot")
                return
            self._engine_failed(action)  # the clock's default outside legal: a bug
            return
        except Exception:
            self._engine_failed(action)
            return
        if accepted is not None:
            accepted()
        if self.hand_id is not None:
            self._actions.append(entry)
        else:
            # a decision between hands (a bank offer) changes the table's stored state
            self._state_dirty = True
        self._changed()

    def _engine_failed(self, action: Action) -> None:
        log.exception("table %s hand %s: engine failed on %s", self.table_id, self.hand_id, action)
        self._void_hand("the server hit an error; the hand is void and stakes returned")
        self._changed()

    # ------------------------------------------------------------------ after every change

    def _changed(self, notify_only: Connection | None = None) -> None:
        self._sync_house()
        if (self._pending_leave or self._pending_away) and self.engine.completed_pending is None:
            # whatever changed may let a pending leave go now (a window dealt with nobody
            # staking, a stake in prison settled, a decision made between hands); not at the
            # end of a hand, whose write must be queued before its leaves (below)
            self._process_leaves()
        now = self.clock()
        self._take_events(now)
        done = self.engine.take_completed()
        if done is not None:
            if self.house is not None:
                self.house.settle_at(self.table_id, done.transfers)
            # the hand's write is queued first, then the leaves it let go: a cash-out must
            # take the stack as the hand left it, never the one from before it
            self._finish_hand(done)
        self._take_events(now)  # what the leaves told (a banker who left ends the bank)
        if self._state_dirty and not self.engine.in_hand:
            self.writer.submit(store.save_table_state, self.table_id, self.stored_state())
        self._state_dirty = False
        if self.house is not None:
            self.house.note_exposure(self.table_id, self.engine.house_exposure())
        self._arm_timer()  # before the views go out, so they carry the new deadline
        if notify_only is not None and not self.story.pending:
            self._send_state(notify_only)
        else:
            self.version += 1
            self._broadcast()
        self._arm_bots()
        self._arm_next_hand()

    # ------------------------------------------------------------------ host and shutdown

    async def fix_seed(self, seed: bytes) -> None:
        """Tests only (the route refuses it elsewhere): every later shuffle of this table
        draws from :func:`app.games.core.cards.seeded_source` seeded by ``seed``, its bots from
        a generator seeded by it. Fixed before the first deal, the table deals (and its bots,
        seated by then, play) as another table given the same seed."""
        async with self.lock:
            self.seeds = seeded_source(seed)
            self.engine.seeds = self.seeds
            self.rng = random.Random(seed)

    async def pause(self, reason: str | None) -> None:
        """The host pauses the table: clocks stop, nobody acts until it resumes; the players
        see why."""
        async with self.lock:
            set_context(self.table_id, self.hand_id)
            log.info("paused by the host: %s", reason or "(no reason given)")
            self.status = "paused"
            self.pause_reason = reason
            self.writer.submit(store.set_table_status, self.table_id, "paused", reason)
            self._changed()

    async def resume(self) -> None:
        async with self.lock:
            set_context(self.table_id, self.hand_id)
            log.info("resumed by the host")
            self.status = "open"
            self.pause_reason = None
            self.writer.submit(store.set_table_status, self.table_id, "open")
            self._changed()

    async def shutdown(self, reason: str, *, close_table: bool = False) -> None:
        """Void the hand in play (stakes back), stop the clocks, close the sockets."""
        async with self.lock:
            set_context(self.table_id, self.hand_id)
            log.info("%s: %s", "closing" if close_table else "shutting down", reason)
            if self.hand_id is not None:
                self._void_hand(reason)
            self._stop_clocks()
            if close_table:
                self._close_for_good()
            self.message = reason
            self.version += 1
            self._broadcast()
            for conn in list(self.connections):
                conn.close(1001, reason[:120])

    def _stop_clocks(self) -> None:
        """No clock, bot, next hand or chore of this table runs any more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in (self._bot_task, self._next_hand_task, *self._chores):
            if task is not None:
                task.cancel()
        self._bot_task = self._next_hand_task = None
        if self._house_refresh is not None:
            self._house_refresh.cancel()
            self._house_refresh = None
        if self.house is not None:
            self.house.unlisten(self.table_id)

    def drop(self, reason: str, writer: DatabaseWriter) -> None:
        """Cluster mode: stop serving this table AT ONCE and write nothing (another node
        serves it now, or may any moment: docs/scaling.md). Not under the lock, which a
        section waiting on the database may hold: ``writer`` (one that refuses every job)
        replaces the table's, the clocks stop, the table counts as closed here (every
        section that wakes up finds it so), it risks nothing of the house here any more,
        and the sockets close with 4409, for their clients to ask the front again."""
        self.moved = reason
        self.writer = writer
        self._stop_clocks()
        self.status = "closed"
        if self.house is not None:
            self.house.forget(self.table_id)
        for conn in list(self.connections):
            conn.close(4409, reason[:120])
