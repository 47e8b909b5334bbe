"""Actions and their templates: what a client sends and what ``legal`` lists (docs/protocol.md,
"Legal actions").

An action is a dict such as ``{"kind": "bet", "amount": 50}``; a template names a kind and the
spec of each parameter. An action fits a template *exactly*: the same kind, every parameter and
no other, each value within its spec.

>>> templates = [legal("bet", amount=amount_range(10, 50)), legal("fold")]
>>> action_fits({"kind": "bet", "amount": 20}, templates)
True
>>> action_fits({"kind": "bet", "amount": 60}, templates)
False
>>> action_fits({"kind": "fold", "amount": 1}, templates)
False
"""

from __future__ import annotations

import random
from typing import Any

Action = dict[str, Any]
"""An action as sent by a client: ``{"kind": "bet", "amount": 50}``."""

LegalAction = dict[str, Any]
"""An action template: ``{"kind": "bet", "params": {"amount": {"min": 10, "max": 270}}}``."""


def legal(kind: str, **params: dict[str, Any]) -> LegalAction:
    """Build an action template (docs/protocol.md §6.5)."""
    return {"kind": kind, "params": params}


def amount_range(low: int, high: int) -> dict[str, int]:
    """A whole number from ``low`` to ``high`` inclusive."""
    return {"min": low, "max": high}


def one_of(values: list[Any]) -> dict[str, list[Any]]:
    """One of these values."""
    return {"one_of": list(values)}


def subset_of(values: list[Any], low: int, high: int) -> dict[str, Any]:
    """A list of ``low`` to ``high`` distinct values from ``values``, in a chosen order."""
    return {"subset_of": list(values), "min": low, "max": high}


def same(a: Any, b: Any) -> bool:
    """Equality that does not confuse ``True`` with ``1``."""
    return type(a) is type(b) and a == b


def param_fits(value: Any, spec: dict[str, Any]) -> bool:
    """Does one parameter's value satisfy its spec (docs/protocol.md §6.5)?"""
    if "one_of" in spec:
        return any(same(value, option) for option in spec["one_of"])
    if "subset_of" in spec:
        if not isinstance(value, list) or not spec["min"] <= len(value) <= spec["max"]:
            return False
        pool = spec["subset_of"]
        for i, item in enumerate(value):
            if not any(same(item, option) for option in pool):
                return False
            if any(same(item, earlier) for earlier in value[:i]):
                return False
        return True
    return type(value) is int and spec["min"] <= value <= spec["max"]


def action_fits(action: Action, templates: list[LegalAction]) -> bool:
    """True when ``action`` fits one of ``templates`` exactly (docs/protocol.md: exact both ways).

    The action must name a template's kind, give every parameter of that template and no
    other key, and each value must satisfy its parameter spec.
    """
    kind = action.get("kind")
    size = len(action) - 1  # the parameters given: every key but ``kind``
    for template in templates:
        if template["kind"] != kind:
            continue
        params: dict[str, Any] = template["params"]
        if size != len(params):
            continue
        if all(name in action and param_fits(action[name], spec) for name, spec in params.items()):
            return True
    return False


def random_action(templates: list[LegalAction], rng: random.Random) -> Action:
    """A uniformly random action fitting one of ``templates`` (for bots and property tests)."""
    if not templates:
        raise ValueError("no legal action")
    template = rng.choice(templates)
    action: Action = {"kind": template["kind"]}
    for name, spec in template["params"].items():
        if "one_of" in spec:
            action[name] = rng.choice(spec["one_of"])
        elif "subset_of" in spec:
            count = rng.randint(spec["min"], spec["max"])
            action[name] = rng.sample(list(spec["subset_of"]), count)
        else:
            action[name] = rng.randint(spec["min"], spec["max"])
    return action
