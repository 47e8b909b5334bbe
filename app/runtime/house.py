"""The house's bank (RULES.md §0, "Banks"; §4): one ledger account the host funds.

Every Trente et Quarante table stakes against the same house, so no table may accept more
than the house can pay after what the other tables could already cost it. The house keeps
its balance in memory (loaded at start, moved by each finished coup and by the host's
top-ups) and each table's *exposure* (the most its stakes down could cost the house); a
table's engine may accept stakes up to ``balance − the other tables' exposure``.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app import ledger
from app.games.base import Transfer


class House:
    """The house's balance and each table's exposure, in memory."""

    def __init__(self, balance: int = 0) -> None:
        self.balance = balance
        self.exposure: dict[str, int] = {}

    def available_for(self, table_id: str) -> int:
        """What ``table_id`` may put at risk: the balance less the other tables' exposure."""
        others = sum(v for k, v in self.exposure.items() if k != table_id)
        return max(0, self.balance - others)

    def note_exposure(self, table_id: str, amount: int) -> None:
        if amount:
            self.exposure[table_id] = amount
        else:
            self.exposure.pop(table_id, None)

    def settle(self, transfers: list[Transfer]) -> None:
        """A finished hand's movements to and from the house."""
        for t in transfers:
            if t.target == ledger.HOUSE:
                self.balance += t.amount
            if t.source == ledger.HOUSE:
                self.balance -= t.amount


async def open_house(session: AsyncSession, float_amount: int) -> int:
    """At start-up: the first time, the host's opening float is granted to the house.
    Returns the house's balance."""
    await ledger.ensure_accounts(session, [ledger.HOUSE])
    granted = await ledger.granted_to(session, ledger.HOUSE)
    if granted == 0 and float_amount > 0:
        await ledger.transfer(session, None, ledger.HOUSE, float_amount, "house float")
    return await ledger.balance(session, ledger.HOUSE)
