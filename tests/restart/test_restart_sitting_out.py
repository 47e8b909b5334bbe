"""A restart keeps who sits out and the wait for Ready, on the real server process.

The seats sitting out are in the table's stored state (their stacks stay in the ledger, where
they were): after SIGTERM or SIGKILL the player is still sitting out, with the same stack, out
of the hands; they sit in and play; the ledger balances. A friends' table that had not dealt
yet still waits for Ready, and remembers who pressed it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.client import Player
from tests.restart.server import ServerProcess
from tests.restart.test_restart_regressions import balanced, restart, server  # noqa: F401

OPTIONS = {"start": "when_ready", "turn_seconds": 60}


def entry(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in view["seats"] if s["seat"] == seat)


async def press(player: Player, kind: str) -> None:
    await player.wait_for(lambda v: any(t["kind"] == kind for t in v["legal"]))
    reply = await player.act({"kind": kind})
    assert reply["type"] == "ack", reply


@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
async def test_a_restart_keeps_who_sits_out(
    server: ServerProcess,  # noqa: F811
    database_url: str,
    how: str,
) -> None:
    ada, ben, cleo = [await Player.join(server, name) for name in ("Ada", "Ben", "Cleo")]
    table_id = await ada.open_table("greek-31", **OPTIONS)
    for person in (ada, ben, cleo):
        await person.connect(table_id)
        await person.sit(200)
    await press(ada, "ready")
    await press(cleo, "sit_out")
    await ada.wait_for(lambda v: entry(v, 2)["sitting_out"] and entry(v, 0)["ready"])
    await asyncio.sleep(0.5)  # the state is written
    ada, ben, cleo = await restart(server, how, [ada, ben, cleo])
    for person in (ada, ben, cleo):
        await person.connect(table_id)
    view = cleo.view
    assert view is not None
    assert entry(view, 2)["sitting_out"] and entry(view, 2)["stack"] == 200
    assert [t["kind"] for t in view["legal"]] == ["sit_in"]
    assert view["table"]["waiting_for_ready"] and entry(view, 0)["ready"]
    assert view["hand_id"] is None
    await press(ben, "ready")  # everyone seated (Cleo sits out) is ready: the hand is dealt
    view = await ada.wait_for(lambda v: v["hand_id"] is not None)
    assert entry(view, 2)["sitting_out"] and not entry(view, 2).get("hands")
    await press(cleo, "sit_in")
    await cleo.wait_for(lambda v: not entry(v, 2)["sitting_out"])
    await balanced(server, database_url)
    for person in (ada, ben, cleo):
        await person.close()
