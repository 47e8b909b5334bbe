"""The table options of En og tredive (docs/rules.md §5): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.core.options import TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import Phrase, chips, count


class EnOgTrediveOptions(TableOptions):
    """En og tredive's options."""

    WORDS = (
        Phrase(
            ("bets", "bet_unit"),
            lambda o: (
                f"Each match: {count(o['bets'], 'bet')} of {chips(o['bet_unit'])} "
                f"in front of each player ({chips(o['bets'] * o['bet_unit'])})"
            ),
        ),
        Phrase(("knock_min",), lambda o: f"Knock with {o['knock_min']} or more"),
        Phrase(
            ("knock_penalty",),
            lambda o: (
                "After a knock the lowest hand pays a bet (a knocker among them pays two)"
                if o["knock_penalty"] == "lowest"
                else f"After a knock every hand below {o['knock_min']} pays a bet"
            ),
        ),
    )
    """The options in words (app/games/core/phrases.py), shown on the table and rules pages."""

    bet_unit: Annotated[
        int, Field(ge=1, le=1_000_000, description="Chips per bet (docs/rules.md §5).")
    ] = 10
    bets: Annotated[
        int,
        Field(
            ge=1, le=20, description="Bets each player puts in front of them (docs/rules.md §5)."
        ),
    ] = 3
    knock_min: Annotated[
        int,
        Field(ge=1, le=31, description="The least a hand must hold to knock (docs/rules.md §5)."),
    ] = 21
    knock_penalty: Annotated[
        Literal["lowest", "under_knock_min"],
        Field(
            description=(
                "Who pays after a knock: the lowest hands (a knocker among them pays two), "
                "or every hand below knock_min (docs/rules.md §5.8)."
            )
        ),
    ] = "lowest"
    turn_seconds: TurnSeconds = 30
    time_bank_seconds: TimeBankSeconds = 30
