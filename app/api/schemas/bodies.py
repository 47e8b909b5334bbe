"""Request bodies of the REST API, read strictly."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.analysis.bots import DEFAULT_LEVEL, BotLevel
from app.core.names import clean_player_name, refuse_invisible
from app.i18n.messages import N_, Text

NAME_PATTERN = re.compile(r"^[\w][\w .'\-]{0,23}$")


def clean_name(value: str, *, what: str = N_("name")) -> str:
    """A display name: 1 to 24 letters, digits, spaces and . ' - _ (any script); no markup,
    no control characters. Whitespace is collapsed. ``what`` (a marked message) names it in
    the refusals, worded in the reader's language."""
    name = " ".join(unicodedata.normalize("NFC", value).split())
    refuse_invisible(value, unicodedata.normalize("NFKC", name), what)
    if not name:
        raise ValueError(Text(N_("{what} must not be empty"), what=Text(what)))
    if len(name) > 24:
        raise ValueError(
            Text(N_("{what} may be at most {most} characters"), what=Text(what), most=24)
        )
    if not NAME_PATTERN.match(name):
        raise ValueError(
            Text(N_("{what} may use letters, digits, spaces and . ' - _ only"), what=Text(what))
        )
    return name


class StrictBody(BaseModel):
    """A REST request body, read as strictly as the socket reads its messages: a number must
    be a JSON number, a flag ``true``/``false``, a text a string. Pydantic's default would
    take ``"2"`` or ``true`` for the seat 2 or 1, and ``1`` for ``true``."""

    model_config = ConfigDict(strict=True)


class SessionIn(StrictBody):
    name: str = Field(max_length=200)
    join_code: str | None = Field(default=None, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_player_name(value)  # normalised, nothing invisible, one alphabet


class TableIn(StrictBody):
    game: str = Field(max_length=40)
    name: str = Field(default="", max_length=200)
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value, what=N_("table name")) if value.strip() else ""


class BotIn(StrictBody):
    """A bot to seat: where (the first free seat when not given) and how well it plays
    (docs/analysis.md §5)."""

    seat: int | None = None
    level: BotLevel = Field(DEFAULT_LEVEL, description="random, steady or best")


class StandUpIn(StrictBody):
    """The opener or the host stands up a seat sitting out for at least this long."""

    away_at_least: int = Field(
        0, ge=0, le=86_400, description="seconds the seat must have been sitting out"
    )


class RoomIn(TableIn):
    """A room to open (``POST /api/rooms``): its first game and options, as a table's."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value, what=N_("room name")) if value.strip() else ""


class RoomHostIn(StrictBody):
    """Who the room's host hands it to (``POST /api/rooms/{id}/host``)."""

    player_id: str = Field(min_length=1, max_length=40)
