"""The table options of En og tredive (docs/rules.md §5): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.core.options import TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import Phrase, counted, said


class EnOgTrediveOptions(TableOptions):
    """En og tredive's options."""

    WORDS = (
        Phrase(
            ("bets", "bet_unit"),
            lambda o: said(
                "match_bets", n=o["bets"], unit=o["bet_unit"], total=o["bets"] * o["bet_unit"]
            ),
        ),
        counted("knock_min", "knock_min"),
        Phrase(
            ("knock_penalty",),
            lambda o: (
                said("knock_penalty.lowest")
                if o["knock_penalty"] == "lowest"
                else said("knock_penalty.under_knock_min", n=o["knock_min"])
            ),
        ),
    )
    """The options in words: each phrase's sentence as a code and its values (phrases.py),
    worded in the reader's language by app/rulebook/option_sentences.py for the pages."""

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
