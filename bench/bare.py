"""The bare endpoint: the limit of Table 31's own stack (FastAPI + uvicorn WebSockets).

It speaks just enough of the protocol for the load clients of :mod:`bench.load` to play
against it with the very same code: ``POST /api/session``, ``POST /api/tables``, ``GET
/api/games`` and ``/ws/tables/{table_id}`` with ``sit``, ``leave``, ``act`` and ``ping``. No
rules, no database: the seats of a table take turns (one act in flight per table, like a
turn-based hand); each act is answered with an ``ack`` and every connection at the table gets
a ``state`` of the same size as the project's (the view is a real project view replayed from
``BENCH_SAMPLES``, a JSON file of state texts, or padding of ``BENCH_STATE_BYTES``).

Served by uvicorn exactly as ``python -m app serve`` serves the app::

    python -m bench.bare --port 8001
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import os
import uuid
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

BUY_IN = 100
SEATS = 8


def _samples() -> list[str]:
    """Pre-encoded view objects to replay, so bare states match the project's in size."""
    path = os.environ.get("BENCH_SAMPLES")
    if path:
        with open(path) as f:
            texts = json.load(f)
        views = []
        for text in texts:
            message = json.loads(text)
            views.append(json.dumps(message.get("view", message), separators=(",", ":")))
        if views:
            return views
    size = int(os.environ.get("BENCH_STATE_BYTES", "2000"))
    return [json.dumps({"pad": "x" * max(0, size - 120)}, separators=(",", ":"))]


class BareTable:
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.connections: dict[WebSocket, int | None] = {}
        self.version = 0
        self.turn = 0
        self.lock = asyncio.Lock()

    def seated(self) -> list[int]:
        return sorted(s for s in self.connections.values() if s is not None)

    def to_act(self) -> int | None:
        seats = self.seated()
        return seats[self.turn % len(seats)] if len(seats) >= 2 else None


class Bare:
    def __init__(self) -> None:
        self.tables: dict[str, BareTable] = {}
        self.samples = _samples()
        self._sample = itertools.cycle(self.samples)

    def state_text(self, table: BareTable, seat: int | None, sample: str) -> str:
        free = [s for s in range(SEATS) if s not in table.connections.values()]
        legal = (
            '[{"kind":"go","params":{}}]' if seat is not None and seat == table.to_act() else "[]"
        )
        you = "null" if seat is None else str(seat)
        return (
            f'{{"type":"state","version":{table.version},"view":{{"you":{you},'
            f'"legal":{legal},"table":{{"buy_in":{{"min":{BUY_IN},"max":{BUY_IN}}},'
            f'"free_seats":{json.dumps(free)}}},"seats":[],"sample":{sample}}}}}'
        )

    async def broadcast(self, table: BareTable) -> None:
        table.version += 1
        sample = next(self._sample)
        cache: dict[int | None, str] = {}
        for ws, seat in list(table.connections.items()):
            text = cache.get(seat)
            if text is None:
                text = cache[seat] = self.state_text(table, seat, sample)
            try:
                await ws.send_text(text)
            except Exception:
                table.connections.pop(ws, None)


def create_app() -> FastAPI:
    app = FastAPI(title="bare")
    bare = Bare()
    app.state.bare = bare

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [{"id": "bare"}]

    @app.post("/api/session")
    async def session(body: dict[str, Any]) -> dict[str, Any]:
        return {
            "player_id": uuid.uuid4().hex,
            "name": body.get("name", "?"),
            "token": uuid.uuid4().hex,
            "bankroll": 10**9,
        }

    @app.post("/api/tables", status_code=201)
    async def open_table(body: dict[str, Any]) -> dict[str, Any]:
        table_id = uuid.uuid4().hex[:12]
        bare.tables[table_id] = BareTable(table_id)
        return {"table_id": table_id, "game": body.get("game")}

    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = bare.tables.setdefault(table_id, BareTable(table_id))
        async with table.lock:
            table.connections[websocket] = None
            await websocket.send_text(bare.state_text(table, None, bare.samples[0]))
        try:
            while True:
                raw = await websocket.receive_text()
                message = json.loads(raw)
                kind = message.get("type")
                async with table.lock:
                    seat = table.connections.get(websocket)
                    if kind == "act":
                        if seat is None or seat != table.to_act():
                            await websocket.send_text(
                                json.dumps(
                                    {
                                        "type": "error",
                                        "id": message.get("id"),
                                        "code": "not_your_turn",
                                        "message": "not your turn",
                                    }
                                )
                            )
                            continue
                        await websocket.send_text(
                            json.dumps({"type": "ack", "id": message.get("id")})
                        )
                        table.turn += 1
                        await bare.broadcast(table)
                    elif kind == "sit":
                        taken = set(table.connections.values())
                        free = [s for s in range(SEATS) if s not in taken]
                        if seat is None and free:
                            table.connections[websocket] = free[0]
                        await bare.broadcast(table)
                    elif kind == "leave":
                        table.connections[websocket] = None
                        await bare.broadcast(table)
                    elif kind == "ping":
                        await websocket.send_text('{"type":"pong"}')
        except WebSocketDisconnect:
            pass
        finally:
            async with table.lock:
                table.connections.pop(websocket, None)

    return app


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m bench.bare")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument(
        "--deflate",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="permessage-deflate (the app turns it off)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # the same uvicorn settings as ``python -m app serve`` (app/__main__.py): keep them in
    # step, or the ratios compare two stacks instead of one; --deflate for experiments
    uvicorn.run(
        create_app(),
        host=args.host,
        port=args.port,
        ws_max_size=65536,
        ws_per_message_deflate=args.deflate,
        access_log=False,
        log_level="info",
        timeout_graceful_shutdown=10,
        loop="uvloop",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
