"""The house's bank (docs/rules.md §0.6; §4): one ledger account the host funds.

Every Trente et Quarante table stakes against the same house, so no table may accept more
than the house can pay after what the other tables could already cost it. The house keeps
its balance in memory (loaded at start, moved by each finished coup and by the host's
top-ups) and each table's *exposure* (the most its stakes down could cost the house); a
table's engine may accept stakes up to ``balance − the other tables' exposure``.

When the balance or a table's exposure changes, what the OTHER tables may accept changes too:
each house-banked table listens, and is told to publish its new limits (their ``legal`` must
stay exact, docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable

from app.db import ledger
from app.db.types import AsyncSession
from app.games.core.money import Transfer


class House:
    """The house's balance and each table's exposure, in memory."""

    def __init__(self, balance: int = 0) -> None:
        self.balance = balance
        self.exposure: dict[str, int] = {}
        self.listeners: dict[str, Callable[[], None]] = {}
        """Per house-banked table: called when what it may put at risk may have changed."""

    def available_for(self, table_id: str) -> int:
        """What ``table_id`` may put at risk: the balance less the other tables' exposure."""
        others = sum(v for k, v in self.exposure.items() if k != table_id)
        return max(0, self.balance - others)

    def listen(self, table_id: str, moved: Callable[[], None]) -> None:
        self.listeners[table_id] = moved

    def unlisten(self, table_id: str) -> None:
        self.listeners.pop(table_id, None)

    def forget(self, table_id: str) -> None:
        """A closed table: it neither listens nor risks anything any more."""
        self.unlisten(table_id)
        self.note_exposure(table_id, 0)

    def note_exposure(self, table_id: str, amount: int) -> None:
        if self.exposure.get(table_id, 0) == amount:
            return
        if amount:
            self.exposure[table_id] = amount
        else:
            self.exposure.pop(table_id, None)
        self._moved(but=table_id)

    def settle(self, transfers: list[Transfer]) -> None:
        """A finished hand's movements to and from the house."""
        before = self.balance
        for t in transfers:
            if t.target == ledger.HOUSE:
                self.balance += t.amount
            if t.source == ledger.HOUSE:
                self.balance -= t.amount
        if self.balance != before:
            self._moved()

    def settle_at(self, table_id: str, transfers: list[Transfer]) -> None:
        """A finished hand's movements at ``table_id``: one house for every table here, so
        :meth:`settle`; a node's house (app/cluster/house.py) counts them per table."""
        self.settle(transfers)

    def fund(self, amount: int) -> None:
        """The host's top-up (already in the ledger)."""
        self.balance += amount
        self._moved()

    def _moved(self, but: str | None = None) -> None:
        for table_id, moved in list(self.listeners.items()):
            if table_id != but:
                moved()


async def open_house(session: AsyncSession, float_amount: int) -> int:
    """At start-up: the first time, the host's opening float is granted to the house.
    Returns the house's balance."""
    await ledger.ensure_accounts(session, [ledger.HOUSE])
    granted = await ledger.granted_to(session, ledger.HOUSE)
    if granted == 0 and float_amount > 0:
        await ledger.transfer(session, None, ledger.HOUSE, float_amount, "house float")
    return await ledger.balance(session, ledger.HOUSE)
