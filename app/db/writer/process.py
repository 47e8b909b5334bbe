"""The database writer as a process of its own: the server's default (``DATABASE_WRITER``).

The same queue as :class:`app.db.writer.thread.Writer` (jobs in submission order, queued ones
written together in one transaction, a failing job failing alone), but the statements,
the driver and the commits run in a child process, on the machine's other core, instead of
sharing the interpreter lock with the event loop (docs/performance.md: a thread writer kept
one core ~85% busy with the loop, and the tail of act→ack was that sharing).

A job is a module-level async function whose first argument is the session, and plain
arguments: ``writer.submit(store.hand_finished, finished)``. It is pickled when submitted (a
job that cannot be pickled fails at once, alone); the jobs submitted during one turn of the
event loop go down a socket pair to the child in one frame, written without blocking (what
the socket does not take yet waits in a buffer until it is writable); the child runs them
with :func:`app.db.writer.batch.write_batch` and sends the results back, which the loop reads
when they arrive. No thread per job: one would take the interpreter lock from the loop at
every job; a thread drains the socket only when it is full (a burst of hands while the loop is
too busy to come back to it often). Results and exceptions travel pickled too (ORM objects
arrive detached; an exception that cannot be pickled arrives as a RuntimeError with its
text). Frames are those of :class:`multiprocessing.connection.Connection` (a 4-byte
big-endian length, then the bytes: :mod:`app.db.writer.wire`), which the child
(:mod:`app.db.writer.child`) uses.

The child dies with its parent (``PR_SET_PDEATHSIG`` on Linux; elsewhere it ends when the
socket closes): after a ``kill -9`` its open transaction rolls back, and the restarted server
is the only writer. It ignores SIGINT and SIGTERM, which the parent handles: a graceful
shutdown writes everything queued before the child stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.engine import URL

from app.db.writer.base import BATCH_LIMIT, DatabaseWriter, WriterGone, refused
from app.db.writer.wire import BYE, STOP, frame

log = logging.getLogger("table31.writer")

T = TypeVar("T")
_READ_SIZE = 1 << 16


__all__ = ["ProcessWriter", "WriterGone"]


class ProcessWriter(DatabaseWriter):
    """Runs database jobs in order in a child process, batched in transactions; the same
    interface as :class:`app.db.writer.thread.Writer`. Started, and then used, on one event
    loop."""

    def __init__(self, database: str | URL, *, batch_limit: int = BATCH_LIMIT) -> None:
        self.url: str = (
            database.render_as_string(hide_password=False)
            if isinstance(database, URL)
            else database
        )
        self.batch_limit = batch_limit
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sock: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._outbox: list[tuple[int, bytes]] = []
        """Jobs submitted this turn of the loop (id, pickled call), sent together at its end;
        the id stays outside the call's pickle, so a job that does not unpickle is answered."""
        self._unsent = bytearray()
        """Frames the socket has not taken yet (the child is behind)."""
        self._inbox = bytearray()
        self._draining = False
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._gone: asyncio.Future[None] | None = None
        self._running = False
        self._stopping = False
        self.failures = 0
        self.batches = 0
        """Transactions written (each holds 1 to ``batch_limit`` jobs)."""
        self.rewritten = 0
        """Batches written again job by job, in savepoints, because one of their jobs failed."""
        self.pid: int | None = None

    # ------------------------------------------------------------------ the caller's side

    def start(self) -> None:
        """Start the child process and listen to it on the running loop.

        The child is a fresh interpreter (``python -m app.db.writer.child``), not a
        multiprocessing spawn: that would re-import whatever ``__main__`` started the server
        (uvicorn, pytest, a user's script). It gets one end of a socket pair, and the URL
        through it (never on its command line, where ``ps`` would show a password)."""
        if self._running:
            return
        if self._process is not None:  # a child that died: reaped before another starts
            with contextlib.suppress(OSError):
                self._process.kill()
            self._process = None
        loop = asyncio.get_running_loop()
        parent_end, child_end = socket.socketpair()
        root = str(Path(__file__).resolve().parents[3])  # the folder that holds app/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.db.writer.child",
                str(child_end.fileno()),
                str(os.getpid()),
            ],
            pass_fds=[child_end.fileno()],
            env=env,
            close_fds=True,
        )
        child_end.close()
        parent_end.setblocking(False)
        self._loop, self._sock, self._process, self.pid = loop, parent_end, process, process.pid
        self._outbox, self._unsent, self._inbox = [], bytearray(), bytearray()
        self._draining = False
        self._gone = loop.create_future()
        self._running, self._stopping = True, False
        self._unsent += frame(pickle.dumps((self.url, self.batch_limit)))
        self._write()
        loop.add_reader(parent_end.fileno(), self._read)

    def submit(
        self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any
    ) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if not self._running or self._stopping:
            future.set_exception(WriterGone("the database writer has stopped"))
            return future
        if loop is not self._loop:
            raise RuntimeError("the writer process is used from the loop that started it")
        job_id = next(self._ids)
        try:
            payload = pickle.dumps((job, args, kwargs), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a lambda, a closure, an open connection...
            future.set_exception(TypeError(f"a database job must pickle: {exc}"))
            return future
        self._waiting[job_id] = future
        if not self._outbox:
            loop.call_soon(self._send)
        self._outbox.append((job_id, payload))
        return future

    @property
    def pending(self) -> int:
        return len(self._waiting)

    @property
    def alive(self) -> bool:
        return self._running and not self._stopping

    async def restart(self) -> None:
        """A child that died is reaped and a new one started (the storage guard's recovery,
        app/runtime/storage.py); the jobs of the dead one were failed when it died."""
        if self.alive:
            return
        process = self._process
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
            await asyncio.to_thread(process.wait)
        self._process = None
        self._running = False
        self.start()

    async def close(self) -> None:
        """Write what is queued, then stop the child process."""
        if not self._running:
            return
        if not self._stopping:
            self._stopping = True
            self._send()  # what this turn submitted, then the stop
            self._unsent += frame(pickle.dumps([STOP]))
            self._write()
        assert self._gone is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._gone), 60)
        self._hang_up()
        process = self._process
        if process is not None:
            try:
                await asyncio.to_thread(process.wait, 10)
            except subprocess.TimeoutExpired:  # pragma: no cover - it did not end: make it
                process.kill()
                await asyncio.to_thread(process.wait)
        self._process = None
        self._running = False

    # ------------------------------------------------------------------ the socket, on the loop

    def _send(self) -> None:
        """At the end of a turn of the loop: the jobs it submitted, as one frame."""
        if not self._outbox or self._sock is None:
            self._outbox = []
            return
        payloads, self._outbox = self._outbox, []
        self._unsent += frame(pickle.dumps(payloads, pickle.HIGHEST_PROTOCOL))
        self._write()

    def _write(self) -> None:
        """Write what the socket takes now. What it does not take (the child is reading
        slower than the tables settle, or the loop is too busy to come back often: a full
        socket buffer is a few hundred kilobytes, a few dozen hands) goes to a drain thread,
        which waits for the socket in system calls, without the interpreter lock."""
        sock = self._sock
        if sock is None or self._draining:
            return  # the drain thread calls back when it is done
        try:
            while self._unsent:
                sent = sock.send(self._unsent)
                del self._unsent[:sent]
        except BlockingIOError:
            self._draining = True
            data, self._unsent = bytes(self._unsent), bytearray()
            threading.Thread(
                target=self._drain, args=(sock, data), name="table31-writer-drain", daemon=True
            ).start()
        except OSError:  # the child is gone: the reader sees it too
            self._unsent.clear()

    def _drain(self, sock: socket.socket, data: bytes) -> None:
        """On its own thread: send ``data`` whole, then hand the socket back to the loop."""
        view = memoryview(data)
        with contextlib.suppress(OSError, ValueError):  # closed meanwhile: the reader knows
            while view:
                select.select([], [sock], [], 1.0)
                try:
                    view = view[sock.send(view) :]
                except BlockingIOError:
                    continue
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._drained)

    def _drained(self) -> None:
        self._draining = False
        self._write()

    def _read(self) -> None:
        sock = self._sock
        if sock is None:
            return
        try:
            data = sock.recv(_READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._lost()
            return
        inbox = self._inbox
        inbox += data
        while len(inbox) >= 4:
            size = int.from_bytes(inbox[:4], "big", signed=True)
            if len(inbox) < 4 + size:
                break
            message = pickle.loads(inbox[4 : 4 + size])
            del inbox[: 4 + size]
            if message == BYE:
                self._lost(expected=True)
                return
            batches, rewritten, results = message
            self.batches += batches
            self.rewritten += rewritten
            self._settle(results)

    def _settle(self, results: list[tuple[int, bool, Any]]) -> None:
        """Results to futures; only then do the jobs stop being pending (back-pressure
        counts a job until its caller can see it written)."""
        for job_id, ok, value in results:
            future = self._waiting.pop(job_id, None)
            if not ok:
                self._storage_failed(value)
            if future is None or future.done():  # the caller gave up (cancelled)
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
                future.add_done_callback(_log_failure)

    def _lost(self, *, expected: bool = False) -> None:
        """The child said goodbye, or died: fail what still waits, refuse what comes."""
        died = not expected and not self._stopping
        if died:
            log.critical("the database writer process died; the tables stop until it is back")
        self._stopping = True
        self._hang_up()
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            _fail(future)
        if self._gone is not None and not self._gone.done():
            self._gone.set_result(None)
        if died:
            self._storage_failed(WriterGone("the database writer process died"))

    def _hang_up(self) -> None:
        sock, loop = self._sock, self._loop
        if sock is None or loop is None:
            return
        loop.remove_reader(sock.fileno())
        sock.close()
        self._sock = None


def _fail(future: asyncio.Future[Any]) -> None:
    if not future.done():
        future.set_exception(WriterGone("the database writer has stopped"))
        future.add_done_callback(_log_failure)


def _log_failure(future: asyncio.Future[Any]) -> None:
    exc = future.exception()
    if exc is not None and not isinstance(exc, WriterGone) and not refused(exc):
        log.error("database job failed: %r", exc, exc_info=exc)
