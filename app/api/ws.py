"""The table socket ``/ws/tables/{table_id}``: authenticate, rate-limit, parse, forward.

No rules here (docs/architecture.md, "The rules of the road"): each frame is rate-limited
first, then parsed into a typed message (:mod:`app.runtime.protocol`), then handed to the
table's actor.

Every frame is answered on its own: a refusal with its code, and, should handling one frame
meet a bug, ``internal_error`` and one line in the log (:func:`_failed`). The socket and its
table go on either way; a frame never ends a socket with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fastapi import WebSocket, WebSocketDisconnect

from app.api.deps import COOKIE, bearer
from app.api.locale import connection_locale
from app.api.origin import same_site
from app.api.signed_sockets import signed_sockets
from app.core.config import Settings
from app.db import devices, store
from app.i18n.messages import N_, Text, localize
from app.runtime.connection import Connection, RateLimiter
from app.runtime.hosting import ASK_AGAIN, ASK_AGAIN_CLOSE
from app.runtime.protocol import Act, ErrorCode, Message, ProtocolError, parse
from app.runtime.table.actor import TableActor
from app.services import Services

log = logging.getLogger("table31.socket")

FLOOD_CLOSE_AFTER = 200
"""Refused (rate-limited) frames after which the socket is closed with 1008, counted until the
socket is back within its own budget (its bucket half full again): a client that keeps
sending faster than its limit is closed, one that slowed down after a burst is not."""


def client_address(websocket: WebSocket, trust_proxy: bool) -> str:
    """The client's address; behind a trusted proxy, the LAST X-Forwarded-For hop: the one
    the proxy itself added. Earlier hops come from the client, who could write anything
    there to slip past the per-address limits."""
    if trust_proxy:
        forwarded = websocket.headers.get("x-forwarded-for", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return websocket.client.host if websocket.client else "unknown"


def from_this_site_or_no_browser(websocket: WebSocket, trust_proxy: bool) -> bool:
    """A browser names the page that opens a socket in ``Origin``, and a page of another site
    cannot change it: such a socket would act with the visitor's cookie (cross-site
    WebSocket hijacking), so only this site's pages may open one. A client that sends no
    ``Origin`` is no browser (a bot, a script): it is let in, as it carries its own token."""
    if "origin" not in websocket.headers:
        return True
    return same_site(websocket.headers, trust_proxy)


async def refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Say why (in the reader's language: the cookie's or the browser's), then close; a
    client that has already gone is simply gone (no traceback). The close frame's reason
    stays English: it is for logs."""
    words = localize(message, connection_locale(websocket))
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_json({"type": "error", "code": code, "message": words})
        await websocket.close(close_code, message[:120])


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """``/ws/tables/{table_id}`` (registered in app/main.py)."""
    services: Services = websocket.app.state.services
    settings = services.settings
    metrics = services.lobby.metrics
    address = client_address(websocket, settings.trust_proxy_headers)
    await websocket.accept()
    if not from_this_site_or_no_browser(websocket, settings.trust_proxy_headers):
        metrics.rejected["cross_site"] += 1
        await refuse(
            websocket,
            ErrorCode.CROSS_SITE,
            N_("a page of another site may not open this socket"),
            1008,
        )
        return
    if not services.limits.admit(address):
        metrics.rejected["too_many_connections"] += 1
        await refuse(
            websocket, ErrorCode.RATE_LIMITED, N_("too many connections from your address"), 1008
        )
        return
    try:
        await _serve(websocket, services, table_id, address)
    finally:
        services.limits.release(address)


async def _who(
    services: Services, token: str
) -> tuple[str | None, str | None, str | None, str | None]:
    """The token's player id, name, device id and chosen language. In a function of its own
    so that its session and ORM objects die here: a local of ``_serve`` would live as long as
    the socket (2-3 KiB each of 5,000 sockets, docs/performance.md)."""
    async with services.sessionmaker() as session:
        found = await devices.device_by_token(session, token)
        blocked = [] if found is None else await store.blocks_of(session, found.player.id)
        await session.commit()
    if found is None:
        return None, None, None, None
    # the person's blocks as the database has them now (app/runtime/blocks.py)
    services.lobby.blocks.set(found.player.id, (b.player_id for b in blocked))
    if found.due_for_touch:  # a socket is a use of the device too: its token lives on
        services.writer.submit(devices.touch_device, found.device_id, services.settings.token_days)
    return found.player.id, found.player.name, found.device_id, found.player.language


async def _serve(websocket: WebSocket, services: Services, table_id: str, address: str) -> None:
    settings = services.settings
    metrics = services.lobby.metrics
    table = services.lobby.get(table_id)
    # another process serves it (or will): the client asks the front again, which routes
    # it there (app/runtime/hosting.py)
    if table is None and await services.hosting.served_elsewhere(table_id):
        metrics.rejected["served_elsewhere"] += 1
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client left first
            await websocket.close(ASK_AGAIN_CLOSE, ASK_AGAIN)
        return
    if table is None or table.closed:
        await _no_such_table(websocket, services)
        return
    token = (
        websocket.query_params.get("token") or bearer(websocket) or websocket.cookies.get(COOKIE)
    )
    invite = websocket.query_params.get("invite")
    player_id: str | None = None
    name: str | None = None
    device_id: str | None = None
    language: str | None = None
    if token:
        player_id, name, device_id, language = await _who(services, token)
        if player_id is None:
            if not table.may_enter(None, invite):
                # a private table answers a bad token as a missing table does: "unauthorized"
                # would tell a stranger that a table is there
                await _no_such_table(websocket, services)
                return
            metrics.rejected["unauthorized"] += 1
            await refuse(
                websocket,
                ErrorCode.UNAUTHORIZED,
                N_("that token is not valid; sign in again"),
                1008,
            )
            return
    if not table.may_enter(player_id, invite):
        await _no_such_table(websocket, services)
        return
    conn = Connection(websocket, player_id, name, connection_locale(websocket, language))
    registry = signed_sockets(websocket.app)
    if device_id is not None and player_id is not None:
        # signing this device out closes this socket (app/api/signed_sockets.py)
        registry.add(device_id, player_id, conn)
    limiter = RateLimiter(settings.messages_per_second, settings.message_burst)
    limits = services.limits
    max_bytes = settings.max_message_bytes
    await table.connect(conn)
    try:
        while not conn.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect" or conn.closed:
                break  # closed while this frame waited (signed out, too slow): not handled
            metrics.messages_in += 1
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            now = time.monotonic()
            if not (limiter.allow(now) and limits.allow_message(address, limiter, now)):
                limiter.refused += 1
                metrics.error(ErrorCode.RATE_LIMITED)
                if limiter.refused > FLOOD_CLOSE_AFTER:
                    conn.close(1008, "too many messages")
                    break
                _rate_limited(conn, raw, limiter.refused == 1, settings)
                continue
            if limiter.refused and limiter.tokens >= limiter.burst / 2:
                limiter.refused = 0  # back within its own budget: the run of refusals ends
            message: Message | None = None
            try:
                message = parse(raw, max_bytes=max_bytes)
                await table.handle(conn, message)
            except ProtocolError as err:
                metrics.error(err.code)
                conn.send(err.to_message_text(conn.locale))
            except Exception as exc:  # a bug: answered, logged once, and the socket goes on
                _failed(conn, table, message, exc)
                metrics.error(ErrorCode.INTERNAL_ERROR)
    except WebSocketDisconnect:
        pass
    finally:
        if device_id is not None:
            registry.discard(device_id, conn)
        conn.close()
        await table.disconnect(conn)
        # let the queued messages and the close frame (with its reason) go out
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(conn.wait_closed(), 2)


async def _no_such_table(websocket: WebSocket, services: Services) -> None:
    """The one answer for a table that is not there and for a private table the caller may
    not enter (without its invite, or with a bad token): the same error, close code, words
    and metric reason (``no_such_table``), so that a stranger learns nothing of a private
    table."""
    services.lobby.metrics.rejected[ErrorCode.NO_SUCH_TABLE] += 1
    await refuse(websocket, ErrorCode.NO_SUCH_TABLE, N_("no such table"), 4404)


def _rate_limited(conn: Connection, raw: str | bytes, first: bool, settings: Settings) -> None:
    """Answer a refused frame: every act, with its id (the client knows what to resend), and
    the first refused frame of a run; the others (pings, resyncs) go unanswered. Only a
    refused frame that names an act is read for its id."""
    msg_id = None
    if '"act"' in raw if isinstance(raw, str) else b'"act"' in raw:
        try:
            message = parse(raw, max_bytes=settings.max_message_bytes)
        except ProtocolError as err:
            msg_id = err.msg_id
        except Exception:  # nothing but a ProtocolError is expected; no id then
            msg_id = None
        else:
            msg_id = message.id if isinstance(message, Act) else None
    if msg_id is not None or first:
        text = Text(N_("slow down: at most {most:g} a second"), most=settings.messages_per_second)
        conn.send(ProtocolError(ErrorCode.RATE_LIMITED, text, msg_id).to_message_text(conn.locale))


def _failed(conn: Connection, table: TableActor, message: Message | None, exc: Exception) -> None:
    """Handling one frame met a bug: the client is told (with its act's id), and the log gets
    one line naming the exception and where it was raised, not a traceback per frame (a
    client repeating the frame would repeat it; the line says where to look)."""
    frame = exc.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    where = f"{frame.tb_frame.f_code.co_filename}:{frame.tb_lineno}" if frame else "?"
    text = " ".join(str(exc).split())[:200]
    log.error(
        "table %s: a %s message failed: %s: %s (at %s)",
        table.table_id,
        type(message).__name__.lower() if message is not None else "unparsed",
        type(exc).__name__,
        text,
        where,
    )
    conn.send(
        ProtocolError(
            ErrorCode.INTERNAL_ERROR,
            N_("the server failed on that message; resync to see the table as it is"),
            message.id if isinstance(message, Act) else None,
        ).to_message_text(conn.locale)
    )
