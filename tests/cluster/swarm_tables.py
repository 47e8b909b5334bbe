"""The swarm: many tables of every game, each opened through the cluster's front by one of
its rules-blind people (tests/cluster/swarm.py) with bots beside them, played until told to
stop; and what the swarm saw, gathered per table for the checks of tests/cluster/test_swarm.py.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.cluster.swarm import EPOCH, Front, SwarmPlayer, join, loopback_source


@dataclass
class SwarmTable:
    table_id: str
    game: str
    players: list[SwarmPlayer]


class Swarm:
    """Many tables, each opened through the front by one of its people, with bots beside
    them; every person plays in a task of its own until :meth:`stop`."""

    def __init__(self, front: Front, tag: str, seed: int = 31) -> None:
        self.front = front
        self.tag = tag
        self.seed = seed
        self.tables: list[SwarmTable] = []
        self.stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def players(self) -> list[SwarmPlayer]:
        return [p for t in self.tables for p in t.players]

    async def open(
        self, game: str, options: dict[str, Any], *, people: int, bots: int
    ) -> SwarmTable:
        """Open a table of ``game`` through the front as its first person; seat ``bots`` bots
        (the host's call, forwarded to the owner); ``people`` swarm players sit on arrival."""
        index = len(self.tables)
        self.tables.append(SwarmTable("", game, []))  # its place, while others open
        names = [f"{self.tag}{index}{chr(97 + i)}" for i in range(people)]
        joined = [await join(self.front, name) for name in names]
        async with self.front.client(loopback_source(), joined[0][0]) as http:
            for _ in range(40):
                response = await http.post("/api/tables", json={"game": game, "options": options})
                if response.status_code not in (502, 503, 504):
                    break
                await asyncio.sleep(0.25)
            assert response.status_code == 201, (game, response.status_code, response.text)
            table_id = str(response.json()["table_id"])
        for _ in range(bots):
            reply = await self.front.host("POST", f"/api/admin/tables/{table_id}/bots")
            assert reply.status_code == 201, (table_id, reply.status_code, reply.text)
        players = [
            SwarmPlayer(self.front, name, token, pid, table_id, self.seed * 1000 + index * 10 + i)
            for i, (name, (token, pid)) in enumerate(zip(names, joined, strict=True))
        ]
        self.tables[index] = SwarmTable(table_id, game, players)
        return self.tables[index]

    def start(self) -> None:
        for player in self.players:
            self._tasks.append(asyncio.create_task(player.play(self.stopping)))

    async def stop(self) -> None:
        self.stopping.set()
        await asyncio.wait_for(asyncio.gather(*self._tasks), 30)

    def served_at(self, table_id: str, above_epoch: int, after: float) -> float | None:
        """When a person at ``table_id`` first got a state made under an epoch above
        ``above_epoch`` (a new owner's), at ``after`` or later (monotonic)."""
        times = [
            at
            for t in self.tables
            if t.table_id == table_id
            for p in t.players
            for c in p.connections
            for at, version in c.states
            if at >= after and version // EPOCH > above_epoch
        ]
        return min(times, default=None)

    def last_served_at(self, table_id: str, epoch: int, after: float) -> float | None:
        """When a person at ``table_id`` last got a state made under ``epoch`` or an earlier
        one (the old owner's), at ``after`` or later (monotonic)."""
        times = [
            at
            for t in self.tables
            if t.table_id == table_id
            for p in t.players
            for c in p.connections
            for at, version in c.states
            if at >= after and version // EPOCH <= epoch
        ]
        return max(times, default=None)

    def anomalies(self) -> list[str]:
        return [a for p in self.players for a in p.anomalies]

    def reconnect_faults(self) -> list[str]:
        return [f for p in self.players for f in p.reconnect_faults()]

    def figures(self) -> dict[str, Any]:
        """What the swarm did, in numbers (for the test's message and the report)."""
        players = self.players
        failures: Counter[str] = Counter()
        refusals: Counter[str] = Counter()
        for p in players:
            failures.update(p.failures)
            refusals.update(p.refusals)
        by_game: Counter[str] = Counter()
        for t in self.tables:
            by_game[t.game] += sum(len(p.acks) for p in t.players)
        return {
            "tables": len(self.tables),
            "people": len(players),
            "acts": sum(p.sent for p in players),
            "acks": sum(len(p.acks) for p in players),
            "states": sum(len(c.states) for p in players for c in p.connections),
            "connections": sum(len(p.connections) for p in players),
            "resent": sum(p.resent for p in players),
            "dropped": sum(p.dropped for p in players),
            "acks by game": dict(by_game),
            "refusals": dict(refusals),
            "failures": dict(failures),
        }


async def served_again(
    front: Front, table_id: str, above_epoch: int, since: float, bound: float
) -> tuple[float | None, Counter[str]]:
    """Seconds from ``since`` (monotonic) until a spectator's socket through the front gets a
    state of ``table_id`` made under an epoch above ``above_epoch`` (from its new owner),
    asking again every 100 ms; None if not within ``bound``. With what each try met."""
    met: Counter[str] = Counter()
    url = f"{front.ws_url}/ws/tables/{table_id}"
    source = loopback_source()
    while time.monotonic() - since < bound:
        try:
            async with connect(
                url,
                open_timeout=2,
                close_timeout=0.5,
                compression=None,
                proxy=None,
                local_addr=(source, 0),
            ) as ws:
                message = json.loads(await asyncio.wait_for(ws.recv(), 2))
                if message["type"] == "state" and message["version"] // EPOCH > above_epoch:
                    return time.monotonic() - since, met
                met[message.get("code") or f"state of epoch {message['version'] // EPOCH}"] += 1
        except ConnectionClosed as exc:
            met[f"closed {exc.rcvd.code if exc.rcvd else 1006}"] += 1
        except InvalidStatus as exc:
            met[f"http {exc.response.status_code}"] += 1
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            met[type(exc).__name__] += 1
        await asyncio.sleep(0.1)
    return None, met


async def first_version(front: Front, table_id: str) -> int | None:
    """The version of the first state a spectator's socket through the front gets (None if
    it gets none in 3 s: refused, closed, or asked to ask again)."""
    url = f"{front.ws_url}/ws/tables/{table_id}"
    try:
        async with connect(
            url,
            open_timeout=3,
            close_timeout=0.5,
            compression=None,
            proxy=None,
            local_addr=(loopback_source(), 0),
        ) as ws:
            message = json.loads(await asyncio.wait_for(ws.recv(), 3))
    except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
        return None
    return int(message["version"]) if message["type"] == "state" else None
