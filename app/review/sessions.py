"""Sittings at tables, from the ledger, and the ledger CSVs ("as private-table
players expect": player, buy-in, buy-out, stack, net, per session).

A *session* is one sitting of one player at one table: it starts with the ``buy-in`` entry
(bankroll to table stack), takes any ``top-up`` entries, and ends with the ``cash-out`` entry
(table stack back to the bankroll). A stack of 0 is cashed out without an entry (the ledger
records no empty movement), so a new buy-in at the same table, or the player no longer being
seated there, ends a session too. A player still seated has a session still open: its
``stack`` is what the player has on the table now (the table stack, and any bets put up or
stakes in prison).

``net`` = buy-out + stack − buy-in (buy-in counting the top-ups): what the sitting won.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.db.account_ids import bankroll_owner
from app.db.store import nets as nets_store
from app.db.store import sittings
from app.db.store.sittings import REASONS as REASONS
from app.db.types import AsyncSession

CSV_COLUMNS = (
    "player",
    "player_id",
    "table",
    "table_id",
    "game",
    "sat_down",
    "left",
    "buy_in",
    "top_ups",
    "buy_out",
    "stack",
    "net",
    "status",
)


@dataclass
class Session:
    """One player's sitting at one table."""

    player_id: str
    table_id: str
    sat_down: datetime
    bought_in: int
    top_ups: int = 0
    left: datetime | None = None
    buy_out: int = 0
    stack: int = 0
    status: str = "playing"  # playing, left
    player: str = ""
    table: str = ""
    game: str = ""
    entries: list[int] = field(default_factory=list)

    @property
    def buy_in(self) -> int:
        """Every chip brought to the table in this sitting (the buy-in and the top-ups)."""
        return self.bought_in + self.top_ups

    @property
    def net(self) -> int:
        return self.buy_out + self.stack - self.buy_in

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "player_id": self.player_id,
            "table": self.table,
            "table_id": self.table_id,
            "game": self.game,
            "sat_down": _iso(self.sat_down),
            "left": _iso(self.left),
            "buy_in": self.buy_in,
            "top_ups": self.top_ups,
            "buy_out": self.buy_out,
            "stack": self.stack,
            "net": self.net,
            "status": self.status,
        }


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def build(rows: Iterable[Any]) -> list[Session]:
    """Sessions from ledger rows ``(id, created_at, source, target, amount, reason,
    table_id)`` in id order (only buy-in, top-up and cash-out rows)."""
    open_: dict[tuple[str, str], Session] = {}
    done: list[Session] = []
    for entry_id, created, source, target, amount, reason, table_id in rows:
        player = (
            bankroll_owner(source) if reason in ("buy-in", "top-up") else bankroll_owner(target)
        )
        if player is None or table_id is None:
            continue
        key = (player, table_id)
        current = open_.get(key)
        if reason == "buy-in":
            if current is not None:  # the last sitting ended with an empty stack
                current.status = "left"
                done.append(current)
            current = open_[key] = Session(player, table_id, created, int(amount))
        elif current is None:  # a top-up or cash-out with no buy-in seen (outside the range)
            continue
        elif reason == "top-up":
            current.top_ups += int(amount)
        else:
            current.buy_out = int(amount)
            current.left = created
            current.status = "left"
            done.append(open_.pop(key))
        current.entries.append(int(entry_id))
    return done + list(open_.values())


async def _finish(session: AsyncSession, sessions: list[Session]) -> list[Session]:
    """Names, games, and what is still on the table for the sittings still open."""
    if not sessions:
        return sessions
    players = {s.player_id for s in sessions}
    tables = {s.table_id for s in sessions}
    names = await nets_store.players_info(session, players)
    info = await nets_store.tables_info(session, tables)
    seated = await sittings.seated_pairs(session, players, tables)
    # What a seated player has on the table: the stack and whatever of theirs lies in front of
    # them (bets put up, stakes in prison: ``bets:T:P``, ``prison:T:P``), as the player page's
    # chart counts it; without those a player mid-match would show a loss not yet made.
    open_pairs = {(s.player_id, s.table_id) for s in sessions if s.status == "playing"}
    stacks = await sittings.chips_on_tables(session, open_pairs)
    for s in sessions:
        s.player = names[s.player_id].name if s.player_id in names else "?"
        table = info.get(s.table_id)
        s.table, s.game = (table.name, table.game) if table is not None else ("?", "?")
        if s.status == "playing":
            if (s.player_id, s.table_id) in seated:
                s.stack = stacks.get((s.player_id, s.table_id), 0)
            else:
                s.status = "left"  # stood up with an empty stack
    return sessions


async def player_sessions(session: AsyncSession, player_id: str) -> list[Session]:
    """Every sitting of a player, oldest first."""
    return await _finish(session, build(await sittings.player_entries(session, player_id)))


async def table_sessions(session: AsyncSession, table_id: str) -> list[Session]:
    """Every sitting at a table, oldest first."""
    return await _finish(session, build(await sittings.table_entries(session, table_id)))


async def night_sessions(session: AsyncSession, start: datetime, end: datetime) -> list[Session]:
    """Every sitting that began in ``[start, end)`` at any table, oldest first."""
    start, end = _utc(start), _utc(end)
    out: list[Session] = []
    for table_id in await sittings.tables_bought_into(session, start, end):
        out.extend(
            s for s in await table_sessions(session, table_id) if start <= _utc(s.sat_down) < end
        )
    out.sort(key=lambda s: (_utc(s.sat_down), s.table_id, s.player_id))
    return out


def _utc(moment: datetime) -> datetime:
    """Aware UTC (SQLite gives naive UTC date-times back)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def to_csv(sessions: Iterable[Session]) -> str:
    """The ledger as CSV (RFC 4180, a header row, one row per session)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for s in sessions:
        row = s.to_json()
        writer.writerow(["" if row[c] is None else row[c] for c in CSV_COLUMNS])
    return buffer.getvalue()
