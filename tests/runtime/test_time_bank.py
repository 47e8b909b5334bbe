"""The time bank in virtual time (app/runtime/time_bank.py, docs/rules.md §0.12): More time
moves the decision's deadline on, is spent, and is refused when empty or not one's turn."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.core.registry import game_class
from app.runtime.protocol import ProtocolError
from app.runtime.records import SeatInfo
from app.runtime.table import switch
from app.runtime.table.core import BEGUN_KEY
from app.runtime.time_bank import CHUNK_SECONDS, STORED_KEY
from tests.runtime.core_harness import CoreTable, Viewer

MORE_TIME = {"kind": "time_bank", "params": {}}


def table_with_a_decision(bank: int) -> tuple[CoreTable, dict[int, Viewer], int]:
    """Greek 31 with two people, the first hand dealt: the table, its viewers by seat and the
    seat whose decision the clock is timing."""
    table = CoreTable(
        game_class("greek-31"),
        {"time_bank_seconds": bank, "turn_seconds": 30},
        next_hand_seconds=5,
        bot_table_idle_seconds=0,
    )
    people = {}
    for seat in (0, 1):
        table.sit(seat, f"p{seat}", f"P{seat}", 500)
        people[seat] = table.watch(f"p{seat}", f"P{seat}")
    for _ in range(20):
        table.advance(0.5)
        if table.core.deadline is not None:
            break
    (deciding,) = table.core.engine.to_act()
    return table, people, deciding


def bank_of(view: dict[str, Any], seat: int) -> int:
    return next(s["time_bank"] for s in view["seats"] if s["seat"] == seat)


def test_more_time_moves_the_deadline_on_and_is_spent() -> None:
    table, people, seat = table_with_a_decision(bank=20)
    core, me = table.core, people[seat]
    other = people[1 - seat]
    assert MORE_TIME in me.last_view()["legal"]
    assert MORE_TIME not in other.last_view()["legal"]
    assert bank_of(other.last_view(), seat) == 20
    deadline = core.deadline
    assert deadline is not None
    table.act(me, "time_bank")
    assert core.deadline == deadline + CHUNK_SECONDS
    assert me.last_view()["deadline"] == deadline + CHUNK_SECONDS
    assert bank_of(other.last_view(), seat) == 20 - CHUNK_SECONDS  # everyone sees it
    # the old deadline passes: the decision is still the seat's
    table.advance(deadline - table.clock.now() + 1)
    assert core.engine.to_act() == {seat} and core.deadline == deadline + CHUNK_SECONDS
    # what is left of the bank, then nothing more is offered
    table.act(me, "time_bank")
    assert core.deadline == deadline + 20
    assert bank_of(me.last_view(), seat) == 0
    assert MORE_TIME not in me.last_view()["legal"]
    with pytest.raises(ProtocolError) as refused:
        table.act(me, "time_bank")
    assert refused.value.code == "not_allowed" and "empty" in refused.value.message
    # the extended clock runs out: the clock plays for the seat
    version = core.version
    table.advance(core.deadline - table.clock.now() + 0.01)
    assert core.version > version and core.deadline != deadline + 20


def test_more_time_is_refused_when_it_is_not_your_decision() -> None:
    table, people, seat = table_with_a_decision(bank=30)
    deadline = table.core.deadline
    with pytest.raises(ProtocolError) as refused:
        table.act(people[1 - seat], "time_bank")
    assert refused.value.code == "not_your_turn"
    assert table.core.deadline == deadline
    assert table.core.time_bank.of(f"p{1 - seat}") == 30


def test_a_table_without_a_time_bank_offers_none() -> None:
    table, people, seat = table_with_a_decision(bank=0)
    assert MORE_TIME not in people[seat].last_view()["legal"]
    with pytest.raises(ProtocolError) as refused:
        table.act(people[seat], "time_bank")
    assert refused.value.code == "not_allowed" and "no time bank" in refused.value.message


def test_the_bank_is_kept_in_the_stored_state_per_player() -> None:
    table, people, seat = table_with_a_decision(bank=40)
    table.act(people[seat], "time_bank")
    stored = table.core.stored_state()[STORED_KEY]
    assert stored == {f"p{seat}": 40 - CHUNK_SECONDS}
    again = CoreTable(game_class("greek-31"), {"time_bank_seconds": 40})
    again.core.time_bank.restore(stored)
    assert again.core.time_bank.of(f"p{seat}") == 40 - CHUNK_SECONDS
    assert again.core.time_bank.of("someone else") == 40


def test_the_bank_is_the_evenings_a_rooms_switch_carries_what_was_spent() -> None:
    """A room's new table (docs/rules.md §0.15) starts each player's bank at its own option
    less what they spent at the old table; the switch's stored state carries it, and the
    new table, restored from that state, begins its story with the switch."""
    table, people, seat = table_with_a_decision(bank=40)
    table.act(people[seat], "time_bank")  # 15 of 40 spent
    event = {"from_game": "greek-31", "game": "vingt-un", "title": "Vingt-un", "room_id": "r"}
    for full, left in ((60, 45), (40, 25), (10, 0), (0, 0)):
        state = switch.carried(table.core, full, event)
        assert state[STORED_KEY] == {f"p{seat}": left}  # the other spent nothing: full
        assert state[BEGUN_KEY] == {**event, "kind": "room_switch", "t": table.clock.now()}

    state = switch.carried(table.core, 60, event)
    new = CoreTable(game_class("vingt-un"), {"time_bank_seconds": 60})
    new.step(
        new.core.restore,
        seats=[
            (0, SeatInfo("p0", "P0"), 200),
            (1, SeatInfo("p1", "P1"), 200),
        ],
        accounts={},
        state=state,
        last_hand_number=0,
        status="open",
        pause_reason=None,
        version=1,
        void_notice=None,
        last_hand=None,
        voids=[],
    )
    assert new.core.time_bank.of(f"p{seat}") == 45
    assert new.core.time_bank.of(f"p{1 - seat}") == 60
    assert [t.event["kind"] for t in new.core.story.recent()] == ["room_switch"]
    viewer = new.watch(f"p{seat}", "P")
    assert bank_of(viewer.last_view(), 0 if seat == 0 else 1) == 45
    # it is kept with the table's state, so a second restart before a hand tells it too
    assert new.core.stored_state()[BEGUN_KEY] == state[BEGUN_KEY]
    assert new.core.stored_state()[STORED_KEY] == {f"p{seat}": 45}
