"""``make run`` with a bad ``DATABASE_URL``: one clear line and a non-zero status
before any migration runs (``python -m app check-db``, the run target's first step), not
Alembic's traceback; and Alembic itself, run by hand, says it in its one ``FAILED:`` line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.server.test_settings_and_cli import PYTHON, ROOT, clean_env

ALEMBIC = str(Path(PYTHON).parent / "alembic")


def check_db(tmp_path: Path, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "app", "check-db"],
        cwd=tmp_path,
        env=clean_env(DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("not a url", "is not a database URL"),
        ("mysql+aiomysql://user@db/table31", "which this server cannot use"),
        ("postgresql+asyncpg://postgres:s3cret@127.0.0.1:1/table31", "cannot connect"),
        ("sqlite+aiosqlite:///no/such/folder/table31.db", "does not exist"),
    ],
)
def test_a_bad_database_url_is_one_line_before_the_migrations(
    tmp_path: Path, url: str, says: str
) -> None:
    result = check_db(tmp_path, url)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert lines[0].startswith("table31: cannot migrate: ") and says in lines[0], lines[0]
    assert "s3cret" not in lines[0]


def test_a_good_database_url_passes_and_creates_nothing(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.db"
    result = check_db(tmp_path, f"sqlite+aiosqlite:///{fresh}")
    assert result.returncode == 0 and result.stderr == "", result
    assert not fresh.exists()


def test_make_run_checks_the_url_before_it_migrates() -> None:
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun: ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert [line.strip().lstrip("@") for line in recipe] == [
        "$(BIN)/python -m app check-db",
        "$(BIN)/alembic upgrade head",
        "$(BIN)/python -m app serve",
    ]


def test_alembic_by_hand_fails_in_its_one_line_not_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [ALEMBIC, "-c", str(ROOT / "alembic.ini"), "upgrade", "head"],
        cwd=ROOT,
        env=clean_env(DATABASE_URL="postgresql+asyncpg://postgres@127.0.0.1:1/table31"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Traceback" not in said, said[-3000:]
    assert "FAILED: DATABASE_URL" in said and "cannot connect" in said
    assert len(said.strip().splitlines()) <= 2, said
