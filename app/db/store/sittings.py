"""The ledger entries a sitting is made of, and what is still on the table for one still open
(:mod:`app.review.sessions` builds the sittings: one player's at one table, from a buy-in to
a cash-out)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.dialect import session_moment
from app.db.models import Account, LedgerEntry, Seat

REASONS = ("buy-in", "top-up", "cash-out")
"""The entries a sitting is made of: it starts with a buy-in, takes top-ups, ends with a
cash-out."""

Entry = tuple[int, datetime, str | None, str | None, int, str, str | None]
"""A ledger entry of a sitting: ``(id, created_at, source, target, amount, reason,
table_id)``."""


def _entries() -> Select[int, datetime, str | None, str | None, int, str, str | None]:
    return select(
        LedgerEntry.id,
        LedgerEntry.created_at,
        LedgerEntry.source,
        LedgerEntry.target,
        LedgerEntry.amount,
        LedgerEntry.reason,
        LedgerEntry.table_id,
    )


async def player_entries(session: AsyncSession, player_id: str) -> list[Entry]:
    """The player's buy-ins and top-ups (from their bankroll) and cash-outs (to it), at any
    table, in the order written."""
    bankroll = ledger.bankroll(player_id)
    rows = await session.execute(
        _entries()
        .where(
            or_(
                and_(LedgerEntry.source == bankroll, LedgerEntry.reason.in_(REASONS[:2])),
                and_(LedgerEntry.target == bankroll, LedgerEntry.reason == "cash-out"),
            )
        )
        .order_by(LedgerEntry.id)
    )
    return [
        (i, at, source, target, amount, reason, table)
        for i, at, source, target, amount, reason, table in rows
    ]


async def table_entries(session: AsyncSession, table_id: str) -> list[Entry]:
    """Every buy-in, top-up and cash-out at the table, in the order written."""
    rows = await session.execute(
        _entries()
        .where(LedgerEntry.table_id == table_id, LedgerEntry.reason.in_(REASONS))
        .order_by(LedgerEntry.id)
    )
    return [
        (i, at, source, target, amount, reason, table)
        for i, at, source, target, amount, reason, table in rows
    ]


async def tables_bought_into(session: AsyncSession, start: datetime, end: datetime) -> list[str]:
    """The tables where someone bought in during ``[start, end)``, each once."""
    tables = await session.scalars(
        select(LedgerEntry.table_id)
        .where(
            LedgerEntry.reason == "buy-in",
            LedgerEntry.created_at >= session_moment(session, start),
            LedgerEntry.created_at < session_moment(session, end),
        )
        .distinct()
    )
    return [table_id for table_id in tables.all() if table_id is not None]


async def seated_pairs(
    session: AsyncSession, players: Collection[str], tables: Collection[str]
) -> set[tuple[str, str]]:
    """``(player, table)`` of each of these players seated now at one of these tables."""
    rows = await session.execute(
        select(Seat.player_id, Seat.table_id).where(
            Seat.player_id.in_(list(players)), Seat.table_id.in_(list(tables))
        )
    )
    return {(str(player_id), str(table_id)) for player_id, table_id in rows}


async def chips_on_tables(
    session: AsyncSession, pairs: Collection[tuple[str, str]]
) -> dict[tuple[str, str], int]:
    """What each ``(player, table)`` pair has on the table now: the stack and whatever of
    theirs lies in front of them (bets put up, stakes in prison: every account of the player
    at the table but the bankroll); a pair with none is left out."""
    wanted = set(pairs)
    if not wanted:
        return {}
    rows = await session.execute(
        select(Account.player_id, Account.table_id, Account.balance).where(
            Account.player_id.in_({p for p, _ in wanted}),
            Account.table_id.in_({t for _, t in wanted}),
            Account.kind != "bankroll",
        )
    )
    chips: dict[tuple[str, str], int] = {}
    for player_id, table_id, balance in rows:
        key = (str(player_id), str(table_id))
        if key in wanted:
            chips[key] = chips.get(key, 0) + int(balance)
    return chips
