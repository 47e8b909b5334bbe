"""The table options of Greek 31 (docs/rules.md §2): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.core.options import Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import ACE_RULE, bets, choice, counted
from app.games.core.values import AceRule


class Greek31Options(TableOptions):
    """Greek 31's options."""

    BOUNDS = (Bound("min_bet", "max_bet", "max_bet"),)

    WORDS = (
        bets("min_bet", "max_bet", "stakes"),
        choice("stakes", {"buy_in": "top_ups", "table_stakes": "table_stakes"}),
        counted("max_players", "seats_with_dealer"),
        choice("decks", {"auto": "decks.auto", 1: "decks.one", 2: "decks.two"}),
        choice("shuffle", {"once": "shuffle.once", "new_dealer": "shuffle.new_dealer"}),
        choice("heath", {True: "heath.on", False: "heath.off"}),
        ACE_RULE,
    )
    """The options in words: each phrase's sentence as a code and its values (phrases.py),
    worded in the reader's language by app/rulebook/option_sentences.py for the pages."""

    decks: Annotated[
        Literal["auto", 1, 2],
        Field(description="52-card decks: auto is one, two when more than 5 players are seated."),
    ] = "auto"
    min_bet: Annotated[int, Field(ge=1, le=1_000_000, description="Smallest stake.")] = 10
    max_bet: Annotated[
        int | None, Field(ge=1, le=1_000_000, description="Largest stake (null: the stack).")
    ] = 100
    ace_rule: Annotated[AceRule, Field(description="How aces count (§0).")] = "at_least_one_high"
    stakes: Annotated[
        Literal["buy_in", "table_stakes"],
        Field(
            description=(
                "buy_in: top-ups between hands; table_stakes: no top-ups, play to one winner."
            )
        ),
    ] = "buy_in"
    shuffle: Annotated[
        Literal["once", "new_dealer"],
        Field(
            description=(
                "once: shuffled before the first deal only; new_dealer: each new dealer shuffles."
            )
        ),
    ] = "once"
    heath: Annotated[
        bool,
        Field(description="Martin Heath's version: alternating aces, pair of twos beats 14."),
    ] = False
    max_players: Annotated[
        int, Field(ge=2, le=9, description="Seats at the table, the dealer included.")
    ] = 8
    turn_seconds: TurnSeconds = 30
    time_bank_seconds: TimeBankSeconds = 30
