"""What helper C's cross-process tests share: players signed up over HTTP at one node, the
node that serves a table (the route endpoint nginx asks), waiting for a condition."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import httpx
import pytest

from tests.cluster.harness import Cluster, need_cluster

T = TypeVar("T")

REDIS_DB = 3
"""Helper C's Redis db (each cluster has its own key prefix in it too)."""


@pytest.fixture(name="clusters")
def clusters_fixture() -> Iterator[Callable[..., Cluster]]:
    """``clusters(name, nodes=2, *, base_port, **kwargs) -> Cluster``, set up (not waited
    for) on Redis db 3; skipped with the reason when nginx, PostgreSQL or Redis is missing;
    every cluster made is stopped after the test. (tests/cluster/harness.py's
    ``cluster_factory`` with this db.)"""
    made: list[Cluster] = []

    def make(name: str, nodes: int = 2, *, base_port: int, **kwargs: Any) -> Cluster:
        need_cluster()
        cluster = Cluster(name, nodes, base_port=base_port, redis_db=REDIS_DB, **kwargs)
        made.append(cluster)
        cluster.setup()
        return cluster

    yield make
    for cluster in made:
        cluster.stop()


class Person(httpx.AsyncClient):
    """A player's HTTP client at one node, sending their Bearer token."""

    info: dict[str, Any]
    """What ``POST /api/session`` answered (``player_id``, ``token``, …)."""

    @property
    def player_id(self) -> str:
        return str(self.info["player_id"])


async def join(base_url: str, name: str) -> Person:
    """A player signed up at ``base_url``."""
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
        response = await http.post("/api/session", json={"name": name})
        response.raise_for_status()
        info = response.json()
    client = Person(
        base_url=base_url, headers={"authorization": f"Bearer {info['token']}"}, timeout=20
    )
    client.info = info
    return client


def host(cluster: Cluster, node: str) -> httpx.AsyncClient:
    """The host (admin token) talking to ``node`` directly."""
    return httpx.AsyncClient(
        base_url=cluster.node_url(node),
        headers={"authorization": f"Bearer {cluster.admin_token}"},
        timeout=20,
    )


async def owner_of(cluster: Cluster, table_id: str) -> str:
    """The node whose lease serves ``table_id`` (asked at any node, as nginx asks)."""
    by_address = {cluster.node_address(n): n for n in cluster.node_ids}
    async with httpx.AsyncClient(timeout=10) as http:
        for node in cluster.node_ids:
            try:
                response = await http.get(
                    f"{cluster.node_url(node)}/api/cluster/route", params={"table": table_id}
                )
            except httpx.HTTPError:
                continue
            return by_address[response.headers["x-table31-node"]]
    raise AssertionError("no node answered")


def other(cluster: Cluster, node: str) -> str:
    return next(n for n in cluster.node_ids if n != node)


async def until(
    check: Callable[[], Awaitable[T]], timeout: float, what: str, pause: float = 0.05
) -> tuple[T, float]:
    """Poll ``check`` until it returns something truthy; (that, seconds it took)."""
    start = time.monotonic()
    while True:
        found = await check()
        if found:
            return found, time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(pause)


def ids(listing: list[dict[str, Any]]) -> set[str]:
    return {row["table_id"] for row in listing}
