"""A table's HTTP requests answered by the node that serves it, whichever node they reach.

nginx in front spreads HTTP requests over every node; a table's actor lives in exactly one.
:class:`Forwarding`, the innermost middleware of a node (cluster mode only), looks at each
request for one table — its page ``/tables/{id}``, ``/api/tables/{id}`` and below,
``/api/admin/tables/{id}`` and below — or for one room, which its table's actor answers — its
page ``/rooms/{id}``, ``/api/rooms/{id}`` and below: the table the room plays at now — and
when this node does not serve that table it sends the whole request over Redis to the node
that does (the lease in PostgreSQL says which), which runs it against its own app, in process
(``httpx.ASGITransport``), and sends back status, headers and body. No route knows about any
of it.

* The original client's address travels along and is the forwarded request's client, with
  its ``X-Forwarded-For``: rate limits count the same person wherever the request landed.
* A forwarded request is marked in its ASGI scope (never by a header a client could send),
  and a marked request is never forwarded again: no loops, even while a table moves.
* A table no live node serves (its owner died or is handing it over, and no node has
  adopted it yet): 503 "the table is moving" with ``Retry-After``. An owner that does not
  answer within :data:`FORWARD_SECONDS`, or a Redis out of reach: 503 as well, said so.
* A table that is closed, or that does not exist, is answered here (404, or its history
  from PostgreSQL), as in single-process mode; so is a room that is closed, or that does not
  exist. So are a table's hands and ledger, which PostgreSQL holds (any node answers them).
* ``POST /api/tables`` and ``POST /api/rooms`` open a table (a room's first) on the
  least-loaded live node (``leases.least_loaded_node``): forwarded there marked *placed*, so
  that node opens it itself.

docs/scaling.md tells where this sits among the cluster's parts.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Receive, Scope, Send

from app.cluster.asgi import read_body, replay, unavailable
from app.cluster.board import Board
from app.cluster.bus import Bus
from app.db.store import leases
from app.db.store.rooms import room_table
from app.db.types import AsyncSession, async_sessionmaker

log = logging.getLogger("table31.cluster.forward")

FORWARD_SECONDS = 15.0
"""The longest a node waits for the owner's answer (a host's close voids a hand and writes)."""

MARK = "table31.forwarded"
"""The ASGI scope key of a request another node forwarded here: ``forwarded`` or ``placed``."""

TABLE_PATH = re.compile(r"^/(?:api/(?:admin/)?)?tables/([A-Za-z0-9_-]{1,64})(/.*)?$")
STORED_ONLY = re.compile(r"^/(hands|ledger|ledger\.csv|analysis)$")
"""A table's (or a room's) parts PostgreSQL holds: any node answers them, the owner need not."""
ROOM_PATH = re.compile(r"^/(?:api/)?rooms/([A-Za-z0-9_-]{1,64})(/.*)?$")
PLACED = ("/api/tables", "/api/rooms")
"""What opens a table: on the least-loaded node."""

HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"content-length", b"te"}

LOCAL = "local"
MOVING = "moving"
MOVING_DETAIL = "the table is moving to another node; try again"

Answer = tuple[int, list[list[str]], bytes]
"""A forwarded request's answer: status, headers, body."""


def table_of(scope: Scope) -> str | None:
    """The table a request is for, when its actor must answer it (else None)."""
    found = TABLE_PATH.match(scope["path"])
    if found is None:
        return None
    rest = found.group(2) or ""
    if scope["path"].startswith("/tables/") and rest:
        return None  # only the table's page itself
    if scope["method"] == "GET" and STORED_ONLY.match(rest):
        return None
    return found.group(1)


def room_of(scope: Scope) -> str | None:
    """The room a request is for, when its table's actor must answer it (else None)."""
    found = ROOM_PATH.match(scope["path"])
    if found is None:
        return None
    if scope["path"].startswith("/rooms/") and found.group(2):
        return None  # only the room's page itself
    if scope["method"] == "GET" and STORED_ONLY.match(found.group(2) or ""):
        return None
    return found.group(1)


class OwnerGone(Exception):
    """The node a request was sent to stopped listening before it answered."""


class Forwarder:
    """This node's side of forwarding: it sends requests to owners and serves theirs."""

    def __init__(
        self,
        bus: Bus,
        board: Board,
        sessionmaker: async_sessionmaker[AsyncSession],
        app: ASGIApp,
    ) -> None:
        self.bus = bus
        self.board = board
        self.lobby = board.lobby
        self.sessionmaker = sessionmaker
        self.app = app
        """The node's whole app (every middleware), which a forwarded request runs through."""
        self.node_id = bus.node_id
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.counts = {"sent": 0, "served": 0, "placed": 0, "moving": 0, "timeout": 0}
        bus.on("node", self._heard)

    # ------------------------------------------------------------------ where

    def is_local(self, table_id: str) -> bool:
        table = self.lobby.get(table_id)
        return table is not None and not table.closed

    async def table_for(self, scope: Scope) -> str | None:
        """The table whose actor must answer a request (a room's: the table it plays at now,
        this node's word when it serves it, else PostgreSQL's), or None (any node answers)."""
        table_id = table_of(scope)
        room_id = None if table_id is not None else room_of(scope)
        if room_id is None:
            return table_id
        room = self.lobby.rooms.get(room_id)
        if room is not None and room.status == "open" and self.is_local(room.table_id):
            return room.table_id
        async with self.sessionmaker() as session:
            return await room_table(session, room_id)

    async def owner(self, table_id: str) -> str:
        """:data:`LOCAL` (answer here), :data:`MOVING` (no live node serves it), or the id
        of the node that does."""
        if self.is_local(table_id):
            return LOCAL
        hint = self.board.owners.get(table_id)
        if hint is not None and hint != self.node_id and hint in self.board.live:
            return hint  # the board's word spares PostgreSQL a query (the owner checks it)
        async with self.sessionmaker() as session:
            found = await leases.owner_of(session, table_id)
        if found is None or found.status == "closed":
            return LOCAL  # no such table, or closed: answered from here as ever
        owner, live = found.owner, found.live
        if owner is None or not live or owner == self.node_id:
            return MOVING  # nobody serves it now (ours: being adopted here this moment)
        return str(owner)

    async def placement(self) -> str:
        """The node a new table opens on: :data:`LOCAL` or another node's id."""
        async with self.sessionmaker() as session:
            node = await leases.least_loaded_node(session)
        if node is None or node.id == self.node_id:
            return LOCAL
        return node.id

    # ------------------------------------------------------------------ sending

    async def forward(
        self, node_id: str, scope: Scope, body: bytes, mark: str
    ) -> dict[str, Any] | None:
        """Send the request to ``node_id`` and wait for its answer; None when that node is
        not listening (nobody heard it: nothing was done). Raises :class:`OwnerGone` when it
        stopped listening while we waited (killed with the request in hand: done or not),
        TimeoutError after :data:`FORWARD_SECONDS`, redis's ConnectionError when Redis is
        out of reach."""
        request_id = secrets.token_hex(8)
        client = scope.get("client")
        message = {
            "kind": "request",
            "id": request_id,
            "mark": mark,
            "method": scope["method"],
            "scheme": scope.get("scheme", "http"),
            "path": (scope.get("raw_path") or scope["path"].encode()).decode("latin-1"),
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": [
                [k.decode("latin-1"), v.decode("latin-1")]
                for k, v in scope["headers"]
                if k.lower() not in HOP_BY_HOP
            ],
            "client": list(client) if client else None,
            "body": base64.b64encode(body).decode(),
        }
        waiting = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = waiting
        channel = self.bus.node_channel(node_id)
        try:
            if await self.bus.send_to(node_id, message) == 0:
                return None
            self.counts["sent"] += 1
            deadline = asyncio.get_running_loop().time() + FORWARD_SECONDS
            while True:
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    raise TimeoutError
                try:
                    return await asyncio.wait_for(asyncio.shield(waiting), min(left, 1.0))
                except TimeoutError:
                    pass
                # still nothing: is the owner still there? (killed: no use waiting on)
                heard = await self.bus.redis.pubsub_numsub(channel)
                if not heard or not heard[0][1]:
                    raise OwnerGone(node_id)
        finally:
            self._waiting.pop(request_id, None)
            waiting.cancel()

    def _heard(self, message: dict[str, Any]) -> Any:
        kind = message.get("kind")
        if kind == "reply":
            waiting = self._waiting.get(str(message.get("id")))
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
            return None
        if kind == "request":
            return self._serve(message)
        return None

    # ------------------------------------------------------------------ serving

    async def _serve(self, message: dict[str, Any]) -> None:
        """Run a request another node forwarded here through this node's app; send back the
        answer (a 500 of our own if the app could not answer at all)."""
        sender = str(message.get("from"))
        try:
            status, headers, body = await self._moving(message) or await self._run(message)
            if message.get("mark") == "placed" and status == 201:
                # the new table on the board before the answer: the opener, back in the
                # lobby of the node they asked, finds it there
                await self.board.sweep()
        except Exception:
            log.exception("a forwarded request from %s failed", sender)
            status, headers, body = 500, [], b'{"detail": "the node serving this table failed"}'
        self.counts["served"] += 1
        await self.bus.send_to(
            sender,
            {
                "kind": "reply",
                "id": message.get("id"),
                "status": status,
                "headers": headers,
                "body": base64.b64encode(body).decode(),
            },
        )

    async def _moving(self, message: dict[str, Any]) -> Answer | None:
        """The 503 of a table this node does not serve (any more, or yet): the sender asked
        PostgreSQL a moment ago, while the table changed hands."""
        asked = {"path": str(message.get("path")), "method": str(message.get("method"))}
        table_id = None if message.get("mark") == "placed" else await self.table_for(asked)
        if table_id is None or await self.owner(table_id) == LOCAL:
            return None
        self.counts["moving"] += 1
        headers = [["content-type", "application/json"], ["retry-after", "1"]]
        return 503, headers, orjson.dumps({"detail": MOVING_DETAIL})

    async def _run(self, message: dict[str, Any]) -> Answer:
        mark = "placed" if message.get("mark") == "placed" else "forwarded"
        client = message.get("client")
        original = (str(client[0]), int(client[1])) if client else None
        app = self.app

        async def marked(scope: Scope, receive: Receive, send: Send) -> None:
            scope[MARK] = mark
            scope["client"] = original
            await app(scope, receive, send)

        transport = httpx.ASGITransport(app=marked, raise_app_exceptions=False)
        query = message.get("query") or ""
        url = f"{message.get('scheme') or 'http'}://node{message['path']}"
        request = httpx.Request(
            message["method"],
            url + (f"?{query}" if query else ""),
            headers=[(k, v) for k, v in message.get("headers") or ()],
            content=base64.b64decode(message.get("body") or ""),
        )
        response = await transport.handle_async_request(request)
        body = await response.aread()
        headers = [
            [k.decode("latin-1"), v.decode("latin-1")]
            for k, v in response.headers.raw
            if k.lower() not in HOP_BY_HOP
        ]
        return response.status_code, headers, body

    def collector(self) -> Collector:
        return ForwardCollector(self)


class ForwardCollector(Collector):
    """``table31_forwarded_requests_total{outcome}``."""

    def __init__(self, forwarder: Forwarder) -> None:
        self.forwarder = forwarder

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "table31_forwarded_requests",
            "Per-table requests forwarded to (sent) and from (served) other nodes, tables "
            "opened on another node (placed), answered 503 (moving, timeout)",
            labels=["outcome"],
        )
        for outcome, count in self.forwarder.counts.items():
            family.add_metric([outcome], count)
        yield family


class Forwarding:
    """The middleware (innermost: the request has passed the body limit and the origin
    check here already). See the module's docstring."""

    def __init__(self, app: ASGIApp, forwarder: Forwarder) -> None:
        self.app = app
        self.forwarder = forwarder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get(MARK):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST" and scope["path"] in PLACED:
            await self._place(scope, receive, send)
            return
        table_id = table_of(scope)
        if table_id is not None and self.forwarder.is_local(table_id):
            await self.app(scope, receive, send)
            return
        try:
            table_id = await self.forwarder.table_for(scope)
            owner = LOCAL if table_id is None else await self.forwarder.owner(table_id)
        except Exception as exc:  # PostgreSQL out of reach
            log.warning("could not tell which node serves %s: %s", scope["path"], exc)
            await unavailable(send, "cannot tell which node serves this table; try again", 2)
            return
        if owner == LOCAL:
            await self.app(scope, receive, send)
            return
        if owner == MOVING:
            self.forwarder.counts["moving"] += 1
            await unavailable(send, MOVING_DETAIL, 1)
            return
        body = await read_body(receive)
        if body is None:
            return  # the client went away
        await self._send_on(owner, scope, body, send, "forwarded")

    async def _place(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            node = await self.forwarder.placement()
        except Exception as exc:  # PostgreSQL out of reach: the route answers as it can
            log.warning("could not place a new table: %s", exc)
            node = LOCAL
        if node == LOCAL:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        if body is None:
            return
        self.forwarder.counts["placed"] += 1
        if not await self._send_on(node, scope, body, send, "placed", fall_back=True):
            # that node is not listening (it has just stopped): open the table here
            await self.app(scope, replay(body, receive), send)

    async def _send_on(
        self,
        node: str,
        scope: Scope,
        body: bytes,
        send: Send,
        mark: str,
        *,
        fall_back: bool = False,
    ) -> bool:
        """Forward and answer; False (nothing sent) when ``fall_back`` and nobody heard."""
        try:
            reply = await self.forwarder.forward(node, scope, body, mark)
        except OwnerGone:
            self.forwarder.counts["moving"] += 1
            await unavailable(send, MOVING_DETAIL, 1)
            return True
        except TimeoutError:
            self.forwarder.counts["timeout"] += 1
            await unavailable(
                send, "the node serving this table did not answer in time; try again", 2
            )
            return True
        except Exception as exc:  # redis's ConnectionError and the like
            log.warning("could not forward to %s: %s", node, exc)
            await unavailable(
                send, "the cluster's message bus (Redis) is out of reach; try again", 2
            )
            return True
        if reply is None:
            if fall_back:
                return False
            self.forwarder.counts["moving"] += 1
            await unavailable(send, MOVING_DETAIL, 1)
            return True
        body_out = base64.b64decode(reply.get("body") or "")
        headers = [
            (str(k).encode("latin-1"), str(v).encode("latin-1"))
            for k, v in reply.get("headers") or ()
        ]
        headers.append((b"content-length", str(len(body_out)).encode()))
        headers.append((b"x-table31-served-by", node.encode()))
        await send(
            {"type": "http.response.start", "status": int(reply["status"]), "headers": headers}
        )
        await send({"type": "http.response.body", "body": body_out})
        return True
