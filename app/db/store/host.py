"""The server's settings and what the host does with chips: funding the house, granting to
or taking from a bankroll, each written down as a host action."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import HostAction, Player, ServerSetting


async def get_setting(session: AsyncSession, key: str) -> Any:
    row = await session.get(ServerSetting, key)
    return None if row is None else row.value


async def set_setting(session: AsyncSession, key: str, value: Any) -> None:
    row = await session.get(ServerSetting, key)
    if row is None:
        session.add(ServerSetting(key=key, value=value))
    else:
        row.value = value


async def record_host_action(
    session: AsyncSession, action: str, detail: dict[str, Any], note: str | None = None
) -> None:
    session.add(HostAction(action=action, detail=detail, note=note))


async def fund_house(session: AsyncSession, amount: int, reason: str) -> int:
    """The host grants chips to the house (docs/rules.md §4); returns its balance."""
    await ledger.transfer(session, None, ledger.HOUSE, amount, reason)
    await record_host_action(session, "fund_house", {"amount": amount}, reason)
    return await ledger.balance(session, ledger.HOUSE)


async def grant_or_take(
    session: AsyncSession, player_id: str, amount: int, reason: str
) -> int | None:
    """The host grants chips to a bankroll (amount > 0) or takes them back (amount < 0);
    the bankroll's balance after, or None if there is no such player. A take larger than
    the bankroll raises :class:`app.db.ledger.InsufficientFunds`."""
    if await session.get(Player, player_id) is None:
        return None
    account = ledger.bankroll(player_id)
    if amount > 0:
        await ledger.transfer(session, None, account, amount, reason)
    else:
        await ledger.transfer(session, account, None, -amount, reason)
    await record_host_action(
        session,
        "grant_chips" if amount > 0 else "take_chips",
        {"player_id": player_id, "amount": amount},
        reason,
    )
    return await ledger.balance(session, account)
