"""The people each player blocks for themselves (app/runtime/blocks.py says what a block
does; docs/protocol/identity.md §4.3 how it is made). Read when a socket opens and over REST;
written over REST, through the writer."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player, PlayerBlock
from app.i18n.messages import N_, Text


@dataclass(frozen=True)
class Blocked:
    """A person blocked: their id and their name now."""

    player_id: str
    name: str


class BlockRefused(ValueError):
    """A block the store does not make: ``reason`` is ``no_such_player`` or
    ``too_many_blocks``; ``str()`` says why in words."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(reason, message)  # both in args: it crosses the writer's process
        self.reason = reason
        self.message = message

    def __str__(self) -> str:
        return self.message


async def blocks_of(session: AsyncSession, player_id: str) -> list[Blocked]:
    """The people ``player_id`` blocks, oldest block first."""
    rows = await session.execute(
        select(PlayerBlock.blocked_id, Player.name)
        .join(Player, Player.id == PlayerBlock.blocked_id)
        .where(PlayerBlock.player_id == player_id)
        .order_by(PlayerBlock.at, PlayerBlock.blocked_id)
    )
    return [Blocked(r[0], r[1]) for r in rows]


async def block(session: AsyncSession, player_id: str, blocked_id: str, limit: int) -> None:
    """``player_id`` blocks ``blocked_id`` (again: nothing changes). Refused
    (:class:`BlockRefused`) for a player that does not exist or past ``limit`` blocks."""
    if await session.get(Player, blocked_id) is None:
        raise BlockRefused("no_such_player", N_("there is no player with that id"))
    if await session.get(PlayerBlock, (player_id, blocked_id)) is not None:
        return
    held = await session.scalar(
        select(func.count()).select_from(PlayerBlock).where(PlayerBlock.player_id == player_id)
    )
    if int(held or 0) >= limit:
        raise BlockRefused(
            "too_many_blocks",
            Text(N_("you block {limit} people already: unblock someone first"), limit=limit),
        )
    session.add(PlayerBlock(player_id=player_id, blocked_id=blocked_id))
    await session.flush()


async def unblock(session: AsyncSession, player_id: str, blocked_id: str) -> None:
    """``player_id`` no longer blocks ``blocked_id`` (not blocked: nothing changes)."""
    await session.execute(
        delete(PlayerBlock).where(
            PlayerBlock.player_id == player_id, PlayerBlock.blocked_id == blocked_id
        )
    )
