"""Alembic owns the schema: the migrations go up and down cleanly, and the models describe
exactly the schema they make (nothing left for autogenerate to find)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
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


def test_0013_moves_each_bots_level_from_the_tables_state_to_its_seat(tmp_path: Path) -> None:
    """Tables stored before 0013 kept their bots' levels in the between-hands state only:
    going up copies each into the bot's seat (a person's seat, or a level for a seat nobody
    holds, is left alone)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/levels.db"
    _alembic(url, "upgrade", "0012")
    db = sqlite3.connect(tmp_path / "levels.db")
    now = "2026-11-28 00:00:00"
    for player_id, is_bot in (("p-ada", 0), ("p-bot", 1), ("p-old", 1)):
        db.execute(
            "INSERT INTO players (id, name, is_bot, created_at, name_key) VALUES (?, ?, ?, ?, ?)",
            (player_id, player_id, is_bot, now, player_id),
        )
    state = {"runtime_bot_levels": {"2": "best", "3": "random", "9": "best", "x": "best"}}
    db.execute(
        "INSERT INTO tables (id, name, game, options, status, created_at, state, hands_played)"
        " VALUES ('t1', 'T', 'vingt-un', '{}', 'open', ?, ?, 0)",
        (now, json.dumps(state)),
    )
    db.execute(
        "INSERT INTO tables (id, name, game, options, status, created_at, hands_played)"
        " VALUES ('t2', 'U', 'vingt-un', '{}', 'open', ?, 0)",
        (now,),
    )
    for table_id, seat, player_id in (("t1", 1, "p-ada"), ("t1", 2, "p-bot"), ("t2", 2, "p-old")):
        db.execute(
            "INSERT INTO seats (table_id, seat, player_id, sat_at) VALUES (?, ?, ?, ?)",
            (table_id, seat, player_id, now),
        )
    db.commit()
    db.close()
    _alembic(url, "upgrade", "head")
    db = sqlite3.connect(tmp_path / "levels.db")
    levels = db.execute("SELECT table_id, seat, bot_level FROM seats ORDER BY table_id, seat")
    assert levels.fetchall() == [("t1", 1, None), ("t1", 2, "best"), ("t2", 2, None)]
    db.close()


def test_0014_adds_each_players_language_and_going_down_drops_it(tmp_path: Path) -> None:
    """Players stored before 0014 have chosen no language (null: their browsers decide);
    going down drops the column and keeps the players."""
    url = f"sqlite+aiosqlite:///{tmp_path}/language.db"
    _alembic(url, "upgrade", "0013")
    db = sqlite3.connect(tmp_path / "language.db")
    db.execute(
        "INSERT INTO players (id, name, is_bot, created_at, name_key)"
        " VALUES ('p-ada', 'Ada', 0, '2026-11-28 00:00:00', 'ada')"
    )
    db.commit()
    db.close()
    _alembic(url, "upgrade", "0014")
    db = sqlite3.connect(tmp_path / "language.db")
    assert db.execute("SELECT id, language FROM players").fetchall() == [("p-ada", None)]
    db.execute("UPDATE players SET language = 'el'")
    db.commit()
    db.close()
    _alembic(url, "downgrade", "0013")
    db = sqlite3.connect(tmp_path / "language.db")
    columns = [row[1] for row in db.execute("PRAGMA table_info(players)")]
    assert "language" not in columns
    assert db.execute("SELECT id FROM players").fetchall() == [("p-ada",)]
    db.close()


MIGRATION = """
revision = {revision!r}
down_revision = {down!r}
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
"""


def _history(folder: Path, *revisions: tuple[str, object]) -> Path:
    (folder / "versions").mkdir(parents=True)
    for revision, down in revisions:
        text = MIGRATION.format(revision=revision, down=down)
        (folder / "versions" / f"{revision}_step.py").write_text(text)
    return folder


def test_the_servers_heads_are_alembics(tmp_path: Path) -> None:
    """``python -m app serve`` finds the migrations it needs without Alembic (its import cost
    every start a tenth of its CPU, app/db/preflight.py): the same heads as Alembic's, for
    this code's migrations and for a history that branches and merges."""
    from alembic.script import ScriptDirectory

    from app.db.preflight import code_heads

    assert code_heads() == set(ScriptDirectory(str(ROOT / "migrations")).get_heads())
    branched = _history(tmp_path / "branched", ("a1", None), ("b2", "a1"), ("c2", "a1"))
    merged = _history(
        tmp_path / "merged", ("a1", None), ("b2", "a1"), ("c2", "a1"), ("d3", ("b2", "c2"))
    )
    for folder, heads in ((branched, {"b2", "c2"}), (merged, {"d3"})):
        assert code_heads(folder) == heads
        assert set(ScriptDirectory(str(folder)).get_heads()) == heads
