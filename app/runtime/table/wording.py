"""Wording errors: why an action does not fit, said in words without revealing anything
hidden (the ``message`` of an ``illegal_action`` error), marked for translation: the values
(an action's kind, a parameter's name) are the protocol's words, never translated.
"""

from __future__ import annotations

from typing import Any

from app.games.core.actions import Action, param_fits
from app.i18n.messages import N_, Text


def explain(action: Action, templates: list[dict[str, Any]]) -> str:
    """Say in words why an action does not fit, without revealing anything hidden: the first
    parameter that fails in the template of that kind that fits best."""
    kind = action.get("kind")
    same = [t for t in templates if t["kind"] == kind]
    if not same:
        allowed = ", ".join(sorted({t["kind"] for t in templates}))
        return Text(N_("you cannot {kind} now; you may: {allowed}"), kind=kind, allowed=allowed)

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
            return Text(N_("{kind} needs {name}"), kind=kind, name=name)
        if "subset_of" in spec:
            return Text(
                N_("{name} must be {min} to {max} different items of {items}"),
                name=name,
                min=spec["min"],
                max=spec["max"],
                items=spec["subset_of"],
            )
        if "one_of" in spec:
            return Text(N_("{name} must be one of {allowed}"), name=name, allowed=spec["one_of"])
        return Text(
            N_("{name} must be a whole number from {min} to {max}"),
            name=name,
            min=spec["min"],
            max=spec["max"],
        )
    extra = sorted(set(action) - {"kind"} - set(params))
    if extra:
        return Text(N_("{kind} takes no {extra}"), kind=kind, extra=", ".join(extra))
    return Text(N_("that {kind} is not allowed now"), kind=kind)
