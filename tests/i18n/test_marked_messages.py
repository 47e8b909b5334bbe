"""Every refusal a person reads is marked for translation (docs/i18n.md, "Marking a
string"): read from the source by ``ast``, a refusal outside app/games (an API error, a
socket's or a table's refusal) whose words are a bare literal or an f-string is a string
forgotten; and every refusal the engines in app/games raise is listed by
app/runtime/rule_words.py, which words them for the reader."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from app.i18n.messages import Text
from app.runtime.rule_words import worded

ROOT = Path(__file__).resolve().parents[2]

REFUSALS = {
    "HTTPException": 1,
    "RuleRefusal": 1,
    "ProtocolError": 1,
    "LimitReached": 0,
    "ChatRefused": 0,
    "_bad": 0,
    "_unprocessable": 2,
    "refuse": 2,
    "OptionError": 1,
    "RuleError": 1,
}
"""The calls whose argument (by position) is words for people, outside the engines."""

ENGINE_REFUSALS = {"RuleError": 1, "Refused": 1, "OptionError": 1}


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _words(node: ast.AST) -> Iterator[ast.AST]:
    """The literals and f-strings an argument may be (through ``a or b``, ``a if c else
    b``)."""
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _words(value)
    elif isinstance(node, ast.IfExp):
        yield from _words(node.body)
        yield from _words(node.orelse)
    elif isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value
    ):
        yield node


def _calls(folder: str, names: dict[str, int]) -> Iterator[tuple[str, ast.Call, ast.AST]]:
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) in names:
                index = names[_name(node)]
                if len(node.args) > index:
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    for words in _words(node.args[index]):
                        yield where, node, words


def test_no_refusal_outside_the_engines_is_left_unmarked() -> None:
    unmarked = [
        f"{where}: {ast.unparse(words)[:70]}"
        for folder in ("app/api", "app/runtime", "app/review", "app/rulebook")
        for where, _call, words in _calls(folder, REFUSALS)
    ]
    assert unmarked == []


def _example(words: ast.AST) -> str:
    """An f-string written with sample values (a ``!r`` value quoted), a literal as it is."""
    if isinstance(words, ast.Constant):
        return str(words.value)
    assert isinstance(words, ast.JoinedStr)
    out = []
    for part in words.values:
        if isinstance(part, ast.Constant):
            out.append(str(part.value))
        else:
            assert isinstance(part, ast.FormattedValue)
            out.append("'hit'" if part.conversion == ord("r") else "7")
    return "".join(out)


def test_every_engine_refusal_is_listed_for_translation() -> None:
    found = list(_calls("app/games", ENGINE_REFUSALS))
    assert len(found) > 15
    unlisted = [
        f"{where}: {_example(words)}"
        for where, _call, words in found
        if not isinstance(worded(_example(words)), Text)
    ]
    assert unlisted == []
