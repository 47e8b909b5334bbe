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


class DatabaseWriter(abc.ABC):
    """What the server asks of a database writer: :class:`app.db.writer.thread.Writer` (a
    thread) or :class:`app.db.writer.process.ProcessWriter` (a process)."""

    url: str
    failures: int
    batches: int
    rewritten: int

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


def refused(exc: BaseException) -> bool:
    """A job's answer rather than a failure: a bankroll that does not hold a buy-in or a
    top-up. Its caller answers the player; the log need not repeat it (with a traceback)."""
    return isinstance(exc, InsufficientFunds)
