"""Read-only queries for the nets players see: the ledger's movements over a span, and a
player's movements all time (docs/review.md, "One truth").

Every figure a player sees as won or lost is computed from these rows by
:mod:`app.review.nets`: the movements between a player's own accounts (``bankroll:P``,
``stack:T:P``, ``bets:T:P``, ``prison:T:P``) and anyone else's. A grant or a take by the
host (``source`` or ``target`` null) is never a win nor a loss, so neither query returns one.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.dialect import session_moment
from app.db.models import Account, GameTable, Hand, HandPlayer, LedgerEntry, Player
from app.db.store.access import Reader, visible


@dataclass(frozen=True)
class Move:
    """One ledger movement between two accounts, at a table (``hand_id`` when a hand's)."""

    source: str
    target: str
    amount: int
    table_id: str
    hand_id: str | None = None


@dataclass(frozen=True)
class TableInfo:
    """A table's name and game."""

    name: str
    game: str


@dataclass(frozen=True)
class PlayerInfo:
    """A player's name, and whether a bot."""

    name: str
    bot: bool


async def span_moves(
    session: AsyncSession,
    *,
    start: datetime,
    end: datetime,
    table_id: str | None = None,
    reader: Reader | None = None,
    table_ids: Collection[str] | None = None,
) -> list[Move]:
    """Every movement between two accounts written in ``[start, end)`` at a table (at
    ``table_id`` when given; with a ``reader``, only at the tables they may see), in the
    order written. Grants and takes (an end null) and movements at no table are left
    out."""
    query = select(
        LedgerEntry.source,
        LedgerEntry.target,
        LedgerEntry.amount,
        LedgerEntry.table_id,
        LedgerEntry.hand_id,
    ).where(
        LedgerEntry.created_at >= session_moment(session, start),
        LedgerEntry.created_at < session_moment(session, end),
        LedgerEntry.source.is_not(None),
        LedgerEntry.target.is_not(None),
        LedgerEntry.table_id.is_not(None),
    )
    if reader is not None:
        query = query.where(visible(reader, LedgerEntry.table_id))
    if table_id is not None:
        query = query.where(LedgerEntry.table_id == table_id)
    if table_ids is not None:  # a room's tables (app/db/store/rooms.py)
        query = query.where(LedgerEntry.table_id.in_(list(table_ids)))
    rows = await session.execute(query.order_by(LedgerEntry.id))
    return [Move(str(s), str(t), int(a), str(tb), h) for s, t, a, tb, h in rows]


async def player_moves(
    session: AsyncSession, player_id: str, hidden: frozenset[str] | set[str] = frozenset()
) -> list[Move]:
    """Every movement into or out of the player's accounts at a table (all time), without
    those at the ``hidden`` tables."""
    ids = set(
        (await session.scalars(select(Account.id).where(Account.player_id == player_id))).all()
    )
    ids.add(f"bankroll:{player_id}")
    accounts = sorted(ids)
    query = select(
        LedgerEntry.source,
        LedgerEntry.target,
        LedgerEntry.amount,
        LedgerEntry.table_id,
        LedgerEntry.hand_id,
    ).where(
        or_(LedgerEntry.source.in_(accounts), LedgerEntry.target.in_(accounts)),
        LedgerEntry.source.is_not(None),
        LedgerEntry.target.is_not(None),
        LedgerEntry.table_id.is_not(None),
    )
    if hidden:
        query = query.where(LedgerEntry.table_id.not_in(sorted(hidden)))
    rows = await session.execute(query.order_by(LedgerEntry.id))
    return [Move(str(s), str(t), int(a), str(tb), h) for s, t, a, tb, h in rows]


async def tables_info(session: AsyncSession, table_ids: set[str]) -> dict[str, TableInfo]:
    """The name and game of each table."""
    if not table_ids:
        return {}
    rows = await session.execute(
        select(GameTable.id, GameTable.name, GameTable.game).where(
            GameTable.id.in_(sorted(table_ids))
        )
    )
    return {str(i): TableInfo(str(n), str(g)) for i, n, g in rows}


async def players_info(session: AsyncSession, player_ids: set[str]) -> dict[str, PlayerInfo]:
    """The name of each player, and whether a bot."""
    if not player_ids:
        return {}
    rows = await session.execute(
        select(Player.id, Player.name, Player.is_bot).where(Player.id.in_(sorted(player_ids)))
    )
    return {str(i): PlayerInfo(str(n), bool(b)) for i, n, b in rows}


async def span_hand_players(
    session: AsyncSession,
    *,
    start: datetime,
    end: datetime,
    table_id: str | None = None,
    reader: Reader | None = None,
    table_ids: Collection[str] | None = None,
) -> list[tuple[str, str]]:
    """``(hand, player)`` of every player of every finished hand that ended in
    ``[start, end)`` (at ``table_id``; with a ``reader``, only at the tables they may see)."""
    query = (
        select(HandPlayer.hand_id, HandPlayer.player_id)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(
            Hand.status == "finished",
            Hand.ended_at >= session_moment(session, start),
            Hand.ended_at < session_moment(session, end),
        )
    )
    if reader is not None:
        query = query.where(visible(reader, Hand.table_id))
    if table_id is not None:
        query = query.where(Hand.table_id == table_id)
    if table_ids is not None:  # a room's tables
        query = query.where(Hand.table_id.in_(list(table_ids)))
    rows: list[Any] = list((await session.execute(query)).all())
    return [(str(h), str(p)) for h, p in rows]
