"""What a node's tables need of it (app/cluster/node.py): a new table opened with its lease
in one transaction (a room's switch's new table too), the fenced writer of a table's actor, and
the writer that refuses every job once the node has dropped a table (docs/scaling.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from app.cluster.fence import FencedWriter, is_fenced
from app.db import store
from app.db.store import leases
from app.db.types import AsyncSession
from app.db.writer.base import DatabaseWriter
from app.runtime.house import open_house

log = logging.getLogger("table31.node")
T = TypeVar("T")

VERSION_BASE = 1_000_000_000
"""A table's versions under lease epoch ``e`` start at ``e * VERSION_BASE``: a client that
reconnects to the table's new owner sees a version greater than any the old owner sent."""
MOVED = "this table moved to another node; reconnecting"
"""Why a table's sockets close with 4409 when its node stops serving it."""


FIRST_EPOCH = 1
"""A new table's lease epoch: assigned to its node (0) and adopted by it at once (1)."""


async def lease_new_table(session: AsyncSession, node_id: str, table_id: str) -> int:
    """A new table's lease (its row written, in this transaction): assigned to ``node_id``
    and adopted, :data:`FIRST_EPOCH`."""
    await leases.assign(session, table_id, node_id)
    epoch = await leases.adopt(session, table_id, node_id)
    if epoch != FIRST_EPOCH:  # cannot happen: the lease was made for this node just now
        raise RuntimeError(f"the new table {table_id} could not be leased ({epoch})")
    return epoch


async def create_table_leased(session: AsyncSession, node_id: str, **table: Any) -> int:
    """A writer job: a new table, its lease assigned to ``node_id`` and adopted, in ONE
    transaction (no other node can ever see the table without its owner). The epoch."""
    await store.create_table(session, **table)
    await session.flush()  # the table row the lease refers to
    return await lease_new_table(session, node_id, table["table_id"])


async def leased(
    session: AsyncSession,
    node_id: str,
    table_id: str,
    job: Callable[..., Awaitable[T]],
    /,
    *args: Any,
    **kwargs: Any,
) -> T:
    """A writer job: ``job(session, *args, **kwargs)``, which writes the new table
    ``table_id`` (a room's switch, run through the old table's fence), then the new table's
    lease for ``node_id``, adopted, in ONE transaction: the node that made the table serves
    it, and no other node can ever see it without its owner. ``job``'s result.

    The new table's rows are written before its lease exists, so the fence's trigger lets
    them through (a table with no lease is not checked); nothing is written for it after."""
    result = await job(session, *args, **kwargs)
    await session.flush()  # the table row the lease refers to
    await lease_new_table(session, node_id, table_id)
    return result


async def open_house_once(session: AsyncSession, float_amount: int) -> int:
    """:func:`open_house` for a node: nodes starting at once take turns (a lock held to the
    end of the transaction), so the house's opening float is granted once, not once each."""
    await leases.take_turns_opening_the_house(session)
    return await open_house(session, float_amount)


class TableWriter(FencedWriter):
    """A table actor's writer on a node: :class:`FencedWriter`, and a job the fence refuses
    calls ``lost(table_id, epoch)`` (the node lost the table: it drops it at once)."""

    def __init__(
        self,
        writer: DatabaseWriter,
        table_id: str,
        node_id: str,
        epoch: int,
        lost: Callable[[str, int], None],
    ) -> None:
        super().__init__(writer, table_id, node_id, epoch)
        self.lost = lost

    def submit(
        self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any
    ) -> asyncio.Future[T]:
        future = super().submit(job, *args, **kwargs)
        future.add_done_callback(self._check)
        return future

    def _check(self, future: asyncio.Future[Any]) -> None:
        if not future.cancelled() and is_fenced(future.exception()):
            self.lost(self.table_id, self.epoch)


class Tables(Protocol):
    """The tables a node serves, as their writers see them (``ClusterHosting``,
    app/cluster/hosting.py)."""

    writer: DatabaseWriter
    node_id: str
    epochs: dict[str, int]

    def drop(self, table_id: str, reason: str) -> None: ...


def table_writer(tables: Tables, table_id: str) -> TableWriter:
    """The writer of a table the node serves under its epoch now; a write the fence refuses
    drops the table (unless the node serves it under a newer epoch since)."""
    epoch = tables.epochs[table_id]

    def lost(table_id: str, refused: int) -> None:
        if tables.epochs.get(table_id) == refused:
            log.warning("table %s: a write was refused by the fence; dropped", table_id)
            tables.drop(table_id, MOVED)

    return TableWriter(tables.writer, table_id, tables.node_id, epoch, lost)


class Moved(Exception):
    """A write of a table this node no longer serves: refused here, before the database."""


class Dropped(DatabaseWriter):
    """The writer of a dropped table's actor: refuses every job. A section of the actor still
    waking up (a buy-in's answer, a clock) may try to write; nothing of it may land."""

    url = ""
    failures = 0
    batches = 0
    rewritten = 0

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id

    def start(self) -> None:
        return None

    def submit(
        self, job: Callable[..., Awaitable[T]], /, *args: Any, **kwargs: Any
    ) -> asyncio.Future[T]:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        future.set_exception(Moved(f"table {self.table_id} is served by another node now"))
        future.add_done_callback(_quiet)
        return future

    async def flush(self) -> None:
        return None

    @property
    def pending(self) -> int:
        return 0

    async def close(self) -> None:
        return None


def _quiet(future: asyncio.Future[Any]) -> None:
    future.exception()  # retrieved: no "exception was never retrieved" in the log
