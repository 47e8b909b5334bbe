"""Clocks: the decision clock the engine asks for, the next hand (after the writer has
caught up), and a table of bots resting while no person is there.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from app.games.core.actions import action_fits
from app.ops.logs import set_context
from app.runtime.table.state import TableState

log = logging.getLogger("table31.table")

BACKLOG_POLL_SECONDS = 0.5
"""How often a table waiting for the database writer to catch up looks again (on average)."""
RESTING = (
    "Nobody has been here for a while, so the bots have stopped dealing; they start again "
    "as soon as someone connects or sits down."
)
"""``table.message`` of a table of bots that no person has been at for
``BOT_TABLE_IDLE_SECONDS`` (:meth:`Clocks._resting`)."""


class Clocks(TableState):
    """Runs out decisions and deals the next hand in time."""

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
            decided: set[int] = set()  # the seats whose own decision the clock made
            for seat, action in self.engine.timeout_actions():
                if action_fits(action, self.engine.legal_actions(seat)):
                    decided.add(seat)
                self._apply(seat, action, by="timeout")
            self._clock_played(decided)

    def _arm_next_hand(self) -> None:
        if (
            self._next_hand_task is not None
            or self.status != "open"
            or self.draining
            or self.engine.in_hand
            or self.engine.table_over
            or not self.engine.can_start()
            or self._waiting()
            or self._resting()
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

    def _someone_here(self) -> bool:
        """A person is at the table: a socket is open (a player's or a spectator's; bots have
        none), or a person holds a seat (connected or not: their timers play for them)."""
        return bool(self.connections) or any(not i.is_bot for i in self.roster.values())

    def _someone_came(self) -> None:
        self._alone_since = None
        if self.resting:
            self.resting = False
            if self.message == RESTING:
                self.message = None
            log.info("table %s: someone is here; the bots deal again", self.table_id)

    def _resting(self) -> bool:
        """Whether the table deals no new hand because no person has been here for
        ``BOT_TABLE_IDLE_SECONDS``: bots alone would play forever, a hand record every few
        seconds that nobody reads (116 tables of bots once wrote 32 MB a minute). The hand
        in play finishes; the next is dealt as soon as someone connects or sits down."""
        idle = self.settings.bot_table_idle_seconds
        if not idle:
            return False
        if self._someone_here():
            self._someone_came()
            return False
        now = time.monotonic()
        if self._alone_since is None:
            self._alone_since = now
        if now - self._alone_since < idle:
            return False
        if not self.resting:
            self.resting = True
            self.message = RESTING
            log.info("table %s: nobody here for %g s; the bots stop dealing", self.table_id, idle)
        return True
