"""The table options of Vingt-un (docs/rules.md §3): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.games.core.options import Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import Phrase, bets, choice, said


class VingtUnOptions(TableOptions):
    """Vingt-un's options."""

    BOUNDS = (Bound("min_bet", "max_bet", "max_bet"),)

    WORDS = (
        bets("min_bet", "max_bet", "hand_stakes"),
        choice(
            "natural_takes_deal", {True: "natural_takes_deal.on", False: "natural_takes_deal.off"}
        ),
        choice(
            "natural_paid_by_all",
            {True: "natural_paid_by_all.on", False: "natural_paid_by_all.off"},
        ),
        Phrase(
            ("max_split_hands",),
            lambda o: (
                said("splitting.none")
                if o["max_split_hands"] == 1
                else said("splitting", n=o["max_split_hands"])
            ),
        ),
    )
    """The options in words: each phrase's sentence as a code and its values (phrases.py),
    worded in the reader's language by app/rulebook/option_sentences.py for the pages."""

    min_bet: Annotated[
        int, Field(ge=1, le=1_000_000, description="Smallest stake on a hand (docs/rules.md §3).")
    ] = 10
    max_bet: Annotated[
        int,
        Field(
            ge=1,
            le=1_000_000,
            description="Largest stake on a hand, before doubling (docs/rules.md §3).",
        ),
    ] = 100
    natural_takes_deal: Annotated[
        bool,
        Field(
            description=(
                "A player's natural passes the deal to the dealer's left (docs/rules.md §3.6)."
            )
        ),
    ] = True
    natural_paid_by_all: Annotated[
        bool,
        Field(
            description=(
                "A natural's holder also receives one stake from each other player "
                "(docs/rules.md §3)."
            )
        ),
    ] = False
    max_split_hands: Annotated[
        int,
        Field(ge=1, le=4, description="Most hands one player may make by splitting (§3 step 7)."),
    ] = 4
    turn_seconds: TurnSeconds = 30
    time_bank_seconds: TimeBankSeconds = 30
