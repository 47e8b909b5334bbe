"""Bots: when a seat a bot holds is to act, it acts after ``BOT_DELAY_SECONDS``, through
the same checked path as a player (an illegal choice is logged and replaced by the
engine's default action).
"""

from __future__ import annotations

import asyncio
import logging

from app.runtime.records import SeatInfo
from app.runtime.table.state import TableState

log = logging.getLogger("table31.table")


class Bots(TableState):
    """Plays the seats bots hold."""

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
                # the engine checks the bot's choice (an illegal one: the default instead)
                self._apply(seat, self.engine.bot_action(seat, self.rng), by="bot")
                break
