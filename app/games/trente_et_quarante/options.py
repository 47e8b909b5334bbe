"""The table options of Trente et Quarante (docs/rules.md §4): each one's range, default and
meaning."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.games.core.options import BetSeconds, Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import bets, choice, counted


class TrenteEtQuaranteOptions(TableOptions):
    """Trente et Quarante's options."""

    BOUNDS = (Bound("min_stake", "max_stake", "max_stake"),)

    WORDS = (
        bets("min_stake", "max_stake", "chance_stakes"),
        counted("seats", "seats_and_standing"),
        counted("decks", "decks_in_shoe"),
        counted("bet_seconds", "betting_window_seconds"),
        choice("insurance", {True: "insurance.on", False: "insurance.off"}),
        counted("max_apres", "prison_levels"),
        choice("venice_rule", {True: "venice_rule.on", False: "venice_rule.off"}),
        counted("turn_seconds", "apres_seconds"),
    )
    """The options in words: each phrase's sentence as a code and its values (phrases.py),
    worded in the reader's language by app/rulebook/option_sentences.py for the pages."""

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
