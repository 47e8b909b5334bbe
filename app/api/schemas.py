"""Request bodies of the REST API (responses are plain JSON documented in docs/protocol.md)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import BaseModel, Field, field_validator

NAME_PATTERN = re.compile(r"^[\w][\w .'\-]{0,23}$")


def clean_name(value: str, *, what: str = "name") -> str:
    """A display name: 1 to 24 letters, digits, spaces and . ' - _ (any script); no markup,
    no control characters. Whitespace is collapsed."""
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise ValueError(f"{what} must not be empty")
    if len(name) > 24:
        raise ValueError(f"{what} may be at most 24 characters")
    if not NAME_PATTERN.match(name):
        raise ValueError(f"{what} may use letters, digits, spaces and . ' - _ only")
    return name


class SessionIn(BaseModel):
    name: str = Field(max_length=200)
    join_code: str | None = Field(default=None, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class TableIn(BaseModel):
    game: str = Field(max_length=40)
    name: str = Field(default="", max_length=200)
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value, what="table name") if value.strip() else ""


class BotIn(BaseModel):
    seat: int | None = None
