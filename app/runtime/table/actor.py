"""One table's shell: the lock, the sockets, the timers, the writer and the house around the
table's core (docs/architecture.md, "The table").

The core (:class:`~app.runtime.table.core.TableCore`) decides; this shell carries out what
it decides. Every message, clock and host's call runs as one *section* under the table's
lock: the shell calls one step of the core, then carries out its
:class:`~app.runtime.table.effects.Effects` in their order (:meth:`TableActor._carry_out`):
the jobs go to the writer and are committed first; only then are the frames sent, the
sockets closed and the timers set. Should a job fail, nothing of the step is told: the
table stops (:meth:`TableActor._write_failed`) and is rebuilt from the database. Nothing
else happens at the table while a section waits for its commit.

Chat changes nothing of the game: it never waits for the lock, and its writes are queued,
not waited for.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from app.analysis.bots import DEFAULT_LEVEL, bot_action
from app.core.config import Settings
from app.core.security import same_secret
from app.db import store
from app.db.ledger import InsufficientFunds
from app.db.writer.base import DatabaseWriter, storage_failure
from app.games.core.cards import SeedSource, csprng_seed
from app.games.core.game import Game
from app.i18n.messages import N_, Text
from app.ops.clock import SYSTEM_CLOCK, Cancellable, Clock
from app.ops.logs import error_line, set_context
from app.ops.metrics import Metrics
from app.runtime.chat import TableChat
from app.runtime.connection import Connection
from app.runtime.house import House
from app.runtime.protocol import (
    Act,
    Chat,
    ErrorCode,
    Host,
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
    SwitchGame,
    TopUp,
    encode,
    kind_of,
)
from app.runtime.records import Away, SeatInfo
from app.runtime.story import Story
from app.runtime.table import switch
from app.runtime.table.core import (
    MOVED_CLOSE,
    REBUILDING,
    STORAGE_DOWN,
    UNAVAILABLE_CLOSE,
    TableCore,
    Thought,
)
from app.runtime.table.effects import BOTS, DECISION, NEXT_HAND, Effects, Job, Timer
from app.runtime.table.host_at_table import HOST_KINDS, Seating

log = logging.getLogger("table31.table")

BACKLOG_POLL_SECONDS = 0.5
_THINKING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def bot_thinking() -> asyncio.Lock:
    """One ``best`` bot of the loop thinks at a time (:meth:`TableActor._think`)."""
    loop = asyncio.get_running_loop()
    lock = _THINKING.get(loop)
    if lock is None:
        lock = _THINKING[loop] = asyncio.Lock()
    return lock


"""How often a table waiting for the database writer to catch up looks again (on average)."""
HOUSE_REFRESH_SECONDS = 0.05
"""How soon a house-banked table republishes its limits after the house moved elsewhere."""

__all__ = ["REBUILDING", "STORAGE_DOWN", "UNAVAILABLE_CLOSE", "TableActor"]


class TableActor:
    """One table: its core, and everyone connected to it, one section at a time."""

    def __init__(
        self,
        *,
        table_id: str,
        name: str,
        game_cls: type[Game],
        options: dict[str, Any],
        writer: DatabaseWriter,
        settings: Settings,
        created_by: str | None = None,
        seeds: SeedSource = csprng_seed,
        clock: Clock = SYSTEM_CLOCK,
        hands_played: int = 0,
        house: House | None = None,
        private: bool = False,
        invite_code: str | None = None,
        metrics: Metrics | None = None,
        host_id: str | None = None,
    ) -> None:
        self.core = TableCore(
            host_id=host_id,
            table_id=table_id,
            name=name,
            game_cls=game_cls,
            options=options,
            settings=settings,
            clock=clock.now,
            created_by=created_by,
            seeds=seeds,
            hands_played=hands_played,
            house=house,
            private=private,
            invite_code=invite_code,
            metrics=metrics,
        )
        self.table_id = table_id
        self.writer = writer
        self.settings = settings
        self.clock = clock
        self.metrics = self.core.metrics
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = self.core.watchers  # type: ignore[assignment]
        """The open sockets: the core's watchers, the same set."""
        self.moved: str | None = None
        """Cluster mode: why this actor stopped serving the table (another node serves it)."""
        self.on_write_failed: Callable[[str, BaseException], None] | None = None
        """The lobby hears of a job of this table's that failed (after the table stopped)."""
        self.room_id: str | None = None
        """The room this table is played in (app/runtime/rooms.py), or None."""
        self.on_switch: Callable[[TableActor, Connection, SwitchGame], Awaitable[None]] | None = (
            None
        )
        """The rooms' switch (app/runtime/rooms.py), for a ``switch_game`` at a room's table."""
        self.on_room_closed: Callable[[TableActor], Awaitable[None]] | None = None
        """The rooms hear of a room's table closed for good (not by a switch)."""
        self.on_hand_stored: Callable[[str], None] | None = None
        """The lobby hears of each hand whose record is committed (its id), after the commit:
        the hand's analysis is queued (app/runtime/analyses.py)."""
        self._due = Effects()
        self._timers: dict[str, tuple[int, Cancellable, Any]] = {}
        self._timer_turn = 0
        self._house_refresh: Cancellable | None = None
        self._chores: set[asyncio.Task[None]] = set()
        self._after_hand: tuple[Callable[..., Job], Callable[[], Awaitable[Any]]] | None = None
        """A room's switch asked for during a hand (its ``plan`` and ``built``, as
        :meth:`switch_room` takes them): run once the hand ends (:meth:`_switch_if_due`)."""
        if self.core.house is not None:
            self.core.house.listen(table_id, self._house_moved)

    # ------------------------------------------------------------------ the core, read

    @property
    def engine(self) -> Game:
        return self.core.engine

    @property
    def game_cls(self) -> type[Game]:
        return self.core.game_cls

    @property
    def name(self) -> str:
        return self.core.name

    @property
    def options(self) -> dict[str, Any]:
        return self.core.options

    @property
    def roster(self) -> dict[int, SeatInfo]:
        return self.core.roster

    @property
    def away(self) -> dict[int, Away]:
        return self.core.away

    @property
    def status(self) -> str:
        return self.core.status

    @property
    def closed(self) -> bool:
        return self.core.closed

    @property
    def suspended(self) -> bool:
        return self.core.suspended

    @property
    def created_by(self) -> str | None:
        return self.core.created_by

    @property
    def host_id(self) -> str | None:
        return self.core.host_id

    @property
    def private(self) -> bool:
        return self.core.private

    @property
    def invite_code(self) -> str | None:
        return self.core.invite_code

    @property
    def pause_reason(self) -> str | None:
        return self.core.pause_reason

    @property
    def message(self) -> str | None:
        return self.core.message

    @property
    def hand_id(self) -> str | None:
        return self.core.hand_id

    @property
    def version(self) -> int:
        return self.core.version

    @property
    def hands_played(self) -> int:
        return self.core.hands_played

    @property
    def resting(self) -> bool:
        return self.core.resting

    @property
    def story(self) -> Story:
        return self.core.story

    @property
    def chat(self) -> TableChat:
        return self.core.chat

    @property
    def house(self) -> House | None:
        return self.core.house

    @property
    def seeds(self) -> SeedSource:
        return self.core.seeds

    @property
    def draining(self) -> bool:
        return self.core.draining

    @draining.setter
    def draining(self, value: bool) -> None:
        self.core.draining = value

    @property
    def holding_seats(self) -> bool:
        """A buy-in is on its way to a seat here (the seat is held meanwhile)."""
        return bool(self.core.reserved)

    @property
    def leaving(self) -> set[int]:
        """The seats that stand up at the next moment the rules allow."""
        return self.core.pending_leave

    def seat_of(self, player_id: str | None) -> int | None:
        return self.core.seat_of(player_id)

    def is_connected(self, player_id: str) -> bool:
        return self.core.is_connected(player_id)

    def may_enter(self, player_id: str | None, invite: str | None) -> bool:
        """A private table is reachable only by its invite link (or by its opener and the
        players already seated); an open one by anyone."""
        return self.core.may_enter(player_id, invite, same_secret)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby and ``GET /api/tables/{id}`` show it (a room's table names
        its ``room_id``)."""
        out = self.core.summary()
        if self.room_id is not None:
            out["room_id"] = self.room_id
        return out

    def stored_state(self) -> dict[str, Any]:
        return self.core.stored_state()

    def may_moderate(self, player_id: str | None) -> bool:
        return self.core.may_moderate(player_id)

    def chat_history(self, player_id: str | None) -> dict[str, Any]:
        return self.core.chat_history(player_id)

    # ------------------------------------------------------------------ sections

    @asynccontextmanager
    async def _section(self) -> AsyncIterator[None]:
        """One thing at a time at the table: the core's steps taken in it are carried out
        at its end, still under the lock (the commit first, then the telling)."""
        async with self.lock:
            try:
                yield
            finally:
                due, self._due = self._due, Effects()
                _merge(due, self.core.take_effects())
                await self._carry_out(due)
                self._switch_if_due()

    def _take(self, fx: Effects) -> None:
        """A step's effects, carried out at the section's end."""
        _merge(self._due, fx)

    async def _carry_out(self, fx: Effects) -> None:
        """Store, then tell: the jobs are committed before any frame is sent."""
        if fx.stop:
            self._stop_clocks()
        for job in fx.background:
            self._submit(job.run, job.args, job.kwargs)
        futures = [self._submit(job.run, job.args, job.kwargs) for job in fx.jobs]
        if futures:
            failure: BaseException | None = None
            for outcome in await asyncio.gather(*futures, return_exceptions=True):
                if isinstance(outcome, BaseException) and failure is None:
                    failure = outcome
            if failure is not None:
                self._write_failed(failure)
                return
            if self.on_hand_stored is not None:
                for job in fx.jobs:
                    if job.run is store.hand_finished:  # committed: the hand is stored
                        self.on_hand_stored(job.args[0].hand_id)
        self._tell(fx)
        if not self.core.stopped:
            for name, timer in fx.timers.items():
                self._set_timer(name, timer)

    def _submit(
        self, run: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> asyncio.Future[Any]:
        try:
            return self.writer.submit(run, *args, **kwargs)
        except Exception as exc:  # a writer that cannot take it: a failed job
            failed: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            failed.set_exception(exc)
            return failed

    def _tell(self, fx: Effects) -> None:
        for conn, frame in fx.frames:
            conn.send(frame)  # type: ignore[attr-defined]
        for conn, code, reason in fx.closes:
            conn.close(code, reason)  # type: ignore[attr-defined]

    def _tell_now(self, fx: Effects) -> None:
        """Chat: queued for the writer, told at once (it moves no chip)."""
        for job in fx.background:
            self._submit(job.run, job.args, job.kwargs)
        self._tell(fx)

    def _write_failed(self, exc: BaseException) -> None:
        """A job of this table's failed: what the table holds in memory may not be stored.
        It stops at once, telling nobody of the change, and the lobby rebuilds it from the
        database once writes succeed (app/runtime/storage.py)."""
        if self.core.suspended or self.core.closed:
            return
        log.error(
            "table %s: a write failed (%s); the table stops until it is restored",
            self.table_id,
            error_line(exc),
        )
        self.suspend(STORAGE_DOWN if storage_failure(exc) else REBUILDING)
        if self.on_write_failed is not None:
            self.on_write_failed(self.table_id, exc)

    def suspend(self, reason: str) -> None:
        """Stop the table at once, telling nobody anything of its state in memory, and close
        its sockets with 4503 (docs/protocol/socket.md §3)."""
        fx = self.core.suspend(reason)
        self._stop_clocks()
        self._tell(fx)

    def drop(self, reason: str, writer: DatabaseWriter) -> None:
        """Cluster mode: stop serving this table AT ONCE and write nothing (another node
        serves it now: docs/scaling.md). Not under the lock, which a section waiting on the
        database may hold: ``writer`` (one that refuses every job) replaces the table's, and
        every section that wakes up finds the table closed."""
        self.moved = reason
        self.writer = writer
        fx = self.core.drop(reason)
        self._stop_clocks()
        self._tell(fx)

    # ------------------------------------------------------------------ timers

    def _set_timer(self, name: str, timer: Timer | None) -> None:
        old = self._timers.pop(name, None)
        if old is not None:
            old[1].cancel()
        if timer is None:
            return
        self._timer_turn += 1
        turn = self._timer_turn
        self._timers[name] = (
            turn,
            self.clock.call_later(timer.seconds, self._ring, name, turn, timer.key),
            timer.key,
        )

    def _ring(self, name: str, turn: int, key: Any) -> None:
        held = self._timers.get(name)
        if held is not None and held[0] == turn:
            del self._timers[name]
        self._spawn(self._timer_ran_out(name, key))

    async def _timer_ran_out(self, name: str, key: Any) -> None:
        thought = await self._think() if name == BOTS else None
        if name == NEXT_HAND:
            # Back-pressure: while the database writer is far behind (a slow disk, a server
            # at its limit), the next hand waits for it. Play in progress never waits, but
            # the finished hands queued in memory, and what a crash would void, stay bounded.
            while self.writer.pending > self.settings.writer_backlog:
                await self.clock.sleep(BACKLOG_POLL_SECONDS * (0.5 + self.core.rng.random()))
        async with self._section():
            set_context(self.table_id, self.core.hand_id)
            if name == DECISION:
                self._take(self.core.clock_ran_out(key))
            elif name == BOTS:
                self._take(self.core.bots_act(thought))
            else:
                self._take(self.core.deal_next())

    async def _think(self) -> Thought | None:
        """A ``best`` bot works out its choice on a copy of the table in a thread, one bot
        of the process at a time, so that the loop serves every table meanwhile (its
        analysis may take a good part of a second); the core takes it if nothing changed
        since (:meth:`TableCore.bots_act`). Other levels decide at once, in the core."""
        turn = self.core.bot_to_act()
        if turn is None or turn[1] != "best":
            return None
        seat = turn[0]
        version = self.core.version
        engine = copy.deepcopy(self.core.engine)
        rng = random.Random(self.core.rng.getrandbits(64))
        async with bot_thinking():
            action = await asyncio.to_thread(bot_action, engine, seat, "best", rng)
        return Thought(version, seat, action)

    async def ring_now(self, name: str) -> bool:
        """Run the timer ``name`` (``effects.NEXT_HAND``, ``BOTS``, ``DECISION``) now, as if it
        ran out, if it is set; whether it was (tests, where the table's timers are long)."""
        held = self._timers.pop(name, None)
        if held is None:
            return False
        held[1].cancel()
        await self._timer_ran_out(name, held[2])
        return True

    def _stop_clocks(self) -> None:
        """No clock, bot, next hand or chore of this table runs any more."""
        for _turn, handle, _key in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._chores):
            if task is not asyncio.current_task():
                task.cancel()
        if self._house_refresh is not None:
            self._house_refresh.cancel()
            self._house_refresh = None
        if self.core.house is not None:
            self.core.house.unlisten(self.table_id)

    def _spawn(self, chore: Any) -> None:
        """Run ``chore`` as a task the table keeps until it ends (cancelled at shutdown)."""
        self._chores.add(task := asyncio.create_task(chore))
        task.add_done_callback(self._chores.discard)

    def _house_moved(self) -> None:
        """The house's balance or another table's exposure changed: publish this table's new
        limits soon (at most every ``HOUSE_REFRESH_SECONDS``, however busy the others are)."""
        if self._house_refresh is None and not self.core.closed:
            self._house_refresh = self.clock.call_later(
                HOUSE_REFRESH_SECONDS, self._spawn_house_refresh
            )

    def _spawn_house_refresh(self) -> None:
        self._spawn(self._refresh_from_house())

    async def _refresh_from_house(self) -> None:
        async with self._section():
            self._house_refresh = None
            self._take(self.core.house_moved())

    # ------------------------------------------------------------------ connections

    async def connect(self, conn: Connection) -> None:
        async with self._section():
            if self.moved is not None:  # cluster mode: another node serves it now
                conn.close(MOVED_CLOSE, self.moved)
                return
            if self.core.suspended:
                conn.close(UNAVAILABLE_CLOSE, self.core.pause_reason or REBUILDING)
                return
            self._take(self.core.join(conn))

    async def disconnect(self, conn: Connection) -> None:
        async with self._section():
            self._take(self.core.part(conn))

    async def handle(self, conn: Connection, message: Message) -> None:
        """Apply one message from a client; errors go back to that client only."""
        try:  # each kind's handler is named by the protocol's registry (kind_of)
            await getattr(self, kind_of(message).handler)(conn, message)
        except ProtocolError as err:
            self.metrics.error(err.code)
            conn.send(err.to_message_text(conn.locale))

    async def on_ping(self, conn: Connection, _ping: Ping) -> None:
        conn.send(encode({"type": "pong"}))

    async def on_chat(self, conn: Connection, chat: Chat) -> None:
        # chat changes nothing of the game: it never waits for the lock
        self._tell_now(self.core.post(conn, chat.text))

    async def on_react(self, conn: Connection, react: React) -> None:
        self._tell_now(self.core.react(conn, react.reaction))

    async def on_mute(self, conn: Connection, mute: Mute) -> None:
        self.core.moderator(conn.player_id)
        self._tell_now(
            self.core.set_muted(mute.player_id, muted=mute.muted, by=conn.player_id, answer=conn)
        )

    async def on_remove_chat(self, conn: Connection, remove: RemoveChat) -> None:
        self.core.moderator(conn.player_id)
        self._tell_now(self.core.remove_chat(remove.id))

    async def on_stand_up(self, conn: Connection, stand: StandUp) -> None:
        # the table host's, over the socket (the server owner's is over REST)
        if not self.core.is_host(conn.player_id):
            raise ProtocolError(ErrorCode.NOT_ALLOWED, N_("only the table's host may"))
        await self.stand_up(stand.seat, stand.away_at_least)

    async def on_switch_game(self, conn: Connection, switch: SwitchGame) -> None:
        # a room's host switches the game: the rooms check and drive it (app/runtime/rooms.py)
        if self.room_id is None or self.on_switch is None:
            raise ProtocolError(ErrorCode.NOT_ALLOWED, N_("this table is no room's"))
        await self.on_switch(self, conn, switch)

    async def on_sit(self, conn: Connection, sit: Sit) -> None:
        # a buy-in waits for the database: it must not hold the table's lock meanwhile
        async with self._section():
            if self.core.needs_approval(conn.player_id):  # a request, for the host
                self._take(self.core.ask_seat(conn, sit))
                return
            seat = self.core.hold_seat(conn, sit)
        await self.seat_player(seat, conn.player_id or "", conn.name or "?", sit.buy_in)

    async def on_host(self, conn: Connection, host: Host) -> None:
        """One of the table host's actions; an approved request sits as a sit does."""
        async with self._section():
            set_context(self.table_id, self.core.hand_id)
            fx, seating = self.core.host_act(conn, host.id, host.action)
            self._take(fx)
        if seating is not None:
            await self._seat_approved(seating, host.id)

    async def give_host(self, player_id: str, by: str) -> None:
        """The host's role handed to ``player_id`` from outside the table (a room's REST)."""
        async with self._section():
            self._take(self.core.give_host(player_id, by))

    async def _seat_approved(self, seating: Seating, act_id: str) -> None:
        """The buy-in of an approved request, then the seat (the seat is held meanwhile);
        refused (no chips, the table changed), the host is told."""
        try:
            await self.seat_player(seating.seat, seating.player_id, seating.name, seating.buy_in)
        except ProtocolError as err:
            err.msg_id = act_id
            raise

    async def on_act(self, conn: Connection, act: Act) -> None:
        if act.action.get("kind") in HOST_KINDS:  # the host's, offered in its legal
            await self.on_host(conn, Host(act.id, act.action))
            return
        started = time.perf_counter()
        async with self._section():
            set_context(self.table_id, self.core.hand_id)
            self._take(self.core.act(conn, act))
            self.metrics.action(self.core.game_cls.id, time.perf_counter() - started)

    async def on_leave(self, conn: Connection, _leave: Leave) -> None:
        async with self._section():
            self._take(self.core.leave(conn))

    async def on_top_up(self, conn: Connection, top_up: TopUp) -> None:
        async with self._section():
            seat = self.core.check_top_up(conn, top_up)
            try:
                await self.writer.run(store.top_up, self.table_id, conn.player_id, top_up.amount)
            except InsufficientFunds:
                raise ProtocolError(
                    ErrorCode.INSUFFICIENT_FUNDS,
                    Text(N_("your bankroll does not hold {amount} chips"), amount=top_up.amount),
                ) from None
            self._take(self.core.topped_up(seat, top_up.amount))

    async def on_resync(self, conn: Connection, _resync: Resync) -> None:
        async with self._section():
            self._take(self.core.resync(conn))

    # ------------------------------------------------------------------ seats

    async def seat_player(
        self,
        seat: int,
        player_id: str,
        name: str,
        buy_in: int,
        *,
        is_bot: bool = False,
        bot_level: str = DEFAULT_LEVEL,
    ) -> None:
        """Move the buy-in from the bankroll (waiting for the database, WITHOUT the table's
        lock: play goes on meanwhile, the seat is held for this player), then seat. If the
        table refuses the seat by then, the buy-in goes straight back to the bankroll."""
        self.core.reserved[seat] = player_id
        try:
            level = bot_level if is_bot else None
            await self.writer.run(store.sit, self.table_id, seat, player_id, buy_in, level)
        except InsufficientFunds:
            self.core.release_seat(seat)
            raise ProtocolError(
                ErrorCode.INSUFFICIENT_FUNDS,
                Text(N_("your bankroll does not hold {amount} chips"), amount=buy_in),
            ) from None
        except BaseException:
            self.core.release_seat(seat)
            raise
        async with self._section():
            self._take(
                self.core.take_seat(
                    seat, player_id, name, buy_in, is_bot=is_bot, bot_level=bot_level
                )
            )

    async def hold_bot_seat(self, seat: int | None) -> int:
        """Hold a seat for a bot (the first free one, or ``seat``) while its buy-in is
        found; ValueError if there is none."""
        async with self._section():
            free = [
                s
                for s in range(self.engine.max_seats)
                if s not in self.core.roster and s not in self.core.reserved
            ]
            if seat is None:
                candidates = [
                    s
                    for s in free
                    if self.engine.buy_in_limits(s)[0] <= self.engine.buy_in_limits(s)[1]
                ]
                if not candidates:
                    raise ValueError(N_("the table is full"))
                seat = candidates[0]
            elif seat not in free:
                raise ValueError(Text(N_("seat {seat} is taken"), seat=seat))
            self.core.reserved[seat] = "bot"
            return seat

    def release_seat(self, seat: int) -> None:
        self.core.release_seat(seat)

    async def request_leave(self, seat: int) -> bool | None:
        """Stand ``seat`` up now if the rules allow it, else at the next moment they do:
        None if nobody sits there, else whether they have gone already."""
        async with self._section():
            if seat not in self.core.roster:
                return None
            self._take(self.core.request_leave(seat))
            return seat not in self.core.roster

    async def remove_bot(self, seat: int) -> bool | None:
        """Stand the bot in ``seat`` up, now if the rules allow, else at the next moment
        they do. None if no bot sits there; else whether it has left already."""
        async with self._section():
            left, fx = self.core.remove_bot(seat)
            self._take(fx)
            return left

    async def stand_up(self, seat: int, away_at_least: float) -> None:
        """The opener or the host stands up ``seat``, sitting out for at least
        ``away_at_least`` seconds."""
        async with self._section():
            self._take(self.core.stand_up(seat, away_at_least))

    # ------------------------------------------------------------------ chat over REST

    def set_muted(self, player_id: str, *, muted: bool, by: str | None) -> list[dict[str, str]]:
        self._tell_now(self.core.set_muted(player_id, muted=muted, by=by))
        return self.core.chat.muted_list()

    def remove_chat(self, message_id: int) -> None:
        self._tell_now(self.core.remove_chat(message_id))

    # ------------------------------------------------------------------ host and lobby

    def notice(self, text: str) -> None:
        self.core.notice(text)

    async def fix_seed(self, seed: bytes) -> None:
        """Tests only (the route refuses it elsewhere): the table deals from ``seed``."""
        async with self._section():
            self.core.fix_seed(seed)

    async def pause(self, reason: str | None) -> None:
        async with self._section():
            self._take(self.core.pause(reason))

    async def resume(self) -> None:
        async with self._section():
            self._take(self.core.resume())

    async def start(self, fx: Effects | None = None) -> None:
        """A restored table's first section: what its restore asks, then may it deal?"""
        async with self._section():
            if fx is not None:
                self._take(fx)

    async def hand_over(self, reason: str, release: Callable[[], Awaitable[bool]]) -> bool:
        """Cluster mode: the hand in play void, the clocks stopped, the state saved (queued)
        and the house's reservation given back; then ``release`` (the caller flushes the
        writer and gives the lease up), all under the lock: nothing happens at the table
        meanwhile. Returns what ``release`` does."""
        async with self.lock:
            await self._carry_out(self.core.hand_over(reason))
            return await release()

    async def switch_room(
        self,
        plan: Callable[[list[tuple[int, SeatInfo, int]], list[Any]], Job],
        built: Callable[[], Awaitable[dict[str, Any]]],
        *,
        after_hand: tuple[str, str] | None = None,
    ) -> bool:
        """A room leaves this table (app/runtime/rooms.py), all under the lock: the chips it
        holds released to the stacks, ``plan`` makes the switch's one job of them (``store
        .switch_room``, as the hosting writes a new table), it is committed, then ``built``
        (the new table made from the database) gives the ``room_switch`` frame every watcher
        is told before its socket closes. A refusal (:func:`switch.refusal`) raises, changing
        nothing; a failed job stops the table (it is rebuilt from the database): False.

        ``after_hand`` (the next game's id and title): asked while a hand is in play, the
        switch waits for it to end instead of being refused; no next hand is dealt
        meanwhile and everyone is told (:func:`switch.wait_for_hand`); False is returned."""
        async with self.lock:
            refused = switch.refusal(self.core)
            if refused is not None:
                if after_hand is None or not switch.waits_for_hand(self.core):
                    raise refused
                self._after_hand = (plan, built)
                await self._carry_out(switch.wait_for_hand(self.core, *after_hand))
                return False
            self._after_hand = None
            return await self._switch(plan, built)

    async def _switch(
        self,
        plan: Callable[[list[tuple[int, SeatInfo, int]], list[Any]], Job],
        built: Callable[[], Awaitable[dict[str, Any]]],
    ) -> bool:
        """The switch itself, under the lock (:meth:`switch_room`)."""
        fx = Effects(stop=True)
        fx.jobs.append(plan(*switch.release(self.core)))
        await self._carry_out(fx)
        if self.core.suspended:
            return False
        frame = await built()
        self._tell(switch.switched(self.core, frame))
        return True

    def _switch_if_due(self) -> None:
        """A section ended: a switch that waited for the hand runs now if it may (the hand
        is over, nobody's buy-in on its way, the table not paused)."""
        if self._after_hand is None:
            return
        if self.core.closed or self.core.stopped or self.core.suspended:
            self._after_hand = None  # the table went: so did the room's move from it
            return
        if switch.refusal(self.core) is None:
            self._spawn(self._switch_waited())

    async def _switch_waited(self) -> None:
        async with self.lock:
            pending, self._after_hand = self._after_hand, None
            if pending is None or switch.refusal(self.core) is not None:
                self._after_hand = self._after_hand or pending  # still waiting (or gone)
                return
            try:
                await self._switch(*pending)
            except Exception:
                log.exception("table %s: the room's switch after the hand failed", self.table_id)
                if not self.core.closed and not self.core.stopped:
                    self._tell(switch.waited(self.core))

    async def room_begun(self) -> None:
        """A room's new table tells everyone the switch that made it."""
        async with self._section():
            self._take(switch.begun(self.core))

    async def shutdown(self, reason: str, *, close_table: bool = False) -> None:
        """Void the hand in play (stakes back), stop the clocks, close the sockets once the
        returns are committed."""
        async with self._section():
            self._take(self.core.shut_down(reason, close_table=close_table))
        if close_table and self.core.closed and self.on_room_closed is not None:
            await self.on_room_closed(self)  # a room's table closed for good: so is the room


def _merge(into: Effects, fx: Effects) -> None:
    into.jobs.extend(fx.jobs)
    into.background.extend(fx.background)
    into.frames.extend(fx.frames)
    into.closes.extend(fx.closes)
    into.timers.update(fx.timers)
    into.stop = into.stop or fx.stop
