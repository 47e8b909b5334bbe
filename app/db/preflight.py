"""Before the server starts: is ``DATABASE_URL`` a database this server can use, can it be
reached, and has it been migrated? Each problem is told in one line (:class:`DatabaseProblem`)
that ``python -m app serve`` prints before it exits, instead of a traceback from deep inside
the start-up (a bad URL printed 55 to 184 lines).

Two URLs that SQLAlchemy accepts are refused on purpose: a PostgreSQL URL without a database
name (asyncpg would quietly use the server's default database, e.g. ``postgres``) and an
SQLite database in memory (it would vanish with the process, and each connection would see
its own, empty one).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from sqlalchemy import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import create_async_engine

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
EXAMPLES = (
    "sqlite+aiosqlite:///PATH/table31.db or postgresql+asyncpg://USER:PASSWORD@HOST:5432/DATABASE"
)
DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}
CONNECT_SECONDS = 10


class DatabaseProblem(Exception):
    """Why the server cannot use its database, in one line for the person starting it."""


def redacted(url: str) -> str:
    """``url`` with any password hidden, for a message."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def parse_database_url(url: str) -> URL:
    """The URL, parsed; :class:`DatabaseProblem` for one this server cannot use."""
    try:
        parsed = make_url(url)
    except Exception:  # SQLAlchemy's ArgumentError, or a ValueError from a bad port
        raise DatabaseProblem(
            f"DATABASE_URL {redacted(url)!r} is not a database URL; use {EXAMPLES}"
        ) from None
    backend = parsed.get_backend_name()
    if parsed.drivername not in DRIVERS.values():
        wanted = DRIVERS.get(backend)
        hint = f"write {wanted}://…" if wanted else f"use {EXAMPLES}"
        raise DatabaseProblem(
            f"DATABASE_URL uses {parsed.drivername!r}, which this server cannot use: {hint}"
        )
    if backend == "postgresql" and not parsed.database:
        raise DatabaseProblem(
            f"DATABASE_URL {redacted(url)!r} names no database (…/DATABASE at the end); "
            "PostgreSQL would otherwise use its default database"
        )
    if backend == "sqlite" and (
        not parsed.database or parsed.database == ":memory:" or parsed.query.get("mode") == "memory"
    ):
        raise DatabaseProblem(
            f"DATABASE_URL {redacted(url)!r} names no SQLite file "
            "(sqlite+aiosqlite:///PATH/table31.db); a database in memory would be lost"
        )
    return parsed


def _reason(exc: BaseException) -> str:
    """The first line of what the driver said."""
    cause: BaseException = exc.orig if isinstance(exc, DBAPIError) and exc.orig else exc
    if isinstance(cause, TimeoutError):
        return f"no answer within {CONNECT_SECONDS} s"
    text = str(cause).strip().splitlines()
    return text[0] if text else type(cause).__name__


def _where(parsed: URL) -> str:
    if parsed.get_backend_name() == "sqlite":
        return f"the SQLite file {parsed.database}"
    host = parsed.host or "the local socket"
    port = f":{parsed.port}" if parsed.port else ""
    return f"PostgreSQL database {parsed.database!r} at {host}{port}"


def code_heads() -> set[str]:
    """The migrations this code needs the database to be at (Alembic's heads)."""
    from alembic.script import ScriptDirectory

    return set(ScriptDirectory(str(MIGRATIONS)).get_heads())


def _database_heads(connection: Any) -> set[str]:
    from alembic.runtime.migration import MigrationContext

    return set(MigrationContext.configure(connection).get_current_heads())


async def check_database(url: str) -> None:
    """:class:`DatabaseProblem` unless ``url`` is usable, reachable and migrated to head."""
    parsed = parse_database_url(url)
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite and not Path(str(parsed.database)).is_file():
        raise DatabaseProblem(
            f"{_where(parsed)} does not exist: run the migrations first "
            "(alembic upgrade head), which create it"
        )
    engine = create_async_engine(url, connect_args={"timeout": CONNECT_SECONDS})
    try:
        async with asyncio.timeout(CONNECT_SECONDS + 5):
            async with engine.connect() as connection:
                found = await connection.run_sync(_database_heads)
    except (DBAPIError, OSError, TimeoutError) as exc:
        raise DatabaseProblem(f"cannot open {_where(parsed)}: {_reason(exc)}") from None
    finally:
        await engine.dispose()
    needed = code_heads()
    if not found:
        raise DatabaseProblem(
            f"{_where(parsed)} has not been migrated: run the migrations first "
            "(alembic upgrade head)"
        )
    if found != needed:
        raise DatabaseProblem(
            f"{_where(parsed)} is at migration {', '.join(sorted(found))} and this code needs "
            f"{', '.join(sorted(needed))}: run the migrations (alembic upgrade head)"
        )
