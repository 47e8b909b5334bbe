"""A room's switch, the table's side, in virtual time (app/runtime/table/switch.py;
docs/rules.md §0.15): never while a hand is in play, nor in En og tredive while a match is;
between matches the chips are released to the stacks, and once the switch is committed every
watcher is told ``room_switch`` and closed with 4301."""

from __future__ import annotations

from app.games.core.registry import game_class
from app.runtime.table import switch
from tests.runtime.core_harness import CoreTable

ROOM_SWITCH = {"type": "room_switch", "room_id": "r", "table_id": "t2", "game": "greek-31"}


def test_en_og_tredive_switches_between_matches_only() -> None:
    table = CoreTable(game_class("en-og-tredive"), {"bet_unit": 10, "bets": 3})
    for seat, name in enumerate(("Ada", "Ben", "Cy")):
        table.sit(seat, f"p{seat}", name, 300, bot=True)
    watcher = table.watch(None)
    core = table.core
    in_hand = in_match = between = 0
    for _ in range(200_000):
        table.advance(0.01)
        refused = switch.refusal(core)
        match = core.engine.match.seats  # type: ignore[attr-defined]
        if core.hand is not None:
            assert refused is not None and "hand" in refused.message
            in_hand += 1
        elif match:
            assert refused is not None and "match" in refused.message
            in_match += 1
        else:
            assert refused is None
            between += 1
            if core.hands_played >= 2 and in_match:
                break
    assert in_hand and in_match and between, (in_hand, in_match, between)

    total = sum(core.engine.balances.values())
    seated, released = switch.release(core)
    assert [(seat, info.name) for seat, info, _stack in seated] == [
        (0, "Ada"),
        (1, "Ben"),
        (2, "Cy"),
    ]
    assert sum(stack for _seat, _info, stack in seated) == total  # every chip in a stack
    del released
    fx = switch.switched(core, ROOM_SWITCH)
    table.carry_out(fx)
    assert watcher.frames[-1] == ROOM_SWITCH
    assert watcher.closed and watcher.close_code == switch.ROOM_SWITCH_CLOSE  # type: ignore[attr-defined]
    assert core.closed and core.stopped and not core.roster
