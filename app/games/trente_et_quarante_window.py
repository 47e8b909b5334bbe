"""Trente et Quarante's betting window: what a bettor may do, and doing it (RULES.md §4 step 1).

In the window ("Faites vos jeux") a bettor may:

* ``stake`` {chance, amount}: set the free stake on a chance (place it or change it), never on
  both sides of one pair (Rouge/Noir, Couleur/Inverse);
* ``remove`` {chance}: take a free stake back;
* ``insure`` {chance}: insure a free stake for 1% of it, rounded up (charged when the coup is
  dealt);
* ``move_prison`` {stake, to}: move a stake in prison to another chance (it cannot be removed);
* ``done``: their stakes are set for this coup (offered once the countdown runs).

A stake's ceiling is the least of ``max_stake``, what the bettor's stack holds beside their
other stakes and premiums, and the house's cover (:func:`.trente_et_quarante_stakes.house_limit`);
lowering a stake is always allowed. The templates are dict literals: the simulation builds them
after every action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.games.base import Action, LegalAction, legal, one_of, seat_account
from app.games.trente_et_quarante_coup import CHANCES, OPPOSITE
from app.games.trente_et_quarante_stakes import (
    FreeStake,
    chance_totals,
    house_limit,
    largest_stake,
    premium,
)

if TYPE_CHECKING:
    from app.games.trente_et_quarante import TrenteEtQuarante


def window_legal(game: TrenteEtQuarante, seat: int) -> list[LegalAction]:
    """The window's actions for a bettor who is not done (RULES.md §4 step 1)."""
    options = game.options
    least = options["min_stake"]
    stack = game.balances[seat_account(seat)]
    mine = game.free.get(seat, {})
    room = stack - sum(stake.cost for stake in mine.values())
    totals = chance_totals(game.free)
    out: list[LegalAction] = []
    for chance in CHANCES:
        if OPPOSITE[chance] in mine:
            continue
        stake = mine.get(chance)
        if stake is None:
            affordable = room
            cover = house_limit(totals, chance, 0, game.house_available)
        else:
            affordable = largest_stake(room + stake.cost, stake.insured)
            cover = house_limit(totals, chance, stake.amount, game.house_available)
            cover = max(cover, stake.amount)
        high = min(options["max_stake"], affordable, cover)
        if high >= least:
            out.append(
                {
                    "kind": "stake",
                    "params": {
                        "chance": {"one_of": [chance]},
                        "amount": {"min": least, "max": high},
                    },
                }
            )
    if mine:
        staked = [c for c in CHANCES if c in mine]
        out.append({"kind": "remove", "params": {"chance": {"one_of": staked}}})
        if options["insurance"]:
            insurable = [
                c for c in staked if not mine[c].insured and premium(mine[c].amount) <= room
            ]
            if insurable:
                out.append({"kind": "insure", "params": {"chance": {"one_of": insurable}}})
    for held in game.prison:
        if held.owner == seat:
            others = [c for c in CHANCES if c != held.chance]
            out.append(legal("move_prison", stake=one_of([held.id]), to=one_of(others)))
    if game.countdown and (out or stack >= least):
        out.append({"kind": "done", "params": {}})
    return out


def apply_window(game: TrenteEtQuarante, seat: int, action: Action) -> None:
    """Apply a window action that fits :func:`window_legal` (``close`` is the engine's)."""
    kind = action["kind"]
    if kind == "stake":
        chance, amount = action["chance"], action["amount"]
        mine = game.free.setdefault(seat, {})
        if chance in mine:
            mine[chance].amount = amount
        else:
            mine[chance] = FreeStake(amount)
        game.countdown = True
        game.log("stake", seat=seat, chance=chance, amount=amount)
    elif kind == "remove":
        mine = game.free[seat]
        del mine[action["chance"]]
        if not mine:
            del game.free[seat]
        game.log("remove", seat=seat, chance=action["chance"])
    elif kind == "insure":
        stake = game.free[seat][action["chance"]]
        stake.insured = True
        game.log("insure", seat=seat, chance=action["chance"], premium=premium(stake.amount))
    elif kind == "move_prison":
        moved = next(p for p in game.prison if p.id == action["stake"] and p.owner == seat)
        game.log("move_prison", seat=seat, stake=moved.id, chance=moved.chance, to=action["to"])
        moved.chance = action["to"]
    elif kind == "done":
        game.done.add(seat)
        game.log("done", seat=seat)
    else:
        raise ValueError(f"not a window action: {kind!r}")
