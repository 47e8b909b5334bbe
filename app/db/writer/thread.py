"""The database writer on a thread of the server's, with its own event loop and its own
engine (same database URL; the server's engine stays on the main loop for reads).

A job's future belongs to the caller's loop and is resolved there
(``loop.call_soon_threadsafe``): one cross-thread call per loop and batch. The server's
default is the same queue in a process of its own (:mod:`app.db.writer.process`); both
write with :func:`app.db.writer.batch.write_batch`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.session import make_engine, make_sessionmaker
from app.db.writer.base import BATCH_LIMIT, Call, DatabaseWriter, WriterGone, refused
from app.db.writer.batch import write_batch

log = logging.getLogger("table31.writer")

T = TypeVar("T")
Item = tuple[Call, asyncio.Future[Any], asyncio.AbstractEventLoop]
Outcome = tuple[asyncio.Future[Any], bool, Any]
_STOP = object()
"""Queued by :meth:`Writer.close`: the jobs before it run, then the thread ends."""


class Writer(DatabaseWriter):
    """Runs database jobs one after another on its own thread, batched in transactions."""

    def __init__(
        self,
        database: str | URL | async_sessionmaker[AsyncSession],
        *,
        batch_limit: int = BATCH_LIMIT,
    ) -> None:
        """``database``: the URL (or a sessionmaker bound to an engine on it, whose URL is
        used); the writer builds its own engine on its thread when started."""
        url: str | URL = (
            database.kw["bind"].url if isinstance(database, async_sessionmaker) else database
        )
        self.url: str = url.render_as_string(hide_password=False) if isinstance(url, URL) else url
        self.batch_limit = batch_limit
        self._queue: collections.deque[Item | object] = collections.deque()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the writer's own
        self._wake: asyncio.Event | None = None
        self._idle = False  # the writer waits for a job (a submit must wake it)
        self._stopping = False
        self._finished = False
        self._closers: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._in_flight = 0
        self.failures = 0
        self.batches = 0
        """Transactions written (each holds 1 to ``batch_limit`` jobs)."""
        self.rewritten = 0
        """Batches written again job by job, in savepoints, because one of their jobs failed."""

    # ------------------------------------------------------------------ the caller's side

    def start(self) -> None:
        """Start the thread (its loop and engine); jobs submitted before run first."""
        if self._thread is not None:
            return
        self._stopping = self._finished = False
        ready = threading.Event()
        errors: list[BaseException] = []
        thread = threading.Thread(
            target=self._thread_main, args=(ready, errors), name="table31-writer", daemon=True
        )
        self._thread = thread
        thread.start()
        ready.wait()  # the engine is built (no connection yet): a few milliseconds
        if errors:
            thread.join()
            self._thread = None
            raise errors[0]

    def submit(
        self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any
    ) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._stopping:
            future.set_exception(WriterGone("the database writer has stopped"))
            return future
        self._queue.append(((job, args, kwargs), future, loop))
        if self._finished:  # its thread ended meanwhile: nobody will take the job
            self._fail_queued()
        else:
            self._notify()
        return future

    @property
    def pending(self) -> int:
        return len(self._queue) + self._in_flight

    @property
    def alive(self) -> bool:
        return self._thread is not None and not self._finished and not self._stopping

    async def restart(self) -> None:
        """A thread that ended is joined and a new one started (the storage guard's
        recovery)."""
        if self.alive:
            return
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)
            self._thread = None
        self.start()

    async def close(self) -> None:
        """Run what is queued, then stop the thread and dispose of its engine."""
        thread = self._thread
        if thread is None:
            self._fail_queued()  # never started: nobody will run them
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._stopping = True  # from now on submit refuses
            wait = not self._finished
            if wait:
                self._closers.append((asyncio.get_running_loop(), done))
                self._queue.append(_STOP)
        if wait:
            self._notify(force=True)
            await done
        thread.join()  # it has finished its work: this returns at once
        self._thread = None

    def _notify(self, *, force: bool = False) -> None:
        """Wake the writer if it waits for work (one cross-thread call per idle period, not
        one per job)."""
        loop, wake = self._loop, self._wake
        if not (self._idle or force) or loop is None or wake is None:
            return
        self._idle = False
        with contextlib.suppress(RuntimeError):  # its loop has just closed: it is ending
            loop.call_soon_threadsafe(wake.set)

    def _fail_queued(self) -> None:
        """Fail every job still queued (the writer is gone or never started)."""
        outcomes: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
        while True:
            try:
                item = self._queue.popleft()
            except IndexError:
                break
            if item is _STOP:
                continue
            _, future, loop = cast(Item, item)
            error = WriterGone("the database writer has stopped")
            outcomes.setdefault(loop, []).append((future, False, error))
        _deliver(outcomes)

    # ------------------------------------------------------------------ the writer's thread

    def _thread_main(self, ready: threading.Event, errors: list[BaseException]) -> None:
        try:
            loop = asyncio.new_event_loop()
            try:
                loop.run_until_complete(self._serve(ready, errors))
                loop.run_until_complete(loop.shutdown_asyncgens())
            finally:
                self._loop = None
                loop.close()
        except BaseException as exc:  # pragma: no cover - the loop itself failed
            log.exception("the database writer stopped")
            if not ready.is_set():
                errors.append(exc)
        finally:
            ready.set()
            with self._lock:
                self._stopping = self._finished = True
                closers, self._closers = self._closers, []
            self._fail_queued()
            for caller, done in closers:
                with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                    caller.call_soon_threadsafe(_set_done, done)

    async def _serve(self, ready: threading.Event, errors: list[BaseException]) -> None:
        try:
            engine = make_engine(self.url, inline=True)
            sessionmaker = make_sessionmaker(engine)
            wake = self._wake = asyncio.Event()
            self._loop = asyncio.get_running_loop()
        except Exception as exc:  # a bad URL: start() raises it
            errors.append(exc)
            return
        finally:
            ready.set()
        try:
            while True:
                batch, stop = self._take()
                if batch:
                    await self._run_batch(sessionmaker, batch)
                if stop:
                    return
                if batch:
                    continue
                self._idle = True
                if self._queue:  # queued between the take and the flag: no wake-up came
                    self._idle = False
                    continue
                await wake.wait()
                wake.clear()
        finally:
            await engine.dispose()

    def _take(self) -> tuple[list[Item], bool]:
        """Up to ``batch_limit`` queued jobs, and whether the stop came after them."""
        batch: list[Item] = []
        while len(batch) < self.batch_limit:
            try:
                item = self._queue.popleft()
            except IndexError:
                break
            if item is _STOP:
                return batch, True
            batch.append(cast(Item, item))
        return batch, False

    async def _run_batch(
        self, sessionmaker: async_sessionmaker[AsyncSession], batch: list[Item]
    ) -> None:
        """Run queued jobs in ONE transaction (:func:`write_batch`); hand out the results
        once it is over. Never raises: a batch that fails must not stop the writer (callers
        would wait forever)."""
        self._in_flight = len(batch)
        try:
            results, rewritten = await write_batch(sessionmaker, [call for call, _, _ in batch])
        except BaseException:  # pragma: no cover - never let one batch stop the writer
            log.exception("database batch failed")
            error = RuntimeError("the database batch failed")
            results, rewritten = [(False, error)] * len(batch), False
        self.batches += 1
        self.rewritten += rewritten
        by_loop: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
        for (_, future, loop), (ok, value) in zip(batch, results, strict=True):
            by_loop.setdefault(loop, []).append((future, ok, value))
        self._in_flight = 0
        _deliver(by_loop, self._storage_failed)


def _deliver(
    outcomes: dict[asyncio.AbstractEventLoop, list[Outcome]],
    failed: Callable[[BaseException], None] | None = None,
) -> None:
    """Resolve futures on their own loops: one cross-thread call per loop and batch;
    ``failed`` hears of each failure there (the writer's count and storage guard)."""
    for loop, items in outcomes.items():
        try:
            loop.call_soon_threadsafe(_settle, items, failed)
        except RuntimeError:  # the caller's loop is closed: nobody waits for these
            log.warning("%d database results dropped: their event loop is closed", len(items))


def _settle(items: list[Outcome], failed: Callable[[BaseException], None] | None) -> None:
    """On the caller's loop: hand each job's result or exception to its future."""
    for future, ok, value in items:
        if not ok and failed is not None:
            failed(value)
        if future.done():  # the caller gave up (cancelled)
            continue
        if ok:
            future.set_result(value)
            continue
        future.set_exception(value)
        # Retrieve it so an unawaited job's failure is logged, not lost.
        future.add_done_callback(_log_failure)


def _set_done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _log_failure(future: asyncio.Future[Any]) -> None:
    exc = future.exception()
    if exc is not None and not refused(exc):
        log.error("database job failed: %r", exc, exc_info=exc)
