"""The real app on an event loop of its own, in a thread, for the fuzzers: hypothesis's
examples run in the test's thread, with blocking requests or by handing each step to the
server's loop (:meth:`ThreadedServer.run`). One server serves every example of a test."""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.conftest import LiveServer, _truncate, make_settings

T = TypeVar("T")


class ThreadedServer:
    """A ``LiveServer`` (built from ``make_settings(database_url, **overrides)``) whose loop
    runs in a daemon thread named ``name``."""

    def __init__(self, database_url: str, name: str = "fuzz-server", **overrides: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()
        self.live = self.run(self._make(database_url, overrides))

    @staticmethod
    async def _make(database_url: str, overrides: dict[str, Any]) -> LiveServer:
        return LiveServer(make_settings(database_url, **overrides))

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        """Run ``coro`` on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        try:
            self.run(self.live.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()


def fresh_database(
    tmp_path_factory: pytest.TempPathFactory,
    sqlite_template: Path,
    postgres_url: str | None,
    name: str,
) -> str:
    """A migrated, empty database for a module's server, as ``database_url`` gives a test:
    PostgreSQL emptied, or a copy of the migrated SQLite template."""
    if postgres_url:
        asyncio.run(_truncate(postgres_url))
        return postgres_url
    path = tmp_path_factory.mktemp(name) / "table31.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"
