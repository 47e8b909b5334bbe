"""The chip ledger: the only code that changes a balance (RULES.md §0, "Money"; STYLE.md §8).

Every movement is a double entry: an amount of whole chips from one account to another, with
a reason and (for play) its hand. Chips enter only by the host's grant (``source`` null) and
leave only by the host's take (``target`` null), so the audit holds at every commit:

* the sum of all balances equals the chips granted minus the chips taken, and
* every account's balance equals the entries into it minus the entries out of it.

Balances never go negative: a debit is a guarded ``UPDATE … WHERE balance >= amount`` inside
the caller's transaction, and the database's CHECK constraint backs it up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, LedgerEntry, utcnow

HOUSE = "house"


class InsufficientFunds(Exception):
    """An account does not hold the chips a movement asks of it."""

    def __init__(self, account: str, amount: int) -> None:
        super().__init__(f"{account} cannot pay {amount}")
        self.account = account
        self.amount = amount


def bankroll(player_id: str) -> str:
    return f"bankroll:{player_id}"


def stack(table_id: str, player_id: str) -> str:
    return f"stack:{table_id}:{player_id}"


def table_account(kind: str, table_id: str, player_id: str | None = None) -> str:
    """A table's own account: ``pot:T``, or a player's ``bets:T:P`` / ``prison:T:P``."""
    return f"{kind}:{table_id}" if player_id is None else f"{kind}:{table_id}:{player_id}"


def _describe(account_id: str) -> dict[str, Any]:
    """The kind, player and table named by an account id."""
    parts = account_id.split(":")
    kind = parts[0]
    if kind == "bankroll":
        return {"kind": kind, "player_id": parts[1], "table_id": None}
    if kind == HOUSE:
        return {"kind": kind, "player_id": None, "table_id": None}
    return {
        "kind": kind,
        "table_id": parts[1] if len(parts) > 1 else None,
        "player_id": parts[2] if len(parts) > 2 else None,
    }


@dataclass(frozen=True)
class Movement:
    """One movement to record: ``source`` None is a grant, ``target`` None a take."""

    source: str | None
    target: str | None
    amount: int
    reason: str


async def ensure_accounts(session: AsyncSession, account_ids: Iterable[str]) -> None:
    """Create any of these accounts that do not exist yet, with a zero balance."""
    wanted = set(account_ids)
    if not wanted:
        return
    existing = set((await session.scalars(select(Account.id).where(Account.id.in_(wanted)))).all())
    missing = sorted(wanted - existing)
    if missing:
        await session.execute(
            insert(Account), [{"id": a, "balance": 0, **_describe(a)} for a in missing]
        )


async def record(
    session: AsyncSession,
    movements: Iterable[Movement],
    *,
    hand_id: str | None = None,
    table_id: str | None = None,
) -> None:
    """Write movements as ledger entries and apply them to balances, in the caller's
    transaction. Raises :class:`InsufficientFunds` (the caller rolls back) when any account
    would go negative; nothing is half-applied once the transaction is rolled back."""
    moves = [m for m in movements if m.amount != 0]
    if not moves:
        return
    net: dict[str, int] = defaultdict(int)
    for m in moves:
        if type(m.amount) is not int or m.amount < 0:
            raise ValueError(f"a movement is a whole, positive number of chips: {m.amount!r}")
        if m.source is not None:
            net[m.source] -= m.amount
        if m.target is not None:
            net[m.target] += m.amount
    await ensure_accounts(session, net)
    # Debits first, each guarded so that no balance can go below zero.
    for account_id, delta in sorted(net.items()):
        if delta < 0:
            result = await session.execute(
                update(Account)
                .where(Account.id == account_id, Account.balance >= -delta)
                .values(balance=Account.balance + delta)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise InsufficientFunds(account_id, -delta)
    for account_id, delta in sorted(net.items()):
        if delta > 0:
            await session.execute(
                update(Account)
                .where(Account.id == account_id)
                .values(balance=Account.balance + delta)
            )
    now = utcnow()
    await session.execute(
        insert(LedgerEntry),
        [
            {
                "created_at": now,
                "source": m.source,
                "target": m.target,
                "amount": m.amount,
                "reason": m.reason[:80],
                "hand_id": hand_id,
                "table_id": table_id,
            }
            for m in moves
        ],
    )


async def transfer(
    session: AsyncSession,
    source: str | None,
    target: str | None,
    amount: int,
    reason: str,
    *,
    hand_id: str | None = None,
    table_id: str | None = None,
) -> None:
    """Record one movement (see :func:`record`)."""
    await record(
        session, [Movement(source, target, amount, reason)], hand_id=hand_id, table_id=table_id
    )


async def balance(session: AsyncSession, account_id: str) -> int:
    value = await session.scalar(select(Account.balance).where(Account.id == account_id))
    return int(value or 0)


async def balances(session: AsyncSession, account_ids: Iterable[str]) -> dict[str, int]:
    ids = list(account_ids)
    rows = await session.execute(select(Account.id, Account.balance).where(Account.id.in_(ids)))
    found = {row[0]: int(row[1]) for row in rows}
    return {a: found.get(a, 0) for a in ids}


async def granted_to(session: AsyncSession, account_id: str) -> int:
    """Chips ever granted by the host straight into ``account_id``."""
    return int(
        await session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.source.is_(None), LedgerEntry.target == account_id
            )
        )
        or 0
    )


async def audit(session: AsyncSession) -> dict[str, Any]:
    """The audit of PROTOCOL.md: chips granted (net of takes) against the sum over accounts,
    and every account's balance against its own entries."""
    granted = int(
        await session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.source.is_(None)
            )
        )
        or 0
    )
    taken = int(
        await session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.target.is_(None)
            )
        )
        or 0
    )
    accounts_total = int(
        await session.scalar(select(func.coalesce(func.sum(Account.balance), 0))) or 0
    )
    inflow: dict[str | None, int] = dict(
        (
            await session.execute(
                select(LedgerEntry.target, func.sum(LedgerEntry.amount))
                .where(LedgerEntry.target.is_not(None))
                .group_by(LedgerEntry.target)
            )
        ).all()
    )
    outflow: dict[str | None, int] = dict(
        (
            await session.execute(
                select(LedgerEntry.source, func.sum(LedgerEntry.amount))
                .where(LedgerEntry.source.is_not(None))
                .group_by(LedgerEntry.source)
            )
        ).all()
    )
    stored: dict[str | None, int] = dict(
        (await session.execute(select(Account.id, Account.balance))).all()
    )
    mismatched = sorted(
        str(account_id)
        for account_id in set(stored) | set(inflow) | set(outflow)
        if int(stored.get(account_id, 0))
        != int(inflow.get(account_id, 0)) - int(outflow.get(account_id, 0))
    )
    negative = sorted(str(a) for a, b in stored.items() if int(b) < 0)
    return {
        "granted": granted - taken,
        "granted_in": granted,
        "taken_out": taken,
        "accounts_total": accounts_total,
        "accounts": len(stored),
        "mismatched_accounts": mismatched,
        "negative_accounts": negative,
        "balanced": granted - taken == accounts_total and not mismatched and not negative,
    }
