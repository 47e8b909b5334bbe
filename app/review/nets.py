"""Each player's net over a span of time, for settling up (docs/review.md, "Settling up").

A player's net is the sum of what the finished hands that ended in the span moved for them:
each hand's ``hand_players.net``, the very number the table told when the hand ended and the
hand's result shows (``app/review/results.py``: wins, losses, prison, insurance, shares, every
movement of the hand between that player's accounts and anyone else's). A void hand moved
nothing and has no such rows, so it counts nothing.

The *scope* is the hands that ended in ``[start, end)`` at the tables the reader may see (or
at one table). The *candidates* are everyone who played a hand in the scope. The *chosen*
players are the group being settled: those named, or (by default) every person, not bot,
among the candidates. The hands counted are the hands of the scope where a chosen player
took part, and the chosen players' nets need not sum to zero: what they won or lost went to or
came from someone outside the group. That remainder becomes parties of its own, so the
payments still balance:

* **the house**: what the house bank (Trente et Quarante) won or lost in those hands;
* **the pot**: chips still in (or taken from) a pot a match carries over (En og tredive);
* **others at these tables**: the players in those hands who are not in the group (bots,
  and people not chosen).

A hand's nets, every player's and the house's and the pot's, sum to zero: chips only move
between accounts. So the house's and the pot's share of a hand is minus the sum of all its
players' nets, told apart by the hand's game.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Hand, HandPlayer, Player
from app.games.core.registry import GAME_MODULES, game_class
from app.review.access import Reader, visible

HOUSE, POT, OTHERS = "house", "pot", "others"
"""The ids of the parties that are not a player (a player's id is never one of these)."""
NAMES = {HOUSE: "the house", POT: "the pot", OTHERS: "others at these tables"}


@dataclass
class Party:
    """One side of the settlement: a chosen player, or a remainder (``kind`` house, pot,
    others)."""

    id: str
    name: str
    kind: str = "player"
    net: int = 0
    hands: int = 0
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "bot": self.bot,
            "net": self.net,
            "hands": self.hands,
        }


@dataclass
class SpanNets:
    """The span's candidates (everyone who played in the scope, with their net over all of
    it) and the parties to settle (the chosen players, then the remainders that are not zero)."""

    candidates: list[Party] = field(default_factory=list)
    parties: list[Party] = field(default_factory=list)
    hands: int = 0

    @property
    def nets(self) -> dict[str, int]:
        return {p.id: p.net for p in self.parties}


def uses_house(game: str) -> bool:
    """Whether the game's bank is the house."""
    return game in GAME_MODULES and game_class(game).USES_HOUSE


async def span_nets(
    session: AsyncSession,
    reader: Reader,
    *,
    start: datetime,
    end: datetime,
    table_id: str | None = None,
    chosen: Collection[str] | None = None,
    around: str | None = None,
) -> SpanNets:
    """The nets of the hands that ended in ``[start, end)`` (at ``table_id`` when given),
    for the ``chosen`` players (default: every person who played in the scope; with
    ``around``, that player and every person who shared a hand with them)."""
    sqlite = session.bind is not None and session.bind.dialect.name == "sqlite"
    low, high = (_naive(start), _naive(end)) if sqlite else (start, end)
    query = (
        select(
            HandPlayer.hand_id,
            HandPlayer.player_id,
            HandPlayer.net,
            Hand.game,
            Player.name,
            Player.is_bot,
        )
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(
            Hand.status == "finished",
            Hand.ended_at >= low,
            Hand.ended_at < high,
            visible(reader, Hand.table_id),
        )
        .order_by(Hand.ended_at, Hand.id)
    )
    if table_id is not None:
        query = query.where(Hand.table_id == table_id)
    rows = [
        (str(h), str(p), int(n), str(g), str(name), bool(bot))
        for h, p, n, g, name, bot in (await session.execute(query)).all()
    ]
    candidates: dict[str, Party] = {}
    by_hand: dict[str, list[tuple[str, int]]] = {}
    games: dict[str, str] = {}
    for hand_id, player_id, net, game, name, bot in rows:
        party = candidates.setdefault(player_id, Party(player_id, name, bot=bot))
        party.net += net
        party.hands += 1
        by_hand.setdefault(hand_id, []).append((player_id, net))
        games[hand_id] = game
    if chosen is not None:
        group = [p for p in dict.fromkeys(chosen) if p in candidates]
    elif around is not None:
        shared = {
            player
            for players in by_hand.values()
            if any(p == around for p, _ in players)
            for player, _ in players
        }
        group = [p for p in candidates if p in shared and (p == around or not candidates[p].bot)]
    else:
        group = [p for p in candidates if not candidates[p].bot]
    members = set(group)
    parties = {p: Party(p, candidates[p].name, bot=candidates[p].bot) for p in group}
    rest = {kind: Party(kind, NAMES[kind], kind=kind) for kind in (HOUSE, POT, OTHERS)}
    counted = 0
    for hand_id, players in by_hand.items():
        if not any(p in members for p, _ in players):
            continue
        counted += 1
        table_side = rest[HOUSE if uses_house(games[hand_id]) else POT]
        table_side.net -= sum(net for _, net in players)
        table_side.hands += 1
        others = False
        for player_id, net in players:
            if player_id in members:
                parties[player_id].net += net
                parties[player_id].hands += 1
            else:
                rest[OTHERS].net += net
                others = True
        rest[OTHERS].hands += others
    ordered = sorted(candidates.values(), key=lambda p: (p.bot, p.name.casefold(), p.id))
    return SpanNets(
        candidates=ordered,
        parties=[parties[p.id] for p in ordered if p.id in parties]
        + [party for party in rest.values() if party.net],
        hands=counted,
    )


def _naive(moment: datetime) -> datetime:
    """UTC without a zone, as SQLite stores it."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
