"""A table's shuffle seed fixed for tests (``POST /api/admin/tables/{id}/seed``): refused by any
server but a test one; on a test server every later shuffle of the table draws from a generator
seeded by it, and its bots choose from one seeded by it, so two tables seeded alike deal the same
cards, and two tables of bots seeded alike play the same hands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.waiting import until

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}
SEED = "5eed" * 16


async def seed(live: LiveServer, table_id: str, value: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        return await http.post(f"/api/admin/tables/{table_id}/seed", json={"seed": value})


@pytest.fixture
async def development(database_url: str) -> AsyncIterator[LiveServer]:
    """The real app as a development server (``ENVIRONMENT=development``)."""
    server = LiveServer(make_settings(database_url, environment="development"))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_refused_unless_the_server_is_a_test_one(development: LiveServer) -> None:
    ada = await Player.join(development, "Ada")
    table_id = await ada.open_table("trente-et-quarante")
    response = await seed(development, table_id, SEED)
    assert response.status_code == 403, response.text
    assert "ENVIRONMENT=test" in response.json()["detail"]
    await ada.close()


async def test_only_the_host_and_only_whole_bytes(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("trente-et-quarante")
    response = await ada.http.post(f"/api/admin/tables/{table_id}/seed", json={"seed": SEED})
    assert response.status_code == 403, response.text
    for bad in ("abc", "xyz0", "", "00" * 33, 12):
        assert (await seed(live, table_id, bad)).status_code == 422, bad  # type: ignore[arg-type]
    assert (await seed(live, "nosuchtable", SEED)).status_code == 404
    await ada.close()


async def coup(live: LiveServer, name: str, value: str) -> dict[str, Any]:
    """A Trente et Quarante table seeded with ``value`` before anyone sits: ``name`` stakes
    once; the coup's two rows of cards."""
    person = await Player.join(live, name)
    table_id = await person.open_table("trente-et-quarante", bet_seconds=1)
    assert (await seed(live, table_id, value)).status_code == 200
    await person.connect(table_id)
    await person.sit(100)
    await person.wait_for(lambda v: v["phase"] == "betting" and bool(v["legal"]))
    reply = await person.act({"kind": "stake", "chance": "rouge", "amount": 10})
    assert reply["type"] == "ack", reply
    view = await person.wait_for(lambda v: v["rows"] is not None)
    # the coup is stored, its shoe too (two tables seeded alike share a shuffle's commit)
    await live.services.writer.flush()
    hands = (await person.http.get(f"/api/tables/{table_id}/hands")).json()["hands"]
    assert len(hands) == 1, hands
    await person.close()
    return view["rows"]  # type: ignore[no-any-return]


async def test_two_tables_seeded_alike_deal_the_same_cards(live: LiveServer) -> None:
    first = await coup(live, "Ada", SEED)
    second = await coup(live, "Basil", SEED)
    other = await coup(live, "Clio", "00" * 32)
    assert first == second
    assert first != other  # (a one-in-billions chance of dealing the same two rows)
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        assert (await http.get("/api/admin/audit")).json()["balanced"] is True


async def bot_hands(live: LiveServer, name: str, value: str, count: int) -> list[Any]:
    """A Vingt-un table of three bots (their stakes are drawn at random), seated while the
    host has it paused, seeded with ``value``, then resumed: what each of its first ``count``
    hands did, seat by seat."""
    person = await Player.join(live, name)
    table_id = await person.open_table("vingt-un", min_bet=10, max_bet=100)
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        admin = f"/api/admin/tables/{table_id}"
        assert (await http.post(f"{admin}/pause", json={"reason": "seating"})).status_code == 200
        assert (await seed(live, table_id, value)).status_code == 200
        for _ in range(3):
            added = await person.http.post(f"/api/tables/{table_id}/bots", json={})
            assert added.status_code == 201, added.text
        assert (await http.post(f"{admin}/resume")).status_code == 200

        async def played() -> bool:
            table = (await http.get(f"/api/tables/{table_id}")).json()
            return bool(table["hands_played"] >= count)

        await until(played, f"{count} hands played")
        assert (await http.post(f"{admin}/pause", json={"reason": "done"})).status_code == 200
        await live.services.writer.flush()
        rows = (await http.get(f"/api/tables/{table_id}/hands")).json()["hands"]
        played = sorted(rows, key=lambda r: r["number"])[:count]
        assert len(played) == count, rows
        records = [(await http.get(f"/api/hands/{r['hand_id']}")).json() for r in played]
    await person.close()
    return [
        (
            [(a["seat"], a["action"], a["by"]) for a in r["actions"]],
            [(s["seat"], s["stack"]) for s in r["seats_after"]],
        )
        for r in records
    ]


async def test_two_tables_of_bots_seeded_alike_play_the_same_hands(live: LiveServer) -> None:
    first = await bot_hands(live, "Ada", SEED, 4)
    second = await bot_hands(live, "Basil", SEED, 4)
    assert first == second
    assert any(actions for actions, _ in first)  # the bots did play
