"""What the contract suite (``test_contract.py``) reads and does outside its state machine:
the cards a view or a log entry shows, an engine's state to compare, seeds to copy, a hand
played out by bots, table options drawn from a game's options model, and near misses of
``legal``."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from app.games.core.accounts import HOUSE
from app.games.core.actions import Action, LegalAction, action_fits, random_action
from app.games.core.game import Game
from app.games.core.options import OptionError

HAND_STEPS = 400
"""Steps a hand played out by bots may take before it is taken for a hand that never ends."""


# ----------------------------------------------------------------------------- what is seen


def card_views(node: Any) -> Iterator[dict[str, Any]]:
    """Every card as a view shows it (``{"card": ..., "up": ...}``), anywhere in the view."""
    if isinstance(node, dict):
        if set(node) == {"card", "up"}:
            yield node
        else:
            for value in node.values():
                yield from card_views(value)
    elif isinstance(node, list):
        for value in node:
            yield from card_views(value)


def log_cards(entry: dict[str, Any]) -> list[str]:
    """The card codes a log entry names."""
    cards = [entry["card"]] if isinstance(entry.get("card"), str) else []
    listed = entry.get("cards")
    if isinstance(listed, list):
        cards += [c for c in listed if isinstance(c, str)]
    return cards


def state_of(engine: Game) -> Any:
    """Everything an action could change, to check that a refused one changed nothing."""
    viewers: list[int | None] = [None, *engine.seated]
    return (
        dict(engine.balances),
        engine.in_hand,
        sorted(engine.to_act()),
        len(engine.transfers),
        copy.deepcopy([engine.view(v) for v in viewers]),
        [engine.legal_actions(v) for v in viewers],
    )


class Seeds:
    """A seed source that can be copied with the engine: the n-th seed is SHA-256(base, n)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.drawn = 0

    def __call__(self) -> bytes:
        self.drawn += 1
        return hashlib.sha256(f"{self.base}:{self.drawn}".encode()).digest()


def comparable(engine: Game) -> dict[str, Any]:
    """What a rebuilt engine must have as the live one does between hands. The view of the
    hand just played is not stored (a restart shows the table without it), so the views are
    compared once the next hand is dealt on both, with the same seeds."""
    viewers: list[int | None] = [None, *engine.seated]
    out = {
        "balances": dict(engine.balances),
        "snapshot": engine.snapshot(),
        "to_act": sorted(engine.to_act()),
        "can_start": engine.can_start(),
        "legal": [engine.legal_actions(v) for v in viewers],
        "hand_number": engine.hand_number,
        "table_over": engine.table_over,
    }
    if not engine.to_act() and not engine.table_over and engine.can_start():
        engine.take_log()  # what was said between hands is not stored: the hand's own log is
        engine.start_hand()
        out["dealt"] = {
            "log": engine.take_log(),
            "views": [engine.view(v) for v in viewers],
            "legal": [engine.legal_actions(v) for v in viewers],
            "to_act": sorted(engine.to_act()),
            "balances": dict(engine.balances),
        }
    return out


def house_net(moved: list[Any]) -> int:
    """What the house won (less what it paid) in these transfers."""
    return sum(t.amount for t in moved if t.target == HOUSE) - sum(
        t.amount for t in moved if t.source == HOUSE
    )


def play_out(engine: Game, rng: random.Random) -> None:
    """Deal a hand and play it to its end with bots (then the clock, if the bots take too
    long); someone is waited for at every step, chips are conserved and the hand ends."""
    assert not engine.in_hand and engine.can_start(), "the engine cannot deal"
    before = sum(engine.balances.values())
    engine.start_hand()
    for step in range(HAND_STEPS):
        if not engine.in_hand:
            break
        waiting = sorted(engine.to_act())
        assert waiting, "a hand waits for nobody"
        if step < HAND_STEPS // 2:
            engine.apply(waiting[0], engine.bot_action(waiting[0], rng))
        else:
            for seat, action in engine.timeout_actions():
                engine.apply(seat, action, by_clock=True)
    assert not engine.in_hand, f"a hand played by bots did not end in {HAND_STEPS} steps"
    done = engine.take_completed()
    assert done is not None
    assert sum(engine.balances.values()) + house_net(done.transfers) == before, "chips changed"


@st.composite
def table_options(draw: st.DrawFn, cls: type[Game]) -> dict[str, Any]:
    """Any valid options of ``cls``'s ``OPTIONS_MODEL``: each field within its range (its
    bounds, its default or any value between), its choices, null where allowed."""
    out: dict[str, Any] = {}
    for spec in cls.OPTIONS_MODEL.specs():
        if spec.type == "int":
            assert spec.min is not None and spec.max is not None
            values = st.sampled_from([spec.min, spec.max, spec.default]) | st.integers(
                spec.min, spec.max
            )
            if spec.nullable:
                values = values | st.none()
        elif spec.type == "bool":
            values = st.booleans()
        else:
            values = st.sampled_from(spec.choices)
        out[spec.name] = draw(values)
    try:
        return cls.OPTIONS_MODEL.check(out)
    except OptionError:
        return cls.OPTIONS_MODEL.check(dict(cls.SIM_OPTIONS))  # options out of order


# ------------------------------------------------------------------------- actions outside legal


def out_of_legal(
    engine: Game, seat: int, templates: list[LegalAction], rng: random.Random
) -> list[Action]:
    """Actions ``legal`` does not list for ``seat``: every kind of near miss."""
    misses: list[Action] = [{"kind": "banana"}, {"kind": 7}, {}]
    for template in templates:
        params: dict[str, Any] = template["params"]
        good = random_action([template], rng)
        misses.append({**good, "banana": 1})
        for name, spec in params.items():
            misses.append({k: v for k, v in good.items() if k != name})
            misses.append({**good, name: "banana"})
            misses.append({**good, name: True})
            if "min" in spec and "subset_of" not in spec and "one_of" not in spec:
                misses.append({**good, name: spec["min"] - 1})
                misses.append({**good, name: spec["max"] + 1})
                misses.append({**good, name: spec["max"] + 5000})
            if "subset_of" in spec:
                misses.append({**good, name: [*good[name], *good[name][:1]] or ["banana"]})
    for other in engine.seated:  # another seat's action, for a seat that may not take it
        if other != seat:
            for template in engine.legal_actions(other):
                misses.append(random_action([template], rng))
    return [
        action
        for action in misses
        if not action_fits(action, templates)
        and not action_fits(action, engine.clock_actions(seat))
    ]
