"""The database engine and sessions (SQLite embedded by default, PostgreSQL by URL)."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import event
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


def make_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite gets WAL, foreign keys and a busy timeout on every connection.

    Two engines on the same SQLite file work together (the writer's thread has its own,
    app/runtime/writer.py): WAL lets the other engine read while one writes, and a writer
    that finds the file locked waits up to 30 s (``busy_timeout``) instead of failing."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30}, json_serializer=json_dumps)

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


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
