"""What the host's page lists from the database: every player with their bankroll, and the
host's actions, newest first (the host API: ``app/api/routes/admin.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.account_ids import bankroll_of
from app.db.models import Account, HostAction, Player


@dataclass(frozen=True)
class PlayerBankroll:
    """A player (or bot), when they joined, and the chips in their bankroll (0 for none)."""

    player_id: str
    name: str
    bot: bool
    created_at: datetime
    bankroll: int


async def players_with_bankrolls(session: AsyncSession) -> list[PlayerBankroll]:
    """Every player with their bankroll, the earliest to join first."""
    rows = await session.execute(
        select(Player.id, Player.name, Player.is_bot, Player.created_at, Account.balance)
        .join(Account, Account.id == bankroll_of(Player.id), isouter=True)
        .order_by(Player.created_at)
    )
    return [
        PlayerBankroll(pid, name, bot, created, int(balance or 0))
        for pid, name, bot, created, balance in rows
    ]


async def host_actions(session: AsyncSession, limit: int = 500) -> list[HostAction]:
    """The host's last ``limit`` actions, newest first."""
    rows = await session.scalars(select(HostAction).order_by(HostAction.id.desc()).limit(limit))
    return list(rows.all())
