"""The caller's blocks over REST (docs/protocol/identity.md §4.3)."""

from __future__ import annotations

from pydantic import Field

from app.api.schemas.base import Reply


class BlockedPerson(Reply):
    player_id: str
    name: str = Field(description="the blocked person's name now")


class Blocks(Reply):
    """The people the caller blocks for themselves: the server sends the caller none of
    their chat messages and reactions, at any table."""

    blocks: list[BlockedPerson] = Field(description="oldest block first")
    max: int = Field(description="the most people one may block")
