"""The bots' play at Trente et Quarante (RULES.md §4): follow the series on Rouge or Noir.

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

from app.games.base import Action, LegalAction, random_action
from app.games.trente_et_quarante_coup import ROUGE
from app.games.trente_et_quarante_stakes import FreeStake

UNIT = 100
"""The bots' stake: 100 chips make the insurance exactly 1%."""


def bot_choice(
    templates: list[LegalAction],
    stakes: dict[str, FreeStake],
    history: list[dict[str, Any]],
    rng: random.Random,
) -> Action:
    """The bot's next action among ``templates`` (the seat's legal actions)."""
    by_kind = {template["kind"]: template for template in templates}
    if "prison" in by_kind:
        return {"kind": "prison", "chance": by_kind["prison"]["params"]["chance"]["one_of"][0]}
    last = history[-1]["winner"] if history else None
    series = len(history) >= 2 and last is not None and history[-2]["winner"] == last
    if not stakes:
        chance = last or ROUGE
        for template in templates:
            params = template["params"]
            if template["kind"] == "stake" and params["chance"]["one_of"] == [chance]:
                bounds = params["amount"]
                amount = min(max((2 if series else 1) * UNIT, bounds["min"]), bounds["max"])
                return {"kind": "stake", "chance": chance, "amount": amount}
    elif series and "insure" in by_kind:
        return {"kind": "insure", "chance": by_kind["insure"]["params"]["chance"]["one_of"][0]}
    if "done" in by_kind:
        return {"kind": "done"}
    return random_action(templates, rng)
