"""A node's side of the house (docs/scaling.md): each house-banked table it serves risks no
more than what it has reserved of the house's balance in PostgreSQL (app/db/store/house_bank.py).

:class:`ClusterHouse` is the single server's :class:`~app.runtime.house.House` for a node: the
tables call it the same way. What differs:

* ``available_for(table)`` is the table's reservation as this node last knew it (a mirror),
  never more than PostgreSQL holds for it: the mirror drops as soon as a coup's payouts are
  known (the hand's own transaction uses up the reservation in the database) and grows only
  when a reservation job has answered;
* the other tables' exposure does not matter any more (each table has its own reservation),
  so a stake at one table never changes what the others may accept;
* after a table is adopted (it starts listening) and after every coup that moved chips to or
  from the house, a job fenced with the table's epoch (the table's own writer) tops its
  reservation up towards :func:`coup_cover`, capped by what is free; when a table closes or is
  handed over (:meth:`ClusterHouse.forget`) its reservation is given back. A table whose
  reservation changed is told (its listener), so it publishes its new limits;
* ``fund`` (the host's grant on this node) and :meth:`ClusterHouse.refresh` (another node's
  grant, told through the bus; every reconnection) let the tables grow their reservations.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

from app.cluster.fence import is_fenced
from app.db.store import house_bank
from app.db.writer.base import DatabaseWriter
from app.games.core.accounts import HOUSE
from app.games.core.money import Transfer
from app.runtime.house import House

log = logging.getLogger("table31.cluster.house")

PAYING_CHANCES = 2
"""Trente et Quarante: of each pair of chances one side wins, so a stake pays at most on two
chances a coup (docs/rules.md §4)."""
ADOPTION_WAIT_SECONDS = 5.0
"""How long a table that starts listening may take to be registered by its node (its writer
is read then) before its first reservation is given up."""


def coup_cover(actor: Any) -> int:
    """What a table reserves: the most its seats could win from the house in one coup
    (``max_stake`` on each paying chance, every seat). Bettors standing may stake too; the
    table then accepts only what its reservation covers."""
    options = actor.options  # a table's options are a dict (its engine's)
    if isinstance(options, Mapping):
        return int(options["max_stake"]) * PAYING_CHANCES * int(options["seats"])
    return int(options.max_stake) * PAYING_CHANCES * int(options.seats)


class ClusterHouse(House):
    """The house as a node sees it: its tables' reservations, and the house's balance.

    ``writer``: the node's own writer (unfenced; reads only). ``tables``: the node's table
    actors by id (``Lobby.tables``); each one's ``writer`` (a :class:`FencedWriter`) writes
    its reservation, and ``cover(actor)`` says how much it wants (:func:`coup_cover`)."""

    def __init__(
        self,
        writer: DatabaseWriter,
        tables: Mapping[str, Any],
        balance: int = 0,
        *,
        cover: Callable[[Any], int] = coup_cover,
    ) -> None:
        super().__init__(balance)
        self.writer = writer
        self.tables = tables
        self.cover = cover
        self.reserved: dict[str, int] = {}
        """Each table's reservation as this node knows it (never more than the database's)."""
        self._spent: dict[str, int] = {}
        """Each table's payouts from the house so far, to correct a reservation read back
        while a later coup's payouts were on their way to the database."""
        self._topping: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ what the tables ask

    def available_for(self, table_id: str) -> int:
        """What ``table_id`` may put at risk: its reservation."""
        return self.reserved.get(table_id, 0)

    def listen(self, table_id: str, moved: Callable[[], None]) -> None:
        """A house-banked table this node now serves (adopted or opened): it reserves."""
        super().listen(table_id, moved)
        self.top_up(table_id)

    def forget(self, table_id: str) -> None:
        """A table closed, handed over, or lost: it risks nothing here any more. While its
        actor is still this node's (closed, handed over) its reservation is given back
        through its own writer, fenced; a table lost to another node (dropped) keeps its
        reservation row, the new owner's now."""
        self.unlisten(table_id)
        self.exposure.pop(table_id, None)
        self.reserved.pop(table_id, None)
        self._spent.pop(table_id, None)
        self._again.discard(table_id)
        actor = self.tables.get(table_id)
        if actor is not None:
            # submitted now, not from a task: it is queued before whatever the node writes
            # next for the table (a flush, then the lease's release at a handover)
            try:
                done = actor.writer.submit(house_bank.release, table_id)
            except RuntimeError:  # no running loop: nothing to give back through
                return
            done.add_done_callback(_gave_back(table_id))

    def note_exposure(self, table_id: str, amount: int) -> None:
        """Kept for the record only: a table's stakes change nothing for the others here."""
        if amount:
            self.exposure[table_id] = amount
        else:
            self.exposure.pop(table_id, None)

    def settle_at(self, table_id: str, transfers: list[Transfer]) -> None:
        """A coup finished at ``table_id``: its payouts from the house use up its reservation
        (as the hand's transaction does in the database), the balance moves, and the table
        tops its reservation up again (a job queued after the hand's own write)."""
        paid, taken = _paid_and_taken(transfers)
        self.balance += taken - paid
        if paid:
            self._spend(table_id, paid)
            self._tell(table_id)
        if paid or taken:
            self.top_up(table_id)

    def settle(self, transfers: list[Transfer]) -> None:
        """A coup finished at a table this call does not name: every table's reservation is
        counted as used up by its payouts (never more than the database's), and every table
        tops up again. :meth:`settle_at` is exact; this is the fallback."""
        paid, taken = _paid_and_taken(transfers)
        self.balance += taken - paid
        for table_id in list(self.listeners):
            if paid:
                self._spend(table_id, paid)
                self._tell(table_id)
            self.top_up(table_id)

    def fund(self, amount: int) -> None:
        """The host's grant on this node (already in the ledger): the tables reserve more."""
        self.balance += amount
        self._grow_all()

    async def refresh(self) -> None:
        """Another node's grant (a bus notice), or the bus reconnected: read the balance
        again and let every table grow its reservation."""
        try:
            self.balance = await self.writer.run(house_bank.house_balance)
        except Exception as exc:
            log.warning("house: could not read the balance again: %s", exc)
            return
        self._grow_all()

    # ------------------------------------------------------------------ reservations

    def top_up(self, table_id: str) -> None:
        """Grow ``table_id``'s reservation towards its cover, soon (one job at a time per
        table; asked again while one runs, another follows)."""
        if table_id in self._topping:
            self._again.add(table_id)
            return
        self._topping.add(table_id)
        self._spawn(self._top_up(table_id))

    async def _top_up(self, table_id: str) -> None:
        try:
            actor = await self._actor(table_id)
            if actor is None or table_id not in self.listeners:
                return
            want = self.cover(actor)
            if self.reserved.get(table_id, 0) >= want:
                return
            mark = self._spent.get(table_id, 0)
            try:
                after = await actor.writer.run(house_bank.reserve, table_id, want)
            except Exception as exc:
                if not is_fenced(exc):
                    log.warning("house: table %s could not reserve: %s", table_id, exc)
                return
            if table_id not in self.listeners:
                return  # forgotten meanwhile
            known = max(0, int(after) - (self._spent.get(table_id, 0) - mark))
            if known != self.reserved.get(table_id, 0):
                self.reserved[table_id] = known
                self._tell(table_id)
        finally:
            self._topping.discard(table_id)
            if table_id in self._again:
                self._again.discard(table_id)
                self.top_up(table_id)

    async def _actor(self, table_id: str) -> Any:
        """The table's actor once its node has registered it (a table starts listening while
        it is being built)."""
        deadline = asyncio.get_running_loop().time() + ADOPTION_WAIT_SECONDS
        while (actor := self.tables.get(table_id)) is None:
            if asyncio.get_running_loop().time() > deadline or table_id not in self.listeners:
                return None
            await asyncio.sleep(0.02)
        return actor

    def _grow_all(self) -> None:
        for table_id in list(self.listeners):
            self.top_up(table_id)

    def _spend(self, table_id: str, paid: int) -> None:
        self._spent[table_id] = self._spent.get(table_id, 0) + paid
        self.reserved[table_id] = max(0, self.reserved.get(table_id, 0) - paid)

    def _tell(self, table_id: str) -> None:
        moved = self.listeners.get(table_id)
        if moved is not None:
            moved()

    def _spawn(self, coro: Any) -> None:
        """Run ``coro`` as a task of the running loop; without one (a table built outside a
        loop, a test) it is closed unrun."""
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Wait for the reservation jobs under way (tests, a node stopping)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _gave_back(table_id: str) -> Callable[[asyncio.Future[Any]], None]:
    def done(future: asyncio.Future[Any]) -> None:
        if future.cancelled():
            return
        exc = future.exception()
        if exc is not None and not is_fenced(exc):
            log.warning("house: table %s could not give its reservation back: %s", table_id, exc)

    return done


def _paid_and_taken(transfers: list[Transfer]) -> tuple[int, int]:
    """Chips the house paid out, and chips it took in, in these transfers."""
    paid = sum(t.amount for t in transfers if t.source == HOUSE)
    taken = sum(t.amount for t in transfers if t.target == HOUSE)
    return paid, taken
