"""A swarm of rules-blind people playing many tables through the cluster's front (nginx).

Each person knows no game: it acts from its view's ``legal`` alone (docs/protocol/view.md
§6.5), as tests/api/test_rules_blind.py does, and now and then sends an act that cannot fit,
which must be refused. It keeps playing while nodes die under it, as
docs/protocol/socket.md §5.7 tells a client to: on a close (4409 "served by another node: ask
again", 1001, 1006, 1011, 1012), a refused connection or a handshake the front answers 502/503,
it connects again through the front after a short back-off; the act it had in flight is sent
again with the SAME id when the new view still offers it in the same hand, else dropped.

It records what the checks need: every state's version and the moment it came, per
connection; every ack; every refusal by its code; every close code and failed attempt; and
``anomalies``, the things no client should ever see (an act that cannot fit acknowledged, a
version going back on one connection, a face-down card of another seat, 4404 for a table
that is open, an act never answered). Each person speaks from a loopback address of its own
(127.0.0.x), so the server's limit of sockets per address sees people, not the test.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from app.games.core.actions import action_fits, random_action
from tests.api.test_rules_blind import illegal_variant
from tests.client import hidden_card_leaks

EPOCH = 1_000_000_000
"""An owner's versions start at ``epoch * EPOCH`` (docs/protocol/socket.md §5.4): ``version //
EPOCH`` is the epoch of the lease the state was made under."""
ILLEGAL_SHARE = 0.05
"""The share of acts sent that cannot fit ``legal`` (each must be refused)."""
LEAK_SAMPLE = 5
"""One state in this many is searched for another seat's face-down card (the walk costs CPU
the nodes need on a small machine)."""
ANSWER_BOUND = 60.0
"""Seconds after which an act still unanswered on a live connection counts as never answered:
a deadline for a lost answer, never a measure (at 10 s, a swarm sharing two cores with the
browser tests' pass counted slow answers as lost)."""
_sources = itertools.count(0)


def loopback_source() -> str:
    """The next loopback address for a person to speak from (127.0.0.10 to 127.0.0.249)."""
    return f"127.0.0.{10 + next(_sources) % 240}"


@dataclass
class Connection:
    """One socket to the table: the versions of the states it got, and how it ended."""

    opened_at: float
    states: list[tuple[float, int]] = field(default_factory=list)
    seated_at_end: bool = False
    close_code: int | None = None
    close_reason: str = ""


@dataclass
class InFlight:
    """An act sent and not answered yet."""

    id: str
    version: int
    action: dict[str, Any]
    hand_id: str | None
    sent_at: float
    illegal: bool


@dataclass
class Front:
    """Where the swarm speaks: the front's HTTP and WebSocket base URLs, the host's token."""

    base_url: str
    ws_url: str
    admin_token: str

    def client(self, source: str | None = None, token: str | None = None) -> httpx.AsyncClient:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        transport = httpx.AsyncHTTPTransport(local_address=source) if source else None
        return httpx.AsyncClient(
            base_url=self.base_url, headers=headers, timeout=15, transport=transport
        )

    async def host(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The host's call through the front, tried again while the table is moving (503)."""
        async with self.client(token=self.admin_token) as http:
            for _ in range(40):
                response = await http.request(method, path, **kwargs)
                if response.status_code not in (502, 503, 504):
                    return response
                await asyncio.sleep(0.25)
            return response


class SwarmPlayer:
    """One person at one table: plays from ``legal`` until told to stop, across every drop."""

    def __init__(
        self, front: Front, name: str, token: str, player_id: str, table_id: str, seed: int
    ) -> None:
        self.front = front
        self.name = name
        self.token = token
        self.player_id = player_id
        self.table_id = table_id
        self.source = loopback_source()
        self.rng = random.Random(seed)
        self.connections: list[Connection] = []
        self.acks: list[str] = []
        self.refusals: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.anomalies: list[str] = []
        self.sent = self.resent = self.dropped = 0
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.pending: InFlight | None = None
        self._ids = itertools.count(1)
        self._act_at: float | None = None
        self._retry_at = 0.0
        self._states_seen = 0
        self.broke = False

    # ------------------------------------------------------------------ the connection loop

    async def play(self, stop: asyncio.Event) -> None:
        """Connect through the front, play, and connect again after every drop, until ``stop``."""
        failures = gone = 0
        url = f"{self.front.ws_url}/ws/tables/{self.table_id}?token={self.token}"
        while not stop.is_set():
            try:
                ws = await connect(
                    url,
                    open_timeout=3,
                    ping_interval=1.0,  # a node cut off answers nothing: notice in ~3 s
                    ping_timeout=2.0,
                    close_timeout=1,
                    compression=None,
                    proxy=None,
                    max_size=2**22,
                    local_addr=(self.source, 0),
                )
            except InvalidStatus as exc:
                self.failures[f"http {exc.response.status_code}"] += 1
            except (OSError, TimeoutError, InvalidHandshake) as exc:
                self.failures[type(exc).__name__] += 1
            else:
                code = await self._connected(ws, stop)
                failures = 0 if code != 4409 else failures
                if code == 4404:
                    gone += 1
                    self.anomalies.append(f"{self.name}: 4404 for open table {self.table_id}")
                    if gone >= 5:
                        return
                if code == 4409 or stop.is_set():
                    await asyncio.sleep(0.25 + self.rng.uniform(0, 0.25))
                    continue
            failures += 1
            await asyncio.sleep(min(1.0, 0.05 * 2**failures) * self.rng.uniform(0.5, 1.5))

    async def _connected(self, ws: ClientConnection, stop: asyncio.Event) -> int | None:
        conn = Connection(opened_at=time.monotonic())
        self.connections.append(conn)
        try:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 0.2)
                except TimeoutError:
                    raw = None
                if raw is not None:
                    await self._take(ws, json.loads(raw), conn)
                await self._decide(ws)
            await ws.close()
            conn.close_code = 1000
        except ConnectionClosed as exc:
            conn.close_code = exc.rcvd.code if exc.rcvd else 1006
            conn.close_reason = exc.rcvd.reason if exc.rcvd else ""
            self.failures[f"closed {conn.close_code}"] += 1
            if conn.close_code == 1008:  # each person speaks from an address of its own
                self.anomalies.append(f"{self.name}: closed 1008 {conn.close_reason!r}")
        view = self.view
        conn.seated_at_end = bool(view and view["you"] is not None)
        self._act_at = None
        return conn.close_code

    # ------------------------------------------------------------------ what comes in

    async def _take(self, ws: ClientConnection, message: dict[str, Any], conn: Connection) -> None:
        kind = message["type"]
        if kind == "state":
            version, view = int(message["version"]), message["view"]
            if conn.states and version < conn.states[-1][1]:
                self.anomalies.append(
                    f"{self.name}: version {version} after {conn.states[-1][1]} on one socket"
                )
            first = not conn.states
            conn.states.append((time.monotonic(), version))
            self.view, self.version = view, version
            self._states_seen += 1
            if self._states_seen % LEAK_SAMPLE == 0 and hidden_card_leaks(view):
                self.anomalies.append(f"{self.name}: face-down cards {hidden_card_leaks(view)}")
            if view["legal"] and self._act_at is None:
                self._act_at = time.monotonic() + self.rng.uniform(0.05, 0.3)
            elif not view["legal"]:
                self._act_at = None
            if first and self.pending is not None:
                await self._after_reconnect(ws, view)
        elif kind == "ack":
            self.acks.append(message["id"])
            pending = self.pending
            if pending is not None and message["id"] == pending.id:
                if pending.illegal:
                    self.anomalies.append(f"{self.name}: {pending.action} acknowledged")
                self.pending = None
        elif kind == "error":
            code = message.get("code", "?")
            pending = self.pending
            if pending is not None and message.get("id") == pending.id:
                self.pending = None
                self.refusals["illegal refused" if pending.illegal else code] += 1
                if self.view and self.view["legal"]:
                    # an error comes alone (nothing changed, no state follows): act again on
                    # the view there is, or a window that waits for a first act waits forever
                    self._act_at = time.monotonic() + self.rng.uniform(0.05, 0.3)
                if not pending.illegal and code not in (
                    "stale_version",
                    "not_your_turn",
                    "illegal_action",
                ):
                    self.anomalies.append(f"{self.name}: legal act refused {message}")
            else:
                self.refusals[f"unasked {code}"] += 1
                if code == "insufficient_funds":
                    self.broke = True

    async def _after_reconnect(self, ws: ClientConnection, view: dict[str, Any]) -> None:
        """The act in flight at the drop: sent again with its id when the same hand still
        offers it (docs/protocol/socket.md §5.7, step 4), else given up."""
        pending = self.pending
        assert pending is not None
        if (
            not pending.illegal
            and view["hand_id"] == pending.hand_id
            and action_fits(pending.action, view["legal"])
        ):
            await self._send_act(ws, pending)
            self.resent += 1
        else:
            self.pending = None
            self.dropped += 1

    # ------------------------------------------------------------------ what goes out

    async def _decide(self, ws: ClientConnection) -> None:
        view, now = self.view, time.monotonic()
        if view is None:
            return
        pending = self.pending
        if pending is not None:
            if now - pending.sent_at > ANSWER_BOUND:
                self.anomalies.append(f"{self.name}: no answer to {pending.id} in {ANSWER_BOUND}s")
                self.pending = None
                await ws.send(json.dumps({"type": "resync"}))
            return
        if view["you"] is None:
            if not self.broke and now >= self._retry_at and view["table"]["status"] == "open":
                self._retry_at = now + 2
                low, high = view["table"]["buy_in"]["min"], view["table"]["buy_in"]["max"]
                buy_in = max(low, min(high, 500)) if low <= 500 else low
                await ws.send(json.dumps({"type": "sit", "seat": None, "buy_in": buy_in}))
            return
        if view["legal"]:
            if self._act_at is not None and now >= self._act_at:
                self._act_at = None
                await self._act(ws, view)
            return
        if own_stack(view) == 0 and now >= self._retry_at:
            # broke: more chips as a person would bring them (a top-up, else stand and sit)
            self._retry_at = now + 2
            table = view["table"]
            if table["can_top_up"]:
                amount = min(table["buy_in"]["min"], table.get("top_up_max") or 0)
                if amount > 0:
                    await ws.send(json.dumps({"type": "top_up", "amount": amount}))
                    return
            await ws.send(json.dumps({"type": "leave"}))

    async def _act(self, ws: ClientConnection, view: dict[str, Any]) -> None:
        legal = view["legal"]
        action = random_action(legal, self.rng)
        illegal = self.rng.random() < ILLEGAL_SHARE
        if illegal:
            action = illegal_variant(action, legal, self.rng)
        act = InFlight(
            id=f"{self.name}-{next(self._ids)}",
            version=self.version,
            action=action,
            hand_id=view["hand_id"],
            sent_at=time.monotonic(),
            illegal=illegal,
        )
        self.pending = act
        self.sent += 1
        await self._send_act(ws, act)

    async def _send_act(self, ws: ClientConnection, act: InFlight) -> None:
        act.sent_at = time.monotonic()
        message = {"type": "act", "id": act.id, "version": act.version, "action": act.action}
        await ws.send(json.dumps(message))

    # ------------------------------------------------------------------ what it saw

    def reconnect_faults(self) -> list[str]:
        """Every reconnection whose first state is not above the last version seen before it.

        A seated person's drop and return each move the table's version (the seat's
        ``connected`` flag), and a new owner's versions start at its epoch, so for a seated
        person the first state after a reconnection is strictly above; a spectator's arrival
        changes nothing, so for one not seated it may repeat the last version."""
        faults = []
        seen = [c for c in self.connections if c.states]
        for before, after in itertools.pairwise(seen):
            last, first = before.states[-1][1], after.states[0][1]
            if first < last or (first == last and before.seated_at_end):
                faults.append(
                    f"{self.name} at {self.table_id}: first version {first} after a reconnection"
                    f" (closed {before.close_code}), last seen before {last}"
                )
        return faults


def own_stack(view: dict[str, Any]) -> int | None:
    return next((s.get("stack") for s in view["seats"] if s["seat"] == view["you"]), None)


async def join(front: Front, name: str) -> tuple[str, str]:
    """Sign a person up through the front: (token, player id)."""
    async with front.client(loopback_source()) as http:
        for _ in range(20):
            response = await http.post("/api/session", json={"name": name})
            if response.status_code not in (502, 503, 504):
                break
            await asyncio.sleep(0.25)
        response.raise_for_status()
        info = response.json()
    return str(info["token"]), str(info["player_id"])
