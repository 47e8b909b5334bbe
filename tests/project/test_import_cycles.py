"""No import cycle among the modules of ``app``, type-only imports included.

Every ``import`` and ``from ... import`` counts, wherever it stands: at the top, inside a
function, or under ``if TYPE_CHECKING:`` (a cycle hidden from the interpreter is still a cycle
for the reader). A module's edges go to the modules of ``app`` it names; ``from a.b import c``
goes to ``a.b.c`` when that is a module, else to ``a.b``. Importing a submodule does not count
as importing its package's ``__init__`` (Python runs it, but it is no dependency of the code).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_under(package: str) -> dict[str, Path]:
    base = ROOT.joinpath(*package.split("."))
    return {module_name(p): p for p in sorted(base.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module ``name`` (at ``path``) imports."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                source = ".".join(anchor + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` of a name inside a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph(package: str, scope: str | None = None) -> dict[str, set[str]]:
    """Edges between the modules of ``package`` (only those under ``scope`` if given)."""
    mods = modules_under(package)
    known = set(mods)
    graph = {name: imports_of(name, path, known) for name, path in mods.items()}
    if scope is not None:
        inside = {n for n in graph if n == scope or n.startswith(scope + ".")}
        graph = {n: graph[n] & inside for n in inside}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_checker_finds_a_type_only_cycle(tmp_path: Path) -> None:
    """A cycle through an ``if TYPE_CHECKING:`` import is found (the checker can fail)."""
    (tmp_path / "view.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from x.engine import E\n"
    )
    (tmp_path / "engine.py").write_text("from x.view import show\n")
    known = {"x.view", "x.engine"}
    graph = {
        "x.view": imports_of("x.view", tmp_path / "view.py", known),
        "x.engine": imports_of("x.engine", tmp_path / "engine.py", known),
    }
    assert cycles(graph) == [["x.engine", "x.view"]]


def test_no_import_cycle_in_the_games() -> None:
    assert cycles(import_graph("app", "app.games")) == []


def test_no_import_cycle_in_the_app() -> None:
    assert cycles(import_graph("app")) == []


if __name__ == "__main__":
    for component in cycles(import_graph("app")):
        print(" <-> ".join(component))
