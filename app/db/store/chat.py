"""A table's chat: its last messages and the people muted at it (app/runtime/chat.py says
what a message may hold). The table's actor writes them through the writer queue, as every
other write of a table; at start-up the lobby reads them back with the table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ChatMessage, ChatMute


@dataclass(frozen=True)
class StoredChat:
    """What a table's chat left in the database: its last messages (oldest first, as the
    table sends them; a removed one as ``{"id": n, "removed": True}``), the people muted
    there (player id, name) and the highest message id."""

    messages: list[dict[str, Any]]
    muted: list[tuple[str, str]]
    last_id: int


async def chat_posted(
    session: AsyncSession, table_id: str, message: dict[str, Any], keep: int
) -> None:
    """Keep a new message; of the table's messages only the newest ``keep`` stay."""
    session.add(
        ChatMessage(
            table_id=table_id,
            id=message["id"],
            at=datetime.fromtimestamp(message["at"], UTC),
            player_id=message["player_id"],
            name=message["name"],
            seat=message["seat"],
            text=message["text"],
        )
    )
    await session.flush()
    oldest_kept = (
        select(ChatMessage.id)
        .where(ChatMessage.table_id == table_id)
        .order_by(ChatMessage.id.desc())
        .offset(keep - 1)
        .limit(1)
        .scalar_subquery()
    )
    await session.execute(
        delete(ChatMessage).where(ChatMessage.table_id == table_id, ChatMessage.id < oldest_kept)
    )


async def chat_removed(session: AsyncSession, table_id: str, message_id: int) -> None:
    """A removed message: its text is erased and no client receives it again; its row stays
    as a mark among the table's last messages, so that its id is never given again."""
    await session.execute(
        update(ChatMessage)
        .where(ChatMessage.table_id == table_id, ChatMessage.id == message_id)
        .values(removed=True, text="")
    )


async def chat_muted(
    session: AsyncSession, table_id: str, player_id: str, name: str, muted_by: str | None
) -> None:
    await chat_unmuted(session, table_id, player_id)
    session.add(ChatMute(table_id=table_id, player_id=player_id, name=name, muted_by=muted_by))


async def chat_unmuted(session: AsyncSession, table_id: str, player_id: str) -> None:
    await session.execute(
        delete(ChatMute).where(ChatMute.table_id == table_id, ChatMute.player_id == player_id)
    )


async def load_chat(session: AsyncSession, table_id: str, keep: int) -> StoredChat:
    """A table's newest ``keep`` messages (removed ones as marks), oldest first, and its
    mutes."""
    rows = (
        await session.scalars(
            select(ChatMessage)
            .where(ChatMessage.table_id == table_id)
            .order_by(ChatMessage.id.desc())
            .limit(keep)
        )
    ).all()
    messages = [
        {"id": row.id, "removed": True}
        if row.removed
        else {
            "id": row.id,
            "at": round(_aware(row.at).timestamp(), 3),
            "player_id": row.player_id,
            "name": row.name,
            "seat": row.seat,
            "text": row.text,
        }
        for row in reversed(rows)
    ]
    muted = await session.execute(
        select(ChatMute.player_id, ChatMute.name)
        .where(ChatMute.table_id == table_id)
        .order_by(ChatMute.at)
    )
    last_id = await session.scalar(
        select(func.coalesce(func.max(ChatMessage.id), 0)).where(ChatMessage.table_id == table_id)
    )
    return StoredChat(messages, [(r[0], r[1]) for r in muted], int(last_id or 0))


def _aware(at: datetime) -> datetime:
    """SQLite gives back naive datetimes: they were written in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
