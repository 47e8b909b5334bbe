"""SIGTERM of a node hands its tables over to the others at the end of their hands
(app/cluster/node.py, ``Node.hand_over``), on real processes behind nginx.

A Trianta Ena hand waits for Ben's bet (a 60 s clock) at the node being stopped, and tables of
bots play there and at the other node. SIGTERM: the tables of bots there are handed over at the
end of their hands while Ben's hand is neither void nor cut short — the table still waits for
Ben at the same node once they have moved —; Ben folds, the hand ends and is settled, no new
hand is dealt there, and the sockets close with 4409; asking the front again,
Ben is served by the other node, with a version above any the old node sent, and the table
deals on. No hand of any table is void; the books balance. Then the last node stops while
Ben's next hand waits for him: after the hand-over's budget that hand alone is void.

Every wait here is for a condition, with a deadline (``PATIENCE``) only for a stuck run: the
order of events is checked, never how long one took. The node's hand-over budget
(``HANDOVER_SECONDS``, a real process's clock) is the one time that matters: Ben folds as soon
as the tables of bots have moved, well within it.
"""

from __future__ import annotations

import signal
from collections.abc import Callable

import pytest

from app.cluster.node import HANDOVER_SECONDS
from tests.client import Player
from tests.cluster.harness import Cluster, cluster_factory  # noqa: F401 (a fixture)
from tests.cluster.node_steps import (
    BOTS_PLAY_ON,
    ENV,
    REDIS_DB,
    a_hand_waiting_for_ben,
    at,
    books_balance,
    chip_faults,
    closed_with,
    connect_until_served,
    fetch,
    front,
    hands_of,
    owner,
    until,
)

pytestmark = pytest.mark.cluster

PATIENCE = 60.0
"""Seconds after which a wait gives up: a deadline for a stuck run, never a measure."""


async def finished(cluster: Cluster, table_id: str) -> int:
    return sum(h["status"] == "finished" for h in await hands_of(cluster, table_id))


async def test_sigterm_hands_each_table_over_at_the_end_of_its_hand(
    cluster_factory: Callable[..., Cluster],  # noqa: F811
) -> None:
    cluster = cluster_factory("t31_b_handover", 2, base_port=18220, redis_db=REDIS_DB, env=ENV)
    await cluster.wait_healthy_async()
    table_id, banker, ben, hand_id = await a_hand_waiting_for_ben(cluster)
    stopping = await owner(cluster, table_id)
    assert stopping is not None
    staying = next(n for n in cluster.node_ids if n != stopping)
    # tables of bots, placed on the least loaded node: some on each; Trente et Quarante's
    # against the house (each with its reservation of the house's balance, given back and
    # taken again as the table moves)
    opener = await Player.join(front(cluster), "Opener")
    bot_tables = [await opener.open_table("trianta-ena", **BOTS_PLAY_ON)]
    bot_tables += [
        await opener.open_table(
            "trente-et-quarante", seats=2, min_stake=1, max_stake=5, bet_seconds=1, turn_seconds=1
        )
        for _ in range(2)
    ]
    for bots in bot_tables:
        for _ in range(2):
            response = await opener.http.post(f"/api/tables/{bots}/bots", json={})
            assert response.status_code == 201, response.text
    owners = {t: await owner(cluster, t) for t in bot_tables}
    assert stopping in owners.values() and staying in owners.values(), owners
    leaving = [t for t, node in owners.items() if node == stopping]

    async def in_play() -> bool:
        return any(h["id"] == hand_id for h in await hands_of(cluster, table_id))

    await until(in_play, PATIENCE, "the hand's row written")
    before = ben.version
    cluster.kill(stopping, signal.SIGTERM)

    # the tables of bots at the stopping node end their hands (their bots act at once) and
    # are handed over: the hand-over has begun, and each table went at the end of its own
    # hand, not at the end of the budget...
    async def bots_moved() -> bool:
        return all([await owner(cluster, t) == staying for t in leaving])

    await until(bots_moved, PATIENCE, "the tables of bots handed over")
    # ... while Ben's hand, not cut short, still waits for him at the same node (were the
    # tables only handed over once the budget was out, his hand would be void by now)
    hands = {h["id"]: h for h in await hands_of(cluster, table_id)}
    assert hands[hand_id]["status"] == "playing", hands
    assert ben.view is not None and ben.view["hand_id"] == hand_id and ben.view["legal"]
    assert await owner(cluster, table_id) == stopping
    assert (await ben.act({"kind": "fold"}))["type"] == "ack"
    assert await closed_with(ben, PATIENCE) == 4409
    assert await closed_with(banker, PATIENCE) == 4409
    assert cluster.wait_exit(stopping, PATIENCE) is not None, "the stopped node did not exit"

    ben = at(front(cluster), ben)
    await connect_until_served(ben, table_id, PATIENCE)
    assert await owner(cluster, table_id) == staying
    assert ben.version > before, (ben.version, before)
    view = await ben.wait_for(
        lambda v: v["hand_id"] not in (None, hand_id) and v["legal"], PATIENCE
    )
    assert view["hand_id"] != hand_id
    hands = {h["id"]: h for h in await hands_of(cluster, table_id)}
    assert hands[hand_id]["status"] == "finished", hands

    async def all_moved() -> bool:
        return all([await owner(cluster, t) == staying for t in bot_tables])

    await until(all_moved, PATIENCE, "every table served by the node that stays")
    settled = {t: await finished(cluster, t) for t in bot_tables}

    async def played_on() -> bool:
        return all([await finished(cluster, t) > settled[t] for t in bot_tables])

    await until(played_on, PATIENCE, "every table of bots plays on at the node that stays")
    void = await fetch(cluster.database_url, "SELECT id, table_id FROM hands WHERE status = 'void'")
    assert void == [], void
    await books_balance(cluster, staying)

    # the last node stops while Ben's new hand waits for him: once the budget is out that
    # hand is void (stakes back), as at a restart, and the node leaves
    waiting = view["hand_id"]
    cluster.kill(staying, signal.SIGTERM)
    assert await closed_with(ben, HANDOVER_SECONDS + PATIENCE) == 4409
    assert cluster.wait_exit(staying, PATIENCE) is not None
    hands = {h["id"]: h for h in await hands_of(cluster, table_id)}
    assert hands[waiting]["status"] == "void", hands
    void = await fetch(cluster.database_url, "SELECT id FROM hands WHERE status = 'void'")
    assert [row["id"] for row in void] == [waiting]
    assert await chip_faults(cluster.database_url) == []
    for person in (banker, ben, opener):
        await person.close()
