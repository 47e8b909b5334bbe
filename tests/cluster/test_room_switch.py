"""A room's switch in cluster mode, on real processes behind nginx (docs/protocol/socket.md
§5.12, docs/scaling.md): a room opened through the front, Ada (its host) and Ben seated; Ada
switches the game and both follow to the new table through the front. The switch's one
transaction wrote the new table's lease for the node that made it (epoch 1), so that node
serves the new table; the room's link and its REST view are answered by that node, whichever
node a request reaches; the chips balance.

Then that node is killed (SIGKILL): the other node adopts the new table as any table (its
lease, epoch 2), with the same seats and stacks, and the room with it: the room's link and
view name the table again, and Ada switches the game once more, at the node that adopted it.

Every wait is for a condition (tests/waiting.py), with a deadline only for a stuck run.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.client import Player
from tests.cluster.harness import Cluster, cluster_factory  # noqa: F401 (a fixture)
from tests.cluster.node_steps import (
    ENV,
    REDIS_DB,
    at,
    books_balance,
    closed_with,
    connect_until_served,
    fetch,
    front,
    owner,
)
from tests.cluster.settlement_checks import leases
from tests.waiting import until

pytestmark = pytest.mark.cluster

PATIENCE = 60.0
"""Seconds after which a wait gives up: a deadline for a stuck run, never a measure."""
FRIENDS = {"start": "when_ready"}
"""Nothing is dealt until everyone is ready: the test decides when a switch may happen."""


def seat_of(view: dict[str, Any], player_id: str) -> tuple[int, int] | None:
    """(seat, stack) of ``player_id`` in ``view``, or None (not seated)."""
    seat = next((s for s in view["seats"] if s.get("player_id") == player_id), None)
    return None if seat is None else (int(seat["seat"]), int(seat["stack"]))


async def switch(ada: Player, ben: Player, game: str) -> str:
    """Ada switches the room's game: both are told ``room_switch`` and their sockets close
    with 4301. The new table's id."""
    await ada.send({"type": "switch_game", "game": game, "options": dict(FRIENDS)})
    told = [await person.next_of("room_switch", PATIENCE) for person in (ada, ben)]
    assert told[0] == told[1] and told[0]["game"] == game, told
    for person in (ada, ben):
        assert await closed_with(person, PATIENCE) == 4301
    return str(told[0]["table_id"])


async def follow(people: list[Player], table_id: str) -> None:
    """Each opens the new table's socket through the front, as the room's page does."""
    for person in people:
        await connect_until_served(person, table_id, PATIENCE)


async def the_room(cluster: Cluster, room_id: str, table_id: str, at_node: str | None) -> None:
    """The room's view (``GET /api/rooms/{id}``) names ``table_id``, with Ada and Ben seated,
    and its link (``/rooms/{id}``) is the page of that table: asked through the front, or at
    ``at_node`` straight (a node that may not serve it: the request is forwarded)."""
    base = cluster.url if at_node is None else cluster.node_url(at_node)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        view = await http.get(f"/api/rooms/{room_id}")
        assert view.status_code == 200, view.text
        room = view.json()
        assert room["table"] is not None and room["table"]["table_id"] == table_id, room
        assert {m["name"] for m in room["members"] if m["seat"] is not None} == {"Ada", "Ben"}
        page = await http.get(f"/rooms/{room_id}")
        assert page.status_code == 200, page.text
        assert table_id in page.text


async def bankrolls(people: list[Player]) -> dict[str, int]:
    return {p.name: int((await p.http.get("/api/me")).json()["bankroll"]) for p in people}


async def test_a_rooms_switch_is_served_by_its_node_and_survives_its_death(
    cluster_factory: Callable[..., Cluster],  # noqa: F811
) -> None:
    cluster = cluster_factory("t31_b_room_switch", 2, base_port=18250, redis_db=REDIS_DB, env=ENV)
    await cluster.wait_healthy_async()
    ada, ben = [await Player.join(front(cluster), name) for name in ("Ada", "Ben")]
    opened = await ada.http.post(
        "/api/rooms", json={"game": "vingt-un", "options": dict(FRIENDS), "name": "Friday"}
    )
    assert opened.status_code == 201, opened.text
    room_id, first = opened.json()["room_id"], opened.json()["table_id"]
    await follow([ada, ben], first)
    await ada.sit(500, seat=4)
    await ben.sit(100, seat=1)
    before = await bankrolls([ada, ben])
    hosting = await owner(cluster, first)
    assert hosting is not None
    other = next(n for n in cluster.node_ids if n != hosting)
    await the_room(cluster, room_id, first, other)

    # the switch: made by the node serving the room's table, which serves the new one under
    # the lease the switch's transaction wrote
    second = await switch(ada, ben, "greek-31")
    assert second != first
    held = await leases(cluster.database_url)
    assert held[second] == (hosting, 1), held
    assert await owner(cluster, second) == hosting
    await follow([ada, ben], second)
    assert ada.view is not None and ada.view["game"] == "greek-31"
    assert seat_of(ada.view, ben.player_id) == (0, 100)
    assert seat_of(ada.view, ada.player_id) == (1, 500)
    for node in (None, hosting, other):
        await the_room(cluster, room_id, second, node)
    assert await bankrolls([ada, ben]) == before
    await books_balance(cluster, other)

    # the node serving the new table dies: the other adopts it as any table, and the room
    cluster.kill(hosting, signal.SIGKILL)
    for person in (ada, ben):
        await person.close()
    ada, ben = at(front(cluster), ada), at(front(cluster), ben)

    async def adopted() -> bool:
        return await owner(cluster, second) == other

    await until(adopted, f"table {second} adopted by {other}", PATIENCE)
    assert (await leases(cluster.database_url))[second] == (other, 2)
    await follow([ada, ben], second)
    assert ada.view is not None and ada.view["game"] == "greek-31"
    assert seat_of(ada.view, ben.player_id) == (0, 100)
    assert seat_of(ada.view, ada.player_id) == (1, 500)
    await the_room(cluster, room_id, second, None)
    await the_room(cluster, room_id, second, other)

    # ... and its switch: at the node that adopted the table, which serves the next one
    third = await switch(ada, ben, "vingt-un")
    assert (await leases(cluster.database_url))[third] == (other, 1)
    await follow([ada, ben], third)
    assert ada.view is not None and ada.view["game"] == "vingt-un"
    assert seat_of(ada.view, ben.player_id) == (0, 100)
    assert seat_of(ada.view, ada.player_id) == (1, 500)
    await the_room(cluster, room_id, third, None)
    rows = await fetch(
        cluster.database_url,
        "SELECT id, status FROM tables WHERE room_id = $1 ORDER BY created_at, id",
        room_id,
    )
    assert [(r["id"], r["status"]) for r in rows] == [
        (first, "closed"),
        (second, "closed"),
        (third, "open"),
    ]
    assert await bankrolls([ada, ben]) == before
    await books_balance(cluster, other)
    for person in (ada, ben):
        await person.close()
