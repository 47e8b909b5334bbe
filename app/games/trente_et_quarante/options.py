"""The table options of Trente et Quarante (docs/rules.md §4): each one's range, default and
meaning."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.games.core.options import BetSeconds, Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import Phrase, bets, choice, count, seconds


class TrenteEtQuaranteOptions(TableOptions):
    """Trente et Quarante's options."""

    BOUNDS = (Bound("min_stake", "max_stake", "max_stake"),)

    WORDS = (
        bets("min_stake", "max_stake", "Stakes", " on a chance"),
        Phrase(
            ("seats",),
            lambda o: f"{count(o['seats'], 'seat')}; anyone else may bet standing",
        ),
        Phrase(("decks",), lambda o: f"{count(o['decks'], 'deck')} in the shoe"),
        Phrase(
            ("bet_seconds",),
            lambda o: f"{seconds(o['bet_seconds'])} to bet once the betting window runs",
        ),
        choice(
            "insurance",
            {
                True: "Free stakes of 100 chips or more may be insured for 1% (a chip per 100)",
                False: "No insurance",
            },
        ),
        Phrase(
            ("max_apres",),
            lambda o: (
                "After an un après a stake goes to prison at most "
                f"{count(o['max_apres'], 'level')} deep, then it is shared"
            ),
        ),
        choice(
            "venice_rule",
            {
                True: "Venice rule: stakes in prison come back whole when the shoe ends",
                False: "Stakes in prison stay there when the shoe ends",
            },
        ),
        Phrase(
            ("turn_seconds",),
            lambda o: f"{seconds(o['turn_seconds'])} to choose share or prison after an un après",
        ),
    )
    """The options in words (app/games/core/phrases.py), shown on the table and rules pages."""

    decks: Annotated[
        int, Field(ge=1, le=8, description="Decks in the shoe (docs/rules.md §4).")
    ] = 6
    seats: Annotated[
        int, Field(ge=1, le=12, description="Seats at the table; others may bet standing (§4).")
    ] = 7
    min_stake: Annotated[
        int, Field(ge=1, le=1_000_000, description="Smallest stake on a chance (§4).")
    ] = 10
    max_stake: Annotated[
        int, Field(ge=1, le=100_000_000, description="Largest stake on a chance (§4).")
    ] = 2000
    bet_seconds: BetSeconds = 20
    insurance: Annotated[
        bool,
        Field(
            description=(
                "Free stakes of 100 chips or more may be insured for 1%, a chip per whole 100 "
                "(docs/rules.md §4.8)."
            )
        ),
    ] = True
    venice_rule: Annotated[
        bool, Field(description="Stakes in prison are returned when a shoe ends (§4).")
    ] = True
    max_apres: Annotated[
        int, Field(ge=1, le=10, description="Prison levels before a stake is shared (§4 step 4).")
    ] = 3
    turn_seconds: TurnSeconds = 30
    time_bank_seconds: TimeBankSeconds = 30
