"""Answers of the analysis routes: a hand's decisions with their options' figures, and an
evening's summary (docs/review.md, "The analysis"; docs/protocol/review.md §4.8)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class Interval(Reply):
    """An estimate's 95% interval on ``ev``."""

    ev: list[float] = Field(description="[low, high], chips")
    confidence: float


class AnalysedOption(Reply):
    """One option ``legal`` offered, and the deciding seat's chances with it."""

    action: dict[str, Any] = Field(description="the action, as a client sends it")
    label: str = Field(description='the action in words, as the replay\'s steps say it: "bet 20"')
    win: float = Field(description="the chance to win (0..1), in the unit the game's part names")
    tie: float
    lose: float
    ev: float = Field(description="chips expected to be gained (negative: lost) with it")
    exact: bool = Field(description="true: by enumeration; false: estimated by simulation")
    samples: int | None = Field(None, description="the hands simulated (an estimate only)")
    interval: Interval | None = Field(None, description="an estimate's 95% interval on ev")


class AnalysedDecision(Reply):
    """One decision of the hand: who decided, the options, the chosen one and the best."""

    step: int = Field(description="the replay's step the decision made (its steps[] index)")
    seat: int
    by: str = Field(description="player, timeout or bot")
    options: list[AnalysedOption]
    chosen: int = Field(description="the chosen option's index in options")
    best: int = Field(description="the best option's index (the highest ev)")
    chose_best: bool = Field(description="the chosen one is the best, or not worse beyond doubt")
    given_up: float = Field(description="chips the chosen option gave up in expectation")
    exact: bool = Field(description="every option's figures are exact")
    note: str | None = Field(None, description="what the analysis assumed, in a sentence")
    note_words: str | None = Field(
        None, description="the note in the reader's language (English if it is not listed)"
    )


class DecisionsTally(Reply):
    """Decisions counted: how many, how many were the best, the chips given up."""

    decisions: int
    best: int
    given_up: float = Field(description="chips given up in expectation, all told")
    text: str = Field(description='"23 of 25 decisions best; 12 chips given up in expectation"')


class SeatTally(DecisionsTally):
    """A seat's decisions in the hand (those the reader may read)."""

    seat: int
    player_id: str | None
    name: str | None


class HandAnalysis(Reply):
    """A finished hand's analysis, as the reader may read it."""

    hand_id: str
    game: str
    number: int
    method: int = Field(description="the version of the method that computed it")
    viewer_seat: int | None
    decisions: list[AnalysedDecision]
    withheld: int = Field(
        description="others' decisions left out: they used cards the reader was never shown"
    )
    summary: list[SeatTally]


class PlayerTally(DecisionsTally):
    """A player's decisions over the evening (those the reader may read)."""

    player_id: str
    name: str


class EveningAnalysis(Reply):
    """An evening's summary for the reader: a room's hands, or a table's over a span."""

    room_id: str | None = None
    table_id: str | None = None
    hands: int = Field(description="the finished hands counted (the reader's own, for a player)")
    analysed: int
    pending: int = Field(description="hands not analysed yet (queued now): ask again soon")
    unanalysable: int
    more: bool = Field(description="more hands than the summary counts (the newest are)")
    withheld: int
    you: DecisionsTally | None = Field(description="the reader's own decisions (null: the host)")
    players: list[PlayerTally]
