"""The table options of Vingt-un (docs/rules.md §3): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.games.core.options import Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import Phrase, bets, choice, count


class VingtUnOptions(TableOptions):
    """Vingt-un's options."""

    BOUNDS = (Bound("min_bet", "max_bet", "max_bet"),)

    WORDS = (
        bets("min_bet", "max_bet", "Stakes", " a hand, before doubling"),
        choice(
            "natural_takes_deal",
            {
                True: "A player's natural takes the deal",
                False: "A player's natural does not move the deal",
            },
        ),
        choice(
            "natural_paid_by_all",
            {
                True: "A natural is also paid one stake by every other player",
                False: "A natural is paid by the dealer only",
            },
        ),
        Phrase(
            ("max_split_hands",),
            lambda o: (
                "No splitting"
                if o["max_split_hands"] == 1
                else f"Pairs may be split, up to {count(o['max_split_hands'], 'hand')}"
            ),
        ),
    )
    """The options in words (app/games/core/phrases.py), shown on the table and rules pages."""

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
