"""The replay of each game gives back exactly the views the live table sent.

People play a few hands of every game through the real server (someone sits down and stands
up again in the middle of a hand); every client keeps every state it was sent. Each finished
hand is then re-played from its stored record alone, and at every version the table published
during that hand, the engine's part of the view each client received must equal the replayed
view for that client's seat, and the replayed hand must move the same chips.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.review.replay import engine_view, start
from tests.conftest import LiveServer
from tests.review.live_play import GAMES, play, records


def step_versions(record: dict[str, Any], first: int) -> list[int]:
    """The version the table published after each step (the deal at ``first``)."""
    return [first, *(int(entry["v"]) for entry in record["actions"])]


@pytest.mark.parametrize("game", list(GAMES))
async def test_replay_equals_the_live_views(live: LiveServer, game: str) -> None:
    table_id, people, watcher = await play(live, game, hands=3)
    stored = await records(live, table_id)
    assert len(stored) >= 2, f"{game}: only {len(stored)} hands finished"
    clients = [*people, watcher]
    compared = 0
    for record in stored:
        states = {id(c): list(c.states) for c in clients}
        dealt = [
            s["version"]
            for c in clients
            for s in states[id(c)]
            if s["view"]["hand_id"] == record["hand_id"]
        ]
        assert dealt, "nobody saw the hand"
        versions = step_versions(record, min(dealt))
        assert versions == sorted(versions)
        replay = start(record)
        viewers = {None} | {s["view"]["you"] for c in clients for s in states[id(c)]}
        views: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
        for step in replay.run():
            if step.index == len(versions) - 1:
                # Who asked to leave stands up as the hand ends, in the same version.
                final = next(
                    s["view"]
                    for c in clients
                    for s in states[id(c)]
                    if s["version"] == versions[-1]
                )
                standing = {seat["seat"] for seat in final["seats"]}
                for seat in replay.engine.seated:
                    if seat not in standing:
                        replay.engine.leave(seat)
            for viewer in viewers:
                views[viewer].append(engine_view(replay.engine.view(viewer)))
        assert [t.to_json() for t in replay.transfers] == [
            {
                k: v
                for k, v in row.items()
                if k in ("from", "to", "amount", "reason", "reason_coded")
            }
            for row in record["settlement"]
        ]
        for client in clients:
            for state in states[id(client)]:
                version = state["version"]
                if not versions[0] <= version <= versions[-1]:
                    continue
                step = max(i for i, v in enumerate(versions) if v <= version)
                want = engine_view(state["view"])
                got = views[state["view"]["you"]][step]
                assert got == want, (game, record["number"], version, step, client.name)
                compared += 1
    assert compared > 20
