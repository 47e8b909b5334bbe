"""A ``best`` bot thinks away from the table (app/runtime/table/actor.py ``_think``, on a copy
in a thread) and the core takes its choice only if the table has not changed since
(docs/analysis.md §5): a stale thought is dropped and the bots decide again."""

from __future__ import annotations

import time

from app.core.config import Settings
from app.games.core.registry import game_class
from app.runtime.table.core import TableCore, Thought
from app.runtime.table.effects import BOTS


def a_table_waiting_for_a_bot() -> tuple[TableCore, int]:
    settings = Settings(
        environment="test",
        database_url="sqlite+aiosqlite:///:memory:",
        secret_key="thought-secret-key-0123456789",
        next_hand_seconds=3600,
        bot_delay_seconds=3600,
    )
    core = TableCore(
        table_id="thought",
        name="thought",
        game_cls=game_class("vingt-un"),
        options={},
        settings=settings,
        clock=time.time,
    )
    core.take_seat(0, "p0", "Ada (bot)", 400, is_bot=True, bot_level="best")
    core.take_seat(1, "p1", "Basil (bot)", 400, is_bot=True, bot_level="best")
    core.deal_next()
    turn = core.bot_to_act()
    assert turn is not None and turn[1] == "best"
    return core, turn[0]


def test_a_thought_is_taken_at_the_version_it_was_worked_out_at() -> None:
    core, seat = a_table_waiting_for_a_bot()
    legal = core.engine.legal_actions(seat)
    action = {"kind": legal[0]["kind"], **{k: v["min"] for k, v in legal[0]["params"].items()}}
    before = core.version
    core.bots_act(Thought(before, seat, action))
    assert core.version == before + 1, "the bot's choice was applied"
    assert core.hand is not None and core.hand.actions[-1]["action"] == action


def test_a_stale_thought_is_dropped_and_the_bots_decide_again() -> None:
    core, seat = a_table_waiting_for_a_bot()
    legal = core.engine.legal_actions(seat)
    action = {"kind": legal[0]["kind"], **{k: v["min"] for k, v in legal[0]["params"].items()}}
    before = core.version
    fx = core.bots_act(Thought(before - 1, seat, action))
    assert core.version == before, "nothing was applied"
    assert core.bot_to_act() == (seat, "best")
    assert BOTS in fx.timers, "the bots are armed again"
