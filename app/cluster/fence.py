"""Epoch fencing: every write a node makes for a table carries the table's lease epoch, and
the database refuses it unless that is the lease's epoch now (docs/scaling.md).

A node that has lost a table (its lease expired while it was cut off from PostgreSQL, or
slow) may still have writes in flight; a node's own clock cannot be trusted to stop them in
time. So the database checks: :func:`fenced` first calls ``table31_fence(table, node, epoch)``
(migrations/versions/0007_cluster.py), which refuses unless the lease is (node, epoch) and
keeps the lease row share-locked until the transaction ends; a trigger on every row that
belongs to a table refuses a write for a leased table from a transaction that did not fence
with its current epoch. A takeover's ``epoch = epoch + 1`` waits for the transactions fenced
with the old epoch, and every one after it is refused: :class:`Fenced`.

:class:`FencedWriter` runs every job of one table's actor through :func:`fenced`. On SQLite
(a single server, no leases) :func:`fenced` only runs the job.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from app.db.sqlstate import chain, sqlstate
from app.db.store import leases
from app.db.types import AsyncSession
from app.db.writer.base import DatabaseWriter

T = TypeVar("T")

FENCE_SQLSTATE = "T3FEN"
"""The SQLSTATE PostgreSQL raises a fenced write with (table31_fence and the row trigger)."""
FENCE_PREFIX = "fenced:"
"""How the refusal's message begins (matched too: an error that crossed from the writer
process as a RuntimeError keeps only its message)."""


class Fenced(Exception):
    """A write refused by the fence: ``node_id`` no longer holds ``table_id`` at ``epoch``
    (another node has adopted it, or it was released). The node has lost the table: it must
    drop it without writing anything more."""

    def __init__(self, table_id: str, node_id: str, epoch: int, detail: str = "") -> None:
        super().__init__(
            f"{FENCE_PREFIX} table {table_id} is not held by node {node_id} at epoch {epoch}"
            + (f" ({detail})" if detail else "")
        )
        self.table_id = table_id
        self.node_id = node_id
        self.epoch = epoch
        self.detail = detail

    def __reduce__(self) -> tuple[type[Fenced], tuple[str, str, int, str]]:
        # it crosses from the writer process to the server (app/db/writer/process.py)
        return (Fenced, (self.table_id, self.node_id, self.epoch, self.detail))


def is_fenced(exc: BaseException | None) -> bool:
    """Whether ``exc`` is the fence's refusal: :class:`Fenced`, or the database's error
    (SQLSTATE ``T3FEN``, as asyncpg raises it through SQLAlchemy's DBAPIError), or an error
    whose message says so (one that crossed the writer process's pipe as a RuntimeError)."""
    for link in chain(exc):
        if isinstance(link, Fenced) or sqlstate(link) == FENCE_SQLSTATE:
            return True
        message = str(link)
        if message.startswith(FENCE_PREFIX) or f": {FENCE_PREFIX} " in message:
            return True
    return False


async def fenced(
    session: AsyncSession,
    table_id: str,
    node_id: str,
    epoch: int,
    job: Callable[..., Awaitable[T]],
    /,
    *args: Any,
    **kwargs: Any,
) -> T:
    """Run ``job(session, *args, **kwargs)`` fenced: only if ``node_id`` holds ``table_id``
    at ``epoch`` now, and with the lease held (share-locked) until the transaction ends.
    Raises :class:`Fenced` when the lease says otherwise, or when the job writes for a table
    it is not fenced for. A module-level function of plain arguments: the writer process
    pickles it like any job. On SQLite it only runs the job (no leases there)."""
    if session.get_bind().dialect.name != "postgresql":
        return await job(session, *args, **kwargs)
    try:
        await leases.fence(session, table_id, node_id, epoch)
        return await job(session, *args, **kwargs)
    except Exception as exc:  # the database's error (SQLAlchemy's DBAPIError)
        if is_fenced(exc):
            raise Fenced(table_id, node_id, epoch, _first_line(exc)) from None
        raise


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    return str(orig).splitlines()[0][:300] if str(orig) else type(orig).__name__


class FencedWriter(DatabaseWriter):
    """One table's writer in cluster mode: every job goes through :func:`fenced` with the
    table's current (node, epoch), on the node's shared writer.

    ``epoch`` is an attribute the node sets when it adopts the table again, or a callable
    read at each submit; a job takes the epoch of the moment it is queued, so a job queued
    before a takeover is refused after it. ``start`` and ``close`` do not start or stop the
    shared writer (the node does); ``flush``, ``pending`` and the counters are the shared
    writer's."""

    def __init__(
        self,
        writer: DatabaseWriter,
        table_id: str,
        node_id: str | Callable[[], str],
        epoch: int | Callable[[], int],
    ) -> None:
        self.inner = writer
        self.table_id = table_id
        self._node_id = node_id
        self._epoch = epoch

    @property
    def node_id(self) -> str:
        return self._node_id() if callable(self._node_id) else self._node_id

    @node_id.setter
    def node_id(self, value: str | Callable[[], str]) -> None:
        self._node_id = value

    @property
    def epoch(self) -> int:
        return self._epoch() if callable(self._epoch) else self._epoch

    @epoch.setter
    def epoch(self, value: int | Callable[[], int]) -> None:
        self._epoch = value

    @property
    def url(self) -> str:
        return self.inner.url

    @url.setter
    def url(self, value: str) -> None:
        self.inner.url = value

    @property
    def failures(self) -> int:
        return self.inner.failures

    @failures.setter
    def failures(self, value: int) -> None:
        self.inner.failures = value

    @property
    def batches(self) -> int:
        return self.inner.batches

    @batches.setter
    def batches(self, value: int) -> None:
        self.inner.batches = value

    @property
    def rewritten(self) -> int:
        return self.inner.rewritten

    @rewritten.setter
    def rewritten(self, value: int) -> None:
        self.inner.rewritten = value

    def start(self) -> None:
        """The shared writer is the node's to start."""

    def submit(
        self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any
    ) -> asyncio.Future[T]:
        return self.inner.submit(
            fenced, self.table_id, self.node_id, self.epoch, job, *args, **kwargs
        )

    async def flush(self) -> None:
        """Wait until every job queued so far (this table's and the others') has run."""
        await self.inner.flush()

    @property
    def pending(self) -> int:
        return self.inner.pending

    async def close(self) -> None:
        """This table's jobs written (the shared writer stays up for the others)."""
        await self.inner.flush()
