"""The pages' socket client (static/js/socket.js) on close code 4409, "served by another node"
(docs/protocol/cluster.md §14.3): it connects again soon (~250 ms, with jitter), the pause
doubling while the same answer comes back (at most 2 s before jitter) and starting again from
~250 ms once a node has served it a message; never final; not the back-off of a failure.

The real socket.js runs in Node (its WebSocket, ``--experimental-websocket`` on Node 20),
against a real server of the test's own whose every connection does what the test says. The
driver's ``setTimeout`` tells each wait socket.js asks for and then runs it at once: the test
checks the pauses asked for against the schedule, not against the clock (which a busy machine
stretches), and takes milliseconds rather than the schedule's nine seconds.

A socket that says nothing (a handshake or a first state lost on the way) is given up after
``FIRST_MESSAGE_MS`` and asked for again with the back-off of a drop: the page is never left
"Connecting…" for good.
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

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]

DRIVER = """
globalThis.window = { addEventListener() {} };
globalThis.document = { addEventListener() {}, getElementById: () => null, hidden: false };
globalThis.location = { protocol: "http:", host: "127.0.0.1:%(port)d" };
const { TableSocket, FIRST_MESSAGE_MS } = await import("./socket.mjs");
const say = (what) => console.log(JSON.stringify(what));
// every wait socket.js asks for is told, then run at once (a few ms); any other caller's
// timers (Node's own WebSocket) keep their time. The wait for a silent socket's first word
// keeps its time (a served socket's first state comes well before it), except the first
// %(quick_silences)d, run after 0.5 s (once the server has let the socket in)
let quickSilences = %(quick_silences)d;
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = (callback, ms, ...args) => {
  const mine = (new Error().stack ?? "").includes("socket.mjs");
  if (!mine) return realSetTimeout(callback, ms, ...args);
  if (ms === FIRST_MESSAGE_MS) {
    if (quickSilences <= 0) return realSetTimeout(callback, ms, ...args);
    quickSilences -= 1;
    say({ wait: ms });
    return realSetTimeout(callback, 500, ...args);
  }
  say({ wait: ms });
  return realSetTimeout(callback, 1, ...args);
};
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
    4409 saying nothing; ``"serve"`` accept, send one state, then close with 4409;
    ``"silent"`` accept and say nothing; past the steps, ``"hold"``: send state 7 and stay."""

    def __init__(self, steps: list[str], port: int) -> None:
        self.steps = steps
        self.accepted = 0
        self.release = asyncio.Event()
        app = Starlette(routes=[WebSocketRoute("/ws/tables/{table_id}", self.socket)])
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )

    async def socket(self, websocket: WebSocket) -> None:
        step = self.steps[self.accepted] if self.accepted < len(self.steps) else "hold"
        await websocket.accept()
        self.accepted += 1
        if step in ("hold", "silent"):
            if step == "hold":
                await websocket.send_json({"type": "state", "version": 7})
            await self.release.wait()
            return
        if step == "serve":
            await websocket.send_json({"type": "state", "version": 1})
            await asyncio.sleep(0.1)
        await websocket.close(4409, "this table is served by another node; ask again")


async def run_client(
    tmp_path: Path, steps: list[str], quick_silences: int = 0
) -> tuple[Script, list[dict[str, Any]]]:
    """socket.js in Node against a :class:`Script` of ``steps``, until it is served state 7:
    the server, and what the client said (its statuses, messages and the waits it asked for)."""
    command = node_with_websocket()
    if command is None:
        pytest.skip("Node is not installed: the page's socket client cannot run")
    # the page's modules as Node reads them (.mjs), socket.js's import of its words kept
    socket = (ROOT / "static/js/socket.js").read_text().replace('"./i18n.js"', '"./i18n.mjs"')
    assert '"./i18n.mjs"' in socket  # the one module it imports
    (tmp_path / "socket.mjs").write_text(socket)
    (tmp_path / "i18n.mjs").write_text((ROOT / "static/js/i18n.js").read_text())
    port = free_port()
    (tmp_path / "driver.mjs").write_text(DRIVER % {"port": port, "quick_silences": quick_silences})
    script = Script(steps, port)
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
        deadline = time.monotonic() + 60  # for a stuck run only, never a measure
        while not any(e.get("message", {}).get("version") == 7 for e in events):
            assert time.monotonic() < deadline, f"connections: {script.accepted}, {events}"
            await asyncio.sleep(0.05)
    finally:
        node.kill()
        await node.wait()
        await reader
        script.release.set()
        script.server.should_exit = True
        await asyncio.wait_for(task, 30)
    return script, events


async def test_4409_connects_again_soon_without_the_back_off(tmp_path: Path) -> None:
    script, events = await run_client(tmp_path, ["4409", "4409", "4409", "4409", "serve", "4409"])
    assert script.accepted == 7
    # the pause asked for before each new connection: from the base (~250 ms, doubling while
    # 4409 comes back, from ~250 ms again once served) to twice the base (its jitter). The
    # back-off of a failure would have asked for 250-500 ms, then 500-1000 ms, 1-2 s, 1.5-3 s,
    # and never again from the start after a message; its statuses carry a countdown (below).
    waits = [e["wait"] for e in events if "wait" in e]
    bases = [250, 500, 1000, 2000, 250, 500]
    assert len(waits) == len(bases), (waits, events)
    for wait, base in zip(waits, bases, strict=True):
        assert base <= wait < 2 * base, (waits, bases)
    # each wait came after the close that asked for it and before the connection it led to
    order = [next(iter(e)) for e in events if "wait" in e or e.get("status") == "reconnecting"]
    assert order == ["status", "wait"] * 6, events
    statuses = [e["status"] for e in events if "status" in e]
    assert "closed" not in statuses, statuses
    assert statuses.count("reconnecting") == 6, statuses
    # a 4409 is no failure: the status carries no countdown of a back-off
    assert all(e["detail"] is None for e in events if e.get("status") == "reconnecting")
    versions = [e["message"]["version"] for e in events if "message" in e]
    assert versions == [1, 7]


async def test_a_socket_that_says_nothing_is_asked_for_again(tmp_path: Path) -> None:
    """The first socket is let in and never served: the client gives it up after
    FIRST_MESSAGE_MS (not before: the driver tells the wait asked for) and asks again with a
    drop's back-off (250-500 ms, a countdown in its status); the second is served."""
    script, events = await run_client(tmp_path, ["silent"], quick_silences=1)
    assert script.accepted == 2
    waits = [e["wait"] for e in events if "wait" in e]
    assert waits[0] == 10_000, events  # FIRST_MESSAGE_MS
    assert len(waits) == 2 and 250 <= waits[1] < 500, events
    statuses = [(e["status"], e["detail"]) for e in events if "status" in e]
    assert statuses[:2] == [("connecting", None), ("open", None)], statuses
    assert statuses[2][0] == "reconnecting" and statuses[2][1] is not None, statuses
    assert statuses[3:] == [("reconnecting", None), ("open", None)], statuses
    versions = [e["message"]["version"] for e in events if "message" in e]
    assert versions == [7]
