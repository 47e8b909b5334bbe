"""The table options of Trianta Ena (docs/rules.md §1): each one's range, default and meaning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.games.core.options import BetSeconds, Bound, TableOptions, TimeBankSeconds, TurnSeconds
from app.games.core.phrases import ACE_RULE, Phrase, bets, chips, choice, count
from app.games.core.values import AceRule


class TriantaEnaOptions(TableOptions):
    """Trianta Ena's options: the smallest bet within the buy-in, the largest not below it."""

    BOUNDS = (Bound("min_bet", "buy_in", "min_bet"), Bound("min_bet", "max_bet", "max_bet"))

    WORDS = (
        Phrase(
            ("buy_in", "banker_multiple"),
            lambda o: (
                f"Buy-in {chips(o['buy_in'])}; the first banker brings "
                f"{count(o['banker_multiple'], 'buy-in')} "
                f"({chips(o['buy_in'] * o['banker_multiple'])})"
            ),
        ),
        bets("min_bet", "max_bet", "Bets"),
        Phrase(
            ("max_players",),
            lambda o: f"Up to {count(o['max_players'], 'player')} against the banker",
        ),
        Phrase(("decks",), lambda o: f"{count(o['decks'], 'deck')} in the shoe"),
        Phrase(
            ("dealer_stands_on",),
            lambda o: f"The banker draws until the hand is worth {o['dealer_stands_on']} or more",
        ),
        choice(
            "natural_cards",
            {
                "face": "A natural is an ace and two face cards",
                "ten": "A natural is an ace and two ten-value cards",
            },
        ),
        ACE_RULE,
    )
    """The options in words (app/games/core/phrases.py), shown on the table and rules pages."""

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
