"""Finished hands' records as a real table writes them, without a database: a table's core
(:class:`app.runtime.table.core.TableCore`) plays hands with bots and its ``hand_finished``
jobs are kept, not run (for the analysis's benchmark and tests: docs/analysis.md §3)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from app.core.config import Settings
from app.db import store
from app.games.core.registry import game_class
from app.runtime.table.core import TableCore
from bench.common import deal_next_hand


def recorded_hands(
    game: str,
    hands: int,
    *,
    seed: int = 3,
    players: int = 3,
    options: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The records of ``hands`` finished hands of ``game`` played by ``players`` bots (void
    ones left out), with their private part, as ``store.hand_finished`` would store them."""
    settings = Settings(
        environment="test",
        database_url="sqlite+aiosqlite:///:memory:",
        secret_key="records-secret-key-0123456789",
        next_hand_seconds=3600,
        bot_delay_seconds=3600,
    )
    core = TableCore(
        table_id="records",
        name="records",
        game_cls=game_class(game),
        options=dict(options or {}),
        settings=settings,
        clock=time.time,
    )
    for seat in range(players):
        _low, high = core.engine.buy_in_limits(seat)
        core.take_seat(seat, f"p{seat}", f"P{seat}", min(high, 1_000))
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for _ in range(hands * 3):
        steps = deal_next_hand(core, rng)
        while core.engine.in_hand:
            engine = core.engine
            seat = min(engine.to_act())
            steps.append(core.apply_for(seat, engine.bot_action(seat, rng)))
        for fx in steps:
            for job in (*fx.jobs, *fx.background):
                if job.run is store.hand_finished:
                    finished = job.args[0]
                    if not finished.void:
                        out.append(json.loads(finished.record))
        if len(out) >= hands or not core.engine.can_start():
            break
    return out[:hands]
