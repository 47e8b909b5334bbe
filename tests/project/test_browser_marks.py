"""Every test under tests/browser is marked ``browser``: ``make test`` runs the other tests
first, in processes where an unmarked one would start Playwright's sync API, whose event loop
keeps running in that worker's main thread and breaks every async test after it there."""

from __future__ import annotations

import ast
from pathlib import Path

BROWSER = Path(__file__).resolve().parents[1] / "browser"


def _marked(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and "browser" in ast.unparse(node.value)
        for node in tree.body
    )


def test_every_browser_test_is_marked_browser() -> None:
    unmarked = []
    files = sorted(BROWSER.glob("test_*.py"))
    assert files, "no browser tests found: the check would pass on nothing"
    for path in files:
        tree = ast.parse(path.read_text())
        if _marked(tree):
            continue
        tests = [
            node
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")
        ]
        unmarked += [
            f"{path.name}::{node.name}"
            for node in tests
            if not any("browser" in ast.unparse(d) for d in node.decorator_list)
        ]
    assert not unmarked, f"browser tests without the browser mark: {unmarked}"
