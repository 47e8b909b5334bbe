"""The host at the table in the core, in virtual time (app/runtime/table/host_at_table.py).

Pure logic: who sees the requests to sit (the host alone), that a request holds nothing and
queues no job, that a refusal lasts ten minutes of the table's clock and then lapses, and that
an approval hands the shell a seating and its buy-in, not before.
"""

from __future__ import annotations

import pytest

from app.games.core.registry import game_class
from app.runtime.protocol import ErrorCode, ProtocolError, Sit
from app.runtime.table.host_at_table import REFUSED_SECONDS, Seating
from tests.runtime.core_harness import CoreTable, Viewer

OPTIONS = {"start": "when_ready", "approval": True}


def a_table() -> tuple[CoreTable, Viewer, Viewer, Viewer]:
    table = CoreTable(game_class("greek-31"), OPTIONS, created_by="ada")
    ada = table.watch("ada", "Ada")
    table.sit(0, "ada", "Ada", 100)
    ben = table.watch("ben", "Ben")
    cy = table.watch("cy", "Cy")
    return table, ada, ben, cy


def test_a_request_holds_nothing_and_only_the_host_sees_it() -> None:
    table, ada, ben, cy = a_table()
    jobs = len(table.jobs)
    assert table.core.needs_approval("ben") and not table.core.needs_approval("ada")
    table.step(table.core.ask_seat, ben, Sit(2, 100))
    assert len(table.jobs) == jobs  # no chip moves, nothing is written
    assert table.core.reserved == {} and 2 not in table.core.roster
    assert ada.last_view()["table"]["requests"] == [
        {"player_id": "ben", "name": "Ben", "seat": 2, "buy_in": 100}
    ]
    assert {t["kind"] for t in ada.last_view()["table"]["host_legal"]} >= {"approve", "refuse"}
    assert ben.last_view()["table"]["seat_request"] == "pending"
    assert ben.last_view()["table"]["requests"] == []  # only the host sees them
    assert cy.last_view()["table"]["requests"] == []
    assert cy.last_view()["table"]["seat_request"] is None


def test_a_refusal_lasts_ten_minutes_of_the_tables_clock() -> None:
    table, ada, ben, _cy = a_table()
    table.step(table.core.ask_seat, ben, Sit(2, 100))
    fx, seating = table.core.host_act(ada, "h1", {"kind": "refuse", "player_id": "ben"})
    table.carry_out(fx)
    assert seating is None
    assert ben.last_view()["table"]["seat_request"] == "refused"
    table.advance(REFUSED_SECONDS - 1)
    with pytest.raises(ProtocolError) as refused:
        table.step(table.core.ask_seat, ben, Sit(2, 100))
    assert refused.value.code == ErrorCode.SEAT_REFUSED
    assert "1 minute" in refused.value.message
    table.advance(2)
    table.step(table.core.ask_seat, ben, Sit(2, 100))  # may ask again
    assert ben.last_view()["table"]["seat_request"] == "pending"


def test_an_approval_hands_the_shell_the_seating() -> None:
    table, ada, ben, _cy = a_table()
    table.step(table.core.ask_seat, ben, Sit(None, 120))
    fx, seating = table.core.host_act(ada, "h1", {"kind": "approve", "player_id": "ben"})
    table.carry_out(fx)
    assert seating == Seating(1, "ben", "Ben", 120)
    assert table.core.reserved == {1: "ben"}  # held while the shell moves the buy-in
    assert table.core.requests == {}


def test_a_request_vanishes_when_its_asker_leaves() -> None:
    table, ada, ben, _cy = a_table()
    table.step(table.core.ask_seat, ben, Sit(2, 100))
    table.step(table.core.part, ben)
    assert table.core.requests == {}
    assert ada.last_view()["table"]["requests"] == []


def test_nobody_but_the_host_acts_as_host() -> None:
    table, _ada, ben, _cy = a_table()
    with pytest.raises(ProtocolError) as refused:
        table.core.host_act(ben, "h1", {"kind": "pause"})
    assert refused.value.code == ErrorCode.NOT_HOST
    assert table.core.status == "open"


def test_an_approval_the_sit_refuses_changes_nothing() -> None:
    table, ada, ben, cy = a_table()
    table.step(table.core.ask_seat, ben, Sit(2, 100))
    table.step(table.core.ask_seat, cy, Sit(None, 100))
    table.sit(2, "dee", "Dee", 100)  # Ben's seat is taken meanwhile
    frames = len(ada.frames)
    with pytest.raises(ProtocolError) as refused:
        table.core.host_act(ada, "h1", {"kind": "approve", "player_id": "ben"})
    assert refused.value.code == ErrorCode.SEAT_TAKEN and refused.value.msg_id == "h1"
    table.carry_out(table.core.take_effects())
    assert "ben" in table.core.requests and table.core.reserved == {}
    assert not [f for f in ada.frames[frames:] if f["type"] == "ack"]  # no ack left behind


def test_stakes_changed_during_a_hand_are_in_force_from_the_next() -> None:
    """The host may change the stakes during a hand (docs/rules.md §0.12): the hand is played
    out under the old ones, the table's row has the new ones at once (a restart deals the
    next hand under them), and the next hand is dealt under them."""
    table = CoreTable(
        game_class("greek-31"),
        {"min_bet": 10, "max_bet": 50},
        created_by="ada",
        next_hand_seconds=1,
    )
    ada = table.watch("ada", "Ada")
    for seat in (0, 1, 2):
        table.sit(seat, f"bot{seat}", f"Bot {seat}", 500, bot=True)
    core = table.core
    for _ in range(400):
        table.advance(0.05)
        if core.hand is not None:
            break
    hand = core.hand
    assert hand is not None
    offered = {t["kind"] for t in ada.last_view()["table"]["host_legal"]}
    assert "set_options" in offered and "close" not in offered  # close waits for the hand
    fx, _ = core.host_act(ada, "h1", {"kind": "set_options", "options": {"min_bet": 20}})
    table.carry_out(fx)
    assert core.options["min_bet"] == 10 and core.coming_options["min_bet"] == 20
    stored = [j for j in table.jobs if j.run.__name__ == "set_table_options"]
    assert stored and stored[-1].args[-1]["min_bet"] == 20
    told = [e for e in table.core.story.recent() if e.event["kind"] == "host_set_options"]
    assert told[-1].event["options"] == {"min_bet": 20} and told[-1].event["from_next_hand"]
    assert ada.last_view()["table"]["message"] == (
        "The host changed the table's options: from the next hand."
    )
    template = next(t for t in ada.last_view()["table"]["host_legal"] if t["kind"] == "set_options")
    assert template["params"]["options"]["min_bet"]["value"] == 20  # the form shows what's next
    # a second change in the same hand is checked against the first (max 15 < min 20)
    with pytest.raises(ProtocolError) as refused:
        core.host_act(ada, "h2", {"kind": "set_options", "options": {"max_bet": 15}})
    assert refused.value.code == ErrorCode.BAD_OPTIONS
    table.carry_out(core.take_effects())
    for _ in range(4000):
        table.advance(0.05)
        if core.hand is not None and core.hand is not hand:
            break
    assert core.hand is not None and core.hand is not hand, "no next hand was dealt"
    assert core.options["min_bet"] == 20 and core.engine.options["min_bet"] == 20
    assert core.pending_options == {}
