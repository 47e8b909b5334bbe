"""The HTTP server's configuration: one function, :func:`uvicorn_config`, that both
``python -m app serve`` and the tests' live server use, so that the tests run the server as
it is served.

uvicorn closes an idle keep-alive connection, but has no limit on how long a request may
take to arrive: a connection that sends half a request line, or headers without their end,
or a body that stops, is held open for ever. With 1,024 descriptors, 1,100 such connections
made every request fail. :class:`GuardedHttpProtocol` (uvicorn's httptools protocol, the one
``uvicorn[standard]`` runs) adds

* a header deadline: from the connection's first moment, and from the first byte of each
  next request, its headers must be complete within ``HTTP_HEADER_TIMEOUT`` seconds (408 and
  closed otherwise);
* a body deadline: once the headers are in, the body must be complete within
  ``HTTP_BODY_TIMEOUT`` seconds (closed otherwise), which bounds a body that stalls or
  drips;
* a cap on HTTP connections open at once from one address
  (``MAX_HTTP_CONNECTIONS_PER_ADDRESS``; 429 and closed beyond it), unless a trusted proxy
  is in front, when every connection comes from the proxy. A connection that becomes a table
  socket leaves the count: the sockets have their own cap (``MAX_CONNECTIONS_PER_ADDRESS``).

:func:`raise_open_file_limit` lifts the process's soft limit on descriptors to its hard
limit at start-up (often 1,024 soft against 500,000 or more hard).

:func:`served_process` is what ``python -m app serve`` adds to the app's lifespan: the garbage
collector's policy and the heap trims (app/ops), and on SIGTERM or SIGINT the lobby's shutdown
*before* uvicorn's own graceful shutdown, while the table sockets are still open to be told why
they close (uvicorn closes them with 1012 first, then runs the lifespan's shutdown).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import signal
import socket
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.core.config import Settings
from app.i18n.messages import N_
from app.ops import collector, memory

log = logging.getLogger("table31.server")


def _refusal(status: bytes, detail: str) -> bytes:
    """A whole HTTP response written straight to the transport, the connection closing."""
    body = json.dumps({"detail": detail}).encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
    )


TIMED_OUT = _refusal(b"408 Request Timeout", "the request took too long to arrive")
TOO_MANY = _refusal(b"429 Too Many Requests", "too many connections open from your address")


class AddressCount:
    """HTTP connections open at once, per client address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = defaultdict(int)

    def admit(self, address: str) -> bool:
        if self.open[address] >= self.limit:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


LINGER_SECONDS = 2.0
"""After a 408, how long what the client still sends is read and dropped before the
connection closes. Closed with the client's bytes unread, the connection would be reset
(RST), and a client still sending (a drip) could lose the 408 before reading it; half-closed
first (FIN after the 408), it reads the answer and the end (a lingering close, as nginx's)."""


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with deadlines for a request's headers and body and a
    cap on connections per address. :func:`guarded_protocol` makes a subclass carrying one
    server's settings."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    per_address: AddressCount | None = None
    """None: no cap (behind a trusted proxy every connection comes from the proxy)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for = ""  # "headers", "body" or "" (the deadline that is armed)
        self._counted: str | None = None  # the address this connection is counted under
        self._lingering = False  # answered 408: what comes is dropped until it closes

    # -- the deadlines

    def _arm(self, waiting_for: str, seconds: float) -> None:
        self._disarm()
        self._waiting_for = waiting_for
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._waiting_for = ""

    def _idle(self) -> bool:
        """No request in progress: before the first, or after the last response."""
        return self.cycle is None or self.cycle.response_complete

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self._waiting_for == "headers" and self._idle():
            self.transport.write(TIMED_OUT)  # the client may read why; nothing else is owed
            if self.transport.can_write_eof():
                self._linger()
                return
        self.transport.close()

    def _linger(self) -> None:
        """The 408 is written: end our side (FIN after it), drop what the client still
        sends, and close after :data:`LINGER_SECONDS` at the most (or when the client ends
        its side)."""
        self._lingering = True
        self.transport.write_eof()
        self._waiting_for = ""
        self._deadline = self.loop.call_later(LINGER_SECONDS, self.transport.close)

    # -- uvicorn's protocol, hooked

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.per_address is not None and self.client is not None:
            address = self.client[0]
            if not self.per_address.admit(address):
                transport.write(TOO_MANY)
                transport.close()
                return
            self._counted = address
        self._arm("headers", self.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # the request was refused (408): what it still sends is dropped
        # bytes between requests that begin none (blank lines) must not hold the
        # connection open either: the header deadline runs from the first byte
        if self._deadline is None and self._idle() and not self.transport.is_closing():
            self._arm("headers", self.header_timeout)
        super().data_received(data)

    def on_message_begin(self) -> None:
        if self._waiting_for != "headers":
            self._arm("headers", self.header_timeout)
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._arm("body", self.body_timeout)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        # The response may have gone before the body ended (a 413): uvicorn reads on and
        # drops the rest, and its keep-alive clock, stopped by that reading, is not armed
        # again. The connection is then closed after the keep-alive wait if nothing comes.
        discarded = self.cycle is not None and self.cycle.response_complete
        self._disarm()
        if discarded:
            self._arm("", float(self.timeout_keep_alive))
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._release()  # a table socket now, counted by the socket's own limits
        super().handle_websocket_upgrade()

    def _release(self) -> None:
        if self._counted is not None and self.per_address is not None:
            self.per_address.release(self._counted)
            self._counted = None


def guarded_protocol(settings: Settings) -> type[GuardedHttpProtocol]:
    """A protocol class for one server: its deadlines, and its own count of connections."""
    per_address = (
        None
        if settings.trust_proxy_headers
        else AddressCount(settings.max_http_connections_per_address)
    )
    return type(
        "GuardedHttpProtocol",
        (GuardedHttpProtocol,),
        {
            "header_timeout": settings.http_header_timeout,
            "body_timeout": settings.http_body_timeout,
            "per_address": per_address,
        },
    )


def uvicorn_config(app: Any, settings: Settings, **overrides: Any) -> uvicorn.Config:
    """How uvicorn serves ``app``; ``overrides`` are for the tests (host, log level…)."""
    values: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "http": guarded_protocol(settings),
        "timeout_keep_alive": settings.http_keep_alive_timeout,
        # JSON views are small; compressing each costs more CPU and memory per socket than
        # the bandwidth it saves a card table (docs/performance.md)
        "ws_per_message_deflate": False,
        "ws_max_size": 65536,
        # the access log would record ?token= in socket URLs; the app logs what matters
        "access_log": False,
        "timeout_graceful_shutdown": 10,
        "log_config": None,
        "proxy_headers": settings.trust_proxy_headers,
    }
    values.update(overrides)
    return uvicorn.Config(app, **values)


def raise_open_file_limit() -> int:
    """Lift the soft limit on open descriptors to the hard limit; the limit now in force.
    Every connection is a descriptor: at the usual soft limit of 1,024 the server stops
    accepting long before memory or CPU run short."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError) as exc:  # e.g. macOS caps it below the hard limit
        log.warning("could not raise the open file limit from %d: %s", soft, exc)
        return soft
    return wanted


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound before anything starts: a port already in use (another
    server on it, perhaps on the same database) is refused before this one recovers any
    table, instead of after (uvicorn binds once the app's start-up is done).
    ``OSError`` when the address cannot be bound."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


RESTARTING = N_("The server is restarting; back shortly")
"""Why the sockets close when the served process is asked to stop."""
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

Drain = Callable[[str], Awaitable[None]]
"""The lobby's shutdown, run once however often it is called (``Services.drain``)."""


def drain_first(drain: Drain, reason: str = RESTARTING) -> Callable[[], None]:
    """On SIGINT or SIGTERM, ``drain(reason)`` first, then the handler in place before
    (uvicorn's, which starts its graceful shutdown); a second signal goes to that handler at
    once. Returns the function that puts the handlers back.

    uvicorn installs its handlers with ``signal.signal`` around the whole of its serving,
    lifespan included, and puts back the ones it found when it is done: from the app's
    start-up, the handler found is uvicorn's. A signal whose handler is not a function (no
    server handles it, or not in the main thread) is left alone."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    replaced: dict[int, Callable[[int, FrameType | None], Any]] = {}
    running: set[asyncio.Task[None]] = set()

    async def drain_then(signum: int) -> None:
        try:
            await drain(reason)
        except Exception:  # the server must stop all the same
            log.exception("the shutdown before the server's own failed")
        finally:
            replaced[signum](signum, None)

    def start(signum: int) -> None:
        task = loop.create_task(drain_then(signum))
        running.add(task)
        task.add_done_callback(running.discard)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if draining:  # asked again: the server's own handling, now
            replaced[signum](signum, frame)
            return
        draining.append(signum)
        loop.call_soon_threadsafe(start, signum)

    draining: list[int] = []
    for signum in STOP_SIGNALS:
        previous = signal.getsignal(signum)
        if callable(previous):
            replaced[signum] = previous
            signal.signal(signum, on_signal)

    def restore() -> None:
        for signum, previous in replaced.items():
            if signal.getsignal(signum) is on_signal:
                signal.signal(signum, previous)

    return restore


@asynccontextmanager
async def served_process(drain: Drain) -> AsyncIterator[None]:
    """The served process's part of the app's lifespan, entered once the app has started:
    start-up frozen and survivors frozen (app/ops/collector.py), freed heap pages handed back
    every 2 s (app/ops/memory.py), and :func:`drain_first` on the stop signals."""
    collector.settle_after_start()
    collector.COLLECTOR.start()
    memory.TRIMMER.start()
    restore = drain_first(drain)
    try:
        yield
    finally:
        restore()
        memory.TRIMMER.stop()
        collector.COLLECTOR.stop()
