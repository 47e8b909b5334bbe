"""Answers of the host's routes (admin token)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class Audit(Reply):
    """Chips granted (net of takes) against the sum over every account."""

    granted: int
    granted_in: int
    taken_out: int
    accounts_total: int
    accounts: int
    mismatched_accounts: list[str]
    negative_accounts: list[str]
    balanced: bool
    house: int
    by_kind: dict[str, int] = Field(description="chips held, by kind of account")


class ClosedTable(Reply):
    """A table that could not be restored at start-up, closed with its chips returned."""

    table_id: str
    name: str
    game: str
    reason: str
    returned: dict[str, int] = Field(description="chips back to each player's bankroll")


class RecoveryReport(Reply):
    """What the last start-up did with the stored tables."""

    recovered: int
    voided_hands: int
    closed: list[ClosedTable]
    skipped: list[str] = Field(description="tables of a game not offered now, left stored")


class HouseBalance(Reply):
    house: int


class PlayerRow(Reply):
    player_id: str
    name: str
    bot: bool
    created_at: str
    bankroll: int


class Bankroll(Reply):
    player_id: str
    bankroll: int


class SeatRemoved(Reply):
    seat: int
    removed: bool = Field(description="stood up now")
    pending: bool = Field(description="stands up at the next moment the rules allow")


class BotAdded(Reply):
    seat: int


class Seeded(Reply):
    table_id: str
    seed: str


class HostSettings(Reply):
    starting_bankroll: int


class HostActionRow(Reply):
    at: str
    action: str
    detail: dict[str, Any] | None = Field(description="what was done, to what")
    note: str | None
    note_words: str | None = Field(
        default=None, description="the note in the reader's language when the server wrote it"
    )


class AdminRoomSeat(Reply):
    seat: int
    player_id: str
    name: str
    bot: bool


class AdminRoomTable(Reply):
    """The table a room plays at now."""

    table_id: str
    game: str
    game_title: str
    status: str = Field(description="open or paused")
    in_hand: bool
    path: str = Field(description="the table's page (a private room's with its invite)")


class AdminRoom(Reply):
    """An open room as the host's page lists it (docs/protocol/admin.md)."""

    room_id: str
    name: str
    private: bool
    url: str = Field(description="the room's one link (a private room's with its invite)")
    host: dict[str, Any] = Field(description="player_id and name of the room's host now")
    opened: str
    table: AdminRoomTable | None = Field(description="null: no process serves it now")
    tables_played: int = Field(description="the room's tables, the one it plays at included")
    hands: int = Field(description="hands finished in the room, every table")
    seated: list[AdminRoomSeat] = Field(description="the members seated now, by seat")
    watching: int = Field(description="people watching its table, not seated")


class RoomClosed(Reply):
    room_id: str
    status: str = Field(description="closed")
    table_id: str | None = Field(description="the table closed with it (null: none was open)")
