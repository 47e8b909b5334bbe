"""Alembic environment: runs the migrations against DATABASE_URL (async drivers).

A URL that is no database this server can use, or a database that cannot be opened, ends the
run with Alembic's one line (``FAILED: DATABASE_URL ...``: a ``CommandError``) rather than a
traceback of 57 to 136 lines; ``make run`` checks the same first (``python -m app check-db``)."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from alembic.util import CommandError
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from app.core.config import Settings
from app.db.models import Base
from app.db.session import make_engine

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    return str(config.attributes.get("database_url") or Settings().database_url)


def run_migrations_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=sqlite,
    )
    with context.begin_transaction():
        context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")


def _one_line(url: str, exc: BaseException) -> CommandError:
    """A connection that failed, as Alembic's one line."""
    from app.db.preflight import redacted

    cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    reason = " ".join(str(cause).split()) or type(cause).__name__
    return CommandError(f"DATABASE_URL {redacted(url)!r}: cannot connect: {reason}")


async def run_migrations_online() -> None:
    from app.db.preflight import DatabaseProblem, parse_database_url

    url = database_url()
    try:
        parse_database_url(url)
    except DatabaseProblem as problem:
        raise CommandError(str(problem)) from None
    engine = make_engine(url)
    try:
        connection = await engine.connect()
    except (DBAPIError, OSError, TimeoutError) as exc:
        await engine.dispose()
        raise _one_line(url, exc) from None
    try:
        if connection.dialect.name == "sqlite":
            # SQLite changes a table in batch mode by copying it and dropping the old one,
            # which foreign keys refuse once rows point at it (players, say): they are off
            # while the migrations run, and checked at their end (in _run). The PRAGMA only
            # works outside a transaction.
            await connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            await connection.commit()
        await connection.run_sync(_run)
    finally:
        await connection.close()
        await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())
