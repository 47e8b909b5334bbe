"""Wording errors: why an action does not fit, said in words without revealing anything
hidden (the ``message`` of an ``illegal_action`` error).
"""

from __future__ import annotations

from typing import Any

from app.games.core.actions import Action, param_fits


def explain(action: Action, templates: list[dict[str, Any]]) -> str:
    """Say in words why an action does not fit, without revealing anything hidden: the first
    parameter that fails in the template of that kind that fits best."""
    kind = action.get("kind")
    same = [t for t in templates if t["kind"] == kind]
    if not same:
        allowed = ", ".join(sorted({t["kind"] for t in templates}))
        return f"you cannot {kind} now; you may: {allowed}"

    def failing(template: dict[str, Any]) -> list[str]:
        params = template["params"]
        return [
            n for n, spec in params.items() if n not in action or not param_fits(action[n], spec)
        ]

    best = min(same, key=lambda t: len(failing(t)))
    params = best["params"]
    for name in failing(best):
        spec = params[name]
        if name not in action:
            return f"{kind} needs {name}"
        if "subset_of" in spec:
            return (
                f"{name} must be {spec['min']} to {spec['max']} different items of "
                f"{spec['subset_of']}"
            )
        if "one_of" in spec:
            return f"{name} must be one of {spec['one_of']}"
        return f"{name} must be a whole number from {spec['min']} to {spec['max']}"
    extra = sorted(set(action) - {"kind"} - set(params))
    if extra:
        return f"{kind} takes no {', '.join(extra)}"
    return f"that {kind} is not allowed now"
