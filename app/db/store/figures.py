"""What a player's page reads (:mod:`app.review.stats` makes the figures of it): the hands
per game, the biggest win or loss, every movement into or out of the player's accounts (for
the bankroll chart), and the player with their bankroll.

The figures per game read ``hand_players`` through ``ix_hand_players_player_game`` (player,
game, ended_at, hand, net): the index alone answers them. With ``hidden`` tables (private
tables hidden from the reader) they join ``hands`` by primary key for the table of each row.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import Account, Hand, HandPlayer, LedgerEntry, Player


@dataclass(frozen=True)
class GameFigures:
    """A player's hands of one game: how many, their nets' sum, the best and the worst."""

    game: str
    hands: int
    net: int
    best: int | None
    worst: int | None


@dataclass(frozen=True)
class HandNet:
    """One hand of the player: its id, the player's net in it, its game, when it ended."""

    hand_id: str
    net: int
    game: str
    ended_at: datetime | None


@dataclass(frozen=True)
class Movement:
    """One ledger movement (``source``/``target`` null for the host's grants and takes)."""

    created_at: datetime
    source: str | None
    target: str | None
    amount: int
    hand_id: str | None


def _without(query: Select, hidden: Collection[str]) -> Select:
    """``query`` over ``hand_players`` without the hands played at the ``hidden`` tables."""
    if not hidden:
        return query
    return query.join(Hand, Hand.id == HandPlayer.hand_id).where(
        Hand.table_id.not_in(sorted(hidden))
    )


async def game_figures(
    session: AsyncSession, player_id: str, hidden: Collection[str] = ()
) -> list[GameFigures]:
    """Per game the player played (by name), their hands, the sum of their nets, their best
    and worst net, without the hands played at the ``hidden`` tables."""
    rows = await session.execute(
        _without(
            select(
                HandPlayer.game,
                func.count(),
                func.coalesce(func.sum(HandPlayer.net), 0),
                func.max(HandPlayer.net),
                func.min(HandPlayer.net),
            ).where(HandPlayer.player_id == player_id),
            hidden,
        )
        .group_by(HandPlayer.game)
        .order_by(HandPlayer.game)
    )
    return [
        GameFigures(
            str(game),
            int(count),
            int(net),
            None if best is None else int(best),
            None if worst is None else int(worst),
        )
        for game, count, net, best, worst in rows
    ]


async def extreme_hand(
    session: AsyncSession, player_id: str, hidden: Collection[str] = (), *, best: bool
) -> HandNet | None:
    """The player's biggest win (``best``) or biggest loss, the latest of equals, without the
    hands played at the ``hidden`` tables; None when they never won (lost) a hand."""
    order = HandPlayer.net.desc() if best else HandPlayer.net.asc()
    row = (
        await session.execute(
            _without(
                select(
                    HandPlayer.hand_id, HandPlayer.net, HandPlayer.game, HandPlayer.ended_at
                ).where(
                    HandPlayer.player_id == player_id,
                    HandPlayer.net > 0 if best else HandPlayer.net < 0,
                ),
                hidden,
            )
            .order_by(order, HandPlayer.ended_at.desc())
            .limit(1)
        )
    ).first()
    if row is None:
        return None
    return HandNet(str(row[0]), int(row[1]), str(row[2]), row[3])


async def player_accounts(session: AsyncSession, player_id: str) -> set[str]:
    """Every account the player holds: the bankroll and their accounts at tables."""
    accounts = set(
        (await session.scalars(select(Account.id).where(Account.player_id == player_id))).all()
    )
    accounts.add(ledger.bankroll(player_id))
    return accounts


async def movements(
    session: AsyncSession, accounts: Collection[str], hidden: Collection[str] = ()
) -> list[Movement]:
    """Every ledger movement into or out of these accounts, in the order written, without
    those at the ``hidden`` tables (the host's grants and takes, at no table, stay)."""
    ids = sorted(accounts)
    query = select(
        LedgerEntry.created_at,
        LedgerEntry.source,
        LedgerEntry.target,
        LedgerEntry.amount,
        LedgerEntry.hand_id,
    ).where(or_(LedgerEntry.source.in_(ids), LedgerEntry.target.in_(ids)))
    if hidden:
        # a grant has no table: NULL NOT IN (...) is NULL, so say it outright
        query = query.where(
            or_(LedgerEntry.table_id.is_(None), LedgerEntry.table_id.not_in(sorted(hidden)))
        )
    rows = await session.execute(query.order_by(LedgerEntry.id))
    return [Movement(created, s, t, int(a), h) for created, s, t, a, h in rows]


async def player_with_bankroll(session: AsyncSession, player_id: str) -> tuple[Player, int] | None:
    """The player and the chips in their bankroll now; None when there is no such player."""
    player = await session.get(Player, player_id)
    if player is None:
        return None
    bankroll = await session.scalar(
        select(Account.balance).where(Account.id == ledger.bankroll(player_id))
    )
    return player, int(bankroll or 0)
