"""Answers of ``GET /api/games``: each game and its table options."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class OptionSpec(Reply):
    """One table option: its type, default and range (``min``/``max``/``nullable`` for an
    ``int``, ``choices`` for a ``choice``)."""

    name: str
    type: str = Field(description="int, bool or choice")
    default: Any
    description: str
    min: int | None = None
    max: int | None = None
    nullable: bool | None = None
    choices: list[Any] | None = None
    label: str = Field(description="its name for people, in the reader's language")
    help: str = Field(description="what it does, for people, in the reader's language")
    choice_labels: list[str] | None = Field(
        default=None,
        description="a choice's values in words, in the reader's language, in choices' order",
    )


class GameInfo(Reply):
    id: str
    title: str
    min_players: int
    options: list[OptionSpec]
    options_schema: dict[str, Any] = Field(
        description="the table options' JSON Schema (the same options, from the game's model)"
    )
    actions: list[str] = Field(description="the kinds of action its players send")
