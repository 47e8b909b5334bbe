"""The pages' socket client (static/js/socket.js) on close code 4409, "served by another node"
(docs/protocol/cluster.md §14.3): it connects again soon (~250 ms, with jitter), the pause
doubling while the same answer comes back (at most 2 s before jitter) and starting again from
~250 ms once a node has served it a message; never final; not the back-off of a failure.

The real socket.js runs in Node (its WebSocket, ``--experimental-websocket`` on Node 20),
against a real server of the test's own whose every connection does what the test says.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

ROOT = Path(__file__).resolve().parents[2]
PORT = 18450

DRIVER = """
globalThis.window = { addEventListener() {} };
globalThis.document = { addEventListener() {}, hidden: false };
globalThis.location = { protocol: "http:", host: "127.0.0.1:%(port)d" };
const { TableSocket } = await import("./socket.mjs");
const say = (what) => console.log(JSON.stringify(what));
const socket = new TableSocket("t-moving", {
  onMessage: (message) => say({ message }),
  onStatus: (status, detail, code) => say({ status, detail: detail ?? null, code: code ?? null }),
});
socket.connect();
"""


def node_with_websocket() -> list[str] | None:
    """The command that runs Node with a global WebSocket, or None."""
    node = shutil.which("node")
    if not node:
        return None
    return [node, "--experimental-websocket", "--no-warnings"]


class Script:
    """A server whose n-th connection does ``steps[n]``: ``"4409"`` accept and close with
    4409 saying nothing; ``"serve"`` accept, send one state, then close with 4409."""

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps
        self.accepted: list[float] = []
        self.closed: list[float] = []
        self.release = asyncio.Event()
        app = Starlette(routes=[WebSocketRoute("/ws/tables/{table_id}", self.socket)])
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=PORT, log_level="warning")
        )

    async def socket(self, websocket: WebSocket) -> None:
        step = self.steps[len(self.accepted)] if len(self.accepted) < len(self.steps) else "hold"
        await websocket.accept()
        self.accepted.append(time.time() * 1000)
        if step == "hold":
            await websocket.send_json({"type": "state", "version": 7})
            await self.release.wait()
            return
        if step == "serve":
            await websocket.send_json({"type": "state", "version": 1})
            await asyncio.sleep(0.1)
        self.closed.append(time.time() * 1000)
        await websocket.close(4409, "this table is served by another node; ask again")


async def test_4409_connects_again_soon_without_the_back_off(tmp_path: Path) -> None:
    command = node_with_websocket()
    if command is None:
        pytest.skip("Node is not installed: the page's socket client cannot run")
    (tmp_path / "socket.mjs").write_text((ROOT / "static/js/socket.js").read_text())
    (tmp_path / "driver.mjs").write_text(DRIVER % {"port": PORT})
    script = Script(["4409", "4409", "4409", "4409", "serve", "4409"])
    task = asyncio.create_task(script.server.serve())
    while not script.server.started:
        await asyncio.sleep(0.01)
    node = await asyncio.create_subprocess_exec(
        *command,
        "driver.mjs",
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    events: list[dict[str, Any]] = []

    async def read() -> None:
        assert node.stdout is not None
        async for line in node.stdout:
            if line.startswith(b"{"):
                events.append(json.loads(line))

    reader = asyncio.create_task(read())
    try:
        deadline = time.monotonic() + 20
        while not any(e.get("message", {}).get("version") == 7 for e in events):
            assert time.monotonic() < deadline, f"connections: {len(script.accepted)}, {events}"
            await asyncio.sleep(0.05)
    finally:
        node.kill()
        await node.wait()
        await reader
        script.release.set()
        script.server.should_exit = True
        await asyncio.wait_for(task, 10)
    assert len(script.accepted) == 7
    # the pause before each new connection, from the close that asked for it
    pairs = zip(script.closed, script.accepted[1:], strict=True)
    pauses = [later - closed for closed, later in pairs]
    bounds = [(250, 500), (500, 1000), (1000, 2000), (2000, 4000), (250, 500), (500, 1000)]
    slack = 150  # scheduling, the handshake
    for pause, (low, high) in zip(pauses, bounds, strict=True):
        assert low - 5 <= pause <= high + slack, (pauses, bounds)
    statuses = [e["status"] for e in events if "status" in e]
    assert "closed" not in statuses, statuses
    assert statuses.count("reconnecting") == 6, statuses
    # a 4409 is no failure: the status carries no countdown of a back-off
    assert all(e["detail"] is None for e in events if e.get("status") == "reconnecting")
    versions = [e["message"]["version"] for e in events if "message" in e]
    assert versions == [1, 7]
