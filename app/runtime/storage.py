"""Fail-stop: when the database cannot store, no table plays on.

Every table publishes a change only once its writes are committed (docs/architecture.md,
"Committed before announced"), so a write that fails leaves nothing told that is not
stored. What must not follow is a table dealing on from a state the database does not hold.
The guard hears of every storage failure (:func:`app.db.writer.base.storage_failure`: the
database unreachable, a full disk, the writer process dead), from the writer itself, and then

1. stops every table at once (:meth:`app.runtime.lobby.Lobby.suspend_all`): their sockets
   close with 4503 and the reason players read ("The server cannot save right now; play
   resumes when it can"), and they take nothing until they are rebuilt;
2. answers ``/healthz`` with 503 and that reason;
3. tries again, after 1 s, then 2, 4... up to ``STORAGE_RETRY_MAX_SECONDS``: starts the writer
   again if it died, writes a probe (a real write in a transaction of its own), and once that
   is committed, puts the house's balance back as the ledger holds it and rebuilds every
   stopped table from the database, as a restart would (the hand in play void, stakes
   back);
4. is healthy again once every table is back: play resumes by itself.

A storage failure during the rebuild starts the wait again; a table never deals in between.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.db.store.probe import storage_probe
from app.db.writer.base import DatabaseWriter
from app.ops.logs import error_line
from app.runtime.lobby import Lobby
from app.runtime.table.actor import STORAGE_DOWN

log = logging.getLogger("table31.storage")

Sleep = Callable[[float], Awaitable[Any]]


class StorageGuard:
    """The server's one judge of whether the database stores: trips on a storage failure,
    stops the tables, and brings them back once a write succeeds again."""

    def __init__(
        self,
        writer: DatabaseWriter,
        lobby: Lobby,
        *,
        retry_seconds: float = 1.0,
        retry_max_seconds: float = 15.0,
        reload: Callable[[], Awaitable[None]] | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.writer = writer
        self.lobby = lobby
        self.retry_seconds = retry_seconds
        self.retry_max_seconds = retry_max_seconds
        self.reload = reload
        """Reads back what lives in memory besides the tables (the house's balance)."""
        self.sleep = sleep
        self.reason: str | None = None
        """Why the tables are stopped (what ``/healthz`` says), or None while healthy."""
        self.detail: str | None = None
        """The failure, in one line, for the host and the log."""
        self.since: float | None = None
        self.trips = 0
        """How many times the guard stopped the tables (the ``table31_storage_trips``
        counter)."""
        self._again = False
        self._task: asyncio.Task[None] | None = None
        writer.on_storage_failure = self.failed

    @property
    def ok(self) -> bool:
        return self.reason is None

    def failed(self, exc: BaseException) -> None:
        """A storage failure (the writer's, on the loop): stop every table, and recover."""
        self._again = True
        self.detail = error_line(exc)
        if self.reason is None:
            self.reason = STORAGE_DOWN
            self.since = time.time()
            self.trips += 1
            log.error("storage failed (%s): every table stops until it is back", self.detail)
        self.lobby.suspend_all(STORAGE_DOWN)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        delay = self.retry_seconds
        while True:
            await self.sleep(delay)
            delay = min(delay * 2, self.retry_max_seconds)
            self._again = False
            try:
                await self.writer.restart()
                await self.writer.run(storage_probe)
                if self.reload is not None:
                    await self.reload()
                rebuilt = await self.lobby.rebuild_suspended()
            except Exception as exc:
                self.detail = error_line(exc)
                log.warning("storage still failing (%s); trying again in %g s", self.detail, delay)
                continue
            if self._again:  # it failed again meanwhile: some table may have stopped since
                continue
            log.info("storage is back: %d tables rebuilt, play resumes", rebuilt)
            self.reason = self.detail = self.since = None
            return

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
