"""Seats: a buy-in from the bankroll to the table's stack, a top-up, a cash-out of the
whole stack when the player stands up."""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import Seat


async def sit(
    session: AsyncSession,
    table_id: str,
    seat: int,
    player_id: str,
    buy_in: int,
    bot_level: str | None = None,
) -> None:
    """Seat a player: the buy-in moves from the bankroll to the table stack. A bot's level
    is stored with its seat, so that a restart at any moment seats it at that level."""
    session.add(Seat(table_id=table_id, seat=seat, player_id=player_id, bot_level=bot_level))
    await session.flush()
    await _to_stack(session, table_id, player_id, buy_in, "buy-in")


async def top_up(session: AsyncSession, table_id: str, player_id: str, amount: int) -> None:
    await _to_stack(session, table_id, player_id, amount, "top-up")


async def _to_stack(
    session: AsyncSession, table_id: str, player_id: str, amount: int, reason: str
) -> None:
    """Chips from the player's bankroll to their stack at the table (a buy-in, a top-up)."""
    await ledger.transfer(
        session,
        ledger.bankroll(player_id),
        ledger.stack(table_id, player_id),
        amount,
        reason,
        table_id=table_id,
    )


async def leave(session: AsyncSession, table_id: str, seat: int, player_id: str) -> int:
    """Stand a player up: the whole table stack goes back to the bankroll."""
    account = ledger.stack(table_id, player_id)
    amount = await ledger.balance(session, account)
    await ledger.transfer(
        session, account, ledger.bankroll(player_id), amount, "cash-out", table_id=table_id
    )
    await session.execute(delete(Seat).where(Seat.table_id == table_id, Seat.seat == seat))
    return amount
