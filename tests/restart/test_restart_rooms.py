"""A room's switch is whole or not at all across SIGKILL, on the real server process
(docs/rules.md §0.15): one job writes the new table, the seats, the stacks moved through the
ledger, the old table's close and the room's move.

* The test holds the database's write lock (tests/storage/harness.py ``HeldWrites``) while the
  host switches: the switch's job waits for it; the server is killed meanwhile. After the
  restart the room is on the old game at the old table, every stack where it was.
* The switch is told (so its job is committed) and the server is killed at once: after the
  restart the room is on the new game at the new table, every stack moved.

In both, the audit balances and the stored ledger has no fault.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.client import Player
from tests.restart.server import ServerProcess
from tests.restart.test_restart_regressions import (  # noqa: F401
    again,
    balanced,
    restart,
    server,
)
from tests.storage.harness import HeldWrites
from tests.waiting import until

FRIENDS = {"start": "when_ready", "turn_seconds": 60}


def stacks(view: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {s["name"]: (s["seat"], s["stack"]) for s in view["seats"] if s.get("name")}


async def a_room(process: ServerProcess) -> tuple[str, str, list[Player]]:
    """Ada's room of Vingt-un; Ada (seat 4, 500 chips) and Ben (seat 1, 100) sit."""
    ada, ben = [await Player.join(process, name) for name in ("Ada", "Ben")]
    opened = await ada.http.post("/api/rooms", json={"game": "vingt-un", "options": FRIENDS})
    assert opened.status_code == 201, opened.text
    room_id, table_id = opened.json()["room_id"], opened.json()["table_id"]
    for person in (ada, ben):
        await person.connect(table_id)
    await ada.sit(500, seat=4)
    await ben.sit(100, seat=1)
    return room_id, table_id, [ada, ben]


async def writes_waiting(process: ServerProcess) -> bool:
    """The server's writer holds a job it cannot write yet (``/healthz``'s count)."""
    async with httpx.AsyncClient(base_url=process.base_url, timeout=30) as http:
        health = (await http.get("/healthz")).json()
    return int(health.get("writer_pending", 0)) > 0


async def test_a_switch_killed_before_its_commit_never_happened(
    server: ServerProcess,  # noqa: F811
    database_url: str,
) -> None:
    room_id, first, people = await a_room(server)
    ada = people[0]
    async with HeldWrites(database_url) as held:
        await ada.send({"type": "switch_game", "game": "greek-31", "options": FRIENDS})
        await until(lambda: writes_waiting(server), "the switch's job waiting for the database")
        server.stop("sigkill")
        await held.release()
    for person in people:
        await person.close()
    await server.start()
    ada, ben = [again(server, person) for person in people]
    room = (await ada.http.get(f"{server.base_url}/api/rooms/{room_id}")).json()
    assert room["table"]["table_id"] == first and room["table"]["game"] == "vingt-un"
    assert [t["table_id"] for t in room["tables"]] == [first]
    await ada.connect(first)
    assert stacks(ada.view or {}) == {"Ada": (4, 500), "Ben": (1, 100)}
    await balanced(server, database_url)
    # and the room switches once the server is back
    await ada.send({"type": "switch_game", "game": "greek-31", "options": FRIENDS})
    switched = await ada.next_of("room_switch", timeout=30)
    assert switched["game"] == "greek-31"
    await balanced(server, database_url)
    await ada.close()
    await ben.close()


async def test_a_switch_killed_after_its_commit_happened_whole(
    server: ServerProcess,  # noqa: F811
    database_url: str,
) -> None:
    room_id, first, people = await a_room(server)
    ada = people[0]
    await ada.send({"type": "switch_game", "game": "greek-31", "options": FRIENDS})
    switched = await ada.next_of("room_switch", timeout=30)
    second = switched["table_id"]
    ada, ben = await restart(server, "sigkill", people)
    room = (await ada.http.get(f"{server.base_url}/api/rooms/{room_id}")).json()
    assert room["table"]["table_id"] == second and room["table"]["game"] == "greek-31"
    assert [t["table_id"] for t in room["tables"]] == [first, second]
    assert (await ada.http.get(f"{server.base_url}/api/tables/{first}")).status_code == 404
    seen = len(ada.states)
    await ada.connect(second)
    assert stacks(ada.view or {}) == {"Ben": (0, 100), "Ada": (1, 500)}
    # the new table's story still begins with the switch (stored with the table by its job)
    story = ada.states[seen].get("story", [])
    assert [(e["kind"], e.get("from_game"), e.get("game")) for e in story] == [
        ("room_switch", "vingt-un", "greek-31")
    ]
    await balanced(server, database_url)
    await ada.close()
    await ben.close()
