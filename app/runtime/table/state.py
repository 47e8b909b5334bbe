"""What every room of a table's actor shares: the table's state in memory, who is here, and
the hooks the rooms call on one another.

A table is ONE actor (:class:`app.runtime.table.actor.TableActor`): the rooms of this
package are parts of the same object, working on the same state under the same lock, one
thing at a time; they divide its code by job, not its state. Each room reaches another's
work only through the hooks declared here, which the actor joins.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any

from app.core.config import Settings
from app.db.writer.base import DatabaseWriter
from app.games.core.actions import Action
from app.games.core.cards import SeedSource, csprng_seed
from app.games.core.game import Game
from app.games.core.house import HouseBanked
from app.ops.metrics import Metrics
from app.runtime.act_ids import AcceptedActs
from app.runtime.chat import TableChat
from app.runtime.connection import Connection, RateLimiter
from app.runtime.house import House
from app.runtime.records import Away, SeatInfo
from app.runtime.story import Story

BOTS_RNG = random.Random()
"""The randomness of bots and of the back-pressure's waits, one for every table: a
generator's state is 2.5 KiB, half a KiB for each of a table's five sockets
(docs/performance.md §9). Shuffles never use it: they draw their own seeds (docs/rules.md §0)."""


class TableState:
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
        self.house = house if issubclass(game_cls, HouseBanked) else None
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
        self.story = Story()
        """The recent events and the last result, told with the views (docs/protocol.md §6.6)."""
        self._told: set[Connection] = set()
        """The connections that have received the story: the others get it with their next state."""
        # clocks and chores
        self.deadline: float | None = None
        self._timer_key: tuple[Any, ...] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._next_hand_task: asyncio.Task[None] | None = None
        self._pending_leave: set[int] = set()
        # ready to deal and sitting out (presence.py)
        self.waiting_for_ready = self.options.get("start") == "when_ready"
        """A friends' table holds its deal until everyone seated is ready or the opener deals."""
        self.ready: set[int] = set()
        self.away: dict[int, Away] = {}
        """The seats sitting out: out of the engine, their stacks kept here."""
        self._pending_away: dict[int, str | None] = {}
        """Seats that sit out at the next moment the game allows (with the reason, if any)."""
        self._clock_strikes: dict[int, int] = {}
        """Decisions in a row the clock has played for each seat."""
        self._reserved: dict[int, str] = {}
        """Seats held for a player whose buy-in the database is moving."""
        self._accepted: dict[str, AcceptedActs] = {}
        """Each player's last accepted act ids (resends are acknowledged, not applied)."""
        self.message: str | None = None
        self._notice_until = 0.0
        self.resting = False
        """No person has been here for ``BOT_TABLE_IDLE_SECONDS``: no new hand is dealt."""
        self._alone_since: float | None = None
        """Since when (``time.monotonic``) no person has been here, or None."""
        self._state_dirty = False
        self.draining = False
        """Cluster mode: the node is handing its tables over, no new hand is dealt here
        (app/cluster/node.py)."""
        self.moved: str | None = None
        """Cluster mode: why this actor stopped serving the table (another node serves it)."""
        self.chat = TableChat()
        """The table's chat: its last messages and who is muted (the chat room)."""
        self._chat_budget: dict[str, RateLimiter] = {}
        """Each person's chat budget at this table, shared by their sockets."""
        self._house_refresh: asyncio.TimerHandle | None = None
        self._chores: set[asyncio.Task[None]] = set()
        if self.house is not None:
            self.house.listen(self.table_id, self._house_moved)

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, info in self.roster.items():
            if info.player_id == player_id:
                return seat
        return None

    def is_connected(self, player_id: str) -> bool:
        return any(c.player_id == player_id and not c.closed for c in self.connections)

    @property
    def closed(self) -> bool:
        return self.status == "closed"

    def _player_in(self, seat: int | None) -> str | None:
        info = None if seat is None else self.roster.get(seat)
        return None if info is None else info.player_id

    def _spawn(self, chore: Coroutine[Any, Any, None]) -> None:
        """Run ``chore`` as a task the table keeps until it ends (cancelled at shutdown)."""
        self._chores.add(task := asyncio.create_task(chore))
        task.add_done_callback(self._chores.discard)

    # ------------------------------------------------------------------ hooks between rooms

    def _changed(self, notify_only: Connection | None = None) -> None:
        """After every change: record, store, publish, re-arm (the actor)."""
        raise NotImplementedError

    def _apply(self, seat: int, action: Action, *, by: str) -> None:
        """Apply an action (the engine checks it), record it, and publish the change (the actor)."""
        raise NotImplementedError

    def _process_leaves(self) -> None:
        """Let the pending leaves go that the rules allow now (seating)."""
        raise NotImplementedError

    def _start_hand(self) -> None:
        """Deal the next hand if the table may (the hand record)."""
        raise NotImplementedError

    def _process_away(self) -> None:
        """Let the pending sit-outs go that the rules allow now (presence)."""
        raise NotImplementedError

    def _after_leave(self) -> None:
        """Someone stood up: a friends' table left empty waits for Ready again (presence)."""
        raise NotImplementedError

    def _waiting(self) -> bool:
        """Does the table hold its deal until everyone is ready (presence)?"""
        raise NotImplementedError

    def _hand_dealt(self) -> None:
        """A hand was dealt: the wait for Ready is over (presence)."""
        raise NotImplementedError

    def _legal(self, seat: int | None) -> list[dict[str, Any]]:
        """The game's decisions and the table's own actions of ``seat`` now (presence)."""
        raise NotImplementedError

    def _presence_extras(self, seat: int) -> dict[str, Any]:
        """Ready and sitting out, as every viewer sees ``seat`` (presence)."""
        raise NotImplementedError

    def _away_entries(self) -> list[dict[str, Any]]:
        """Seat entries of the seats sitting out (presence)."""
        raise NotImplementedError

    def _presence_stored(self) -> dict[str, Any]:
        """Who sits out and who is ready, as the stored state keeps them (presence)."""
        raise NotImplementedError

    def _clock_played(self, seats: set[int]) -> None:
        """The clock decided for ``seats``: two in a row sit a person out (presence)."""
        raise NotImplementedError

    def _rebuilt_engine(
        self,
        snapshot: dict[str, Any],
        balances: dict[str, int],
        seated_then: list[int] | None = None,
    ) -> Game:
        """A new engine as the table was before a hand (voiding)."""
        raise NotImplementedError

    def _halt(self, reason: str) -> None:
        """Pause the table on the server's own account (voiding)."""
        raise NotImplementedError

    def _sync_house(self) -> None:
        """Tell a house-banked game what the house can put at risk here now (house sync)."""
        raise NotImplementedError

    def _house_moved(self) -> None:
        """The house changed elsewhere: publish this table's limits soon (house sync)."""
        raise NotImplementedError
