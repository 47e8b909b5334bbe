"""The answers of the rooms' routes (docs/protocol/rest.md, "Rooms")."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class RoomOpened(Reply):
    room_id: str
    table_id: str = Field(description="the room's first table")
    url: str = Field(description="the room's one link: /rooms/{room_id} (with ?invite=)")
    name: str
    private: bool
    invite_code: str | None = None


class RoomHost(Reply):
    player_id: str
    name: str


class RoomMember(Reply):
    player_id: str
    name: str
    seat: int | None = Field(description="null: watching")
    bot: bool


class RoomTableNow(Reply):
    table_id: str
    game: str
    options: dict[str, Any]
    status: str
    in_hand: bool


class RoomTable(Reply):
    table_id: str
    game: str
    options: dict[str, Any]
    status: str
    opened: str | None
    last_hand_at: str | None
    hands: int = Field(description="hands finished at it")


class RoomView(Reply):
    room_id: str
    name: str
    status: str
    private: bool
    url: str
    host: RoomHost
    members: list[RoomMember]
    table: RoomTableNow | None = Field(description="the table the room plays at now")
    tables: list[RoomTable] = Field(description="every table of the room, oldest first")


class PlayerRoomRow(Reply):
    """One of the caller's rooms (``GET /api/rooms``)."""

    room_id: str
    name: str
    status: str = Field(description="open or closed")
    private: bool
    opened: str = Field(description="when it was opened (ISO date-time)")
    tables: int = Field(description="tables it has played at")
    hands: int = Field(description="hands finished in it, every table")
    games: list[str] = Field(description="the games of its tables, in the order played")
