"""Every game is laid out the same way (app/games/__init__.py): the same parts in each package,
and none of them importing the engine, so the view, the window or the settlement never depend
on the state machine that uses them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.games.core.registry import GAME_MODULES

GAMES = Path(__file__).resolve().parents[2] / "app" / "games"
PARTS = {"engine", "table", "state", "scoring", "view", "bot", "stats", "options"}


@pytest.mark.parametrize("game_id", sorted(GAME_MODULES))
def test_each_game_has_the_same_parts(game_id: str) -> None:
    package, _, engine = GAME_MODULES[game_id].rpartition(".")
    assert engine == "engine"
    folder = GAMES / package.rpartition(".")[2]
    assert {p.stem for p in folder.glob("*.py")} >= PARTS


@pytest.mark.parametrize("game_id", sorted(GAME_MODULES))
def test_no_part_of_a_game_imports_its_engine(game_id: str) -> None:
    engine_module = GAME_MODULES[game_id]
    folder = GAMES / engine_module.split(".")[2]
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.module != engine_module, f"{path.name} imports the engine"
