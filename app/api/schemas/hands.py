"""Answers of the hand lists and of one hand's record."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class HandPlayerRow(Reply):
    seat: int
    player_id: str | None
    name: str | None


class HandRow(Reply):
    """A hand in a list."""

    hand_id: str
    table_id: str
    game: str
    number: int
    status: str = Field(description="finished or void")
    started_at: str | None
    ended_at: str | None
    players: list[HandPlayerRow]
    seated: int
    staked: int
    your_seat: int | None = Field(description="the caller's seat in it, if any")
    your_net: int | None = Field(description="the caller's net result in it, if any")
    player_seat: int | None = Field(default=None, description="a player's list: their seat")
    player_net: int | None = Field(default=None, description="a player's list: their net")


class TableRef(Reply):
    table_id: str
    name: str
    game: str
    status: str


class HandPage(Reply):
    """One page of hands, newest first."""

    hands: list[HandRow]
    next: str | None = Field(description="the cursor of the next page (``before=``), or null")
    table: TableRef | None = Field(default=None, description="a table's list: the table")


class HandRecord(Reply):
    """A finished (or void) hand's record, filtered for the caller: its seats before and
    after, events, actions, shuffles, settlement and result (docs/protocol/review.md). The
    events, actions and summary are each game's own (docs/protocol/<game>.md)."""

    version: int | None = Field(default=None, description="the record's format")
    hand_id: str
    table_id: str
    game: str
    number: int
    options: dict[str, Any] | None = None
    started_at: str | None
    ended_at: str | None
    seats_before: list[dict[str, Any]] | None = None
    seats_after: list[dict[str, Any]] | None = None
    events: list[dict[str, Any]] | None = None
    actions: list[dict[str, Any]] | None = None
    shuffles: dict[str, Any] | None = None
    settlement: list[dict[str, Any]] | None = None
    summary: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    viewer_seat: int | None = None
    status: str = Field(description="finished or void")
