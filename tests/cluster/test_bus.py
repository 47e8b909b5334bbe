"""The bus against a real Redis: messages reach the other node (not the sender), and a
connection killed under it (CLIENT KILL) is made again, with the resync hooks run again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.cluster.bus import Bus
from tests.cluster.redis_util import drop_prefix, fresh_prefix, need_redis


async def until(check: Any, timeout: float = 30.0) -> None:
    """Wait for ``check`` to hold; the deadline is for a stuck run only, never a measure."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


@pytest.fixture
async def buses() -> AsyncIterator[tuple[Bus, Bus]]:
    url = need_redis()
    prefix = fresh_prefix()
    one, two = Bus(url, prefix, "c-one"), Bus(url, prefix, "c-two")
    for bus in (one, two):
        await bus.start()
        assert await bus.wait_connected(30), "the bus never subscribed"
    try:
        yield one, two
    finally:
        await one.stop()
        await two.stop()
        await drop_prefix(url, prefix)


async def test_messages_reach_the_other_node_not_the_sender(buses: tuple[Bus, Bus]) -> None:
    one, two = buses
    heard: dict[str, list[dict[str, Any]]] = {"one": [], "two": []}
    one.on("lobby", heard["one"].append)
    two.on("lobby", heard["two"].append)
    two_own: list[dict[str, Any]] = []
    two.on("node", two_own.append)

    assert await one.publish("lobby", {"kind": "hello"}) == 2  # both subscribed
    assert await one.send_to("c-two", {"kind": "just you"}) == 1
    assert await one.send_to("c-nobody", {"kind": "lost"}) == 0
    await until(lambda: heard["two"] and two_own)
    assert heard["two"] == [{"kind": "hello", "from": "c-one"}]
    assert two_own == [{"kind": "just you", "from": "c-one"}]
    # a message on the same channel after its own: Redis delivers a channel's messages in
    # the order they were published, so once it has heard this one it would have heard its
    # own before it
    assert await two.publish("lobby", {"kind": "after"}) == 2
    await until(lambda: heard["one"])
    assert heard["one"] == [{"kind": "after", "from": "c-two"}]  # not its own message
    await until(lambda: two.received == 2 and one.received == 1)
    assert one.sent == 3 and two.sent == 1


async def test_a_killed_connection_is_made_again_and_resynced(buses: tuple[Bus, Bus]) -> None:
    one, two = buses
    resyncs: list[int] = []

    async def resync() -> None:
        resyncs.append(two.connects)

    two.on_resync(resync)
    heard: list[dict[str, Any]] = []
    two.on("house", heard.append)
    # the hook was added after the first subscription: the next one is the reconnection
    killer = aioredis.Redis.from_url(two.url)
    try:
        clients = await killer.client_list()
        ids = [c["id"] for c in clients if c.get("name") == "table31-c-two-bus"]
        assert len(ids) == 1, clients
        await killer.execute_command("CLIENT", "KILL", "ID", ids[0])
    finally:
        await killer.aclose()
    await until(lambda: resyncs)
    assert resyncs == [2]  # the second subscription ran the hook
    assert two.connected
    await one.publish("house", {"kind": "funded"})
    await until(lambda: heard)
    assert heard[0]["kind"] == "funded"
