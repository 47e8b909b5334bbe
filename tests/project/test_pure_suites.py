"""The PostgreSQL pass (``make test-pg``) leaves out the suites that open no database, since
they would run there exactly as on SQLite. This keeps that promise: no test module in those
suites asks for a database fixture, names the database URL, or imports the database layer, so
a test that starts needing one cannot be skipped on PostgreSQL unnoticed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATABASE_FIXTURES = {"database_url", "postgres_url", "sqlite_template", "live", "live_as_served"}
DATABASE_WORDS = ("TEST_DATABASE_URL", "DATABASE_URL", "sqlalchemy", "app.db", "tests.conftest")


def pure_suites() -> list[Path]:
    """The folders the Makefile's ``PURE_SUITES`` leaves out of the PostgreSQL pass."""
    makefile = (ROOT / "Makefile").read_text()
    line = next(x for x in makefile.splitlines() if x.startswith("PURE_SUITES"))
    return [ROOT / folder for folder in re.findall(r"--ignore=(\S+)", line)]


def database_uses(path: Path) -> list[str]:
    source = path.read_text()
    tree = ast.parse(source)
    found = [word for word in DATABASE_WORDS if word in source]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in node.args.args:
                if arg.arg in DATABASE_FIXTURES:
                    found.append(f"{node.name}({arg.arg})")
    return found


def test_the_suites_left_out_of_the_postgresql_pass_open_no_database() -> None:
    suites = pure_suites()
    assert {p.name for p in suites} == {"games", "rulebook", "project"}, suites
    modules = [m for suite in suites for m in sorted(suite.rglob("*.py"))]
    assert len(modules) > 20  # the walk found the suites
    uses = {str(m.relative_to(ROOT)): database_uses(m) for m in modules if m != Path(__file__)}
    assert {m: u for m, u in uses.items() if u} == {}


def test_the_check_sees_a_database_fixture_or_import(tmp_path: Path) -> None:
    """A test asking for ``live`` (the served app on a database), or importing the database
    layer, would be caught."""
    probe = tmp_path / "test_probe.py"
    probe.write_text("async def test_plays(live):\n    pass\n")
    assert database_uses(probe) == ["test_plays(live)"]
    probe.write_text("from app.db import ledger\n")
    assert database_uses(probe) == ["app.db"]
