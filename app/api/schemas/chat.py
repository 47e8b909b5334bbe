"""A table's chat over REST: its kept messages, who is muted, and the moderators' bodies
(docs/protocol/socket.md §5.9 says what the socket sends of the same)."""

from __future__ import annotations

from pydantic import Field

from app.api.schemas.base import Reply
from app.api.schemas.bodies import StrictBody


class ChatLine(Reply):
    """One chat message: its writer's text, with what the server adds."""

    id: int = Field(description="grows by one at each table")
    at: float = Field(description="when it was sent, in Unix seconds")
    player_id: str
    name: str
    seat: int | None = Field(description="the writer's seat then; null for a spectator")
    text: str = Field(description="plain text, 1 to 200 characters: show it as text")


class MutedPerson(Reply):
    player_id: str
    name: str


class ChatKept(Reply):
    """What the table keeps of its chat, as a connecting client's ``chat_history`` has it."""

    messages: list[ChatLine] = Field(description="the last 100 messages, oldest first")
    muted: list[MutedPerson]
    reactions: dict[str, str] = Field(description="the reactions by key, with their emoji")
    can_moderate: bool = Field(description="whether the caller may mute and remove")


class Mutes(Reply):
    muted: list[MutedPerson] = Field(description="everyone muted at the table now")


class ChatRemoved(Reply):
    id: int
    removed: bool


class MuteIn(StrictBody):
    player_id: str = Field(min_length=1, max_length=64)
