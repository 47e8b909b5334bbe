"""One table's actor: applies one thing at a time, sends each connection its own view, and
hands what must be stored to the writer (STYLE.md §3).

Everything that changes a table goes through :meth:`TableActor._locked` sections, so the
engine sees one action at a time. After each change the actor

1. stamps the engine's new log events with the time,
2. if a hand ended, queues its record, ledger movements and the table's state as ONE
   database job (RULES.md §0: the record and its chips in one transaction),
3. bumps the version and sends every connection its own view (the engine's ``view`` is
   the single place where hidden cards are filtered),
4. re-arms the decision timer, the bots and the next hand.

A crash loses nothing: the database holds the stacks as they were before the hand being
played, that hand is marked void at restart, and the table continues from its last state.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.core.config import Settings
from app.core.security import same_secret
from app.db.session import encode_json
from app.games.base import Action, CompletedHand, Game, RuleError, action_fits, param_fits
from app.games.cards import SeedSource, csprng_seed
from app.ledger import record as ledger_record
from app.ops.logs import set_context
from app.ops.metrics import Metrics
from app.runtime import records, store
from app.runtime.act_ids import AcceptedActs
from app.runtime.connection import Connection
from app.runtime.house import House
from app.runtime.protocol import (
    Act,
    ErrorCode,
    Leave,
    Message,
    Ping,
    ProtocolError,
    Resync,
    Sit,
    TopUp,
    encode,
)
from app.runtime.records import SeatInfo
from app.runtime.writer import DatabaseWriter

log = logging.getLogger("table31.table")

NOTICE_SECONDS = 15.0
"""A notice (a void hand, a restart) stays at least this long, over the next deals: after a
restart the tables deal again before the players have reconnected to read it."""
HOUSE_REFRESH_SECONDS = 0.05
"""How soon a house-banked table republishes its limits after the house moved elsewhere."""
BACKLOG_POLL_SECONDS = 0.5
"""How often a table waiting for the database writer to catch up looks again (on average)."""
BOTS_RNG = random.Random()
"""The randomness of bots and of the back-pressure's waits, one for every table: a
generator's state is 2.5 KiB, half a KiB for each of a table's five sockets
(docs/performance.md §9). Shuffles never use it: they draw their own seeds (RULES.md §0)."""


@dataclass(slots=True)
class _Shared:
    """What every recipient's state shares (:meth:`TableActor._shared`)."""

    seat_by_player: dict[str, int]
    seat_extras: dict[int, dict[str, Any]]
    """Per occupied seat: ``player_id``, ``name``, ``bot``, ``connected``, ``leaving``."""
    table_head: dict[str, Any]
    """The view's ``table`` block up to ``message``; ``can_top_up`` is each viewer's own."""
    spectators: int

    def seat_of(self, player_id: str | None) -> int | None:
        return None if player_id is None else self.seat_by_player.get(player_id)


class TableActor:
    """The authoritative state of one table, in memory, and everyone connected to it."""

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
        clock: Callable[[], float] = time.time,
        hands_played: int = 0,
        house: House | None = None,
        private: bool = False,
        invite_code: str | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.game_cls = game_cls
        self.seeds = seeds
        self.engine = game_cls(options, seeds=seeds)
        self.options = self.engine.options
        self.writer = writer
        self.settings = settings
        self.created_by = created_by
        self.clock = clock
        self.house = house if game_cls.USES_HOUSE else None
        self.metrics = metrics or Metrics()
        self.private = private
        self.invite_code = invite_code
        self.lock = asyncio.Lock()
        self.roster: dict[int, SeatInfo] = {}
        self.connections: set[Connection] = set()
        self.version = 0
        self.status = "open"
        self.pause_reason: str | None = None
        self.hands_played = hands_played
        self.rng = BOTS_RNG
        # the hand being played
        self.hand_id: str | None = None
        self._hand_started: datetime | None = None
        self._before: tuple[dict[str, Any], dict[str, int], dict[int, SeatInfo]] | None = None
        self._events: list[dict[str, Any]] = []
        self._actions: list[dict[str, Any]] = []
        self._hand_roster: dict[int, SeatInfo] = {}
        # clocks and chores
        self.deadline: float | None = None
        self._timer_key: tuple[Any, ...] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._next_hand_task: asyncio.Task[None] | None = None
        self._pending_leave: set[int] = set()
        self._reserved: dict[int, str] = {}
        """Seats held for a player whose buy-in the database is moving."""
        self._accepted: dict[str, AcceptedActs] = {}
        """Each player's last accepted act ids (resends are acknowledged, not applied)."""
        self.message: str | None = None
        self._notice_until = 0.0
        self._state_dirty = False
        self._house_refresh: asyncio.TimerHandle | None = None
        self._chores: set[asyncio.Task[None]] = set()
        if self.house is not None:
            self.house.listen(self.table_id, self._house_moved)

    # ------------------------------------------------------------------ who is here

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, info in self.roster.items():
            if info.player_id == player_id:
                return seat
        return None

    def is_connected(self, player_id: str) -> bool:
        return any(c.player_id == player_id and not c.closed for c in self.connections)

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

    @property
    def closed(self) -> bool:
        return self.status == "closed"

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
            "created_by": self.created_by,
        }

    # ------------------------------------------------------------------ connections

    async def connect(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.add(conn)
            self._changed(notify_only=conn if self.seat_of(conn.player_id) is None else None)

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            if self.seat_of(conn.player_id) is not None and not self.closed:
                self._changed()

    async def handle(self, conn: Connection, message: Message) -> None:
        """Apply one message from a client; errors go back to that client only."""
        if isinstance(message, Ping):
            conn.send(encode({"type": "pong"}))
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
        if kind not in self.game_cls.ACTION_KINDS:
            raise ProtocolError(
                ErrorCode.UNKNOWN_ACTION, f"{self.game_cls.title} has no action {kind!r}", act.id
            )
        templates = self.engine.legal_actions(seat)
        if not action_fits(act.action, templates):
            if act.version < self.version:
                raise ProtocolError(
                    ErrorCode.STALE_VERSION,
                    f"the table has moved on (version {self.version}); look again",
                    act.id,
                )
            if not templates:
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "it is not your turn", act.id)
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, _explain(act.action, templates), act.id)
        seen.add(act.id)
        conn.send(encode({"type": "ack", "id": act.id}))
        self._apply(seat, act.action, by="player")

    def _apply(self, seat: int, action: Action, *, by: str) -> None:
        """Apply a checked action, record it, and publish the change."""
        entry: dict[str, Any] = {"t": self.clock(), "seat": seat, "action": action}
        if by != "player":
            entry["by"] = by
        entry["v"] = self.version + 1  # the version this change is published as (replay)
        try:
            self.engine.apply(seat, action)
        except Exception:
            log.exception(
                "table %s hand %s: engine failed on %s", self.table_id, self.hand_id, action
            )
            self._void_hand("the server hit an error; the hand is void and stakes returned")
            self._changed()
            return
        if self.hand_id is not None:
            self._actions.append(entry)
        else:
            # a decision between hands (a bank offer) changes the table's stored state
            self._state_dirty = True
        self._changed()

    # ------------------------------------------------------------------ seats

    async def _sit(self, conn: Connection, sit: Sit) -> None:
        async with self.lock:
            if self.closed:
                raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
            if conn.player_id is None:
                raise ProtocolError(ErrorCode.UNAUTHORIZED, "sign in before you sit down")
            if (
                self.seat_of(conn.player_id) is not None
                or conn.player_id in self._reserved.values()
            ):
                raise ProtocolError(ErrorCode.ALREADY_SEATED, "you are already seated")
            if self.status == "paused":
                raise ProtocolError(ErrorCode.TABLE_PAUSED, "the host paused this table")
            if self.engine.table_over:
                raise ProtocolError(ErrorCode.TABLE_CLOSED, self.engine.table_over)
            seat = sit.seat if sit.seat is not None else self._free_seat()
            if seat is None:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, "the table is full")
            if not 0 <= seat < self.engine.max_seats:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, f"seats are 0 to {self.engine.max_seats - 1}"
                )
            if seat in self.roster or seat in self._reserved:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
            low, high = self.engine.buy_in_limits(seat)
            if not low <= sit.buy_in <= high:
                raise ProtocolError(
                    ErrorCode.BAD_BUY_IN,
                    f"the buy-in at this seat is {low}"
                    if low == high
                    else f"the buy-in is from {low} to {high} chips",
                )
            self._reserved[seat] = conn.player_id
        await self.seat_player(seat, conn.player_id, conn.name or "?", sit.buy_in)

    async def seat_player(
        self, seat: int, player_id: str, name: str, buy_in: int, *, is_bot: bool = False
    ) -> None:
        """Move the buy-in from the bankroll (waiting for the database, WITHOUT the table's
        lock: play goes on meanwhile, the seat is held for this player), then seat. If the
        table refuses the seat by then, the buy-in goes straight back to the bankroll."""
        from app.ledger import InsufficientFunds

        self._reserved[seat] = player_id
        try:
            await self.writer.run(store.sit, self.table_id, seat, player_id, buy_in)
        except InsufficientFunds:
            self._reserved.pop(seat, None)
            raise ProtocolError(
                ErrorCode.INSUFFICIENT_FUNDS, f"your bankroll does not hold {buy_in} chips"
            ) from None
        except BaseException:
            self._reserved.pop(seat, None)
            raise
        async with self.lock:
            self._reserved.pop(seat, None)
            try:
                if self.closed:
                    raise RuleError(ErrorCode.TABLE_CLOSED, "this table closed meanwhile")
                self.engine.sit(seat, buy_in)
            except RuleError as err:
                self.writer.submit(store.leave, self.table_id, seat, player_id)
                raise ProtocolError(err.code, err.message) from None
            self._seat_taken(seat, player_id, name, buy_in, is_bot)

    def _seat_taken(self, seat: int, player_id: str, name: str, buy_in: int, is_bot: bool) -> None:
        self._note_roster(seat, "sit", buy_in)
        info = SeatInfo(player_id, name, is_bot)
        self.roster[seat] = info
        if self.hand_id is not None:
            self._hand_roster[seat] = info
        self._changed()

    def _free_seat(self) -> int | None:
        for seat in range(self.engine.max_seats):  # the table's seats, then standing room
            if seat not in self.roster and seat not in self._reserved:
                low, high = self.engine.buy_in_limits(seat)
                if low <= high:
                    return seat
        return None

    def _leave(self, conn: Connection) -> None:
        seat = self.seat_of(conn.player_id)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you are not seated")
        self.request_leave(seat)

    async def remove_bot(self, seat: int) -> bool | None:
        """Stand the bot in ``seat`` up, now if the rules allow, else at the next moment
        they do. None if no bot sits there; else whether it has left already."""
        async with self.lock:
            info = self.roster.get(seat)
            if info is None or not info.is_bot:
                return None
            self.request_leave(seat)
            return seat not in self.roster

    def request_leave(self, seat: int) -> None:
        """Stand up now if the rules allow it, else at the next moment they do."""
        self._pending_leave.add(seat)
        self._process_leaves()
        self._changed()

    def _process_leaves(self) -> None:
        for seat in sorted(self._pending_leave):
            if seat not in self.roster:
                self._pending_leave.discard(seat)
                continue
            if not self.engine.can_leave(seat) or self._in_open_hand(seat):
                continue
            self.engine.leave(seat)
            self._note_roster(seat, "leave")
            info = self.roster.pop(seat)
            self._pending_leave.discard(seat)
            self.writer.submit(store.leave, self.table_id, seat, info.player_id)

    def _in_open_hand(self, seat: int) -> bool:
        """A seat that was at the table when the hand in play began stands up when it ends,
        even where the rules would let it go sooner (a Trente et Quarante punter without a
        stake in the coup): were the hand voided, the table goes back to how it was when the
        hand began (RULES.md §0, "A hand"), and that seat with it."""
        return self._before is not None and f"seat:{seat}" in self._before[1]

    async def _top_up(self, conn: Connection, top_up: TopUp) -> None:
        from app.ledger import InsufficientFunds

        seat = self.seat_of(conn.player_id)
        if seat is None or conn.player_id is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you are not seated")
        if not self.engine.can_top_up(seat):
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, "you cannot add chips now")
        player_id = conn.player_id
        try:
            await self.writer.run(store.top_up, self.table_id, player_id, top_up.amount)
        except InsufficientFunds:
            raise ProtocolError(
                ErrorCode.INSUFFICIENT_FUNDS,
                f"your bankroll does not hold {top_up.amount} chips",
            ) from None
        self.engine.add_chips(seat, top_up.amount)
        self._note_roster(seat, "top_up", top_up.amount)
        self._changed()

    def _note_roster(self, seat: int, change: str, amount: int | None = None) -> None:
        """A sit, top-up or leave during a hand goes in its record, so the hand replays."""
        if self.hand_id is None:
            return
        entry: dict[str, Any] = {"t": self.clock(), "seat": seat, "roster": change}
        if amount is not None:
            entry["amount"] = amount
        entry["v"] = self.version + 1
        self._actions.append(entry)

    # ------------------------------------------------------------------ hands

    def _start_hand(self) -> None:
        if self.engine.in_hand or self.status != "open" or not self.engine.can_start():
            return
        before = (self.engine.snapshot(), dict(self.engine.balances), dict(self.roster))
        try:
            self.engine.start_hand()
        except RuleError:
            return
        self._before = before
        if self.clock() >= self._notice_until:
            self.message = None  # a notice lasts until a deal, NOTICE_SECONDS at least
        self.hand_id = store.new_id()
        self._hand_started = datetime.now(UTC)
        self._hand_roster = dict(self.roster)
        # events since the last hand (a bank changing hands) open this hand's record
        self._actions = []
        hand_id, number, started = self.hand_id, self.engine.hand_number, self._hand_started
        set_context(self.table_id, hand_id)
        log.debug("hand %d dealt: %d seated", number, len(self.roster))
        self.writer.submit(
            store.hand_started,
            hand_id=hand_id,
            table_id=self.table_id,
            game=self.game_cls.id,
            number=number,
            started_at=started,
        )
        self._changed()

    def _finish_hand(self, done: CompletedHand) -> None:
        assert self.hand_id is not None and self._before is not None
        snapshot_before, balances_before, _ = self._before
        roster = self._hand_roster
        ended = datetime.now(UTC)
        net = records.net_by_seat(done.transfers)
        acted = {entry["seat"] for entry in self._actions if "action" in entry}
        record: dict[str, Any] = {
            "version": records.RECORD_VERSION,
            "hand_id": self.hand_id,
            "table_id": self.table_id,
            "game": self.game_cls.id,
            "number": self.engine.hand_number,
            "options": dict(self.options),
            "started_at": self._hand_started.isoformat() if self._hand_started else None,
            "ended_at": ended.isoformat(),
            "seats_before": records.seats_listing(roster, balances_before),
            "seats_after": records.seats_listing(roster, self.engine.balances),
            "events": self._events,
            "actions": self._actions,
            "shuffles": {
                "new": [s.commit for s in done.new_shuffles],
                "retired": [s.commit for s in done.retired_shuffles],
            },
            "settlement": records.settlement(done.transfers, roster),
            "summary": done.summary,
            "private": {
                "start_state": snapshot_before,
                "balances_before": balances_before,
                "shuffle_seeds": [s.seed.hex() for s in done.new_shuffles],
            },
        }
        finished = store.FinishedHand(
            hand_id=self.hand_id,
            table_id=self.table_id,
            game=self.game_cls.id,
            number=self.engine.hand_number,
            started_at=self._hand_started or ended,
            ended_at=ended,
            movements=records.movements(done.transfers, self.table_id, roster),
            record=encode_json(record),
            # who played: seated when it began, or sat down during it and acted in it (a
            # Trente et Quarante punter joining the betting window) or had chips moved
            players={
                info.player_id: (seat, net.get(seat, 0))
                for seat, info in roster.items()
                if f"seat:{seat}" in balances_before or seat in net or seat in acted
            },
            staked=int(done.summary.get("staked", 0)),
            new_shoes=[
                {"commit": s.commit, "seed": s.seed.hex(), "source": s.source}
                for s in done.new_shuffles
            ],
            retired_commits=[s.commit for s in done.retired_shuffles],
            table_state=encode_json(self.engine.snapshot()),
        )
        self.writer.submit(store.hand_finished, finished)
        log.info(
            "hand %d settled: %d chips moved, net %s",
            finished.number,
            sum(m.amount for m in finished.movements),
            {seat: amount for seat, amount in net.items() if amount},
        )
        self.metrics.hand_settled(self.game_cls.id)
        self.hands_played += 1
        self._events = []
        self.hand_id = None
        self._before = None
        self._process_leaves()

    def notice(self, text: str) -> None:
        """Tell everyone at the table something (shown with the table until a later deal)."""
        self.message = text
        self._notice_until = self.clock() + NOTICE_SECONDS

    def _void_hand(self, reason: str) -> None:
        """Put the table back as it was before the hand; the hand is void, stakes back."""
        if self._before is None or self.hand_id is None:
            return
        snapshot, balances, _ = self._before
        engine = self.game_cls(dict(self.options), seeds=self.seeds)
        for account, amount in balances.items():
            if account.startswith("seat:"):
                engine.sit(int(account[5:]), amount)
        for account, amount in balances.items():
            if not account.startswith("seat:"):
                engine.balances[account] = amount
        for seat in self.roster:  # players who sat down during the voided hand
            account = f"seat:{seat}"
            if account not in balances:
                engine.sit(seat, self.engine.balances.get(account, 0))
        engine.restore(snapshot)
        engine.hand_number = self.engine.hand_number
        engine.on_void()
        engine.take_log()
        self.engine = engine
        hand_id = self.hand_id
        log.warning("hand void: %s", reason)
        self.writer.submit(store.mark_void, hand_id, reason)
        self.hand_id = None
        self._before = None
        self.notice(reason)

    # ------------------------------------------------------------------ after every change

    def _sync_house(self) -> None:
        """Tell a house-banked game what the house can put at risk at this table now."""
        if self.house is not None:
            self.engine.house_available = self.house.available_for(  # type: ignore[attr-defined]
                self.table_id
            )

    def _house_moved(self) -> None:
        """The house's balance or another table's exposure changed: publish this table's new
        limits soon (at most every ``HOUSE_REFRESH_SECONDS``, however busy the others are)."""
        if self._house_refresh is None and not self.closed:
            self._house_refresh = asyncio.get_running_loop().call_later(
                HOUSE_REFRESH_SECONDS, self._spawn_house_refresh
            )

    def _spawn_house_refresh(self) -> None:
        self._spawn(self._refresh_from_house())

    async def _refresh_from_house(self) -> None:
        async with self.lock:
            self._house_refresh = None
            if self.closed or self.house is None:
                return
            offered = self.engine.house_available  # type: ignore[attr-defined]
            if offered == self.house.available_for(self.table_id):
                return  # nothing this table offers has changed
            set_context(self.table_id, self.hand_id)
            self._changed()

    def _changed(self, notify_only: Connection | None = None) -> None:
        self._sync_house()
        now = self.clock()
        for event in self.engine.take_log():
            event["t"] = now
            self._events.append(event)
        done = self.engine.take_completed()
        if done is not None:
            if self.house is not None:
                self.house.settle(done.transfers)
            self._finish_hand(done)
        elif self._state_dirty and not self.engine.in_hand:
            state = self.engine.snapshot()
            self.writer.submit(store.save_table_state, self.table_id, state)
        self._state_dirty = False
        if self.house is not None:
            self.house.note_exposure(self.table_id, self.engine.house_exposure())
        self._arm_timer()  # before the views go out, so they carry the new deadline
        if notify_only is not None:
            self._send_state(notify_only)
        else:
            self.version += 1
            self._broadcast()
        self._arm_bots()
        self._arm_next_hand()

    def _shared(self) -> _Shared:
        """What every viewer's state shares, built once per broadcast: who sits where, each
        seat's name and flags, and the ``table`` block but ``can_top_up``."""
        engine = self.engine
        seat_by_player: dict[str, int] = {}
        for seat, info in self.roster.items():
            seat_by_player.setdefault(info.player_id, seat)  # as seat_of: the first seat
        connected = {c.player_id for c in self.connections if not c.closed}
        seat_extras = {
            seat: {
                "player_id": info.player_id,
                "name": info.name,
                "bot": info.is_bot,
                "connected": info.is_bot or info.player_id in connected,
                "leaving": seat in self._pending_leave,
            }
            for seat, info in self.roster.items()
        }
        low, high = engine.buy_in_limits(None)
        table_seats, max_seats = engine.table_seats, engine.max_seats
        table_head = {
            "name": self.name,
            "status": self.status,
            "pause_reason": self.pause_reason,
            "max_seats": max_seats,
            "table_seats": table_seats,
            "free_seats": [
                s
                for s in range(table_seats)
                if s not in self.roster and _fits(engine.buy_in_limits(s))
            ],
            "standing_room": sum(1 for s in range(table_seats, max_seats) if s not in self.roster),
            "buy_in": {"min": low, "max": high},
            "over": engine.table_over,
            "message": self.message,
        }
        spectators = sum(1 for c in self.connections if c.player_id not in seat_by_player)
        return _Shared(seat_by_player, seat_extras, table_head, spectators)

    def _view(self, shared: _Shared, seat: int | None, view: dict[str, Any]) -> dict[str, Any]:
        """Complete the engine's view of ``seat`` with what the runtime adds (PROTOCOL.md,
        "The view"): each seat's player, ``you``, ``legal``, the clock and the table."""
        extras = shared.seat_extras
        # Trente et Quarante also lists its standing bettors, who are in no seat of the table.
        for entries in (view.get("seats", ()), view.get("bettors", ())):
            for entry in entries:
                extra = extras.get(entry.get("seat", -1))
                if extra is not None:
                    entry.update(extra)
        table = dict(shared.table_head)
        table["can_top_up"] = seat is not None and self.engine.can_top_up(seat)
        table["spectators"] = shared.spectators
        view.update(
            table_id=self.table_id,
            game=self.game_cls.id,
            hand_id=self.hand_id,
            you=seat,
            # a paused table accepts no action, so it offers none (PROTOCOL.md: exact legal)
            legal=self.engine.legal_actions(seat)
            if seat is not None and self.status == "open"
            else [],
            deadline=self.deadline,
            table=table,
        )
        return view

    def _state_message(self, shared: _Shared, seat: int | None, view: dict[str, Any]) -> str:
        view = self._view(shared, seat, view)
        return encode({"type": "state", "version": self.version, "view": view})

    def _send_state(self, conn: Connection) -> None:
        self._sync_house()
        shared = self._shared()
        seat = shared.seat_of(conn.player_id)
        conn.send(self._state_message(shared, seat, self.engine.view(seat)))

    def _broadcast(self) -> None:
        """Send every connection its own state: what all share is built once, the engine's
        views once per distinct seat (:meth:`Game.views`), each encoded once."""
        if not self.connections:
            return
        self._sync_house()
        shared = self._shared()
        recipients = [(conn, shared.seat_of(conn.player_id)) for conn in self.connections]
        views = self.engine.views(dict.fromkeys(seat for _, seat in recipients))
        texts = {seat: self._state_message(shared, seat, view) for seat, view in views.items()}
        for conn, seat in recipients:
            conn.send(texts[seat])

    # ------------------------------------------------------------------ timers, bots, next hand

    def _arm_timer(self) -> None:
        """Set the decision clock the engine asks for. A clock is a timer handle of the
        loop, not a task: it is re-set at almost every change, and a handle is cheap to
        cancel; only a clock that runs out starts a task, to take the table's lock."""
        timer = self.engine.timer() if self.status == "open" else None
        key = timer.key if timer is not None else None
        if key == self._timer_key and (key is None or self._timer is not None):
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_key = key
        if timer is None:
            self.deadline = None
            return
        self.deadline = self.clock() + timer.seconds
        self._timer = asyncio.get_running_loop().call_later(
            timer.seconds, self._clock_ran_out, timer.key
        )

    def _clock_ran_out(self, key: tuple[Any, ...]) -> None:
        self._spawn(self._timeout(key))

    def _spawn(self, chore: Coroutine[Any, Any, None]) -> None:
        """Run ``chore`` as a task the table keeps until it ends (cancelled at shutdown)."""
        self._chores.add(task := asyncio.create_task(chore))
        task.add_done_callback(self._chores.discard)

    async def _timeout(self, key: tuple[Any, ...]) -> None:
        """The decision clock ``key`` ran out: the engine's timeout actions, unless the table
        moved on while this waited for the lock."""
        async with self.lock:
            if self._timer_key != key or self.closed:
                return
            set_context(self.table_id, self.hand_id)
            self._sync_house()
            self._timer = None
            self._timer_key = None
            for seat, action in self.engine.timeout_actions():
                self._apply(seat, action, by="timeout")

    def _arm_bots(self) -> None:
        if self._bot_task is not None or self.status != "open":
            return
        if any(self.roster.get(s, SeatInfo("", "")).is_bot for s in self.engine.to_act()):
            self._bot_task = asyncio.create_task(self._bots_act())

    async def _bots_act(self) -> None:
        await asyncio.sleep(self.settings.bot_delay_seconds)
        async with self.lock:
            self._bot_task = None
            if self.status != "open":
                return
            self._sync_house()
            for seat in sorted(self.engine.to_act()):
                info = self.roster.get(seat)
                if info is None or not info.is_bot or seat not in self.engine.to_act():
                    continue
                action = self.engine.bot_action(seat, self.rng)
                if action_fits(action, self.engine.legal_actions(seat)):
                    self._apply(seat, action, by="bot")
                else:
                    log.error("table %s: bot chose an illegal action %s", self.table_id, action)
                    self._apply(seat, self.engine.default_action(seat), by="bot")
                break

    def _arm_next_hand(self) -> None:
        if (
            self._next_hand_task is not None
            or self.status != "open"
            or self.engine.in_hand
            or self.engine.table_over
            or not self.engine.can_start()
        ):
            return
        self._next_hand_task = asyncio.create_task(self._next_hand())

    async def _next_hand(self) -> None:
        await asyncio.sleep(self.settings.next_hand_seconds if self.hands_played else 0.3)
        # Back-pressure: while the database writer is far behind (a slow disk, a server at
        # its limit), the next hand waits for it. Play in progress never waits, but the
        # finished hands queued in memory, and what a crash would void, stay bounded.
        while self.writer.pending > self.settings.writer_backlog:
            await asyncio.sleep(BACKLOG_POLL_SECONDS * (0.5 + self.rng.random()))
        async with self.lock:
            self._next_hand_task = None
            self._sync_house()
            self._start_hand()

    # ------------------------------------------------------------------ host and shutdown

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
            if close_table:
                self._close_for_good()
            self.message = reason
            self.version += 1
            self._broadcast()
            for conn in list(self.connections):
                conn.close(1001, reason[:120])

    def _close_for_good(self) -> None:
        """Release every chip held by the table to its owner, stand everyone up (stacks back
        to bankrolls), and mark the table closed."""
        self.engine.transfers = []
        self.engine.release_all()
        released = records.movements(self.engine.transfers, self.table_id, self.roster)
        self.engine.transfers = []
        if released:
            self.writer.submit(ledger_record, released, table_id=self.table_id)
        for seat, info in sorted(self.roster.items()):
            if self.engine.can_leave(seat):
                self.engine.leave(seat)
            else:  # mid-match: the chips it held were released above
                self.engine.on_leave(seat)
                self.engine.balances.pop(f"seat:{seat}", None)
            self.writer.submit(store.leave, self.table_id, seat, info.player_id)
        self.roster.clear()
        self.status = "closed"
        self.writer.submit(store.set_table_status, self.table_id, "closed")
        if self.house is not None:
            self.house.forget(self.table_id)


def _fits(limits: tuple[int, int]) -> bool:
    return limits[0] <= limits[1]


def _explain(action: Action, templates: list[dict[str, Any]]) -> str:
    """Say in words why an action does not fit, without revealing anything hidden: the first
    parameter that fails in the template of that kind that fits best."""
    kind = action.get("kind")
    same = [t for t in templates if t["kind"] == kind]
    if not same:
        allowed = ", ".join(sorted({t["kind"] for t in templates}))
        return f"you cannot {kind} now; you may: {allowed}"

    def failing(template: dict[str, Any]) -> list[str]:
        params = template["params"]
        return [
            n for n, spec in params.items() if n not in action or not param_fits(action[n], spec)
        ]

    best = min(same, key=lambda t: len(failing(t)))
    params = best["params"]
    for name in failing(best):
        spec = params[name]
        if name not in action:
            return f"{kind} needs {name}"
        if "subset_of" in spec:
            return (
                f"{name} must be {spec['min']} to {spec['max']} different items of "
                f"{spec['subset_of']}"
            )
        if "one_of" in spec:
            return f"{name} must be one of {spec['one_of']}"
        return f"{name} must be a whole number from {spec['min']} to {spec['max']}"
    extra = sorted(set(action) - {"kind"} - set(params))
    if extra:
        return f"{kind} takes no {', '.join(extra)}"
    return f"that {kind} is not allowed now"
