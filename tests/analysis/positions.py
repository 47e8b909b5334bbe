"""Decisions met by playing random hands through the engines, for the analysis's tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from app.analysis import analyser_for
from app.analysis.position import Position
from app.games.core.actions import random_action
from app.games.core.game import Game
from app.games.core.registry import game_class


def table(game: str, players: int = 3, stack: int = 1_000) -> Game:
    engine = game_class(game)({})
    for seat in range(players):
        engine.sit(seat, stack)
    return engine


def decisions(game: str, seed: int, hands: int = 5) -> Iterator[Position]:
    """Every decision the game's analyser finds in ``hands`` hands played at random (the
    engine is left as it stood before the decision: the caller must not keep it)."""
    rng = random.Random(seed)
    engine = table(game)
    analyser = analyser_for(game)
    for _ in range(hands):
        if engine.table_over or not engine.can_start():
            return
        engine.start_hand()
        for _ in range(500):
            if engine.completed_pending is not None:
                break
            to_act = sorted(engine.to_act())
            if not to_act:
                for seat, action in engine.timeout_actions():
                    engine.apply(seat, action, by_clock=True)
                continue
            seat = to_act[0]
            legal = engine.legal_actions(seat)
            action = (
                random_action(legal, rng) if rng.random() < 0.5 else engine.bot_action(seat, rng)
            )
            position = Position(engine, seat, legal, action)
            if analyser.decides(position):
                yield position
            engine.apply(seat, action)
        engine.take_completed()
        engine.take_log()
