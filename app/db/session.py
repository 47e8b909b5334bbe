"""The database engine and sessions (SQLite embedded by default, PostgreSQL by URL)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite
import orjson
from sqlalchemy import event, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


class EncodedJSON(str):
    """A value already encoded as JSON text, written to a JSON column as it is.

    A finished hand waits in the writer's queue as one string instead of the thousands of
    dicts and lists of its record: less for the garbage collector to walk while it waits
    (docs/performance.md, item 6)."""


def encode_json(value: Any) -> EncodedJSON:
    """``value`` encoded now, for a JSON column later (see :class:`EncodedJSON`)."""
    return EncodedJSON(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode())


def json_dumps(value: Any) -> str:
    """JSON columns (a hand's record, a table's state) are written with orjson: ~10x faster
    than ``json.dumps`` on a record; integer keys become strings as ``json.dumps`` makes
    them. Read back with the standard ``json.loads``. Text already encoded
    (:class:`EncodedJSON`) goes as it is."""
    if isinstance(value, EncodedJSON):
        return str(value)
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class InlineSQLite(aiosqlite.Connection):
    """An aiosqlite connection whose statements run on the calling thread.

    aiosqlite hands every call (cursor, execute, fetch, close, commit) to a thread of its
    own and back, three or four hand-overs of the interpreter lock a statement. The
    database writer already runs off the loop (app/db/writer/: a thread or a process), where
    blocking is harmless, and under load each of those hand-overs waited behind the event
    loop's thread: the writer settled 27 hands/s at 1,000 tables (docs/performance.md).
    Opening and closing still go through aiosqlite's thread; only the statements are inline."""

    async def _execute(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)


def make_engine(url: str, *, inline: bool = False) -> AsyncEngine:
    """An async engine; SQLite gets WAL, foreign keys and a busy timeout on every connection.

    Two engines on the same SQLite file work together (the writer's thread has its own,
    app/db/writer/thread.py): WAL lets the other engine read while one writes, and a writer
    that finds the file locked waits up to 30 s (``busy_timeout``) instead of failing.
    ``inline``: SQLite statements run on the calling thread (:class:`InlineSQLite`), for an
    engine used only from a thread that may block: the writer's."""
    if url.startswith("sqlite"):
        options: dict[str, Any] = {}
        if inline:
            options["async_creator"] = _inline_creator(url)
        engine = create_async_engine(
            url, connect_args={"timeout": 30}, json_serializer=json_dumps, **options
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_async_engine(
        url, pool_size=10, max_overflow=10, pool_pre_ping=True, json_serializer=json_dumps
    )


def _inline_creator(url: str) -> Callable[[], Awaitable[Any]]:
    """``create_async_engine(async_creator=...)`` for :class:`InlineSQLite` connections,
    opened with the arguments SQLAlchemy's aiosqlite dialect would give ``sqlite3.connect``."""
    sa_url = make_url(url)
    dialect = sa_url.get_dialect()()
    args, kwargs = dialect.create_connect_args(sa_url)
    kwargs = {**kwargs, "timeout": 30, "check_same_thread": False}

    def open_file() -> sqlite3.Connection:
        return sqlite3.connect(*args, **kwargs)  # type: ignore[call-overload]

    async def connect() -> aiosqlite.Connection:
        return await InlineSQLite(open_file, iter_chunk_size=64)

    return connect


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
