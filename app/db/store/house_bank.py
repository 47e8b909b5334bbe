"""The house's reservations in PostgreSQL: how a cluster shares one house between nodes (the
node's side, what each table reserves and when: app/cluster/house.py).

On a single server every Trente et Quarante table stakes against the house's balance less
what the other tables could cost it, all in one process's memory (app/runtime/house.py). Nodes
cannot see each other's tables' exposure in time, so each house-banked table *reserves* part
of the house's balance in ``house_reservations`` and never risks more than its reservation:

* :func:`reserve` grows a table's reservation up to what is free (the balance less every other
  reservation), with the house's row locked, so two nodes' reservations are granted one after
  the other and never together exceed the balance;
* a payout from ``house`` at a table uses up that table's reservation in the hand's own
  transaction (a trigger on ``ledger_entries``: migrations/versions/0007_cluster.py);
* PostgreSQL refuses, at commit, any transaction after which the reservations add up to more
  than the house's balance (a deferred constraint trigger), however it was written.

Every function is a database job (a table's are run fenced with its epoch, app/cluster/fence.py:
a reservation row belongs to its table). PostgreSQL only, like the rest of cluster mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.ledger import HOUSE

OVERCOMMITTED_SQLSTATE = "T3HOU"
"""The SQLSTATE of a commit refused because the reservations would exceed the house's balance."""


@dataclass(frozen=True)
class HouseSnapshot:
    """The house's balance and every table's reservation, as read together."""

    balance: int = 0
    reservations: dict[str, int] = field(default_factory=dict)

    @property
    def free(self) -> int:
        """What no table has reserved."""
        return max(0, self.balance - sum(self.reservations.values()))


def over_committed(exc: BaseException | None) -> bool:
    """Whether ``exc`` is PostgreSQL refusing a commit after which the reservations would add
    up to more than the house's balance (SQLSTATE ``T3HOU``; through SQLAlchemy's DBAPIError,
    or as a message that crossed the writer process)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if getattr(exc, "sqlstate", None) == OVERCOMMITTED_SQLSTATE:
            return True
        if "the house's reservations (" in str(exc):
            return True
        orig = getattr(exc, "orig", None)
        exc = orig if isinstance(orig, BaseException) else (exc.__cause__ or exc.__context__)
    return False


async def reserve(session: AsyncSession, table_id: str, want: int) -> int:
    """Grow ``table_id``'s reservation towards ``want``: to the smaller of ``want`` and what
    the house holds beyond the OTHER tables' reservations. A reservation is never lowered here
    (stakes may be down on it: :func:`release` lowers it). Returns the reservation after.

    The house's account row is locked first (``FOR UPDATE``): reservations, and hands that pay
    from or into the house, are written one after another, and each reads what the one before
    committed."""
    held = await session.scalar(
        text("SELECT balance FROM accounts WHERE id = :h FOR UPDATE"), {"h": HOUSE}
    )
    others = await session.scalar(
        text("SELECT coalesce(sum(amount), 0) FROM house_reservations WHERE table_id <> :t"),
        {"t": table_id},
    )
    current = await session.scalar(
        text("SELECT amount FROM house_reservations WHERE table_id = :t"), {"t": table_id}
    )
    mine = int(current or 0)
    free = max(0, int(held or 0) - int(others or 0))
    granted = max(mine, min(int(want), free))
    if current is None:
        if granted > 0:
            await session.execute(
                text("INSERT INTO house_reservations (table_id, amount) VALUES (:t, :a)"),
                {"t": table_id, "a": granted},
            )
    elif granted != mine:
        await session.execute(
            text("UPDATE house_reservations SET amount = :a WHERE table_id = :t"),
            {"t": table_id, "a": granted},
        )
    return granted


async def release(session: AsyncSession, table_id: str, keep: int = 0) -> int:
    """Lower ``table_id``'s reservation to at most ``keep`` (0: give it all back, the row
    goes): a table closed or handed over, or one that holds more than it needs. Returns the
    reservation after."""
    if keep <= 0:
        await session.execute(
            text("DELETE FROM house_reservations WHERE table_id = :t"), {"t": table_id}
        )
        return 0
    after = await session.scalar(
        text(
            "UPDATE house_reservations SET amount = least(amount, :k) WHERE table_id = :t"
            " RETURNING amount"
        ),
        {"t": table_id, "k": keep},
    )
    return int(after or 0)


async def reservation(session: AsyncSession, table_id: str) -> int:
    """``table_id``'s reservation now (0 when it has none)."""
    value = await session.scalar(
        text("SELECT amount FROM house_reservations WHERE table_id = :t"), {"t": table_id}
    )
    return int(value or 0)


async def reservations(session: AsyncSession) -> dict[str, int]:
    """Every table's reservation."""
    rows = await session.execute(text("SELECT table_id, amount FROM house_reservations"))
    return {str(t): int(a) for t, a in rows}


async def house_balance(session: AsyncSession) -> int:
    """The house's balance (0 before the house has an account)."""
    value = await session.scalar(text("SELECT balance FROM accounts WHERE id = :h"), {"h": HOUSE})
    return int(value or 0)


async def snapshot(session: AsyncSession) -> HouseSnapshot:
    """The balance and the reservations from ONE statement (one snapshot of the database)."""
    rows = list(
        await session.execute(
            text(
                "SELECT NULL, balance FROM accounts WHERE id = :h"
                " UNION ALL SELECT table_id, amount FROM house_reservations"
            ),
            {"h": HOUSE},
        )
    )
    balance = next((int(a) for t, a in rows if t is None), 0)
    return HouseSnapshot(balance, {str(t): int(a) for t, a in rows if t is not None})
