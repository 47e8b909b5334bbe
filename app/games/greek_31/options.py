"""The table options of Greek 31 (docs/rules.md §2): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.core.options import Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import ACE_RULE, Phrase, bets, choice, count
from app.games.core.values import AceRule


class Greek31Options(TableOptions):
    """Greek 31's options."""

    BOUNDS = (Bound("min_bet", "max_bet", "max_bet"),)

    WORDS = (
        bets("min_bet", "max_bet", "Stakes"),
        choice(
            "stakes",
            {
                "buy_in": (
                    "Top-ups allowed: add chips between hands and play on as long as you like"
                ),
                "table_stakes": (
                    "Table stakes: no top-ups, you can only lose what is in front of you, "
                    "and the table plays on until one player holds every chip"
                ),
            },
        ),
        Phrase(
            ("max_players",),
            lambda o: f"Up to {count(o['max_players'], 'seat')}, the dealer's included",
        ),
        choice(
            "decks",
            {
                "auto": "One deck, or two when more than 5 players are dealt in",
                1: "One deck",
                2: "Two decks",
            },
        ),
        choice(
            "shuffle",
            {
                "once": "The deck is shuffled before the first deal only",
                "new_dealer": "Each new dealer shuffles before their first deal",
            },
        ),
        choice(
            "heath",
            {
                True: "Martin Heath's version: aces alternate 1 and 11, a pair of twos beats 14",
                False: "The classic rules (not Martin Heath's version)",
            },
        ),
        ACE_RULE,
    )
    """The options in words (app/games/core/phrases.py), shown on the table and rules pages."""

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
