"""What the benchmarks share: ports, limits, /proc readings, percentiles, a raw WebSocket
client, migrations and the machine's description.

The WebSocket client here is deliberately small (an :class:`asyncio.Protocol` that frames and
unframes by hand, no task per connection) so that one client process can hold thousands of
sockets and the client side stays cheaper than the server it measures.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import importlib.metadata
import os
import platform
import random
import resource
import socket
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# --------------------------------------------------------------------------- the process


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_nofile(wanted: int = 65536) -> int:
    """Raise this process's open-file limit (inherited by children) as far as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process, all its threads (``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # after the command: state is field 3, utime field 14, stime field 15 (1-based)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the server's writer process, say)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:  # ppid is field 4 (1-based), the second after the command
            found.append(int(entry))
    return found


def is_analysis_worker(pid: int) -> bool:
    """Whether ``pid`` is the server's analysis worker (``python -m
    app.runtime.analysis_worker``, app/runtime/analyses.py)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"analysis_worker" in f.read()
    except OSError:
        return False


def tree_cpu_seconds(pid: int) -> tuple[float, float, float]:
    """CPU seconds of a process and of its children: (the server and its database writer's
    process, the writer's alone, the analysis's worker). The analysis is apart: one niced
    process that analyses finished hands in the background with whatever CPU is spare (it
    falls behind rather than slow a table), so its CPU says how idle the machine was, not
    what an action cost."""
    own = cpu_seconds(pid)
    kids = analysis = 0.0
    for child in children(pid):
        with contextlib.suppress(OSError):
            if is_analysis_worker(child):
                analysis += cpu_seconds(child)
            else:
                kids += cpu_seconds(child)
    return own + kids, kids, analysis


def rss_bytes(pid: int) -> int:
    """Resident memory of a process (``/proc/PID/statm``)."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE_SIZE


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine (``/proc/stat``)."""
    with open("/proc/stat") as f:
        parts = [int(x) for x in f.readline().split()[1:]]
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0)
    total = sum(parts[:8])
    return float(total - idle), float(total)


# --------------------------------------------------------------------------- statistics


def percentiles(values: Sequence[float], scale: float = 1000.0) -> dict[str, float | int]:
    """p50/p95/p99/max/mean of ``values`` (seconds), scaled (to milliseconds by default)."""
    if not values:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0, "mean": 0.0}
    ordered = sorted(values)
    n = len(ordered)

    def at(q: float) -> float:
        return round(ordered[min(n - 1, int(q * n))] * scale, 2)

    return {
        "n": n,
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1] * scale, 2),
        "mean": round(sum(ordered) / n * scale, 2),
    }


def format_table(rows: list[dict[str, Any]], columns: list[tuple[str, str]]) -> str:
    """A plain-text table: ``columns`` are (key, heading) pairs."""
    cells = [[h for _, h in columns]]
    for row in rows:
        cells.append([_cell(row.get(k)) for k, _ in columns])
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = []
    for i, r in enumerate(cells):
        lines.append("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


# --------------------------------------------------------------------------- the machine


def machine_info() -> dict[str, Any]:
    """What the figures were measured on."""
    model = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = 0
    with contextlib.suppress(OSError), open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem = int(line.split()[1]) * 1024
                break
    versions = {}
    for dist in (
        "fastapi",
        "starlette",
        "uvicorn",
        "websockets",
        "httptools",
        "uvloop",
        "SQLAlchemy",
        "aiosqlite",
        "asyncpg",
    ):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory_gib": round(mem / 2**30, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "versions": versions,
    }


# --------------------------------------------------------------------------- the database


def migrate(url: str) -> None:
    """``alembic upgrade head`` against ``url``, as an operator would run it."""
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def wait_port(host: str, port: int, timeout: float = 30.0, proc: Any = None) -> None:
    """Wait until something accepts connections on ``host:port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), 0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout} s")


# --------------------------------------------------------------------------- a raw WebSocket


def mask_frame(opcode: int, payload: bytes) -> bytes:
    """One final client frame (clients must mask, RFC 6455 §5.3)."""
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 65536:
        head = bytes((0x80 | opcode, 0xFE)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0xFF)) + n.to_bytes(8, "big")
    key = random.getrandbits(32).to_bytes(4, "little")
    if not n:
        return head + key
    stream = (key * (n // 4 + 1))[:n]
    masked = int.from_bytes(payload, "little") ^ int.from_bytes(stream, "little")
    return head + key + masked.to_bytes(n, "little")


class RawWebSocket(asyncio.Protocol):
    """A minimal WebSocket client connection: text out, whole messages in, pings answered.

    ``on_message(payload: bytes)`` gets each complete message (decompressed when the server
    agreed to permessage-deflate); ``on_close()`` once when the connection ends. ``wire_in``
    counts the bytes read from the socket (compressed, with frame headers).
    """

    def __init__(
        self,
        host: str,
        port: int,
        path: str,
        on_message: Callable[[bytes], None],
        on_close: Callable[[], None] | None = None,
        *,
        deflate: bool = False,
    ) -> None:
        self.host = host
        self.port = port
        self.path = path
        self.on_message = on_message
        self.on_close = on_close
        self.offer_deflate = deflate
        self.deflate = False
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.open = False
        self.closed = False
        self.handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inflater: Any = None
        self._fragments: list[bytes] | None = None
        self._fragments_compressed = False
        self.wire_in = 0
        self.wire_out = 0
        self.close_code: int | None = None

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        key = base64.b64encode(random.getrandbits(128).to_bytes(16, "little")).decode()
        lines = [
            f"GET {self.path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if self.offer_deflate:
            lines.append("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits")
        transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())

    def data_received(self, data: bytes) -> None:
        self.wire_in += len(data)
        self.buf += data
        if not self.open:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end]).decode("latin-1").split("\r\n")
            del self.buf[: end + 4]
            if " 101 " not in head[0] + " ":
                if not self.handshake.done():
                    self.handshake.set_exception(ConnectionError(f"handshake: {head[0]}"))
                self._abort()
                return
            for line in head[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "sec-websocket-extensions" and (
                    "permessage-deflate" in value
                ):
                    self.deflate = True
                    self.inflater = zlib.decompressobj(wbits=-15)
            self.open = True
            if not self.handshake.done():
                self.handshake.set_result(None)
        self._frames()

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        if not self.handshake.done():
            self.handshake.set_exception(exc or ConnectionError("connection lost"))
        if not self.closed:
            self.closed = True
            if self.on_close is not None:
                self.on_close()

    # frames
    def _frames(self) -> None:
        buf = self.buf
        n = len(buf)
        pos = 0
        while n - pos >= 2:
            b0 = buf[pos]
            b1 = buf[pos + 1]
            length = b1 & 0x7F
            header = 2
            if length == 126:
                if n - pos < 4:
                    break
                length = int.from_bytes(buf[pos + 2 : pos + 4], "big")
                header = 4
            elif length == 127:
                if n - pos < 10:
                    break
                length = int.from_bytes(buf[pos + 2 : pos + 10], "big")
                header = 10
            if b1 & 0x80:  # a server must not mask; unmask anyway
                header += 4
            if n - pos < header + length:
                break
            payload = bytes(buf[pos + header : pos + header + length])
            if b1 & 0x80:
                key = buf[pos + header - 4 : pos + header]
                payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
            pos += header + length
            opcode = b0 & 0x0F
            fin = b0 & 0x80
            if opcode in (1, 2):
                if fin:
                    self._message(payload, bool(b0 & 0x40))
                else:
                    self._fragments = [payload]
                    self._fragments_compressed = bool(b0 & 0x40)
            elif opcode == 0 and self._fragments is not None:
                self._fragments.append(payload)
                if fin:
                    whole = b"".join(self._fragments)
                    self._fragments = None
                    self._message(whole, self._fragments_compressed)
            elif opcode == 8:
                self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                self._write(mask_frame(8, payload[:2]))
                self._abort()
                break
            elif opcode == 9:
                self._write(mask_frame(10, payload))
        if pos:
            del buf[:pos]

    def _message(self, payload: bytes, compressed: bool) -> None:
        if compressed and self.inflater is not None:
            payload = self.inflater.decompress(payload + b"\x00\x00\xff\xff")
        self.on_message(payload)

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.wire_out += len(data)
            self.transport.write(data)

    def _abort(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # the API
    def send_text(self, text: str) -> None:
        self._write(mask_frame(1, text.encode()))

    def close(self) -> None:
        if self.open:
            self._write(mask_frame(8, (1000).to_bytes(2, "big")))
        self._abort()


async def open_websocket(
    host: str,
    port: int,
    path: str,
    on_message: Callable[[bytes], None],
    on_close: Callable[[], None] | None = None,
    *,
    deflate: bool = False,
    timeout: float = 30.0,
) -> RawWebSocket:
    """Connect and finish the handshake."""
    loop = asyncio.get_running_loop()
    _, protocol = await asyncio.wait_for(
        loop.create_connection(
            lambda: RawWebSocket(host, port, path, on_message, on_close, deflate=deflate),
            host,
            port,
        ),
        timeout,
    )
    await asyncio.wait_for(protocol.handshake, timeout)
    return protocol


def chunks(items: Sequence[Any], parts: int) -> list[list[Any]]:
    """Split ``items`` into ``parts`` nearly equal runs (order kept)."""
    parts = max(1, min(parts, len(items) or 1))
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append(list(items[start:end]))
        start = end
    return out


def pick(mapping: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    return {k: mapping[k] for k in keys if k in mapping}


def deal_next_hand(core: Any, rng: random.Random) -> list[Any]:
    """Settle what waits between hands with the bots' choices (a bank offer and the like),
    then have the table's core deal, as its next-hand timer would; the effects of each step
    (:class:`app.runtime.table.effects.Effects`)."""
    steps = []
    for _ in range(100):
        engine = core.engine
        waiting = sorted(engine.to_act())
        if engine.in_hand or not waiting:
            break
        steps.append(core.apply_for(waiting[0], engine.bot_action(waiting[0], rng)))
    steps.append(core.deal_next())
    return steps


def recreate_postgres(url: str) -> None:
    """Drop and create the benchmark's own PostgreSQL database named in ``url`` (e.g.
    ``bench``): never ``postgres`` or a template, nor a name that is not a plain word."""
    from sqlalchemy.engine import make_url

    from app.cluster.launcher import ensure_database

    name = make_url(url).database
    if not name or not name.replace("_", "").isalnum() or name in ("postgres", "template1"):
        raise ValueError(f"refusing to recreate the database {name!r}: name one for the benchmark")
    ensure_database(url, fresh=True)
