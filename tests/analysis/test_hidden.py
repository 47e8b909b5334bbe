"""The analysis reads only what the deciding seat could see (docs/analysis.md §1, §4): two
positions that differ only in cards hidden from the seat (the stock's order, another's
face-down cards, the dealer's hole card) get the same figures, and analysing a position
changes nothing of the table."""

from __future__ import annotations

import importlib
import io
import json
import pickle
import random
import types

import pytest

from app.analysis import MODULES, analyser_for
from app.analysis.position import Effort, Position
from app.analysis.rollout import detached
from tests.analysis.positions import decisions

EFFORT = Effort(12, quick=True)
"""A ``best`` bot's effort, as the tests have always run it (fewer samples; the quick methods
where a game has them: Vingt-un's effects of removal, Trente et Quarante's quick chances)."""


class _SeedsAsOne(pickle.Pickler):
    """Pickles an engine's state with its seed source (a function: the table's, or a twin's
    local one) as one token, wherever it is held: a Trente et Quarante coup waiting for its
    un après choices holds its game, and so the game's seed source."""

    def persistent_id(self, obj: object) -> str | None:
        return "a seed source" if isinstance(obj, types.FunctionType) else None


def state_of(engine: object) -> bytes:
    """Everything an engine holds but its seed source."""
    out = io.BytesIO()
    _SeedsAsOne(out).dump({k: v for k, v in vars(engine).items() if not callable(v)})
    return out.getvalue()


def figures(position: Position, seed: int) -> str:
    verdict = analyser_for(position.engine.id).analyse(position, EFFORT, random.Random(seed))
    return json.dumps([o.to_json() for o in verdict.options], sort_keys=True)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_figures_depend_only_on_what_the_seat_sees(game: str) -> None:
    resample = importlib.import_module(MODULES[game]).resample
    checked = differed = 0
    for seed in range(3):
        for position in decisions(game, seed, hands=3):
            engine, seat = position.engine, position.seat
            before = {s: engine.view(s) for s in [None, *sorted(engine.seated)]}
            twin = resample(detached(engine, random.Random(seed)), seat, random.Random(seed))
            assert twin.view(seat) == engine.view(seat), "a resample changed what the seat sees"
            if state_of(twin) != state_of(engine):
                differed += 1
            mine = figures(position, seed)
            theirs = figures(Position(twin, seat, position.legal, position.chosen), seed)
            assert mine == theirs, f"{game}: hidden cards changed the figures"
            after = {s: engine.view(s) for s in before}
            assert after == before, "the analysis changed the table"
            checked += 1
            if checked >= 12:
                break
    assert checked >= 3, f"{game}: too few decisions met to check"
    assert differed >= 1, f"{game}: no resample ever changed a hidden card: the test saw nothing"
