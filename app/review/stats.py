"""A player's figures for the player page: hands played, net result per game,
biggest win and loss, and the bankroll over time for the chart.

The net, all told and per game, is the ledger's (docs/review.md, "One truth"): every movement
at a table between the player's accounts and anyone else's (``app/review/nets.py``), a
close's returns and a pot handed back included, so it equals the sum of the player's
sessions and settle-up's figure; the host's grants are not winnings. A game's net is that of
the movements at its tables.

The figures per game read ``hand_players`` through ``ix_hand_players_player_game`` (player,
game, ended_at, hand, net): the index alone answers them (the queries:
:mod:`app.db.store.figures`). The bankroll over time is the sum
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

from app.db.store import figures as store
from app.db.store import nets as nets_store
from app.db.types import AsyncSession

MAX_POINTS = 400
"""The chart keeps at most this many points (the first, the last, each bucket's extremes)."""


async def player_figures(
    session: AsyncSession, player_id: str, hidden: Collection[str] = ()
) -> dict[str, Any]:
    """Hands played, net per game, and the biggest win and loss (with their hands), without
    the hands played at the ``hidden`` tables."""
    games: list[dict[str, Any]] = []
    for row in await store.game_figures(session, player_id, hidden):
        games.append(
            {
                "game": row.game,
                "hands": row.hands,
                "net": row.net,
                "biggest_win": row.best if row.best is not None and row.best > 0 else 0,
                "biggest_loss": row.worst if row.worst is not None and row.worst < 0 else 0,
            }
        )
    by_game = await ledger_nets(session, player_id, hidden)
    for g in games:
        g["net"] = by_game.pop(g["game"], 0)
    for game, net in sorted(by_game.items()):  # chips moved at a game with no hand counted
        if net:
            games.append(
                {"game": game, "hands": 0, "net": net, "biggest_win": 0, "biggest_loss": 0}
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


async def ledger_nets(
    session: AsyncSession, player_id: str, hidden: Collection[str] = ()
) -> dict[str, int]:
    """The player's net per game, from the ledger: every movement at a table of that game
    between the player's accounts and anyone else's (without the ``hidden`` tables)."""
    from app.review.nets import player_net

    moves = await nets_store.player_moves(session, player_id, set(hidden))
    tables = await nets_store.tables_info(session, {m.table_id for m in moves})
    by_table: dict[str, list[nets_store.Move]] = {}
    for m in moves:
        by_table.setdefault(m.table_id, []).append(m)
    out: dict[str, int] = {}
    for table_id, table_moves in by_table.items():
        game = tables[table_id].game if table_id in tables else "?"
        out[game] = out.get(game, 0) + player_net(table_moves, player_id)
    return out


async def _extreme(
    session: AsyncSession, player_id: str, hidden: Collection[str], *, best: bool
) -> dict[str, Any] | None:
    hand = await store.extreme_hand(session, player_id, hidden, best=best)
    if hand is None:
        return None
    return {
        "hand_id": hand.hand_id,
        "net": hand.net,
        "game": hand.game,
        "ended_at": _iso(hand.ended_at),
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
    accounts = await store.player_accounts(session, player_id)
    points: list[Point] = []
    total = 0
    for m in await store.movements(session, accounts, hidden):
        hand_id = m.hand_id
        delta = (m.amount if m.target in accounts else 0) - (
            m.amount if m.source in accounts else 0
        )
        if delta == 0:
            continue
        total += delta
        at = _aware(m.created_at)
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
    found = await store.player_with_bankroll(session, player_id)
    if found is None:
        return None
    player, bankroll = found
    return {
        "player_id": player.id,
        "name": player.name,
        "bot": bool(player.is_bot),
        "joined_at": _iso(player.created_at),
        "bankroll": bankroll,
    }


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _iso(moment: datetime | None) -> str | None:
    return _aware(moment).isoformat() if moment is not None else None
