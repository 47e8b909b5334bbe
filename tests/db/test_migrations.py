"""Alembic owns the schema: the migrations go up and down cleanly, and the models describe
exactly the schema they make (nothing left for autogenerate to find)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Connection

from app.db.models import Base
from app.db.session import make_engine
from tests.conftest import ROOT, migrate


def _alembic(url: str, *args: str) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    errors: list[BaseException] = []

    def run() -> None:
        try:
            getattr(command, args[0])(config, *args[1:])
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _differences(url: str) -> list[object]:
    async def compare() -> list[object]:
        engine = make_engine(url)

        def diff(connection: Connection) -> list[object]:
            context = MigrationContext.configure(connection)
            return list(compare_metadata(context, Base.metadata))

        async with engine.connect() as connection:
            found = await connection.run_sync(diff)
        await engine.dispose()
        return found

    return asyncio.run(compare())


def test_the_models_match_the_migrated_schema(database_url: str) -> None:
    """On the suite's database: SQLite, or PostgreSQL in the PostgreSQL pass."""
    assert _differences(database_url) == []


def test_the_migrations_go_down_and_up_again(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/updown.db"
    migrate(url)
    _alembic(url, "downgrade", "base")
    _alembic(url, "upgrade", "head")
    assert _differences(url) == []
