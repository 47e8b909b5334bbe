"""A player's figures for the player page: hands played, net result per game,
biggest win and loss, and the bankroll over time for the chart.

The figures per game read ``hand_players`` through ``ix_hand_players_player_game`` (player,
game, ended_at, hand, net): the index alone answers them. The bankroll over time is the sum
of everything the player holds (bankroll, table stacks, bets in front, stakes in prison),
from every ledger entry that moves chips into or out of those accounts: the host's grants,
every hand's result, a table's release when it closes. Moves between the player's own
accounts (a buy-in, a cash-out) change nothing and are left out.

A reader to whom some of the player's tables are private and hidden (``hidden``: the ids of
those tables, :func:`app.review.access.hidden_tables_of`) gets every figure computed without
them: the hands played there are not counted, and the chart leaves out every ledger entry
of those tables (buy-ins, hands, cash-outs, a closing table's release), as if those sittings
had never been. Then the figures per game join ``hands`` by primary key for the table of
each row; without hidden tables they are read from the index alone, as above.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import Account, Hand, HandPlayer, LedgerEntry, Player

MAX_POINTS = 400
"""The chart keeps at most this many points (the first, the last, each bucket's extremes)."""


def _without(query: Select, hidden: Collection[str]) -> Select:
    """``query`` over ``hand_players`` without the hands played at the ``hidden`` tables."""
    if not hidden:
        return query
    return query.join(Hand, Hand.id == HandPlayer.hand_id).where(
        Hand.table_id.not_in(sorted(hidden))
    )


async def player_figures(
    session: AsyncSession, player_id: str, hidden: Collection[str] = ()
) -> dict[str, Any]:
    """Hands played, net per game, and the biggest win and loss (with their hands), without
    the hands played at the ``hidden`` tables."""
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
    games = []
    for game, count, net, best, worst in rows:
        games.append(
            {
                "game": game,
                "hands": int(count),
                "net": int(net),
                "biggest_win": int(best) if best is not None and best > 0 else 0,
                "biggest_loss": int(worst) if worst is not None and worst < 0 else 0,
            }
        )
    win = await _extreme(session, player_id, hidden, best=True)
    loss = await _extreme(session, player_id, hidden, best=False)
    return {
        "hands": sum(g["hands"] for g in games),
        "net": sum(g["net"] for g in games),
        "games": games,
        "biggest_win": win,
        "biggest_loss": loss,
    }


async def _extreme(
    session: AsyncSession, player_id: str, hidden: Collection[str], *, best: bool
) -> dict[str, Any] | None:
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
    return {
        "hand_id": row[0],
        "net": int(row[1]),
        "game": row[2],
        "ended_at": _iso(row[3]),
    }


@dataclass(frozen=True)
class Point:
    at: datetime
    chips: int
    hand_id: str | None


async def bankroll_points(
    session: AsyncSession, player_id: str, hidden: Collection[str] = ()
) -> list[Point]:
    """The player's total chips after every movement in or out (one point per hand),
    leaving out every movement at the ``hidden`` tables."""
    accounts = set(
        (await session.scalars(select(Account.id).where(Account.player_id == player_id))).all()
    )
    accounts.add(ledger.bankroll(player_id))
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
    points: list[Point] = []
    total = 0
    for created, source, target, amount, hand_id in rows:
        delta = (int(amount) if target in accounts else 0) - (
            int(amount) if source in accounts else 0
        )
        if delta == 0:
            continue
        total += delta
        at = _aware(created)
        if points and hand_id is not None and points[-1].hand_id == hand_id:
            points[-1] = Point(points[-1].at, total, hand_id)
        else:
            points.append(Point(at, total, hand_id))
    return points


def thin(points: list[Point], limit: int = MAX_POINTS) -> list[Point]:
    """At most about ``limit`` points keeping the shape: in each bucket its lowest and
    highest point, in time order; the first and the last point always."""
    if len(points) <= limit:
        return points
    buckets = max(1, limit // 2)
    size = len(points) / buckets
    kept: list[Point] = [points[0]]
    for b in range(buckets):
        chunk = points[int(b * size) : int((b + 1) * size)]
        if not chunk:
            continue
        low = min(chunk, key=lambda p: p.chips)
        high = max(chunk, key=lambda p: p.chips)
        for p in sorted({id(low): low, id(high): high}.values(), key=lambda p: p.at):
            if p is not kept[-1]:
                kept.append(p)
    if kept[-1] is not points[-1]:
        kept.append(points[-1])
    return kept


async def player_card(session: AsyncSession, player_id: str) -> dict[str, Any] | None:
    player = await session.get(Player, player_id)
    if player is None:
        return None
    bankroll = await session.scalar(
        select(Account.balance).where(Account.id == ledger.bankroll(player_id))
    )
    return {
        "player_id": player.id,
        "name": player.name,
        "bot": bool(player.is_bot),
        "joined_at": _iso(player.created_at),
        "bankroll": int(bankroll or 0),
    }


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _iso(moment: datetime | None) -> str | None:
    return _aware(moment).isoformat() if moment is not None else None
