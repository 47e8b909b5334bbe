"""The bots: a fixed pool of bot players, named once, reused, and paid from one bank.

A bot is a player of its own (``Ada (bot)``), made the first time its name is needed and
reused whenever it sits at no table; nothing is granted to it. Its buy-in comes from the bots'
bank (the ledger's ``bots`` account, funded by the host: app/db/store/host.py), and its stack,
once it stands up or its table closes, goes home to that bank (through its bankroll, as a
person's goes home: the next look at the bank brings it there). So the bots' results add up in
one account the host sees on the host's page, and adding bots grants no chips: one player
once added 411 bots in 30 s, each granted 1,000 chips.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app.core.config import Settings
from app.core.names import BOT_MARK
from app.db.store.host import bots_bank, bots_home, fund_bots
from app.db.store.players import take_bot
from app.db.writer.base import DatabaseWriter
from app.i18n.messages import N_, Text

BOT_NAMES = ("Ada", "Basil", "Clio", "Dmitri", "Elena", "Faustine", "Georgios", "Helga", "Ines")
BOT_NUMBERS = 12
"""Bots are named "Ada (bot)", then "Ada 2 (bot)" up to "Ines 11 (bot)": 99 names, so 99 bots
in the pool, past the people's own names."""


def bot_names(used: set[str]) -> list[str]:
    """The names a new bot may take, in order of preference, none of them in ``used`` (the
    table's names): "Basil (bot)", then "Basil 2 (bot)" and so on. Every one ends with
    ``(bot)``, which no person's name may (app/core/names.py)."""
    names = [f"{n} {BOT_MARK}" for n in BOT_NAMES]
    names += [f"{n} {i} {BOT_MARK}" for i in range(2, BOT_NUMBERS) for n in BOT_NAMES]
    return [name for name in names if name not in used]


def bank_short(held: int, buy_in: int) -> str:
    """Why no bot can sit: the bank cannot cover its buy-in."""
    return Text(
        N_(
            "the bots' bank holds {held} chips, fewer than the {buy_in} a bot buys in with"
            " here; the host can add chips on /admin"
        ),
        held=held,
        buy_in=buy_in,
    )


class BotPool:
    """This process's side of the pool: the bots being seated now (their buy-in on its way
    from the bank to the table), which no other table may take and whose chips no sweep may
    bring home meanwhile. Taking a bot and every sweep are ordered by one lock, so that the
    writer never runs a sweep that does not know of a bot taken before it."""

    def __init__(self, writer: DatabaseWriter, settings: Settings) -> None:
        self.writer = writer
        self.settings = settings
        self.seating: set[str] = set()
        """The bots taken from the pool whose seat is being written."""
        self._lock = asyncio.Lock()

    async def take(self, names: list[str], buy_in: int) -> tuple[str, str]:
        """A bot of the pool with ``buy_in`` chips from the bank in its bankroll: its
        ``(player_id, name)``. ValueError (with the words for the host or the opener) when
        the bank cannot cover the buy-in or every bot those names allow is seated. Call
        :meth:`seated` once its seat is settled."""
        async with self._lock:
            taken = await self.writer.run(
                take_bot,
                names,
                buy_in,
                busy=sorted(self.seating),
                bank_float=self.settings.bots_bank_float,
            )
            if isinstance(taken, int):
                raise ValueError(bank_short(taken, buy_in))
            self.seating.add(taken[0])
        return taken

    def seated(self, player_id: str, ok: bool) -> None:
        """The bot's seat is settled; one that did not sit has its buy-in brought home (the
        job runs after the table's own, which put the chips back in its bankroll)."""
        self.seating.discard(player_id)
        if not ok:
            self.writer.submit(bots_home, self.settings.bots_bank_float, only=[player_id])

    async def bring_home(self) -> int:
        """The chips of every bot that has left brought home to the bank (a bot stood up,
        a table closed): the chips moved."""
        async with self._lock:
            done = self.writer.submit(
                bots_home, self.settings.bots_bank_float, busy=sorted(self.seating)
            )
        return await done

    async def bank(self) -> dict[str, Any]:
        """The bank for the host (:func:`app.db.store.host.bots_bank`), the chips of the bots
        that have left brought home first."""
        async with self._lock:
            done = self.writer.submit(
                bots_bank, self.settings.bots_bank_float, sorted(self.seating)
            )
        return {**await done, "pool": len(bot_names(set()))}

    async def fund(self, amount: int, reason: str) -> int:
        """The host's grant to the bank, in the host's log; its balance after."""
        return await self.writer.run(fund_bots, amount, reason, self.settings.bots_bank_float)
