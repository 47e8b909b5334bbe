"""The browser pass shares one server, so one lobby, between the tests of a worker: a table or
room that one test opens is listed beside the others'. A test finds its own table in the lobby
by the name it gave it, so no name given in one test may be found inside another's (case
aside): "Friday" would find "Friday night" too, and a count of one would read two.

The names are read from the tests themselves: every dict literal with a ``game`` and a
``name`` (a table or room opened through the API) and every ``fill("#open-name", ...)``
(one opened through the lobby's form), a module constant followed where it is one."""

from __future__ import annotations

import ast
from itertools import combinations
from pathlib import Path

BROWSER = Path(__file__).resolve().parents[1] / "browser"


def _constants(tree: ast.Module) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def _text(node: ast.AST, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def table_names(source: str) -> list[str]:
    """The table and room names a browser test's source gives."""
    tree = ast.parse(source)
    constants = _constants(tree)
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {_text(k, {}) for k in node.keys if k is not None}
            if {"game", "name"} <= keys:
                for key, value in zip(node.keys, node.values, strict=True):
                    if key is not None and _text(key, {}) == "name":
                        name = _text(value, constants)
                        if name is not None:
                            names.append(name)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "fill"
            and len(node.args) == 2
            and _text(node.args[0], {}) == "#open-name"
        ):
            name = _text(node.args[1], constants)
            if name is not None:
                names.append(name)
    return names


def test_the_reader_finds_names_given_every_way() -> None:
    source = (
        'TABLE = "Friday evening"\n'
        'page.request.post("/api/tables", data={"game": "greek-31", "name": "Greek"})\n'
        'page.fill("#open-name", TABLE)\n'
        'page.fill("#open-name", "Friday night")\n'
        'page.fill("#chat", "not a table")\n'
    )
    assert sorted(table_names(source)) == ["Friday evening", "Friday night", "Greek"]


def test_no_browser_table_name_is_found_inside_another() -> None:
    given: list[tuple[str, str]] = []
    for path in sorted(BROWSER.glob("test_*.py")):
        given += [(name, path.name) for name in table_names(path.read_text())]
    assert len(given) > 10, "too few names found: the check would pass on nothing"
    clashes = [
        f"{a!r} ({where_a}) and {b!r} ({where_b})"
        for (a, where_a), (b, where_b) in combinations(given, 2)
        if a.casefold() in b.casefold() or b.casefold() in a.casefold()
    ]
    assert not clashes, "names a lobby lookup would confuse: " + "; ".join(clashes)
