"""The examples in the games' docstrings run, and hold (every module of ``app/games``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import app.games

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(app.games.__path__, prefix="app.games.")
)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_there_are_examples_to_run() -> None:
    """At least the examples this suite was written for (a count that only grows)."""
    finder = doctest.DocTestFinder()
    examples = sum(
        len(test.examples)
        for name in MODULES
        for test in finder.find(importlib.import_module(name))
    )
    assert examples >= 20
