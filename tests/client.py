"""A test client that speaks the public protocol over real HTTP and WebSocket connections."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from typing import Any

import httpx
import websockets

from app.games.core.actions import random_action
from tests.waiting import PATIENCE

ANSWER_PATIENCE = 30.0
"""Seconds a socket's next message may take by default: a deadline for a stuck run only (an
answer comes in milliseconds when the machine is idle, in seconds when every core is busy with
other work); a test that checks that nothing comes says how long it listens."""

_ids = itertools.count(1)


class Player:
    """One person: a REST session and (once connected) one table socket."""

    def __init__(self, base_url: str, ws_url: str, name: str, token: str, info: dict[str, Any]):
        self.base_url = base_url
        self.ws_url = ws_url
        self.name = name
        self.token = token
        self.info = info
        self.http = httpx.AsyncClient(
            base_url=base_url, headers={"authorization": f"Bearer {token}"}, timeout=30
        )
        self.ws: Any = None
        self.table_id: str | None = None
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.acks: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self.states: list[dict[str, Any]] = []
        self.notices: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def join(cls, server: Any, name: str, **extra: Any) -> Player:
        # 30 s: a deadline for a stuck server, which a passing test never waits for (httpx's
        # own 5 s ran out for a sign-up on a machine loaded by six workers and a browser)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
            response = await http.post("/api/session", json={"name": name, **extra})
            response.raise_for_status()
            info = response.json()
        return cls(server.base_url, server.ws_url, name, info["token"], info)

    @property
    def player_id(self) -> str:
        return str(self.info["player_id"])

    async def open_table(self, game: str, **options: Any) -> str:
        response = await self.http.post("/api/tables", json={"game": game, "options": options})
        response.raise_for_status()
        return str(response.json()["table_id"])

    async def connect(
        self, table_id: str, *, token: bool = True, invite: str | None = None
    ) -> None:
        self.table_id = table_id
        params = ([f"token={self.token}"] if token else []) + (
            [f"invite={invite}"] if invite else []
        )
        query = "?" + "&".join(params) if params else ""
        self.ws = await websockets.connect(f"{self.ws_url}/ws/tables/{table_id}{query}")
        self.inbox = asyncio.Queue()
        self._reader = asyncio.create_task(self._read(self.ws))
        await self.next_state()

    async def _read(self, ws: Any) -> None:
        """Read every message as it comes: the latest view is always current."""
        try:
            async for raw in ws:
                message: dict[str, Any] = json.loads(raw)
                if message["type"] == "state":
                    self.view = message["view"]
                    self.version = message["version"]
                    self.states.append(message)
                elif message["type"] == "ack":
                    self.acks.append(message["id"])
                elif message["type"] == "error":
                    self.errors.append(message)
                else:
                    self.notices.append(message)
                self.inbox.put_nowait(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.inbox.put_nowait(None)

    async def disconnect(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader

    async def close(self) -> None:
        await self.disconnect()
        await self.http.aclose()

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = ANSWER_PATIENCE) -> dict[str, Any]:
        """The next message not yet received (states have already updated ``view``)."""
        message = await asyncio.wait_for(self.inbox.get(), timeout)
        if message is None:
            self.inbox.put_nowait(None)
            raise ConnectionError(f"{self.name}: the socket closed")
        return message

    async def next_state(self, timeout: float = ANSWER_PATIENCE) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == "state":
                return message["view"]  # type: ignore[no-any-return]

    async def next_of(self, kind: str, timeout: float = ANSWER_PATIENCE) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def wait_for(self, predicate: Any, timeout: float = PATIENCE) -> dict[str, Any]:
        """Wait until ``predicate(view)`` holds for the latest view (the current one counts)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            if self.view is not None and predicate(self.view):
                return self.view
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{self.name}: condition not met; last view {self.view}")
            await asyncio.sleep(0.005)

    async def sit(self, buy_in: int, seat: int | None = None) -> dict[str, Any]:
        await self.send({"type": "sit", "seat": seat, "buy_in": buy_in})
        return await self.wait_for(lambda v: v["you"] is not None)

    async def act(
        self, action: dict[str, Any], *, msg_id: str | None = None, version: int | None = None
    ) -> dict[str, Any]:
        """Send an act and return the ack or the error for it."""
        msg_id = msg_id or f"{self.name}-{next(_ids)}"
        await self.send(
            {
                "type": "act",
                "id": msg_id,
                "version": self.version if version is None else version,
                "action": action,
            }
        )
        deadline = asyncio.get_running_loop().time() + 15
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no ack or error for {msg_id}")
            message = await self.receive(left)
            if message["type"] in ("ack", "error") and message.get("id") == msg_id:
                return message

    def random_legal(self, rng: random.Random) -> dict[str, Any] | None:
        if not self.view or not self.view["legal"]:
            return None
        return random_action(self.view["legal"], rng)


def hidden_card_leaks(view: dict[str, Any]) -> list[str]:
    """Face-down card codes in ``view`` outside the viewer's own seat (must be none).

    A card shows as ``{"card": "TH", "up": false}`` only to a player entitled to it; a
    spectator is entitled to none. Game-specific places (a dealer's own face-down cards in
    Greek 31) are the viewer's own seat too, so the check is: face-down codes only under
    the viewer's seat entry.
    """
    leaks: list[str] = []
    you = view.get("you")

    def walk(node: Any, own: bool) -> None:
        if isinstance(node, dict):
            face_down = node.get("up") is False and "card" in node and node["card"]
            if face_down and not own:
                leaks.append(node["card"])
            for value in node.values():
                walk(value, own)
        elif isinstance(node, list):
            for item in node:
                walk(item, own)

    for seat in view.get("seats", []):
        walk(seat, own=you is not None and seat.get("seat") == you)
    rest = {k: v for k, v in view.items() if k != "seats"}
    walk(rest, own=False)
    return leaks
