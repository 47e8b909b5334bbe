"""The bots' play at Trente et Quarante (docs/rules.md §4): follow the series on Rouge or Noir.

A bot stakes on the row that won the last coup (the traditional *suivre la série*; Rouge when
there is none): one unit, or two units insured while a series runs (the same row has won the
last two coups), then says it is done. It leaves a stake in prison where it is. After an
*un après* it puts its stakes in prison, which keeps the chance of getting them back whole.

One stake a coup keeps the simulation quick (every action goes through ``legal``), and the
two sizes give the simulation both insured and uninsured stakes.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.core.actions import Action, LegalAction, random_action
from app.games.trente_et_quarante.coup import ROUGE
from app.games.trente_et_quarante.stakes import FreeStake

UNIT = 100
"""The bots' stake: 100 chips make the insurance exactly 1%."""


def bot_choice(
    templates: list[LegalAction],
    stakes: dict[str, FreeStake],
    history: list[dict[str, Any]],
    rng: random.Random,
) -> Action:
    """The bot's next action among ``templates`` (the seat's legal actions)."""
    last = history[-1]["winner"] if history else None
    series = len(history) >= 2 and last is not None and history[-2]["winner"] == last
    wanted = [last or ROUGE]
    stake: LegalAction | None = None
    prison = insure = done = None
    for template in templates:  # one pass: the stake on the chance followed, the last of others
        kind = template["kind"]
        if kind == "stake":
            if stake is None and template["params"]["chance"]["one_of"] == wanted:
                stake = template
        elif kind == "prison":
            prison = template
        elif kind == "insure":
            insure = template
        elif kind == "done":
            done = template
    if prison is not None:  # a free stake (by chance) or one in prison (by id)
        ((name, spec),) = prison["params"].items()
        return {"kind": "prison", name: spec["one_of"][0]}
    if not stakes:
        if stake is not None:
            bounds = stake["params"]["amount"]
            amount = min(max((2 if series else 1) * UNIT, bounds["min"]), bounds["max"])
            return {"kind": "stake", "chance": wanted[0], "amount": amount}
    elif series and insure is not None:
        return {"kind": "insure", "chance": insure["params"]["chance"]["one_of"][0]}
    if done is not None:
        return {"kind": "done"}
    return random_action(templates, rng)
