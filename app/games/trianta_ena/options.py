"""The table options of Trianta Ena (docs/rules.md §1): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.core.options import BetSeconds, Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import ACE_RULE, Phrase, bets, choice, counted, said
from app.games.core.values import AceRule


class TriantaEnaOptions(TableOptions):
    """Trianta Ena's options: the smallest bet within the buy-in, the largest not below it."""

    BOUNDS = (Bound("min_bet", "buy_in", "min_bet"), Bound("min_bet", "max_bet", "max_bet"))

    WORDS = (
        Phrase(
            ("buy_in", "banker_multiple"),
            lambda o: said(
                "buy_in_and_bank",
                buy_in=o["buy_in"],
                buy_ins=o["banker_multiple"],
                bank=o["buy_in"] * o["banker_multiple"],
            ),
        ),
        bets("min_bet", "max_bet", "bets"),
        counted("max_players", "players_against_banker"),
        counted("decks", "decks_in_shoe"),
        counted("dealer_stands_on", "banker_stands_on"),
        choice("natural_cards", {"face": "natural.face", "ten": "natural.ten"}),
        ACE_RULE,
    )
    """The options in words: each phrase's sentence as a code and its values (phrases.py),
    worded in the reader's language by app/rulebook/option_sentences.py for the pages."""

    max_players: Annotated[
        int, Field(ge=1, le=9, description="Players facing the banker (one more seat: the bank).")
    ] = 7
    decks: Annotated[int, Field(ge=1, le=8, description="52-card decks in the shoe.")] = 2
    min_bet: Annotated[int, Field(ge=1, le=1_000_000_000, description="The smallest bet.")] = 1
    max_bet: Annotated[
        int | None,
        Field(
            ge=1,
            le=1_000_000_000,
            description="The largest bet (null: no limit beyond the stack).",
        ),
    ] = None
    buy_in: Annotated[
        int, Field(ge=1, le=1_000_000_000, description="The chips each player brings.")
    ] = 100
    banker_multiple: Annotated[
        int, Field(ge=1, le=100, description="The first banker brings this many buy-ins.")
    ] = 3
    ace_rule: Annotated[AceRule, Field(description="How aces count (docs/rules.md §0).")] = (
        "at_most_one_low"
    )
    dealer_stands_on: Annotated[
        int, Field(ge=12, le=31, description="The banker draws below this value.")
    ] = 27
    natural_cards: Annotated[
        Literal["face", "ten"],
        Field(
            description=(
                "A natural is an ace and two face cards (face) or two ten-value cards (ten)."
            )
        ),
    ] = "face"
    turn_seconds: TurnSeconds = 30
    time_bank_seconds: TimeBankSeconds = 30
    bet_seconds: BetSeconds = 20
