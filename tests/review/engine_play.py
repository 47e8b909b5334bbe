"""Hands of every game played by bots on the pure engines, recorded as the table runtime
records them (docs/rules.md §0.9): the snapshot, balances and the seeds of new shuffles in
the private part, the actions and roster changes in order, every event, the settlement. The
views every seat and a spectator had after each step are kept beside each record.

Cached per game and seed: the replay, privacy and fairness tests share the same hands.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from app.games.core.actions import action_fits
from app.games.core.cards import Shuffle
from app.games.core.game import Game
from app.games.core.registry import game_class
from app.simulate import seed_stream, settle_between_hands

MAX_LATECOMERS = 2


@functools.cache
def recorded(game_id: str, hands: int = 20, seed: int = 7) -> tuple[Any, ...]:
    """``(record, live_views, shuffles)`` per hand; ``live_views[step][i]`` is watcher i's
    view (watchers: None, then seats 0 up); ``shuffles`` every Shuffle made so far by commit."""
    cls = game_class(game_id)
    engine: Game = cls({}, seeds=seed_stream(seed))
    rng = random.Random(seed)
    seats = cls.SIM_PLAYERS + 1
    for seat in range(seats):
        engine.sit(seat, engine.sim_stack(seat, 1000))
    watchers = [None, *range(seats + MAX_LATECOMERS)]
    out = []
    spare = seats
    shuffles: dict[str, Shuffle] = {}
    for _ in range(hands):
        settle_between_hands(engine, rng)
        engine.take_log()
        for seat in engine.seated:
            engine.sim_rebuy(seat, 1000)
        if not engine.can_start():
            break
        before = (engine.snapshot(), dict(engine.balances))
        engine.start_hand()
        events = engine.take_log()
        live = [[engine.view(w) for w in watchers]]
        entries: list[dict[str, Any]] = []
        while (done := engine.take_completed()) is None:
            if rng.random() < 0.04 and spare < seats + MAX_LATECOMERS:
                stack = engine.buy_in_limits(spare)[0]
                engine.sit(spare, stack)
                entries.append({"seat": spare, "roster": "sit", "amount": stack})
                spare += 1
            elif rng.random() < 0.1 and (pairs := engine.timeout_actions()):
                for s, action in pairs:
                    engine.apply(s, action, by_clock=True)
                    entries.append({"seat": s, "action": action, "by": "timeout"})
                    events += engine.take_log()
                    live.append([engine.view(w) for w in watchers])
                    if engine.in_hand is False:
                        break
                continue
            else:
                seat = rng.choice(sorted(engine.to_act()))
                action = engine.bot_action(seat, rng)
                assert action_fits(action, engine.legal_actions(seat))
                engine.apply(seat, action)
                entries.append({"seat": seat, "action": action})
            events += engine.take_log()
            live.append([engine.view(w) for w in watchers])
            assert len(entries) < 5000, "the hand did not end"
        for s in done.new_shuffles:
            shuffles[s.commit] = s
        record = {
            "version": 1,
            "hand_id": f"{game_id}-{engine.hand_number}",
            "table_id": "t",
            "game": game_id,
            "number": engine.hand_number,
            "options": dict(engine.options),
            "seats_before": [
                {
                    "seat": s,
                    "player_id": f"p{s}",
                    "name": f"P{s}",
                    "stack": before[1].get(f"seat:{s}", 0),
                }
                for s in sorted(int(a[5:]) for a in before[1] if a.startswith("seat:"))
            ],
            "seats_after": [
                {
                    "seat": s,
                    "player_id": f"p{s}",
                    "name": f"P{s}",
                    "stack": engine.balances.get(f"seat:{s}", 0),
                }
                for s in engine.seated
            ],
            "events": events,
            "actions": entries,
            "shuffles": {
                "new": [s.commit for s in done.new_shuffles],
                "retired": [s.commit for s in done.retired_shuffles],
            },
            "settlement": [t.to_json() for t in done.transfers],
            "summary": done.summary,
            "private": {
                "start_state": before[0],
                "balances_before": before[1],
                "shuffle_seeds": [s.seed.hex() for s in done.new_shuffles],
            },
        }
        out.append((json.loads(json.dumps(record)), live, dict(shuffles)))
    return tuple(out)


def watchers_of(game_id: str) -> list[int | None]:
    return [None, *range(game_class(game_id).SIM_PLAYERS + 1 + MAX_LATECOMERS)]
