"""The packages of ``app`` stand in layers (docs/architecture.md, docs/scaling.md):

* the runtime never imports the cluster: what differs between one process and a node of a
  cluster reaches the lobby, the socket and the routes through one interface
  (app/runtime/hosting.py), which app/cluster fulfils and app/services.py chooses;
* the games import nothing of ``app`` outside app/games: the rules are pure;
* among app's top packages (runtime, cluster, api, db, games, review, ops, core) none imports
  another that imports it back, directly or through others.

Every ``import`` counts, wherever it stands (at the top, inside a function, under ``if
TYPE_CHECKING:``), read from the source by ``ast``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.project.test_import_cycles import cycles

ROOT = Path(__file__).resolve().parents[2]
TOP_PACKAGES = ("runtime", "cluster", "api", "db", "games", "review", "ops", "core", "analysis")


def module_of(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return parts


def imported(path: Path, root: Path) -> set[str]:
    """Every module name the file imports, a relative import made absolute; ``from a import
    b`` names ``a.b`` (``b`` may be a module) and ``a``."""
    parts = module_of(path, root)
    package = parts if path.name == "__init__.py" else parts[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            anchor = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*anchor, node.module] if node.module else anchor)
            out.add(source)
            out.update(f"{source}.{alias.name}" for alias in node.names)
    return out


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def imports_of(package: str, root: Path, wanted: str, unless: str = "") -> list[str]:
    """``module imports name`` for every import of ``wanted`` (and below, but not of
    ``unless``) by the modules under ``package``."""
    found: list[str] = []
    for path in sorted(root.joinpath(*package.split(".")).rglob("*.py")):
        for name in sorted(imported(path, root)):
            if within(name, wanted) and not (unless and within(name, unless)):
                found.append(f"{'.'.join(module_of(path, root))} imports {name}")
    return found


def package_graph(root: Path) -> dict[str, set[str]]:
    """``a -> b`` when a module under app/a imports one under app/b (app's top packages)."""
    graph: dict[str, set[str]] = {}
    for top in TOP_PACKAGES:
        graph[top] = set()
        for path in sorted((root / "app" / top).rglob("*.py")):
            for name in imported(path, root):
                parts = name.split(".")
                if parts[0] == "app" and len(parts) > 1 and parts[1] in TOP_PACKAGES:
                    graph[top].add(parts[1])
        graph[top].discard(top)
    return graph


def test_the_runtime_never_imports_the_cluster() -> None:
    assert imports_of("app.runtime", ROOT, "app.cluster") == []


def test_the_games_import_nothing_of_the_app_outside_the_games() -> None:
    assert imports_of("app.games", ROOT, "app", unless="app.games") == []


def test_no_cycle_between_the_top_packages() -> None:
    assert cycles(package_graph(ROOT)) == []


def test_the_checks_fail_on_a_bad_import(tmp_path: Path) -> None:
    """A runtime module importing the cluster (inside a function), which imports the runtime
    back, and a game importing the runtime (relatively): each check sees it."""
    for top in TOP_PACKAGES:
        (tmp_path / "app" / top).mkdir(parents=True)
        (tmp_path / "app" / top / "__init__.py").write_text("")
    (tmp_path / "app" / "cluster" / "node.py").write_text("from app.runtime import lobby\n")
    (tmp_path / "app" / "runtime" / "lobby.py").write_text(
        "def later() -> None:\n    from app.cluster.node import Node\n"
    )
    (tmp_path / "app" / "games" / "engine.py").write_text("from ..runtime.lobby import later\n")
    assert imports_of("app.runtime", tmp_path, "app.cluster") == [
        "app.runtime.lobby imports app.cluster.node",
        "app.runtime.lobby imports app.cluster.node.Node",
    ]
    assert imports_of("app.games", tmp_path, "app", unless="app.games") == [
        "app.games.engine imports app.runtime.lobby",
        "app.games.engine imports app.runtime.lobby.later",
    ]
    assert cycles(package_graph(tmp_path)) == [["cluster", "runtime"]]
