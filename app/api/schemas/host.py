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
