"""Re-playing a hand from its record gives back every view the table showed, for every game.

Pure engines, at full speed (``engine_play``): bots play hands as the runtime records them,
someone sits down in the middle of a hand now and then, timers run out; then each hand is
rebuilt from its record alone (after a trip through JSON, as the database keeps it) and
stepped through: every seat's view and the spectator's at every step must equal the live
ones, and the chips moved must be the same.
"""

from __future__ import annotations

import pytest

from app.games.core.registry import GAME_IDS
from app.review.replay import ReplayError, start
from tests.review.engine_play import recorded, watchers_of


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_replay_gives_back_every_view_and_transfer(game_id: str) -> None:
    hands = recorded(game_id)
    assert len(hands) >= 15
    watchers = watchers_of(game_id)
    for record, live, _ in hands:
        replay = start(record)
        for step in replay.run():
            replayed = [replay.engine.view(w) for w in watchers]
            for watcher, want, got in zip(watchers, live[step.index], replayed, strict=True):
                assert got == want, (game_id, record["number"], step.index, watcher)
        assert replay.done
        assert [t.to_json() for t in replay.transfers] == record["settlement"]


def test_a_record_without_its_private_part_cannot_be_replayed() -> None:
    with pytest.raises(ReplayError):
        start({"game": "vingt-un", "number": 1, "options": {}, "actions": []})


def test_a_record_of_an_unknown_game_cannot_be_replayed() -> None:
    with pytest.raises(ReplayError):
        start({"game": "poker", "number": 1, "private": {"start_state": {}}})
