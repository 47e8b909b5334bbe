"""Answers of the review routes: a hand re-played step by step, the proof of its shuffle,
a table's ledger of sessions, a player's figures (docs/review.md, docs/fairness.md)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.schemas.base import Reply


class ReplaySeat(Reply):
    seat: int
    player_id: str | None
    name: str | None
    bot: bool
    stack_before: int | None
    stack_after: int | None
    net: int | None


class Shoe(Reply):
    """A shuffled stock the hand used: its commitment, and whether it was made in it."""

    commit: str
    made_in_this_hand: bool


class ReplayStep(Reply):
    """One moment of the hand: the action or event that led to it and the caller's view."""

    index: int
    t: float | int | None = Field(description="seconds since the hand began")
    version: int | None
    label: str = Field(description="what happened, in words")
    seat: int | None
    by: str | None = Field(description="who acted for the seat when not its player")
    action: dict[str, Any] | None
    roster: str | None
    amount: int | None = Field(
        None, description="a change of the roster: the chips it brought (a sit, a top-up)"
    )
    events: list[dict[str, Any]]
    view: dict[str, Any] = Field(description="the view then (docs/protocol/view.md)")


class Replay(Reply):
    """A finished hand, step by step, each view as the caller was entitled to see it."""

    schema_version: int
    hand_id: str | None
    table_id: str | None
    table_name: str | None
    game: str | None
    game_title: str
    number: int | None
    started_at: str | None
    ended_at: str | None
    options: dict[str, Any] | None
    viewer_seat: int | None
    seats: list[ReplaySeat]
    settlement: list[dict[str, Any]] | None
    result: dict[str, Any] | None
    summary: dict[str, Any] | None
    shuffles: dict[str, Any] | None
    shoes: list[Shoe]
    steps: list[ReplayStep]
    status: str


class Check(Reply):
    check: str
    ok: bool | None = Field(description="null: cannot be told yet (the shoe's seed is kept)")
    detail: str = Field(description="what the check found, in English")
    check_words: str = Field(description="the check's name in the reader's language")
    detail_words: str = Field(description="what the check found, in the reader's language")


class ShoeProof(Reply):
    """A shoe's proof: its seed once revealed, the order it makes and that order's digest."""

    commit: str
    made_in_this_hand: bool
    revealed: bool
    seed: str | None = None
    source: list[str] | None = None
    order: list[str] | None = None
    order_sha256: str | None = None


class Proof(Reply):
    """The proof of a fair shuffle (docs/fairness.md)."""

    hand_id: str
    game: str
    status: str = Field(description="verified, pending or failed")
    checks: list[Check]
    shoes: list[ShoeProof]


class Sitting(Reply):
    """One player's session at one table: sat down, bought in, topped up, left."""

    player: str | None
    player_id: str | None
    table: str | None
    table_id: str
    game: str | None
    sat_down: str | None
    left: str | None
    buy_in: int
    top_ups: int
    buy_out: int
    stack: int
    net: int
    status: str


class TableLedger(Reply):
    table_id: str
    sessions: list[Sitting]


class GameFigures(Reply):
    game: str
    hands: int
    net: int
    biggest_win: int
    biggest_loss: int


class NotableHand(Reply):
    hand_id: str
    net: int
    game: str
    ended_at: str | None


class Chart(Reply):
    points: int
    first: int | None
    last: int | None
    svg: str = Field(description="the chart's address (an SVG image)")


class PlayerFigures(Reply):
    """A player's page: who they are, their figures per game, their sessions, the chart."""

    player_id: str
    name: str
    bot: bool
    joined_at: str | None
    bankroll: int
    hands: int
    net: int
    games: list[GameFigures]
    biggest_win: NotableHand | None
    biggest_loss: NotableHand | None
    sessions: list[Sitting]
    chart: Chart
