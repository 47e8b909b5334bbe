"""Per-table requests across real node processes: a host's or an opener's command sent to
the node that does not serve the table reaches the owner and takes effect there; a table
whose owner died answers 503 with Retry-After until another node adopts it; new tables are
placed on the least-loaded node; and one player's buy-ins at two tables served by two nodes
at once can never spend more than their bankroll (PostgreSQL checks it, through real sockets
on two nodes)."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from tests.client import Player
from tests.cluster.harness import Cluster
from tests.cluster.nodes_client import (
    Person,
    clusters_fixture,  # noqa: F401 (the fixture ``clusters``)
    host,
    ids,
    join,
    other,
    owner_of,
    until,
)

pytestmark = pytest.mark.cluster


async def open_at(person: Person, **body: Any) -> str:
    response = await person.post("/api/tables", json={"game": "vingt-un", **body})
    assert response.status_code == 201, response.text
    return str(response.json()["table_id"])


async def test_commands_at_the_other_node_reach_the_owner(clusters: Any) -> None:
    cluster: Cluster = clusters("t31_c_forward", 2, base_port=18320)
    await cluster.wait_healthy_async()
    ana = await join(cluster.node_url("n1"), "Ana")
    table_id = await open_at(ana)
    owner = await owner_of(cluster, table_id)
    elsewhere = other(cluster, owner)
    at_owner, the_host = host(cluster, owner), host(cluster, elsewhere)
    ana_elsewhere = Person(base_url=cluster.node_url(elsewhere), headers=ana.headers, timeout=20)

    async def at_the_owner() -> dict[str, Any]:
        response = await at_owner.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    paused = await the_host.post(f"/api/admin/tables/{table_id}/pause", json={"reason": "tea"})
    assert paused.status_code == 200, paused.text
    assert paused.headers["x-table31-served-by"] == owner
    assert paused.json()["paused"] and (await at_the_owner())["pause_reason"] == "tea"
    # the security headers of the answer are the owner's, once
    assert paused.headers.get_list("x-frame-options") == ["DENY"]

    bot = await the_host.post(f"/api/admin/tables/{table_id}/bots")
    assert bot.status_code == 201, bot.text
    mine = await ana_elsewhere.post(f"/api/tables/{table_id}/bots", json={})
    assert mine.status_code == 201, mine.text  # the opener's own command, forwarded too
    seats = (await at_the_owner())["seats"]
    assert len(seats) == 2 and all(s["bot"] for s in seats)
    stranger = await join(cluster.node_url(elsewhere), "Basil")
    refused = await stranger.post(f"/api/tables/{table_id}/bots", json={})
    assert refused.status_code == 403, refused.text  # the owner's answer, as it is

    resumed = await the_host.post(f"/api/admin/tables/{table_id}/resume")
    assert resumed.status_code == 200 and not (await at_the_owner())["paused"]
    page = await stranger.get(f"/tables/{table_id}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]

    closed = await the_host.post(f"/api/admin/tables/{table_id}/close", json={"reason": "bed"})
    assert closed.status_code == 200, closed.text
    assert (await at_owner.get(f"/api/tables/{table_id}")).status_code == 404
    # closed: any node answers it now (no owner to ask), as in single-process mode
    assert (await the_host.get(f"/api/tables/{table_id}")).status_code == 404
    hands = await the_host.get(f"/api/tables/{table_id}/hands")
    assert hands.status_code == 200 and "x-table31-served-by" not in hands.headers
    # each node's /metrics counts what it forwarded and served, and its bus
    sent, served = await metric_lines(the_host), await metric_lines(at_owner)
    assert count(sent, 'table31_forwarded_requests_total{outcome="sent"}') >= 7, sent
    assert count(served, 'table31_forwarded_requests_total{outcome="served"}') >= 7, served
    for lines in (sent, served):
        assert count(lines, "table31_bus_connected") == 1
        assert count(lines, 'table31_bus_messages_total{direction="out"}') >= 7
    for client in (ana, ana_elsewhere, at_owner, the_host, stranger):
        await client.aclose()


async def metric_lines(client: Person | Any) -> list[str]:
    response = await client.get("/metrics")
    assert response.status_code == 200
    return [line for line in response.text.splitlines() if line.startswith("table31_")]


def count(lines: list[str], name: str) -> float:
    found = [float(line.rsplit(" ", 1)[1]) for line in lines if line.rsplit(" ", 1)[0] == name]
    assert len(found) == 1, (name, lines)
    return found[0]


async def test_a_table_whose_owner_died_is_moving_then_served_again(clusters: Any) -> None:
    cluster: Cluster = clusters("t31_c_moving", 2, base_port=18330, env={"LEASE_SECONDS": "3"})
    await cluster.wait_healthy_async()
    ana = await join(cluster.node_url("n1"), "Ana")
    table_id = await open_at(ana)
    owner = await owner_of(cluster, table_id)
    survivor = other(cluster, owner)
    the_host = host(cluster, survivor)
    assert (await the_host.get(f"/api/tables/{table_id}")).status_code == 200
    cluster.kill(owner)

    answers: list[int] = []

    async def served_again() -> bool:
        response = await the_host.get(f"/api/tables/{table_id}")
        answers.append(response.status_code)
        if response.status_code == 503:
            assert int(response.headers["retry-after"]) >= 1
            assert "moving" in response.json()["detail"]
        return response.status_code == 200

    await until(served_again, 60, "served again after its owner died", pause=0.1)
    assert 503 in answers and set(answers) <= {200, 503}, answers
    # the survivor adopted it: it answers itself now
    response = await the_host.get(f"/api/tables/{table_id}")
    assert "x-table31-served-by" not in response.headers
    assert await owner_of(cluster, table_id) == survivor
    for client in (ana, the_host):
        await client.aclose()


async def test_new_tables_are_placed_on_the_least_loaded_node(clusters: Any) -> None:
    cluster: Cluster = clusters("t31_c_place", 2, base_port=18340)
    await cluster.wait_healthy_async()
    ana = await join(cluster.node_url("n1"), "Ana")
    first = await open_at(ana)
    second = await open_at(ana)
    assert {await owner_of(cluster, first), await owner_of(cluster, second)} == {"n1", "n2"}
    listing = (await ana.get("/api/tables")).json()
    assert {first, second} <= ids(listing)
    await ana.aclose()


async def test_buy_ins_at_two_nodes_never_spend_more_than_the_bankroll(clusters: Any) -> None:
    cluster: Cluster = clusters("t31_c_bankroll", 2, base_port=18350)
    await cluster.wait_healthy_async()
    opener = await join(cluster.node_url("n1"), "Opener")
    tables = [await open_at(opener), await open_at(opener)]
    owners = [await owner_of(cluster, t) for t in tables]
    assert sorted(owners) == ["n1", "n2"], owners  # one table on each node
    the_host = host(cluster, "n1")
    bankroll, buy_in = 900, 600  # two buy-ins would need 1200

    async def race(seat: int) -> tuple[list[bool], int]:
        name = f"Racer {seat}"
        person = await join(cluster.node_url("n1"), name)
        taken = await the_host.post(
            f"/api/admin/players/{person.player_id}/chips",
            json={"amount": bankroll - person.info["bankroll"], "reason": "the test's bankroll"},
        )
        assert taken.status_code == 200 and taken.json()["bankroll"] == bankroll, taken.text
        players = []
        for table_id, owner in zip(tables, owners, strict=True):
            url = cluster.node_url(owner)
            player = Player(url, url.replace("http", "ws"), name, person.info["token"], person.info)
            await player.connect(table_id)
            players.append(player)
        # a seat of their own at each table: the only thing the two sits race for is chips
        sit = {"type": "sit", "seat": seat, "buy_in": buy_in}
        await asyncio.gather(*(p.send(sit) for p in players))

        async def settled(p: Player) -> bool:
            return (p.view is not None and p.view["you"] is not None) or bool(p.errors)

        for p in players:
            await until(lambda p=p: settled(p), 60, f"{name}'s sit answered")  # type: ignore[misc]
        refusals = [e["code"] for p in players for e in p.errors]
        assert refusals in ([], ["insufficient_funds"]), refusals
        seated = [p.view is not None and p.view["you"] is not None for p in players]
        after = (await person.get("/api/me")).json()
        for p in players:
            await p.close()
        await person.aclose()
        return seated, int(after["bankroll"])

    outcomes = await asyncio.gather(*(race(seat) for seat in range(4)))
    for seated, left in outcomes:
        assert sorted(seated) == [False, True], outcomes  # exactly one buy-in refused
        assert left == bankroll - buy_in, outcomes
    url = make_url(cluster.database_url)
    conn = await asyncpg.connect(
        host=url.host, port=url.port or 5432, user=url.username, database=url.database
    )
    try:
        assert await conn.fetchval("SELECT min(balance) FROM accounts") >= 0
    finally:
        await conn.close()
    audit = (await the_host.get("/api/admin/audit")).json()
    assert audit["granted"] == audit["accounts_total"] and not audit["mismatched_accounts"]
    for client in (opener, the_host):
        await client.aclose()
