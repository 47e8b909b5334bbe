"""Answers of the table routes (and the host's): a table's summary, bots, closing."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class BuyIn(Reply):
    min: int
    max: int


class SeatSummary(Reply):
    seat: int
    player_id: str
    name: str
    bot: bool
    bot_level: str | None = Field(
        default=None, description="a bot's level: random, steady or best (docs/analysis.md §5)"
    )
    leaving: bool | None = Field(
        default=None, description="host's list only: stands up at the next moment allowed"
    )


class OptionWords(Reply):
    """One sentence telling some of a table's options, in the reader's language."""

    names: list[str] = Field(description="the options it tells (none: the buy-in)")
    text: str


class TableSummary(Reply):
    """A table as the lobby shows it."""

    table_id: str
    name: str
    game: str
    game_title: str
    options: dict[str, Any] = Field(description="the table's options (GET /api/games)")
    buy_in: BuyIn
    status: str = Field(description="open, paused or closed")
    paused: bool
    pause_reason: str | None
    private: bool
    max_seats: int
    """Every position a player may take, standing ones included (Trente et Quarante)."""
    table_seats: int
    """The seats drawn at the table (``max_seats`` less the standing positions)."""
    seats: list[SeatSummary]
    players: int
    spectators: int
    hands_played: int
    in_hand: bool
    resting: bool = Field(description="nobody connected for a while: no hand is dealt")
    created_by: str | None
    host_id: str | None = Field(
        default=None, description="the table's host: its opener unless the role was handed on"
    )
    invite_code: str | None = Field(
        default=None, description="a private table's invite, for those who may share it"
    )
    invite_path: str | None = None
    option_words: list[OptionWords] | None = Field(
        default=None,
        description="GET /api/tables/{id} only: the options in words, in the reader's language",
    )
    option_labels: dict[str, str] | None = Field(
        default=None,
        description="GET /api/tables/{id} only: each option's name for people, by its key",
    )


class BotSeated(Reply):
    seat: int
    table: TableSummary


class TableClosed(Reply):
    table_id: str
    status: str = Field(description="closed")
