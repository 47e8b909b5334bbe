"""The chip ledger, the only code that changes a balance (docs/rules.md §0.5).

Every movement is a double entry: an amount of whole chips from one account to another, with
a reason and (for play) its hand. Chips enter only by the host's grant (``source`` null) and
leave only by the host's take (``target`` null), so the audit holds at every commit:

* the sum of all balances equals the chips granted minus the chips taken, and
* every account's balance equals the entries into it minus the entries out of it.

Balances never go negative: a debit is a guarded ``UPDATE … WHERE balance >= amount`` inside
the caller's transaction (all the debits of one call in one statement, applied all or none),
and the database's CHECK constraint backs it up.

A call costs three statements whatever the number of accounts (the debits, the credits, the
entries), run in one ``run_sync`` of the session: the writer settles a hand with a handful of
statements (docs/performance.md, item 1).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    Connection,
    Select,
    String,
    Table,
    bindparam,
    case,
    func,
    literal,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.db.account_ids import HOUSE as HOUSE
from app.db.account_ids import STACK as STACK
from app.db.account_ids import bankroll as bankroll
from app.db.account_ids import parse_account
from app.db.account_ids import stack as stack
from app.db.account_ids import table_account as table_account
from app.db.models import Account, LedgerEntry, utcnow

ROOM_SWITCH = "room switch"
"""The reason of a room's switch moving a stack to the new table (``stack:old:P`` ->
``stack:new:P``, app/db/store/rooms.py): the player's sit there, as a buy-in is elsewhere."""

BOTS = "bots"
"""The bots' bank: the one account every bot buys in from and brings its stack home to,
funded by the host's grants (app/db/store/host.py); an account of its own kind, as ``house``."""


class InsufficientFunds(Exception):
    """An account does not hold the chips a movement asks of it."""

    def __init__(self, account: str, amount: int) -> None:
        super().__init__(f"{account} cannot pay {amount}")
        self.account = account
        self.amount = amount

    def __reduce__(self) -> tuple[type[InsufficientFunds], tuple[str, int]]:
        # it crosses from the writer process to the server (app/db/writer/process.py)
        return (InsufficientFunds, (self.account, self.amount))


def _describe(account_id: str) -> dict[str, Any]:
    """The kind, player and table named by an account id."""
    name = parse_account(account_id)
    return {"kind": name.kind, "player_id": name.player_id, "table_id": name.table_id}


@dataclass(frozen=True)
class Movement:
    """One movement to record: ``source`` None is a grant, ``target`` None a take."""

    source: str | None
    target: str | None
    amount: int
    reason: str


_ACCOUNTS = cast(Table, Account.__table__)
_ENTRIES = cast(Table, LedgerEntry.__table__)
_INSERT_ENTRIES = _ENTRIES.insert()


def _dialect_insert(dialect: str) -> Any:
    """The ``INSERT … ON CONFLICT`` construct of a dialect (both speak the same clause)."""
    if dialect == "postgresql":
        return postgresql.insert(_ACCOUNTS)
    if dialect == "sqlite":
        return sqlite.insert(_ACCOUNTS)
    raise NotImplementedError(f"the ledger does not know the {dialect!r} database")


@functools.cache
def _create_missing(dialect: str) -> Any:
    """``INSERT INTO accounts … ON CONFLICT (id) DO NOTHING``: no SELECT to find them first."""
    return _dialect_insert(dialect).on_conflict_do_nothing(index_elements=[_ACCOUNTS.c.id])


@functools.cache
def _credit(dialect: str) -> Any:
    """Add to accounts, creating those that do not exist yet, in one (executemany) statement:
    ``INSERT … ON CONFLICT (id) DO UPDATE SET balance = accounts.balance + excluded.balance``."""
    stmt = _dialect_insert(dialect)
    return stmt.on_conflict_do_update(
        index_elements=[_ACCOUNTS.c.id],
        set_={"balance": _ACCOUNTS.c.balance + stmt.excluded.balance},
    )


@functools.cache
def _debit(n: int) -> Any:
    """Take chips from ``n`` accounts in ONE guarded statement, all or none: every account
    is debited only if all ``n`` exist and each holds its amount (``balance >= amount``);
    otherwise no row changes. Parameters ``i0…`` (account ids) and ``a0…`` (amounts).

    The count of covered accounts is read from the statement's snapshot, so each row is
    also guarded by its own ``balance >= amount``: when another transaction debits the same
    account first, PostgreSQL (read committed) waits for it and checks the row's own guard
    again on its new balance, where the count is not read again. A row refused that way is
    not returned; the caller then rolls the whole transaction back (:func:`_write`)."""
    ids = [bindparam(f"i{k}", type_=String) for k in range(n)]
    amounts = [bindparam(f"a{k}", type_=BigInteger) for k in range(n)]
    covered = _ACCOUNTS.alias("covered")
    enough = (
        select(func.count())
        .select_from(covered)
        .where(
            covered.c.id.in_(ids),
            covered.c.balance >= case(*zip(ids, amounts, strict=True), value=covered.c.id),
        )
        .scalar_subquery()
    )
    amount = case(*zip(ids, amounts, strict=True), value=_ACCOUNTS.c.id)
    return (
        update(_ACCOUNTS)
        .where(_ACCOUNTS.c.id.in_(ids), _ACCOUNTS.c.balance >= amount, enough == n)
        .values(balance=_ACCOUNTS.c.balance - amount)
        .returning(_ACCOUNTS.c.id)
    )


def _account_row(account_id: str, balance: int) -> dict[str, Any]:
    return {"id": account_id, "balance": balance, **_describe(account_id)}


async def ensure_accounts(session: AsyncSession, account_ids: Iterable[str]) -> None:
    """Create any of these accounts that do not exist yet, with a zero balance."""
    wanted = sorted(set(account_ids))
    if wanted:
        await session.run_sync(_ensure_accounts, wanted)


def _ensure_accounts(session: Session, wanted: list[str]) -> None:
    conn = session.connection()
    conn.execute(_create_missing(conn.dialect.name), [_account_row(a, 0) for a in wanted])


def _netted(movements: Iterable[Movement]) -> tuple[list[Movement], dict[str, int]]:
    """The movements that move something, checked, and each account's net change."""
    moves = [m for m in movements if m.amount != 0]
    net: dict[str, int] = defaultdict(int)
    for m in moves:
        if type(m.amount) is not int or m.amount < 0:
            raise ValueError(f"a movement is a whole, positive number of chips: {m.amount!r}")
        if m.source is not None:
            net[m.source] -= m.amount
        if m.target is not None:
            net[m.target] += m.amount
    return moves, net


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
    moves, net = _netted(movements)
    if moves:
        await session.run_sync(_write, moves, net, hand_id, table_id)


def record_sync(
    session: Session,
    movements: Iterable[Movement],
    *,
    hand_id: str | None = None,
    table_id: str | None = None,
) -> None:
    """:func:`record` for code already running inside ``AsyncSession.run_sync`` (one hand's
    whole write is one such call: :func:`app.db.store.hands.hand_finished`)."""
    moves, net = _netted(movements)
    if moves:
        _write(session, moves, net, hand_id, table_id)


def _write(
    session: Session,
    moves: list[Movement],
    net: dict[str, int],
    hand_id: str | None,
    table_id: str | None,
) -> None:
    """Three statements whatever the number of accounts: the debits (guarded, all or none),
    the credits (creating the accounts that are new, those netted to zero included) and the
    entries."""
    session.flush()  # what the caller added (a seat, a player) goes first, as autoflush did
    conn = session.connection()
    debits = sorted((a, -d) for a, d in net.items() if d < 0)
    if debits:
        params: dict[str, Any] = {}
        for k, (account_id, amount) in enumerate(debits):
            params[f"i{k}"] = account_id
            params[f"a{k}"] = amount
        debited = set(conn.execute(_debit(len(debits)), params).scalars())
        if len(debited) != len(debits):
            if debited:  # a concurrent debit came first: its account is the one short
                raise InsufficientFunds(*next(d for d in debits if d[0] not in debited))
            raise _shortfall(conn, debits)
    credits = [_account_row(a, d) for a, d in sorted(net.items()) if d >= 0]
    if credits:
        conn.execute(_credit(conn.dialect.name), credits)
    now = utcnow()
    conn.execute(
        _INSERT_ENTRIES,
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


def _shortfall(conn: Connection, debits: list[tuple[str, int]]) -> InsufficientFunds:
    """The first account (in id order) that cannot pay: the debit statement changed nothing,
    so the balances read now are the ones it was refused on."""
    rows = conn.execute(
        select(_ACCOUNTS.c.id, _ACCOUNTS.c.balance).where(
            _ACCOUNTS.c.id.in_([a for a, _ in debits])
        )
    )
    held = {a: int(b) for a, b in rows}
    for account_id, amount in debits:
        if held.get(account_id, 0) < amount:
            return InsufficientFunds(account_id, amount)
    return InsufficientFunds(*debits[0])  # pragma: no cover - changed under our feet


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


def _audit_rows() -> Select[Any]:
    """The audit's one statement: per account, its stored balance and kind, the net of its
    ledger entries, and the chips the host granted into it and took out of it.

    Every figure the audit reports comes from this one SELECT, so from one snapshot of the
    database: a statement sees the database as of one moment on PostgreSQL (even at READ
    COMMITTED) and on SQLite (one read transaction; pysqlite opens none of its own for a
    SELECT, so separate statements would each see the commits made in between). An audit
    read in several statements said ``balanced: false`` while the writer committed hands
    (a few percent of the calls with bot tables playing), though the money was right."""
    zero = literal(0, BigInteger)
    no_kind = literal(None, String)
    parts = union_all(
        select(
            Account.id.label("account"),
            literal(1, BigInteger).label("stored"),
            Account.balance.label("balance"),
            Account.kind.label("kind"),
            zero.label("net"),
            zero.label("granted"),
            zero.label("taken"),
        ),
        select(
            LedgerEntry.target,
            zero,
            zero,
            no_kind,
            LedgerEntry.amount,
            case((LedgerEntry.source.is_(None), LedgerEntry.amount), else_=0),
            zero,
        ).where(LedgerEntry.target.is_not(None)),
        select(
            LedgerEntry.source,
            zero,
            zero,
            no_kind,
            -LedgerEntry.amount,
            zero,
            case((LedgerEntry.target.is_(None), LedgerEntry.amount), else_=0),
        ).where(LedgerEntry.source.is_not(None)),
    ).subquery()
    return select(
        parts.c.account,
        func.sum(parts.c.stored),
        func.sum(parts.c.balance),
        func.max(parts.c.kind),
        func.sum(parts.c.net),
        func.sum(parts.c.granted),
        func.sum(parts.c.taken),
    ).group_by(parts.c.account)


async def audit(session: AsyncSession) -> dict[str, Any]:
    """The audit of docs/protocol.md: chips granted (net of takes) against the sum over accounts,
    and every account's balance against its own entries; with the house's balance and the
    chips by kind of account. All of it from one statement (:func:`_audit_rows`): one
    snapshot."""
    granted = taken = accounts_total = accounts = 0
    house = 0
    by_kind: dict[str, int] = {}
    mismatched: list[str] = []
    negative: list[str] = []
    for account, stored, balance, kind, net, into, out in await session.execute(_audit_rows()):
        granted += int(into or 0)
        taken += int(out or 0)
        balance = int(balance or 0)
        if stored:
            accounts += 1
            accounts_total += balance
            by_kind[str(kind)] = by_kind.get(str(kind), 0) + balance
            if account == HOUSE:
                house = balance
            if balance < 0:
                negative.append(str(account))
        if balance != int(net or 0):
            mismatched.append(str(account))
    return {
        "granted": granted - taken,
        "granted_in": granted,
        "taken_out": taken,
        "accounts_total": accounts_total,
        "accounts": accounts,
        "mismatched_accounts": sorted(mismatched),
        "negative_accounts": sorted(negative),
        "balanced": granted - taken == accounts_total and not mismatched and not negative,
        "house": house,
        "by_kind": by_kind,
    }
