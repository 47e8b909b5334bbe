"""The table socket ``/ws/tables/{table_id}``: authenticate, rate-limit, parse, forward.

No rules here (STYLE.md §3): each frame is rate-limited first, then parsed into a typed
message (:mod:`app.runtime.protocol`), then handed to the table's actor.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import WebSocket, WebSocketDisconnect

from app.api.deps import COOKIE, bearer
from app.runtime import store
from app.runtime.connection import Connection, RateLimiter
from app.runtime.protocol import ErrorCode, ProtocolError, parse
from app.services import Services

FLOOD_CLOSE_AFTER = 200
"""Refused (rate-limited) frames in a row after which the socket is closed with 1008."""


def client_address(websocket: WebSocket, trust_proxy: bool) -> str:
    """The client's address; behind a trusted proxy, the LAST X-Forwarded-For hop: the one
    the proxy itself added. Earlier hops come from the client, who could write anything
    there to slip past the per-address limits."""
    if trust_proxy:
        forwarded = websocket.headers.get("x-forwarded-for", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return websocket.client.host if websocket.client else "unknown"


async def refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.send_json({"type": "error", "code": code, "message": message})
    await websocket.close(close_code, message[:120])


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """``/ws/tables/{table_id}`` (registered in app/main.py)."""
    services: Services = websocket.app.state.services
    settings = services.settings
    metrics = services.lobby.metrics
    address = client_address(websocket, settings.trust_proxy_headers)
    await websocket.accept()
    if not services.limits.admit(address):
        metrics.rejected["too_many_connections"] += 1
        await refuse(
            websocket, ErrorCode.RATE_LIMITED, "too many connections from your address", 1008
        )
        return
    try:
        await _serve(websocket, services, table_id, address)
    finally:
        services.limits.release(address)


async def _who(services: Services, token: str) -> tuple[str | None, str | None]:
    """The token's player id and name. In a function of its own so that its session and
    ORM objects die here: a local of ``_serve`` would live as long as the socket (2-3 KiB
    each of 5,000 sockets, docs/performance.md)."""
    async with services.sessionmaker() as session:
        player = await store.player_by_token(session, token)
        return (player.id, player.name) if player is not None else (None, None)


async def _serve(websocket: WebSocket, services: Services, table_id: str, address: str) -> None:
    settings = services.settings
    metrics = services.lobby.metrics
    table = services.lobby.get(table_id)
    if table is None or table.closed:
        metrics.rejected[ErrorCode.NO_SUCH_TABLE] += 1
        await refuse(websocket, ErrorCode.NO_SUCH_TABLE, "no such table", 4404)
        return
    token = (
        websocket.query_params.get("token") or bearer(websocket) or websocket.cookies.get(COOKIE)
    )
    player_id: str | None = None
    name: str | None = None
    if token:
        player_id, name = await _who(services, token)
        if player_id is None:
            metrics.rejected["unauthorized"] += 1
            await refuse(
                websocket, ErrorCode.UNAUTHORIZED, "that token is not valid; sign in again", 1008
            )
            return
    if not table.may_enter(player_id, websocket.query_params.get("invite")):
        metrics.rejected["private_table"] += 1
        await refuse(
            websocket,
            ErrorCode.NO_SUCH_TABLE,
            "no such table (a private table needs its invite link)",
            4404,
        )
        return
    conn = Connection(websocket, player_id, name)
    limiter = RateLimiter(settings.messages_per_second, settings.message_burst)
    await table.connect(conn)
    try:
        while not conn.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            metrics.messages_in += 1
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            if not (limiter.allow() and services.limits.allow_message(address)):
                limiter.refused = max(limiter.refused, 1)
                metrics.error(ErrorCode.RATE_LIMITED)
                if limiter.refused > FLOOD_CLOSE_AFTER:
                    conn.close(1008, "too many messages")
                    break
                if limiter.refused == 1:
                    conn.send(
                        ProtocolError(
                            ErrorCode.RATE_LIMITED,
                            f"slow down: at most {settings.messages_per_second:g} a second",
                        ).to_message_text()
                    )
                continue
            try:
                message = parse(raw, max_bytes=settings.max_message_bytes)
            except ProtocolError as err:
                metrics.error(err.code)
                conn.send(err.to_message_text())
                continue
            await table.handle(conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()
        await table.disconnect(conn)
        # let the queued messages and the close frame (with its reason) go out
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(conn.wait_closed(), 2)
