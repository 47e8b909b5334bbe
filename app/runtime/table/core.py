"""The table's core: one table's rules of the table, in memory, with no I/O
(docs/architecture.md, "The table").

The engine (app/games/) knows a game's rules; the core knows the table's: who sits where,
who is ready or sitting out, who leaves when the game allows it, what the hand in play
writes down, when a clock or a bot plays, and what every watcher is told. It holds the
roster, presence, the pending leaves, the hand's record, the version and the story.

Every step (an act, a sit, a clock running out, the host's pause, a restore) changes the
table and returns :class:`~app.runtime.table.effects.Effects`: database jobs, frames for
watchers, timers to set. The core never waits, writes or sends; it knows nothing of sockets,
threads, processes or nodes. Its one rule of order, "announce only what is committed", is
stated by the effects (frames after jobs) and obeyed by the shell
(:mod:`app.runtime.table.actor`). Time comes from one injected clock, so the core's tests
play whole evenings in virtual time.

The path of one act (:meth:`TableCore.act`): the sender must be seated and the act new;
the game's own action goes to the engine, which checks it against its ``legal`` once and
applies it; then :meth:`TableCore._changed` records the engine's events, queues the hand's
one job when the hand ends, re-arms the decision clock, and the step's end
(:meth:`TableCore._done`) builds every watcher's state, after the act's ack.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from app.analysis.bots import DEFAULT_LEVEL, LEVELS, bot_action
from app.core.config import Settings
from app.db import store
from app.db.ledger import record as ledger_record
from app.games.core.accounts import is_seat, seat_account, seat_of, seats_in
from app.games.core.actions import Action, LegalAction, action_fits, legal
from app.games.core.cards import SeedSource, csprng_seed, seeded_source
from app.games.core.errors import Refused, RuleError
from app.games.core.game import Game
from app.games.core.house import HouseBanked
from app.i18n.messages import N_, Text
from app.ops.logs import set_context
from app.ops.metrics import Metrics
from app.review.results import owner_seat
from app.runtime import records, time_bank
from app.runtime.act_ids import AcceptedActs
from app.runtime.blocks import Blocks
from app.runtime.chat import CHAT_KEEP, REACTIONS, ChatRefused, Muted, TableChat, clean_text
from app.runtime.connection import RateLimiter
from app.runtime.house import House
from app.runtime.protocol import (
    Act,
    ErrorCode,
    ProtocolError,
    Sit,
    TopUp,
    encode,
)
from app.runtime.records import Away, SeatInfo
from app.runtime.story import Story
from app.runtime.table import views
from app.runtime.table.effects import BOTS, DECISION, NEXT_HAND, Effects, Timer, Watcher
from app.runtime.table.host_at_table import HostAtTable
from app.runtime.table.record import HandLog
from app.runtime.table.wording import explain
from app.runtime.time_bank import TimeBank

log = logging.getLogger("table31.table")

BOTS_RNG = random.Random()
"""The randomness of bots, one for every table: a generator's state is 2.5 KiB, half a KiB
for each of a table's five sockets (docs/performance.md §9). Shuffles never use it: they draw
their own seeds (docs/rules.md §0)."""

TABLE_KINDS = frozenset({"ready", "deal_now", "sit_out", "sit_in"})
"""The table's own action kinds, offered in ``legal`` beside the game's on a friends' table
(docs/rules.md §0.11)."""
SEATED_KEY = "runtime_seated"
"""The stored state's key that lists the seats taken when it was saved."""
AWAY_KEY = "runtime_away"
"""The stored state's key for the seats sitting out (seat number -> :class:`Away`)."""
WAITING_KEY = "runtime_waiting"
"""The stored state's key: the table waits for Ready before dealing, and who has pressed it."""
BEGUN_KEY = "runtime_begun"
"""The stored state's key of a room's table: the ``room_switch`` event that began it, told
first in its story until a hand has finished there (docs/rules.md §0.15)."""
RUNTIME_PREFIX = "runtime_"
"""The stored state's keys that are the table's, not its engine's (the rest is the engine's
snapshot)."""
CLOCK_STRIKES = 2
"""Decisions in a row the clock may play for a person before they are sat out."""
CLOCK_SAT_OUT = N_(
    "The clock played for you twice in a row, so you are sitting out. Press I'm back to play again."
)
NOTICE_SECONDS = 15.0
"""A notice (a void hand, a restart) stays at least this long, over the next deals: after a
restart the tables deal again before the players have reconnected to read it."""
FIRST_DEAL_SECONDS = 0.3
"""The pause before a table's first hand (later ones wait ``NEXT_HAND_SECONDS``)."""
RESTING = N_(
    "Nobody has been here for a while, so the bots have stopped dealing; they start again "
    "as soon as someone connects or sits down."
)
"""``table.message`` of a table of bots no person has been at for ``BOT_TABLE_IDLE_SECONDS``."""
STORAGE_DOWN = N_("The server cannot save right now; play resumes when it can.")
"""Why every table stops while the database cannot store (app/runtime/storage.py)."""
REBUILDING = N_("The server could not save this table; it is being restored from what was saved.")
"""Why one table stops when a write of its own failed (not the storage as a whole)."""
UNAVAILABLE_CLOSE = 4503
"""The close code of a table that stopped because what it played could not be stored: try
again soon (docs/protocol/socket.md §3)."""
MOVED_CLOSE = 4409
"""The close code of a table another node serves now: ask the front again (docs/scaling.md)."""
HOST = None
"""Who moderates when the host does (``muted_by`` is stored as null)."""


@dataclass(frozen=True)
class Thought:
    """A bot's choice worked out away from the table: for ``seat``, at table ``version``."""

    version: int
    seat: int
    action: Action


class TableCore(HostAtTable):
    """The authoritative state of one table and the table's rules, in memory, with no I/O:
    every step returns the :class:`Effects` the shell carries out."""

    def __init__(
        self,
        *,
        table_id: str,
        name: str,
        game_cls: type[Game],
        options: dict[str, Any],
        settings: Settings,
        clock: Callable[[], float],
        created_by: str | None = None,
        seeds: SeedSource = csprng_seed,
        hands_played: int = 0,
        house: House | None = None,
        private: bool = False,
        invite_code: str | None = None,
        metrics: Metrics | None = None,
        host_id: str | None = None,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.game_cls = game_cls
        self.seeds = seeds
        self.engine: Game = game_cls(options, seeds=seeds)
        self.options = self.engine.options
        self.settings = settings
        self.clock = clock
        self.created_by = created_by
        self.house = house if issubclass(game_cls, HouseBanked) else None
        self.metrics = metrics or Metrics()
        self.private = private
        self.invite_code = invite_code
        self.rng = BOTS_RNG
        self.hands_played = hands_played
        self.version = 0
        self.status = "open"
        self.pause_reason: str | None = None
        self.message: str | None = None
        self._notice_until = 0.0
        # who is here
        self.roster: dict[int, SeatInfo] = {}
        self.watchers: set[Watcher] = set()
        self.reserved: dict[int, str] = {}
        """Seats held for a player whose buy-in the database is moving."""
        self.pending_leave: set[int] = set()
        self._accepted: dict[str, AcceptedActs] = {}
        """Each player's last accepted act ids (resends are acknowledged, not applied)."""
        # presence (docs/rules.md §0.11)
        self.waiting_for_ready = self.friends
        """A friends' table holds its deal until everyone seated is ready or the opener deals."""
        self.ready: set[int] = set()
        self.away: dict[int, Away] = {}
        """The seats sitting out: out of the engine, their stacks kept here."""
        self.pending_away: dict[int, str | None] = {}
        """Seats that sit out at the next moment the game allows (with the reason, if any)."""
        self._clock_strikes: dict[int, int] = {}
        self.time_bank = TimeBank(int(self.options.get("time_bank_seconds") or 0))
        """Each player's extra seconds for their decisions (app/runtime/time_bank.py)."""
        # the hand in play, and what the watchers have been told
        self.hand: HandLog | None = None
        self._between: list[dict[str, Any]] = []
        """The engine's events since the last hand (a bank changing hands): they open the
        next hand's record."""
        self.story = Story()
        """The recent events and the last result, told with the views (docs/protocol.md §6.6)."""
        self.begun: dict[str, Any] | None = None
        """A room's table: the ``room_switch`` event that began it (stored with the state)."""
        self.told: set[Watcher] = set()
        """The watchers that have had the story: the others get it with their next state."""
        self._state_dirty = False
        """The table's stored state changed: it is saved with this step."""
        # clocks
        self.deadline: float | None = None
        self._timer_key: tuple[Any, ...] | None = None
        self._armed: set[str] = set()
        """The timers set and not yet run out (DECISION, BOTS, NEXT_HAND)."""
        self.stopped = False
        """The clocks stopped for good (shut down, dropped, suspended)."""
        self.resting = False
        """No person has been here for ``BOT_TABLE_IDLE_SECONDS``: no new hand is dealt."""
        self._alone_since: float | None = None
        self.draining = False
        """Cluster mode: no new hand is dealt here (the node hands its tables over)."""
        self.switch_next: dict[str, Any] | None = None
        """A room's switch its host asked for while a hand was in play (``game``, ``title``):
        no new hand is dealt here; the actor switches once the hand ends
        (app/runtime/table/switch.py ``wait_for_hand``). Not stored: a restart forgets it."""
        self.suspended = False
        """The table stopped because what it played could not be stored: it takes nothing
        more; it is rebuilt from the database when writes succeed again."""
        # chat (docs/protocol/socket.md §5.9)
        self.chat = TableChat()
        self._chat_budget: dict[str, RateLimiter] = {}
        self.blocks = Blocks()
        """Who blocks whom (app/runtime/blocks.py): the lobby gives every table its own
        process's; a person's chat and reactions are not sent to those who block them."""
        # the step in progress
        self._fx = Effects()
        self._publish = False
        self._notify: list[Watcher] = []
        self._acks: list[tuple[Watcher, str]] = []
        # the host at the table (host_at_table.py)
        self._init_host(host_id)

    # ------------------------------------------------------------------ reading the table

    @property
    def closed(self) -> bool:
        return self.status == "closed"

    @property
    def friends(self) -> bool:
        """A table opened ``when_ready``: Ready to deal and sitting out are offered."""
        return self.options.get("start") == "when_ready"

    @property
    def hand_id(self) -> str | None:
        return None if self.hand is None else self.hand.hand_id

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, info in self.roster.items():
            if info.player_id == player_id:
                return seat
        return None

    def player_in(self, seat: int | None) -> str | None:
        info = None if seat is None else self.roster.get(seat)
        return None if info is None else info.player_id

    def is_connected(self, player_id: str) -> bool:
        return any(w.player_id == player_id and not w.closed for w in self.watchers)

    def someone_here(self) -> bool:
        """A person is at the table: a signed-in watcher (bots have none), or a person holds
        a seat (connected or not: their clocks play for them). An anonymous watcher does not
        count: one left open kept a table of bots dealing for ever."""
        return any(w.player_id is not None for w in self.watchers) or any(
            not i.is_bot for i in self.roster.values()
        )

    def may_enter(
        self, player_id: str | None, invite: str | None, same: Callable[..., bool]
    ) -> bool:
        """A private table is reachable only by its invite link (or by its opener and the
        players already seated); an open one by anyone. ``same`` compares secrets."""
        if not self.private:
            return True
        if invite and self.invite_code and same(invite, self.invite_code):
            return True
        return player_id is not None and (
            player_id == self.created_by
            or self.is_host(player_id)
            or self.seat_of(player_id) is not None
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
            "table_seats": self.engine.table_seats,
            "seats": [
                {
                    "seat": s,
                    "player_id": i.player_id,
                    "name": i.name,
                    "bot": i.is_bot,
                    **({"bot_level": i.bot_level} if i.is_bot else {}),
                }
                for s, i in sorted(self.roster.items())
            ],
            "players": len(self.roster),
            "spectators": sum(1 for w in self.watchers if self.seat_of(w.player_id) is None),
            "hands_played": self.hands_played,
            "in_hand": self.engine.in_hand,
            "resting": self.resting,
            "created_by": self.created_by,
            "host_id": self.host_id,
        }

    def legal(self, seat: int | None) -> list[LegalAction]:
        """Everything the player in ``seat`` may do now: the game's decisions (none while
        sitting out) and the table's own actions."""
        if seat is None or self.status != "open":
            return []
        game = [] if seat in self.away else self.engine.legal_actions(seat)
        game = game + self._bank_legal(seat)
        return game + self._table_legal(seat) if self.friends else game

    def take_effects(self) -> Effects:
        """What the steps since the last call left to do (a step that raised leaves its
        effects here: a refused buy-in's return, for one)."""
        return self._done()

    # ------------------------------------------------------------------ watchers

    def join(self, watcher: Watcher) -> Effects:
        """Someone opens the table: they get their state, then the chat's history."""
        self._sync_house()
        self.watchers.add(watcher)
        if watcher.player_id is not None:  # a person, not an anonymous watcher
            self._someone_came()  # a resting table deals again, from this state on
        self._changed(notify=watcher if self.seat_of(watcher.player_id) is None else None)
        fx = self._done()
        fx.send(watcher, encode(self.chat_history(watcher.player_id)))
        return fx

    def part(self, watcher: Watcher) -> Effects:
        """Someone's socket closed: their seat shows them gone."""
        self.watchers.discard(watcher)
        self.told.discard(watcher)
        if self._alone_since is None and not self.someone_here():
            self._alone_since = self.clock()
        dropped = self.drop_request(watcher.player_id)  # an asker who left: no request
        if (self.seat_of(watcher.player_id) is not None or dropped) and not self.closed:
            self._sync_house()
            self._changed()
        return self._done()

    def resync(self, watcher: Watcher) -> Effects:
        """The watcher's whole state again (a client that lost track)."""
        self._refuse_when_stopped()
        self._sync_house()
        views.send_state(self, self._fx, watcher)
        return self._done()

    # ------------------------------------------------------------------ acts

    def act(self, watcher: Watcher, act: Act) -> Effects:
        """A player's act: acknowledged with the change it makes, or refused
        (:class:`ProtocolError`, nothing changed)."""
        self._sync_house()
        self._refuse_when_stopped(act.id)
        player_id = watcher.player_id
        seat = self.seat_of(player_id)
        if seat is None or player_id is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, N_("sit down before you act"), act.id)
        seen = self._accepted.get(player_id)
        if seen is None:
            seen = self._accepted[player_id] = AcceptedActs()
        if act.id in seen:
            self._fx.send(watcher, encode({"type": "ack", "id": act.id}))
            return self._done()
        if self.status == "paused":
            raise ProtocolError(ErrorCode.TABLE_PAUSED, self._paused_words(), act.id)
        kind = act.action.get("kind")
        if kind == time_bank.KIND and kind not in self.game_cls.ACTION_KINDS:
            return self._more_time(watcher, act, seat, seen)
        if kind not in self.game_cls.ACTION_KINDS and not (self.friends and kind in TABLE_KINDS):
            raise ProtocolError(
                ErrorCode.UNKNOWN_ACTION,
                Text(
                    N_("{title} has no action {kind}"), title=self.game_cls.title, kind=repr(kind)
                ),
                act.id,
            )

        def accepted() -> None:
            seen.add(act.id)
            # sent with the change it made, just before its state: never before what it
            # changed is committed (an act that ends a hand waits for the hand's write)
            self._acks.append((watcher, encode({"type": "ack", "id": act.id})))
            self._clock_strikes.pop(seat, None)  # a person's own act clears the strikes

        if self.friends and kind in TABLE_KINDS:
            # the table's own actions (ready, deal_now, sit_out, sit_in): checked here, as
            # no engine knows them
            if not action_fits(act.action, self._table_legal(seat)):
                raise self._refused(act, seat)
            accepted()
            self._table_act(seat, act.action)
            return self._done()
        if self.status != "open" or seat in self.away:
            raise self._refused(act, seat)  # nothing of the game is offered now
        # the game's own action: the engine checks it against its legal, once (Game.apply)
        try:
            self._apply(seat, act.action, by="player", accepted=accepted)
        except Refused:
            raise self._refused(act, seat) from None
        return self._done()

    def _refuse_when_stopped(self, act_id: str | None = None) -> None:
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        if self.suspended:
            raise ProtocolError(
                ErrorCode.STORAGE_UNAVAILABLE, self.pause_reason or REBUILDING, act_id
            )

    def _paused_words(self) -> str:
        """Why an act is refused at a paused table: the host paused it, and the host's
        reason when one was given."""
        if not self.pause_reason:
            return N_("the host paused this table")
        return Text(N_("the host paused this table: {reason}"), reason=self.pause_reason)

    def _refused(self, act: Act, seat: int) -> ProtocolError:
        """The error for an act that fits nothing offered to ``seat`` (nothing has changed):
        the table moved on since the view it was sent from, or nothing is the seat's to do,
        or the allowed range in words."""
        if act.version < self.version:
            return ProtocolError(
                ErrorCode.STALE_VERSION,
                Text(
                    N_("the table has moved on (version {version}); look again"),
                    version=self.version,
                ),
                act.id,
            )
        templates = self.legal(seat)
        if not templates:
            return ProtocolError(ErrorCode.NOT_YOUR_TURN, N_("it is not your turn"), act.id)
        return ProtocolError(ErrorCode.ILLEGAL_ACTION, explain(act.action, templates), act.id)

    def _apply(
        self, seat: int, action: Action, *, by: str, accepted: Callable[[], None] | None = None
    ) -> None:
        """Apply an action (the engine checks it: a player's that does not fit raises
        :class:`Refused`, nothing changed), call ``accepted`` once it is in, record it, and
        publish the change. A bot's or the clock's that does not fit is a bug: a bot's is
        replaced by the default action, the clock's voids the hand."""
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
        if self.hand is not None:
            self.hand.actions.append(entry)
        else:
            # a decision between hands (a bank offer) changes the table's stored state
            self._state_dirty = True
        self._changed()

    def apply_for(self, seat: int, action: Action, *, by: str = "bot") -> Effects:
        """Apply ``action`` for ``seat`` as a bot (or, ``by="timeout"``, the clock) would:
        the engine checks it, an illegal choice is replaced by the default action. For
        simulations and benchmarks that drive a table without its timers."""
        self._sync_house()
        self._apply(seat, action, by=by)
        return self._done()

    def _engine_failed(self, action: Action) -> None:
        log.exception("table %s hand %s: engine failed on %s", self.table_id, self.hand_id, action)
        self._void_hand(N_("the server hit an error; the hand is void and stakes returned"))
        self._changed()

    # ------------------------------------------------------------------ after every change

    def _changed(self, notify: Watcher | None = None) -> None:
        """After every change: let pending leaves go, record the engine's events, queue the
        hand's one job when it ended, save the table's state, re-arm the decision clock; the
        step's end tells everyone (``notify``: only that watcher, if nothing else changed)."""
        self._sync_house()
        if (self.pending_leave or self.pending_away) and self.engine.completed_pending is None:
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
            self._finish_hand(done, now)
        self._take_events(now)  # what the leaves told (a banker who left ends the bank)
        if self._state_dirty and not self.engine.in_hand:
            self._fx.store(store.save_table_state, self.table_id, self.stored_state())
        self._state_dirty = False
        if self.house is not None:
            self.house.note_exposure(self.table_id, self.engine.house_exposure())
        self._arm_decision()  # before the views are built, so they carry the new deadline
        if notify is None:
            self._publish = True
        else:
            self._notify.append(notify)

    def _done(self) -> Effects:
        """The step's end: its effects, with everyone's new state after its acks (one
        broadcast however many changes it made), then the bots and the next hand armed."""
        fx = self._fx
        self._fx = Effects()
        if self._acks:
            fx.frames.extend(self._acks)
            self._acks = []
        notify, self._notify = self._notify, []
        if self._publish or (notify and (fx.jobs or self.story.pending)):
            self._publish = False
            self.version += 1
            views.broadcast(self, fx)
        else:
            for watcher in notify:
                if watcher in self.watchers:
                    views.send_state(self, fx, watcher)
        if not self.stopped:
            self._arm_bots(fx)
            self._arm_next_hand(fx)
        return fx

    def _take_events(self, now: float) -> None:
        """The engine's new log events, stamped, into the hand's record and the story."""
        for event in self.engine.take_log():
            event["t"] = now
            (self._between if self.hand is None else self.hand.events).append(event)
            self.story.tell(event, self.roster)

    # ------------------------------------------------------------------ a hand

    def deal_next(self) -> Effects:
        """The pause before the next hand is over: deal it, if the table may."""
        self._armed.discard(NEXT_HAND)
        self._sync_house()
        self._start_hand()
        return self._done()

    def _start_hand(self) -> None:
        if (
            self.engine.in_hand
            or self.status != "open"
            or self.draining
            or self.switch_next is not None
            or self.stopped
            or not self.engine.can_start()
            or self._waiting()
        ):
            return
        snapshot, balances = self.engine.snapshot(), dict(self.engine.balances)
        try:
            self.engine.start_hand()
        except RuleError:
            return
        except Exception:
            # a fault in the engine (a state it cannot deal from): the table goes back to
            # how it was and waits for the host, instead of failing the same way every
            # few seconds
            log.exception("table %s: the engine failed to deal", self.table_id)
            self.engine = self._rebuilt_engine(snapshot, balances)
            self._halt(
                N_(
                    "The server could not deal the next hand here; "
                    "the host may resume or close the table."
                )
            )
            return
        if self.waiting_for_ready:  # a hand was dealt: the wait for Ready is over
            self.waiting_for_ready = False
            self.ready.clear()
            self._state_dirty = True
        now = self.clock()
        if now >= self._notice_until:
            self.message = None  # a notice lasts until a deal, NOTICE_SECONDS at least
        # who plays it: the seats sitting out are in no hand (their stacks are not in it)
        self.hand = hand = HandLog(
            hand_id=store.new_id(),
            number=self.engine.hand_number,
            started=now,
            snapshot=snapshot,
            balances=balances,
            roster={s: i for s, i in self.roster.items() if s not in self.away},
            events=self._between,
        )
        self._between = []
        start = {"kind": "hand_start", "hand_id": hand.hand_id, "number": hand.number, "t": now}
        self.story.tell(start, self.roster)
        set_context(self.table_id, hand.hand_id)
        log.debug("hand %d dealt: %d seated", hand.number, len(self.roster))
        self._fx.store(store.hand_started, **hand.started_fields(self.table_id, self.game_cls.id))
        self._changed()

    def _finish_hand(self, done: Any, now: float) -> None:
        hand = self.hand
        assert hand is not None
        finished, result = hand.finished(
            done,
            table_id=self.table_id,
            game=self.game_cls.id,
            options=self.options,
            balances_after=self.engine.balances,
            ended=now,
            table_state=self.stored_state(),
        )
        self._fx.store(store.hand_finished, finished)
        log.info(
            "hand %d settled: %d chips moved",
            finished.number,
            sum(m.amount for m in finished.movements),
        )
        self.metrics.hand_settled(self.game_cls.id)
        self.hands_played += 1
        self.hand = None
        self.story.hand_ended(result, now)
        self._broke_bots_leave()
        self._process_leaves()
        self.options_after_hand()

    def _broke_bots_leave(self) -> None:
        """A bot whose stack no longer lets it play (the game's ``cannot_play``: a Vingt-un
        stake four times over, Trianta Ena's smallest bet) stands up once its hand is over,
        its stack home to the bots' bank: a person in its place would add chips or go, and a
        bot that did neither kept its seat, and could keep the table from dealing, for good.
        The host may seat another bot (docs/rules.md §0.12)."""
        for seat, info in self.roster.items():
            if info.is_bot and seat not in self.away and self.engine.cannot_play(seat):
                self.pending_leave.add(seat)

    def stored_state(self) -> dict[str, Any]:
        """The between-hands state as stored with the table: the engine's snapshot, the
        seats taken when it was taken (so that a restart can tell the seats that changed
        since: :meth:`Game.reconcile_seats`), and who sits out and who is ready."""
        return {
            **self.engine.snapshot(),
            SEATED_KEY: self.engine.seated,
            AWAY_KEY: {str(seat): away.stored() for seat, away in sorted(self.away.items())},
            WAITING_KEY: {"waiting": self.waiting_for_ready, "ready": sorted(self.ready)},
            time_bank.STORED_KEY: self.time_bank.stored(),
            **({BEGUN_KEY: self.begun} if self.begun is not None else {}),
        }

    # ------------------------------------------------------------------ clocks and bots

    def _arm_decision(self) -> None:
        """Set the decision clock the engine asks for (re-set only when it changes)."""
        timer = self.engine.timer() if self.status == "open" and not self.stopped else None
        key = timer.key if timer is not None else None
        if key == self._timer_key and (key is None or DECISION in self._armed):
            return
        if DECISION in self._armed:
            self._armed.discard(DECISION)
            self._fx.timers[DECISION] = None
        self._timer_key = key
        if timer is None:
            self.deadline = None
            return
        self.deadline = self.clock() + timer.seconds
        self._armed.add(DECISION)
        self._fx.timers[DECISION] = Timer(timer.seconds, key)

    def clock_ran_out(self, key: Any) -> Effects:
        """The decision clock ``key`` ran out: the engine's timeout actions, unless the
        table moved on meanwhile. A person the clock played for on :data:`CLOCK_STRIKES`
        decisions in a row sits out, told why (a friends' table)."""
        if self._timer_key != key or self.closed or self.stopped:
            return self._done()
        self._sync_house()
        set_context(self.table_id, self.hand_id)
        self._armed.discard(DECISION)
        self._timer_key = None
        decided: set[int] = set()  # the seats whose own decision the clock made
        for seat, action in self.engine.timeout_actions():
            if action_fits(action, self.engine.legal_actions(seat)):
                decided.add(seat)
            self._apply(seat, action, by="timeout")
        self._clock_played(decided)
        return self._done()

    def _bank_legal(self, seat: int) -> list[LegalAction]:
        """More time (app/runtime/time_bank.py), offered while it is ``seat``'s decision, the
        decision clock runs and the seat's player (a person) has seconds in their bank."""
        info = self.roster.get(seat)
        if (
            info is None
            or info.is_bot
            or self.deadline is None
            or DECISION not in self._armed
            or seat in self.away
            or seat not in self.engine.to_act()
            or self.time_bank.of(info.player_id) <= 0
        ):
            return []
        return [legal(time_bank.KIND)]

    def _more_time(self, watcher: Watcher, act: Act, seat: int, seen: AcceptedActs) -> Effects:
        """``seat`` presses More time: the decision's deadline moves on by what the bank gives
        (everyone's deadline, as the clock is the table's), and the bank is that much
        lighter. Refused, nothing changed, when it is not offered."""
        player_id = self.roster[seat].player_id
        if self.status != "open" or not action_fits(act.action, self._bank_legal(seat)):
            if act.version < self.version or self._bank_legal(seat):
                raise self._refused(act, seat)  # as any act: moved on, or not its shape
            if not self.time_bank.full:
                why, code = N_("this table has no time bank"), ErrorCode.NOT_ALLOWED
            elif self.time_bank.of(player_id) <= 0:
                why, code = N_("your time bank is empty"), ErrorCode.NOT_ALLOWED
            else:
                why = N_("More time is for your own decision, while its clock runs")
                code = ErrorCode.NOT_YOUR_TURN
            raise ProtocolError(code, why, act.id)
        seen.add(act.id)
        self._acks.append((watcher, encode({"type": "ack", "id": act.id})))
        added = self.time_bank.spend(player_id)
        assert self.deadline is not None
        self.deadline += added
        self._fx.timers[DECISION] = Timer(max(0.0, self.deadline - self.clock()), self._timer_key)
        self._tell(seat, "time_bank", seconds=added)
        self._state_dirty = True  # saved now between hands; in a hand, with the hand's end
        self._changed()
        return self._done()

    def _arm_bots(self, fx: Effects) -> None:
        if BOTS in self._armed or self.status != "open":
            return
        if any(self.roster.get(s, SeatInfo("", "")).is_bot for s in self.engine.to_act()):
            self._armed.add(BOTS)
            fx.timers[BOTS] = Timer(self.settings.bot_delay_seconds)

    def bot_to_act(self) -> tuple[int, str] | None:
        """The first bot the table waits for, and its level (None: no bot to act)."""
        if self.status != "open" or self.stopped:
            return None
        for seat in sorted(self.engine.to_act()):
            info = self.roster.get(seat)
            if info is not None and info.is_bot:
                return seat, info.bot_level or DEFAULT_LEVEL
        return None

    def bots_act(self, thought: Thought | None = None) -> Effects:
        """A bot's delay is over: the first bot to act does, through the same checked path
        as a player (an illegal choice is logged and replaced by the default action).

        ``thought``: the choice a ``best`` bot worked out away from the table, on a copy of
        it at a version (the shell's thinking, docs/analysis.md §5): taken when nothing has
        changed since; otherwise the bots are armed again and decide afresh."""
        self._armed.discard(BOTS)
        if self.status != "open" or self.stopped:
            return self._done()
        self._sync_house()
        if thought is not None:
            if thought.version == self.version and thought.seat in self.engine.to_act():
                self._apply(thought.seat, thought.action, by="bot")
            return self._done()
        turn = self.bot_to_act()
        if turn is not None:
            seat, level = turn
            self._apply(seat, bot_action(self.engine, seat, level, self.rng), by="bot")
        return self._done()

    def _arm_next_hand(self, fx: Effects) -> None:
        if (
            NEXT_HAND in self._armed
            or self.status != "open"
            or self.draining
            or self.switch_next is not None
            or self.engine.in_hand
            or self.engine.table_over
            or not self.engine.can_start()
            or self._waiting()
            or self._is_resting()
        ):
            return
        self._armed.add(NEXT_HAND)
        pause = self.settings.next_hand_seconds if self.hands_played else FIRST_DEAL_SECONDS
        fx.timers[NEXT_HAND] = Timer(pause)

    def _someone_came(self) -> None:
        self._alone_since = None
        if self.resting:
            self.resting = False
            if self.message == RESTING:
                self.message = None
            log.info("table %s: someone is here; the bots deal again", self.table_id)

    def _is_resting(self) -> bool:
        """Whether the table deals no new hand because no person has been here for
        ``BOT_TABLE_IDLE_SECONDS``: bots alone would play forever, a hand record every few
        seconds that nobody reads. The hand in play finishes; the next is dealt as soon as
        someone connects or sits down."""
        idle = self.settings.bot_table_idle_seconds
        if not idle:
            return False
        if self.someone_here():
            self._someone_came()
            return False
        now = self.clock()
        if self._alone_since is None:
            self._alone_since = now
        if now - self._alone_since < idle:
            return False
        if not self.resting:
            self.resting = True
            self.message = RESTING
            log.info("table %s: nobody here for %g s; the bots stop dealing", self.table_id, idle)
        return True

    # ------------------------------------------------------------------ the house

    def _sync_house(self) -> None:
        """Tell a house-banked game what the house can put at risk at this table now."""
        if self.house is not None and isinstance(self.engine, HouseBanked):
            self.engine.house_available = self.house.available_for(self.table_id)

    def house_moved(self) -> Effects:
        """The house moved elsewhere: publish this table's limits if what it offers changed."""
        if self.closed or self.house is None or not isinstance(self.engine, HouseBanked):
            return self._done()
        if self.engine.house_available != self.house.available_for(self.table_id):
            set_context(self.table_id, self.hand_id)
            self._changed()
        return self._done()

    # ------------------------------------------------------------------ sitting down

    def hold_seat(self, watcher: Watcher, sit: Sit) -> int:
        """Check a sit and hold the seat while the database moves the buy-in (the shell
        waits for it outside the table's lock; :meth:`take_seat` or :meth:`release_seat`
        follows)."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        player_id = watcher.player_id
        if player_id is None:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, N_("sign in before you sit down"))
        if self.seat_of(player_id) is not None or player_id in self.reserved.values():
            raise ProtocolError(ErrorCode.ALREADY_SEATED, N_("you are already seated"))
        if self.status == "paused":
            raise ProtocolError(ErrorCode.TABLE_PAUSED, N_("the host paused this table"))
        if self.engine.table_over:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, self.engine.table_over)
        seat = sit.seat if sit.seat is not None else self.free_seat()
        if seat is None:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, N_("the table is full"))
        if not 0 <= seat < self.engine.max_seats:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                Text(N_("seats are 0 to {last}"), last=self.engine.max_seats - 1),
            )
        if seat in self.roster or seat in self.reserved:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, Text(N_("seat {seat} is taken"), seat=seat))
        low, high = self.engine.buy_in_limits(seat)
        if not low <= sit.buy_in <= high:
            raise ProtocolError(
                ErrorCode.BAD_BUY_IN,
                Text(N_("the buy-in at this seat is {low}"), low=low)
                if low == high
                else Text(N_("the buy-in is from {low} to {high} chips"), low=low, high=high),
            )
        self.reserved[seat] = player_id
        return seat

    def release_seat(self, seat: int) -> None:
        """The seat held for a buy-in is free again (the buy-in failed)."""
        self.reserved.pop(seat, None)

    def take_seat(
        self,
        seat: int,
        player_id: str,
        name: str,
        buy_in: int,
        *,
        is_bot: bool = False,
        bot_level: str = DEFAULT_LEVEL,
    ) -> Effects:
        """The buy-in is on the table: seat the player. If the table refuses the seat by now
        (closed, or the game's rules), the buy-in goes straight back (a job) and the refusal
        is raised: :meth:`take_effects` has the job."""
        self.reserved.pop(seat, None)
        self._sync_house()
        try:
            if self.closed:
                raise RuleError(ErrorCode.TABLE_CLOSED, N_("this table closed meanwhile"))
            self.engine.sit(seat, buy_in)
        except RuleError as err:
            self._fx.store(store.leave, self.table_id, seat, player_id)
            raise ProtocolError.refusing(err) from None
        self._note_roster(seat, "sit", buy_in)
        info = SeatInfo(player_id, name, is_bot, bot_level if is_bot else None)
        self.roster[seat] = info
        self._tell_roster("sit", seat, buy_in)
        if self.hand is not None:
            self.hand.roster[seat] = info
        self._state_dirty = True  # a sit can change the state (the first banker takes the bank)
        self._changed()
        return self._done()

    def free_seat(self) -> int | None:
        """The first seat one may sit in now: the table's seats, then standing room."""
        for seat in range(self.engine.max_seats):
            if seat not in self.roster and seat not in self.reserved:
                low, high = self.engine.buy_in_limits(seat)
                if low <= high:
                    return seat
        return None

    def check_top_up(self, watcher: Watcher, top_up: TopUp) -> int:
        """The seat of a top-up that the table allows now, else the refusal."""
        self._sync_house()
        self._refuse_when_stopped()
        seat = self.seat_of(watcher.player_id)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, N_("you are not seated"))
        if seat in self.away:
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, N_("sit in before you add chips"))
        if not self.engine.can_top_up(seat):
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, N_("you cannot add chips now"))
        most = self.engine.top_up_limit(seat)
        if top_up.amount > most:
            raise ProtocolError(
                ErrorCode.ILLEGAL_ACTION,
                Text(N_("you may add at most {most} chips at this table now"), most=most),
            )
        return seat

    def topped_up(self, seat: int, amount: int) -> Effects:
        """The top-up is in the ledger: the seat's stack grows."""
        self.engine.add_chips(seat, amount)
        self._note_roster(seat, "top_up", amount)
        self._tell_roster("top_up", seat, amount)
        self._changed()
        return self._done()

    # ------------------------------------------------------------------ standing up

    def leave(self, watcher: Watcher) -> Effects:
        self._sync_house()
        self._refuse_when_stopped()
        seat = self.seat_of(watcher.player_id)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, N_("you are not seated"))
        return self.request_leave(seat)

    def request_leave(self, seat: int) -> Effects:
        """Stand up now if the rules allow it, else at the next moment they do."""
        self.pending_leave.add(seat)
        self._process_leaves()
        self._changed()
        return self._done()

    def _process_leaves(self) -> None:
        for seat in sorted(self.pending_leave):
            if seat not in self.roster:
                self.pending_leave.discard(seat)
                continue
            if seat in self.away:  # sitting out: the engine no longer has the seat
                self._stand_away(seat)
                continue
            if not self.engine.can_leave(seat) or self._in_open_hand(seat):
                continue
            self._leave_engine(seat)
            self._note_roster(seat, "leave")
            self._tell_roster("leave", seat)
            info = self.roster.pop(seat)
            self.pending_leave.discard(seat)
            self.pending_away.pop(seat, None)
            self.ready.discard(seat)
            self._fx.store(store.leave, self.table_id, seat, info.player_id)
            # a leave can change the state between hands (a banker who leaves ends the
            # bank): the stored state must follow, or a restart restores a bank whose
            # banker is gone
            self._state_dirty = True
        self._process_away()
        self._after_leave()

    def _leave_engine(self, seat: int) -> None:
        """The engine stands ``seat`` up. Chips its rules move as the player goes (En og
        tredive: the bets left in the pot, and a match won by the last player in,
        docs/rules.md §5.12) are written to the ledger in this step, before its stack goes
        home, and told only once committed; a hand in play keeps its own transfers."""
        before = len(self.engine.transfers)
        self.engine.leave(seat)
        moved = self.engine.transfers[before:]
        del self.engine.transfers[before:]
        if moved:
            movements = records.movements(moved, self.table_id, self.roster)
            self._fx.store(ledger_record, movements, table_id=self.table_id)

    def _stand_away(self, seat: int) -> None:
        """Stand up the seat sitting out in ``seat``: its stack goes home through the ledger
        (the whole ``stack:T:P``, as a leave's); the engine no longer knew the seat."""
        info = self.roster[seat]
        self._tell_roster("leave", seat)
        self.roster.pop(seat)
        self.away.pop(seat, None)
        self.pending_away.pop(seat, None)
        self.pending_leave.discard(seat)
        self.ready.discard(seat)
        self._fx.store(store.leave, self.table_id, seat, info.player_id)
        self._state_dirty = True

    def _in_open_hand(self, seat: int) -> bool:
        """Does ``seat`` wait for the hand in play to end before it stands up, although the
        rules would let it go now?

        Only a seat that has taken part in the hand: it acted in it (a Trente et Quarante
        stake) or chips of its moved. Were that hand voided, the table goes back to how it
        was when the hand began (docs/rules.md §0.9), which a player who left with the
        hand's chips cannot. A seat that only sat there (an empty betting window, a player
        not dealt in) goes at once."""
        hand = self.hand
        if hand is None or seat_account(seat) not in hand.balances:
            return False
        if hand.acted(seat):
            return True
        return any(
            owner_seat(t.source) == seat or owner_seat(t.target) == seat
            for t in self.engine.transfers
        )

    def remove_bot(self, seat: int) -> tuple[bool | None, Effects]:
        """Stand the bot in ``seat`` up, now if the rules allow, else at the next moment
        they do: None if no bot sits there; else whether it has left already."""
        info = self.roster.get(seat)
        if info is None or not info.is_bot:
            return None, self._done()
        fx = self.request_leave(seat)
        return seat not in self.roster, fx

    def _note_roster(self, seat: int, change: str, amount: int | None = None) -> None:
        """A sit, top-up or leave during a hand goes in its record, so the hand replays."""
        if self.hand is None:
            return
        entry: dict[str, Any] = {"t": self.clock(), "seat": seat, "roster": change}
        if amount is not None:
            entry["amount"] = amount
        entry["v"] = self.version + 1
        self.hand.actions.append(entry)

    def _tell_roster(self, change: str, seat: int, amount: int | None = None) -> None:
        """A sit, leave or top-up goes in the table's story (docs/protocol.md §6.6)."""
        bot = self.roster[seat].is_bot if change == "sit" else None
        self._tell(seat, change, bot=bot, amount=amount)

    def _tell(self, seat: int, kind: str, **data: Any) -> None:
        """Something a seat did in the table's story: a sit, leave or top-up, a Ready, a
        Deal, a sit-out or a sit-in; the ``data`` that is None is left out."""
        info = self.roster[seat]
        event: dict[str, Any] = {
            "kind": kind,
            "seat": seat,
            "player_id": info.player_id,
            "name": info.name,
        }
        event.update({k: v for k, v in data.items() if v is not None})
        event["t"] = self.clock()
        self.story.tell(event, self.roster)

    # ------------------------------------------------------------------ presence

    def _table_legal(self, seat: int) -> list[LegalAction]:
        if seat not in self.roster or seat in self.pending_leave:
            return []
        out: list[LegalAction] = []
        if self.waiting_for_ready and seat not in self.away:
            if seat not in self.ready:
                out.append(legal("ready"))
            if self.is_host(self.player_in(seat)) and self._can_deal_now():
                out.append(legal("deal_now"))
        if seat in self.away or seat in self.pending_away:
            out.append(legal("sit_in"))
        else:
            out.append(legal("sit_out"))
        return out

    def _can_deal_now(self) -> bool:
        return not self.engine.in_hand and not self.engine.table_over and self.engine.can_start()

    def _waiting(self) -> bool:
        """Does the table hold its deal for Ready? Until every seated player is ready (a bot
        always is), or the opener has pressed Deal."""
        if not self.waiting_for_ready:
            return False
        return not all(
            seat in self.ready or self.roster[seat].is_bot
            for seat in self.engine.seated
            if seat in self.roster
        )

    def _table_act(self, seat: int, action: Action) -> None:
        """Apply one of the table's own actions (it fits: :meth:`act` checked it)."""
        kind = action["kind"]
        if kind == "ready":
            self.ready.add(seat)
            self._tell(seat, "ready")
        elif kind == "deal_now":
            self.waiting_for_ready = False
            self.ready.clear()
            self._tell(seat, "deal_now")
        elif kind == "sit_out":
            self.pending_away[seat] = None
            self.ready.discard(seat)
            self._process_leaves()
        elif seat in self.pending_away:
            del self.pending_away[seat]  # changed their mind before the hand let them go
        else:
            self._come_back(seat)
        self._state_dirty = True
        self._changed()

    def _clock_played(self, seats: set[int]) -> None:
        """The clock decided for ``seats`` (a default action they could have taken): a person
        it has decided for on :data:`CLOCK_STRIKES` decisions in a row sits out, told why."""
        if not self.friends:
            return
        struck = False
        for seat in sorted(seats):
            info = self.roster.get(seat)
            if info is None or info.is_bot or seat in self.away or seat in self.pending_away:
                continue
            strikes = self._clock_strikes[seat] = self._clock_strikes.get(seat, 0) + 1
            if strikes >= CLOCK_STRIKES:
                self.pending_away[seat] = CLOCK_SAT_OUT
                struck = True
        if struck:
            self._process_leaves()
            self._changed()

    def _process_away(self) -> None:
        """Let the pending sit-outs go that the game allows now (as it allows a leave)."""
        for seat, reason in sorted(self.pending_away.items()):
            info = self.roster.get(seat)
            if info is None or seat in self.pending_leave or seat in self.away:
                del self.pending_away[seat]
                continue
            if not self.engine.can_leave(seat) or self._in_open_hand(seat):
                continue
            stack = self.engine.leave(seat)  # the game's leave: a bank or a deal passes on
            self._note_roster(seat, "leave")
            self.away[seat] = Away(info.player_id, stack, self.clock(), reason)
            del self.pending_away[seat]
            self._clock_strikes.pop(seat, None)
            self.ready.discard(seat)
            self._tell(seat, "sat_out", reason=reason)
            self._state_dirty = True

    def _come_back(self, seat: int) -> None:
        """The player sitting out in ``seat`` sits in: seated in the engine with their stack,
        dealt in from the next hand (a hand in play goes on without them)."""
        away = self.away.pop(seat)
        self.engine.sit(seat, away.stack)
        self._note_roster(seat, "sit", away.stack)
        if self.hand is not None:
            self.hand.roster[seat] = self.roster[seat]
        self._clock_strikes.pop(seat, None)
        self._tell(seat, "came_back")

    def _after_leave(self) -> None:
        """Someone stood up: a friends' table left with nobody seated waits for Ready again."""
        if self.friends and not self.roster and not self.waiting_for_ready:
            self.waiting_for_ready = True
            self.ready.clear()
            self._state_dirty = True

    def stand_up(self, seat: int, away_at_least: float) -> Effects:
        """The opener or the host stands up ``seat``, which must have been sitting out for at
        least ``away_at_least`` seconds (the time they chose), else ``not_allowed``."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        away = self.away.get(seat)
        if away is None:
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED, Text(N_("seat {seat} is not sitting out"), seat=seat)
            )
        waited = self.clock() - away.since
        if waited < away_at_least:
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED,
                Text(
                    N_("seat {seat} has been sitting out for {waited} seconds, not {least}"),
                    seat=seat,
                    waited=int(waited),
                    least=int(away_at_least),
                ),
            )
        self._sync_house()
        self._stand_away(seat)
        self._after_leave()
        self._changed()
        return self._done()

    def presence_extras(self, seat: int) -> dict[str, Any]:
        """What every watcher sees of ``seat``: ready, sitting out (since when, why), going."""
        away = self.away.get(seat)
        return {
            "ready": seat in self.ready,
            "sitting_out": away is not None,
            "sitting_out_since": None if away is None else away.since,
            "sitting_out_reason": None if away is None else away.reason,
            "sitting_out_next": seat in self.pending_away,
            "time_bank": self.time_bank.of(self.roster[seat].player_id),
        }

    def away_entries(self) -> list[dict[str, Any]]:
        """Seat entries for the seats sitting out, which the engine's view no longer has."""
        return [
            {"seat": seat, "stack": away.stack, "role": "sitting out", "hands": [], "cards": []}
            for seat, away in sorted(self.away.items())
        ]

    # ------------------------------------------------------------------ voiding

    def notice(self, text: str) -> None:
        """Tell everyone at the table something (shown until a later deal)."""
        self.message = text
        self._notice_until = self.clock() + NOTICE_SECONDS

    def refresh(self) -> Effects:
        """Tell everyone the table as it is now (a notice changed)."""
        self._sync_house()
        self._changed()
        return self._done()

    def void_hand(self, reason: str) -> Effects:
        """The hand in play is void, stakes back (cluster mode: the node lets it go)."""
        self._void_hand(reason)
        return self._done()

    def _void_hand(self, reason: str) -> None:
        """Put the table back as it was before the hand; the hand is void, stakes back."""
        hand = self.hand
        if hand is None:
            return
        engine = self._rebuilt_engine(hand.snapshot, hand.void_balances(), seats_in(hand.balances))
        engine.on_void()
        engine.take_log()
        self.engine = engine
        log.warning("hand void: %s", reason)
        void = {"kind": "hand_void", "hand_id": hand.hand_id, "reason": reason, "t": self.clock()}
        self.story.tell(void, self.roster)
        self._fx.store(store.mark_void, hand.hand_id, reason)
        self.hand = None
        self.notice(reason)
        self.options_after_hand()

    def _rebuilt_engine(
        self,
        snapshot: dict[str, Any],
        balances: dict[str, int],
        seated_then: list[int] | None = None,
    ) -> Game:
        """A new engine as the table was when ``snapshot`` and ``balances`` were taken (before
        a hand), with the players who sat down since in their seats; ``seated_then``, the
        seats taken when the snapshot was, tells those that stood up since."""
        stacks = _seat_stacks(balances)
        for seat in self.roster:  # players who sat down since (not those sitting out)
            if seat_account(seat) not in balances and seat not in self.away:
                stacks.append((seat, self.engine.balances.get(seat_account(seat), 0)))
        return self.game_cls.rebuild(
            self.options,
            seeds=self.seeds,
            stacks=stacks,
            accounts={a: amount for a, amount in balances.items() if not is_seat(a)},
            state=snapshot,
            hand_number=self.engine.hand_number,
            # seats that stood up since leave its state too
            reconcile=seated_then is not None,
            seated_then=None
            if seated_then is None
            else set(seated_then) | (set(self.roster) - set(self.away)),
        )

    def _halt(self, reason: str) -> None:
        """Pause the table on the server's own account (the host resumes or closes it)."""
        self.status = "paused"
        self.pause_reason = reason
        self._fx.store(store.set_table_status, self.table_id, "paused", reason[:200])
        self._changed()

    # ------------------------------------------------------------------ the host

    def pause(self, reason: str | None) -> Effects:
        """The host pauses the table: clocks stop, nobody acts until it resumes; the players
        see why."""
        set_context(self.table_id, self.hand_id)
        log.info("paused by the host: %s", reason or "(no reason given)")
        self._sync_house()
        self.status = "paused"
        self.pause_reason = reason
        self._fx.store(store.set_table_status, self.table_id, "paused", reason)
        self._changed()
        return self._done()

    def resume(self) -> Effects:
        set_context(self.table_id, self.hand_id)
        log.info("resumed by the host")
        self._sync_house()
        self.status = "open"
        self.pause_reason = None
        self._fx.store(store.set_table_status, self.table_id, "open")
        self._changed()
        return self._done()

    def fix_seed(self, seed: bytes) -> None:
        """Tests only: every later shuffle draws from a source seeded by ``seed``, the bots
        from a generator seeded by it (the same seed deals the same table again)."""
        self.seeds = seeded_source(seed)
        self.engine.seeds = self.seeds
        self.rng = random.Random(seed)

    def hand_over(self, reason: str) -> Effects:
        """Cluster mode: this node lets the table go: the hand in play void, the clocks
        stopped, the state saved (queued) and the house's reservation given back."""
        if self.hand is not None:
            self._void_hand(reason)
        self._stop()
        if not self.closed:
            self._fx.queue(store.save_table_state, self.table_id, self.stored_state())
        if self.house is not None:
            self.house.forget(self.table_id)
        return self._done()

    def shut_down(self, reason: str, *, close_table: bool = False) -> Effects:
        """Void the hand in play (stakes back), stop the clocks, and close every socket once
        the returns are committed (``close_table``: the table is closed for good, every
        stack goes home)."""
        set_context(self.table_id, self.hand_id)
        log.info("%s: %s", "closing" if close_table else "shutting down", reason)
        if self.hand is not None:
            self._void_hand(reason)
        self._stop()
        if close_table:
            self._close_for_good()
        self.message = reason
        self._publish = True
        fx = self._done()
        for watcher in self.watchers:
            fx.close(watcher, 1001, reason)
        return fx

    def _close_for_good(self) -> None:
        """Release every chip held by the table to its owner, stand everyone up (stacks back
        to bankrolls), and mark the table closed."""
        self.engine.transfers = []
        self.engine.release_all()
        released = records.movements(self.engine.transfers, self.table_id, self.roster)
        self.engine.transfers = []
        if released:
            self._fx.store(ledger_record, released, table_id=self.table_id)
        for seat, info in sorted(self.roster.items()):
            if seat in self.away:  # sitting out: its stack is in the ledger, not the engine
                pass
            elif self.engine.can_leave(seat):
                self.engine.leave(seat)
            else:  # mid-match: the chips it held were released above
                self.engine.on_leave(seat)
                self.engine.balances.pop(seat_account(seat), None)
            self._fx.store(store.leave, self.table_id, seat, info.player_id)
        self.roster.clear()
        self.away.clear()
        self.status = "closed"
        self._fx.store(store.set_table_status, self.table_id, "closed")
        if self.house is not None:
            self.house.forget(self.table_id)

    def _stop(self) -> None:
        """No clock, bot or next hand of this table runs any more."""
        self.stopped = True
        self._armed.clear()
        self._timer_key = None
        self._fx.stop = True

    def suspend(self, reason: str) -> Effects:
        """Stop the table at once, telling nobody anything of its state in memory: what it
        played may not be stored. Its clocks stop, it takes no act, and its sockets close
        with 4503 and ``reason`` (docs/protocol/socket.md §3); it is rebuilt from the
        database once writes succeed."""
        self._fx = Effects()  # nothing of the step that failed is told
        self._acks.clear()
        self._notify.clear()
        self._publish = False
        if self.suspended or self.closed:
            return Effects()
        self.suspended = True
        self.status = "paused"  # in memory only: the database may not take it now
        self.pause_reason = reason
        self._stop()
        if self.house is not None:
            self.house.forget(self.table_id)
        fx, self._fx = self._fx, Effects()
        for watcher in self.watchers:
            fx.close(watcher, UNAVAILABLE_CLOSE, reason)
        return fx

    def drop(self, reason: str) -> Effects:
        """Cluster mode: stop serving this table at once, writing nothing (another node
        serves it now): the clocks stop, it counts as closed here, it risks nothing of the
        house here any more, and its sockets close with 4409, to ask the front again."""
        self._stop()
        self.status = "closed"
        if self.house is not None:
            self.house.forget(self.table_id)
        fx, self._fx = self._fx, Effects()
        fx.jobs.clear()
        fx.frames.clear()
        for watcher in self.watchers:
            fx.close(watcher, MOVED_CLOSE, reason)
        return fx

    # ------------------------------------------------------------------ restoring

    def restore(
        self,
        *,
        seats: list[tuple[int, SeatInfo, int]],
        accounts: dict[str, int],
        state: dict[str, Any] | None,
        last_hand_number: int,
        status: str,
        pause_reason: str | None,
        version: int,
        void_notice: str | None,
        last_hand: dict[str, Any] | None,
        voids: list[dict[str, Any]],
    ) -> Effects:
        """The table as it was stored (at a restart, or adopted from another node): ``seats``
        (seat, who, stack from the ledger), the table's other ``accounts``, the engine's
        between-hands ``state`` reconciled with the seats taken now, who sits out and who is
        ready. ``void_notice``: the hand in play was void (told to everyone). The reconciled
        state is saved as the table's from now on."""
        for seat, info, _stack in seats:
            # a bot's level is stored with its seat; one the server no longer knows: steady
            level = info.bot_level if info.bot_level in LEVELS else DEFAULT_LEVEL
            self.roster[seat] = replace(info, bot_level=level if info.is_bot else None)
        stacks = {seat: stack for seat, _info, stack in seats}
        away = self._restore_presence(state, stacks)
        self.time_bank.restore((state or {}).get(time_bank.STORED_KEY))
        begun = (state or {}).get(BEGUN_KEY)
        self.begun = begun if isinstance(begun, dict) else None
        # a room's new table is stored with the table's keys only (the switch's carried bank
        # and its first event): no engine snapshot, so a fresh engine
        snapshot = {k: v for k, v in (state or {}).items() if not k.startswith(RUNTIME_PREFIX)}
        self.engine = self.game_cls.rebuild(
            self.options,
            seeds=self.seeds,
            stacks=[(seat, stack) for seat, stack in stacks.items() if seat not in away],
            accounts=accounts,
            state=state if snapshot else None,
            # a void hand used its number up: the next hand is numbered after it
            hand_number=last_hand_number,
            reconcile=True,
            seated_then=state.get(SEATED_KEY) if state else None,
        )
        self.version = version
        if void_notice is not None:
            self.engine.on_void()
            self.notice(void_notice)
        self.engine.take_log()
        # the story goes on from the last hand, and the void ones since (docs/protocol.md §6.6)
        begun_told = [self.begun] if self.begun is not None and last_hand is None else []
        self.story.restore(last_hand, begun_told + voids)
        self.status = "paused" if status == "paused" else "open"
        self.pause_reason = pause_reason if self.status == "paused" else None
        if state:  # the reconciled state is the table's state from now on
            self._fx.queue(store.save_table_state, self.table_id, self.stored_state())
        return self._done()

    def _restore_presence(self, state: dict[str, Any] | None, stacks: dict[int, int]) -> set[int]:
        """Who was sitting out and who was ready, from the stored state; each seat sitting
        out takes its stack from ``stacks`` (the ledger's). Returns those seats, which the
        engine must not seat."""
        if not self.friends:
            return set()
        state = state or {}
        waiting = state.get(WAITING_KEY)
        if isinstance(waiting, dict):
            self.waiting_for_ready = bool(waiting.get("waiting"))
            self.ready = {s for s in waiting.get("ready", []) if s in self.roster}
        else:
            self.waiting_for_ready = self.hands_played == 0
        away = state.get(AWAY_KEY)
        if not isinstance(away, dict):
            return set()
        for key, entry in away.items():
            seat = int(key)
            info = self.roster.get(seat)
            if info is None or entry.get("player_id") != info.player_id:
                continue  # stood up since
            self.away[seat] = Away(
                info.player_id, stacks.get(seat, 0), float(entry["since"]), entry.get("reason")
            )
        return set(self.away)

    # ------------------------------------------------------------------ chat

    def chat_history(self, player_id: str | None) -> dict[str, Any]:
        """What a connecting watcher gets after its first state: the kept messages (oldest
        first), who is muted, the reactions, and whether this person may moderate."""
        return {
            "type": "chat_history",
            "messages": self._unblocked(player_id, self.chat.shown()),
            "muted": self.chat.muted_list(),
            "reactions": REACTIONS,
            "can_moderate": self.may_moderate(player_id),
        }

    def may_moderate(self, player_id: str | None) -> bool:
        """The table's host (its opener, unless the role was handed on) moderates its chat
        (the server's owner too, over REST)."""
        return self.is_host(player_id)

    def _chat_writer(self, watcher: Watcher, signed_out: str) -> tuple[str, str]:
        """The writer's id and name, or the refusal (``signed_out``: the words for a
        spectator)."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        if watcher.player_id is None:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, signed_out)
        if watcher.player_id in self.chat.muted:
            raise ProtocolError(
                ErrorCode.MUTED, N_("you are muted at this table: your messages are not sent")
            )
        return watcher.player_id, watcher.name or "?"

    def _spend(self, player_id: str) -> None:
        """Take one of the person's chat tokens (shared by their sockets), or refuse."""
        settings, now = self.settings, self.clock()
        bucket = self._chat_budget.get(player_id)
        if bucket is None:
            bucket = RateLimiter(settings.chat_messages_per_second, settings.chat_burst, now)
            self._chat_budget[player_id] = bucket
        if not bucket.allow(now):
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                Text(
                    N_("slow down: at most {burst} chat messages at once, then {rate:g} a second"),
                    burst=settings.chat_burst,
                    rate=settings.chat_messages_per_second,
                ),
            )

    def post(self, watcher: Watcher, raw: str) -> Effects:
        """A chat message (its text only: the name, seat and time are the server's)."""
        player_id, name = self._chat_writer(watcher, N_("sign in before you chat"))
        try:
            text = clean_text(raw)
        except ChatRefused as refused:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, refused.args[0]) from None
        self._spend(player_id)
        message = self.chat.post(self.clock(), player_id, name, self.seat_of(player_id), text)
        fx = Effects()
        fx.queue(store.chat_posted, self.table_id, message, CHAT_KEEP)
        self._tell_unblocked(fx, encode({"type": "chat", "message": message}), player_id)
        return fx

    def react(self, watcher: Watcher, reaction: str) -> Effects:
        player_id, name = self._chat_writer(watcher, N_("sign in before you react"))
        if reaction not in REACTIONS:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                Text(N_("the reactions are {reactions}"), reactions=", ".join(REACTIONS)),
            )
        self._spend(player_id)
        frame = {
            "type": "reaction",
            "reaction": reaction,
            "player_id": player_id,
            "name": name,
            "seat": self.seat_of(player_id),
            "at": self.clock(),
        }
        fx = Effects()
        self._tell_unblocked(fx, encode(frame), player_id)
        return fx

    def moderator(self, player_id: str | None) -> None:
        """Refuse anyone but the opener (the host moderates over REST)."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        if not self.may_moderate(player_id):
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED,
                N_("only the player who opened this table (or the host) may mute or remove"),
            )

    def _known_name(self, player_id: str) -> str | None:
        """The name of a person this table knows: seated, connected, or in its chat."""
        for info in self.roster.values():
            if info.player_id == player_id:
                return info.name
        for watcher in self.watchers:
            if watcher.player_id == player_id and watcher.name:
                return watcher.name
        return self.chat.name_of(player_id)

    def set_muted(
        self, player_id: str, *, muted: bool, by: str | None, answer: Watcher | None = None
    ) -> Effects:
        """Mute or unmute a person at this table (``by``: the opener's id, or :data:`HOST`);
        everyone is told the new list. Muting someone muted, or unmuting someone who is not,
        changes nothing (``answer``, if given, still gets the list)."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        if muted and player_id == by:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, N_("you cannot mute yourself"))
        fx = Effects()
        mutes = encode({"type": "mutes", "muted": self.chat.muted_list()})
        if muted == (player_id in self.chat.muted):
            if answer is not None:
                fx.send(answer, mutes)
            return fx
        if muted:
            name = self._known_name(player_id)
            if name is None:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, N_("nobody with that player_id is at this table")
                )
            self.chat.muted[player_id] = Muted(player_id, name)
            fx.queue(store.chat_muted, self.table_id, player_id, name, by)
        else:
            del self.chat.muted[player_id]
            fx.queue(store.chat_unmuted, self.table_id, player_id)
        self._tell_all(fx, encode({"type": "mutes", "muted": self.chat.muted_list()}))
        return fx

    def remove_chat(self, message_id: int) -> Effects:
        """Remove a message: everyone is told, and no client receives it again."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
        if not self.chat.remove(message_id):
            raise ProtocolError(
                ErrorCode.NO_SUCH_MESSAGE,
                Text(N_("this table holds no chat message {id}"), id=message_id),
            )
        fx = Effects()
        fx.queue(store.chat_removed, self.table_id, message_id)
        self._tell_all(fx, encode({"type": "chat_removed", "id": message_id}))
        return fx

    def _tell_all(self, fx: Effects, frame: str) -> None:
        for watcher in self.watchers:
            fx.send(watcher, frame)

    def _tell_unblocked(self, fx: Effects, frame: str, writer: str) -> None:
        """``frame`` (a chat message or a reaction by ``writer``) to every watcher but those
        whose person blocks ``writer`` (app/runtime/blocks.py)."""
        hides = self.blocks.hides
        for watcher in self.watchers:
            if not hides(watcher.player_id, writer):
                fx.send(watcher, frame)

    def _unblocked(
        self, reader: str | None, messages: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """``messages`` but those written by someone ``reader`` blocks."""
        blocked = self.blocks.of(reader)
        if not blocked:
            return messages
        return [m for m in messages if m.get("player_id") not in blocked]


def _seat_stacks(balances: dict[str, int]) -> list[tuple[int, int]]:
    """Each table stack of ``balances`` as (seat, chips), in the order of ``balances``."""
    out = []
    for account, amount in balances.items():
        seat = seat_of(account)
        if seat is not None:
            out.append((seat, amount))
    return out
