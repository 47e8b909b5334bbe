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

import ast
import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, inspect, make_url, text
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


def code_heads(migrations: Path = MIGRATIONS) -> set[str]:
    """The migrations this code needs the database to be at: Alembic's heads, the revisions
    no other revision follows, read from each migration's ``revision`` and ``down_revision``.
    Not through Alembic, whose import (Mako, Pygments) cost every server's start a tenth of
    its CPU; tests/db/test_migrations.py holds the two to the same answer."""
    revisions: set[str] = set()
    followed: set[str] = set()
    for path in (migrations / "versions").glob("*.py"):
        names = _assigned(ast.parse(path.read_text(), str(path)))
        if isinstance(names.get("revision"), str):
            revisions.add(names["revision"])
            down = names.get("down_revision")
            followed.update([down] if isinstance(down, str) else down or ())
    return revisions - followed


def _assigned(module: ast.Module) -> dict[str, Any]:
    """A module's top-level names assigned a literal (``revision: str = "0014"``)."""
    found: dict[str, Any] = {}
    for statement in module.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name):
            with contextlib.suppress(ValueError):
                found[target.id] = ast.literal_eval(value)
    return found


VERSION_TABLE = "alembic_version"
"""Where Alembic keeps the revisions a database is at (migrations/env.py keeps its default)."""


def _database_heads(connection: Connection) -> set[str]:
    """The revisions the database is at; none if it was never migrated (no version table)."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return set()
    return set(connection.scalars(text(f"SELECT version_num FROM {VERSION_TABLE}")))


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
