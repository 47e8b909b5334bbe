"""What the server asks of a database writer, whichever its form, and what a job is.

A job is a module-level async function whose first argument is the session, and plain
data (``submit(store.hand_finished, finished)``): not the caller's session, ORM objects
still attached to it, or anything bound to the caller's loop. Its result may be ORM
objects: sessions do not expire them on commit (app/db/session.py), so they stay readable
once detached.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.ledger import InsufficientFunds

T = TypeVar("T")
BATCH_LIMIT = 64
"""Jobs written in one transaction when they are queued together (under load)."""
Job = Callable[..., Awaitable[Any]]
"""An async function whose first argument is the session: ``store.hand_finished``, say."""
Call = tuple[Job, tuple[Any, ...], dict[str, Any]]
"""A job and the arguments that follow the session: what is queued (and, for the writer
process, pickled: a module-level function and plain data)."""
Result = tuple[bool, Any]
"""A job's outcome: (True, its result) or (False, its exception)."""


class WriterGone(RuntimeError):
    """The writer is not running (stopped, or died): the job was not written."""


class DatabaseWriter(abc.ABC):
    """What the server asks of a database writer: :class:`app.db.writer.thread.Writer` (a
    thread) or :class:`app.db.writer.process.ProcessWriter` (a process)."""

    url: str
    failures: int
    """Jobs that failed for the storage's sake (:func:`storage_failure`): a refusal (a
    bankroll short of a buy-in) or a bug's exception is not counted."""
    batches: int
    rewritten: int
    on_storage_failure: Callable[[BaseException], None] | None = None
    """Told of every storage failure (a job's, or the writer's own death), on the caller's
    loop: the server's storage guard (app/runtime/storage.py) stops the tables."""

    @property
    def alive(self) -> bool:
        """Whether jobs submitted now will be written (not stopped, not died)."""
        return True

    async def restart(self) -> None:
        """Start again after the writer died (the storage guard's recovery); a writer that
        is alive is left as it is."""
        if not self.alive:
            self.start()

    def _storage_failed(self, exc: BaseException) -> None:
        """Count a job's failure if it is the storage's, and tell the guard."""
        if not storage_failure(exc):
            return
        self.failures += 1
        if self.on_storage_failure is not None:
            self.on_storage_failure(exc)

    @abc.abstractmethod
    def start(self) -> None: ...

    @abc.abstractmethod
    def submit(
        self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any
    ) -> asyncio.Future[T]:
        """Queue ``job(session, *args, **kwargs)``; the returned future (of the caller's
        loop) holds its result (or its exception)."""

    async def run(self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any) -> T:
        """Queue a job and wait for its result."""
        return await self.submit(job, *args, **kwargs)

    async def flush(self) -> None:
        """Wait until every job queued so far has run."""
        await self.run(nothing)

    @property
    @abc.abstractmethod
    def pending(self) -> int:
        """Jobs queued or being written."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Write what is queued, then stop."""


async def nothing(_session: AsyncSession) -> None:
    """The job :meth:`DatabaseWriter.flush` waits for."""
    return None


def storage_failure(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not store a job, rather than answering it
    (a refusal, :func:`refused`) or a bug in the job (an ``IntegrityError``, a
    ``TypeError``): the database or its connection is gone (``OperationalError``,
    ``InterfaceError``, a lost connection), the disk is full, a statement timed out, or the
    writer itself died (:class:`WriterGone`). What the storage guard stops the tables for,
    and what ``table31_writer_failures`` counts."""
    from sqlalchemy import exc as sa

    if isinstance(exc, WriterGone | OSError | TimeoutError | ConnectionError):
        return True
    if isinstance(exc, sa.OperationalError | sa.InterfaceError | sa.TimeoutError):
        return True
    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, sa.DBAPIError) and not isinstance(exc, sa.IntegrityError):
        text = str(exc.orig).lower()
        return any(word in text for word in ("disk", "full", "connection", "i/o"))
    return False


def refused(exc: BaseException) -> bool:
    """A job's answer rather than a failure: a bankroll that does not hold a buy-in or a
    top-up. Its caller answers the player; the log need not repeat it (with a traceback)."""
    return isinstance(exc, InsufficientFunds)
