"""Whose account a personal recovery code opens, read without redeeming it (the recovery
page shows the name before the button; :func:`app.db.store.players.redeem_recovery_code`
redeems it)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.devices import hash_token
from app.db.models import Player


async def recovery_code_owner(session: AsyncSession, code: str) -> str | None:
    """The name of the player the recovery code opens; None for a code no longer valid."""
    name: str | None = await session.scalar(
        select(Player.name).where(Player.recovery_hash == hash_token(code))
    )
    return name
