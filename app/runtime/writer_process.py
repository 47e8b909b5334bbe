"""The database writer as a process of its own: the server's default (``DATABASE_WRITER``).

The same queue as :class:`app.runtime.writer.Writer` (jobs in submission order, queued ones
written together in one transaction, a failing job failing alone), but the statements,
the driver and the commits run in a child process, on the machine's other core, instead of
sharing the interpreter lock with the event loop (docs/performance.md: a thread writer kept
one core ~85% busy with the loop, and the tail of act→ack was that sharing).

A job is a module-level async function whose first argument is the session, and plain
arguments: ``writer.submit(store.hand_finished, finished)``. It is pickled when submitted (a
job that cannot be pickled fails at once, alone); the jobs submitted during one turn of the
event loop go down a socket pair to the child in one frame, written without blocking (what
the socket does not take yet waits in a buffer until it is writable); the child runs them
with :func:`app.runtime.writer.write_batch` and sends the results back, which the loop reads
when they arrive. No thread per job: one would take the interpreter lock from the loop at
every job; a thread drains the socket only when it is full (a burst of hands while the loop is
too busy to come back to it often). Results and exceptions travel pickled too (ORM objects
arrive detached; an exception that cannot be pickled arrives as a RuntimeError with its
text). Frames are those of :class:`multiprocessing.connection.Connection` (a 4-byte
big-endian length, then the bytes), which the child uses.

The child dies with its parent (``PR_SET_PDEATHSIG`` on Linux; elsewhere it ends when the
socket closes): after a ``kill -9`` its open transaction rolls back, and the restarted server
is the only writer. It ignores SIGINT and SIGTERM, which the parent handles: a graceful
shutdown writes everything queued before the child stops.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import itertools
import logging
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.engine import URL

from app.runtime.writer import BATCH_LIMIT, DatabaseWriter, Result, write_batch

log = logging.getLogger("table31.writer")

T = TypeVar("T")
_STOP = b"stop"
"""Sent by :meth:`ProcessWriter.close`: the child writes what came before, then ends."""
_BYE = "bye"
_READ_SIZE = 1 << 16
GATHER_SECONDS = 0.02
"""How long the child waits for more jobs before it writes a batch that is not full: a
settled hand lands up to 20 ms later, in a transaction shared with the hands of other tables
(each commit costs the writer about as much as a hand's own statements)."""


class WriterGone(RuntimeError):
    """The writer process is not running (stopped, or died): the job was not written."""


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big", signed=True) + data


class ProcessWriter(DatabaseWriter):
    """Runs database jobs in order in a child process, batched in transactions; the same
    interface as :class:`app.runtime.writer.Writer`. Started, and then used, on one event
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

        The child is a fresh interpreter (``python -m app.runtime.writer_process``), not a
        multiprocessing spawn: that would re-import whatever ``__main__`` started the server
        (uvicorn, pytest, a user's script). It gets one end of a socket pair, and the URL
        through it (never on its command line, where ``ps`` would show a password)."""
        if self._running:
            return
        loop = asyncio.get_running_loop()
        parent_end, child_end = socket.socketpair()
        root = str(Path(__file__).resolve().parents[2])  # the folder that holds app/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.runtime.writer_process",
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
        self._unsent += _frame(pickle.dumps((self.url, self.batch_limit)))
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

    async def close(self) -> None:
        """Write what is queued, then stop the child process."""
        if not self._running:
            return
        if not self._stopping:
            self._stopping = True
            self._send()  # what this turn submitted, then the stop
            self._unsent += _frame(pickle.dumps([_STOP]))
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
        self._unsent += _frame(pickle.dumps(payloads, pickle.HIGHEST_PROTOCOL))
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
            if message == _BYE:
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
                self.failures += 1
            if future is None or future.done():  # the caller gave up (cancelled)
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
                future.add_done_callback(_log_failure)

    def _lost(self, *, expected: bool = False) -> None:
        """The child said goodbye, or died: fail what still waits, refuse what comes."""
        if not expected and not self._stopping:
            log.critical("the database writer process died; nothing more will be written")
        self._stopping = True
        self._hang_up()
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            _fail(future)
        if self._gone is not None and not self._gone.done():
            self._gone.set_result(None)

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
    if exc is not None and not isinstance(exc, WriterGone):
        log.error("database job failed: %r", exc, exc_info=exc)


# ---------------------------------------------------------------------- the child process


def child_main(fd: int, parent: int) -> None:
    """The writer process: read jobs, write them in batches, send results back."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pipe = Connection(fd)
    try:
        url, batch_limit = pickle.loads(pipe.recv_bytes())
    except EOFError:
        return
    from app.db.session import make_engine, make_sessionmaker

    loop = asyncio.new_event_loop()
    engine = make_engine(url, inline=True)
    sessionmaker = make_sessionmaker(engine)
    gc.freeze()  # what the imports built is never walked again (app/ops/collector.py)
    queued: collections.deque[tuple[int, bytes]] = collections.deque()
    stopping = False
    try:
        gather_until: float | None = None
        while queued or not stopping:
            wait = 0.0
            if queued and not stopping and len(queued) < batch_limit:
                # a moment for more jobs to join this transaction (fewer, fuller commits)
                if gather_until is None:
                    gather_until = time.monotonic() + GATHER_SECONDS
                wait = max(0.0, gather_until - time.monotonic())
            if not queued or pipe.poll(wait):
                try:
                    for item in pickle.loads(pipe.recv_bytes()):
                        if item == _STOP:
                            stopping = True
                        else:
                            queued.append(item)
                except EOFError:  # the parent is gone: nobody will read the results
                    return
                continue
            gather_until = None
            batch = [queued.popleft() for _ in range(min(batch_limit, len(queued)))]
            results, rewritten = loop.run_until_complete(_write(sessionmaker, batch))
            pipe.send_bytes(_dumps_results((1, int(rewritten), results)))
        pipe.send_bytes(pickle.dumps(_BYE))
    finally:
        loop.run_until_complete(engine.dispose())
        loop.close()


async def _write(
    sessionmaker: Any, items: list[tuple[int, bytes]]
) -> tuple[list[tuple[int, bool, Any]], bool]:
    """Unpickle and write one batch; a job that does not unpickle fails alone."""
    ids: list[int] = []
    calls = []
    failed: list[tuple[int, bool, Any]] = []
    for job_id, payload in items:
        try:
            job, args, kwargs = pickle.loads(payload)
        except Exception as exc:  # a module the child cannot import, say
            failed.append((job_id, False, RuntimeError(f"the job did not unpickle: {exc}")))
            continue
        ids.append(job_id)
        calls.append((job, args, kwargs))
    written: list[Result] = []
    rewritten = False
    if calls:
        try:
            written, rewritten = await write_batch(sessionmaker, calls)
        except BaseException as exc:  # pragma: no cover - never let one batch stop the writer
            log.exception("database batch failed")
            written = [(False, RuntimeError(f"the database batch failed: {exc}"))] * len(calls)
    return [(i, ok, value) for i, (ok, value) in zip(ids, written, strict=True)] + failed, rewritten


def _dumps_results(message: tuple[int, int, list[tuple[int, bool, Any]]]) -> bytes:
    """Pickle the results. A result that will not pickle, or an exception that would not
    unpickle on the other side (a custom ``__init__``), becomes a RuntimeError with its
    text: the server must always get an answer for every job."""
    batches, rewritten, results = message
    if all(ok for _, ok, _ in results):
        try:
            return pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        except Exception:
            pass  # one of the results: find it below
    safe = []
    for job_id, ok, value in results:
        try:
            data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
            if not ok:  # exceptions are rare: check the round trip
                pickle.loads(data)
        except Exception as exc:
            ok, value = False, RuntimeError(f"{value!r} (it could not be sent back: {exc})")
        safe.append((job_id, ok, value))
    return pickle.dumps((batches, rewritten, safe), pickle.HIGHEST_PROTOCOL)


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(0)


if __name__ == "__main__":
    child_main(int(sys.argv[1]), int(sys.argv[2]))
