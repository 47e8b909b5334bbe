"""Trente et Quarante's betting window: what a bettor may do, and doing it (docs/rules.md §4.4).

In the window ("Faites vos jeux") a bettor may:

* ``stake`` {chance, amount}: set the free stake on a chance (place it or change it), never on
  both sides of one pair (Rouge/Noir, Couleur/Inverse);
* ``remove`` {chance}: take a free stake back;
* ``insure`` {chance}: insure a free stake of at least :data:`.stakes.INSURABLE` chips for 1% of
  it in whole chips, rounded down (charged when the coup is dealt); an insured stake stays at
  least that much (docs/rules.md §4.8);
* ``move_prison`` {stake, to}: move a stake in prison to another chance (it cannot be removed),
  in the window that follows an après or an un après only (docs/rules.md §4.7);
* ``done``: their stakes are set for this coup (offered once the countdown runs).

A stake's ceiling is the least of ``max_stake``, what the bettor's stack holds beside their
other stakes and premiums, and the house's cover (:func:`.stakes.house_limit`);
lowering a stake is always allowed.

``legal`` is asked after every action (the simulation deals tens of thousands of coups a
second), so it is built in one pass over the chances with plain comparisons, and the templates
of a bettor before anyone has staked (every window starts so) are kept and shared: they depend
only on how high the bettor may stake and on the countdown (:func:`opening_legal`).
"""

from __future__ import annotations

from app.games.core.accounts import seat_account
from app.games.core.actions import Action, LegalAction, legal, one_of
from app.games.trente_et_quarante.coup import CHANCES, OPPOSITE
from app.games.trente_et_quarante.stakes import (
    INSURABLE,
    FreeStake,
    chance_totals,
    exposure,
    house_limits,
    largest_stake,
    premium,
)
from app.games.trente_et_quarante.state import TrenteEtQuaranteState


def window_legal(game: TrenteEtQuaranteState, seat: int) -> list[LegalAction]:
    """The window's actions for a bettor who is not done (docs/rules.md §4.4); none for a
    seat that is not at the table.

    It is built after every action of a coup, so it keeps to a single pass over the chances
    with plain comparisons (``a if a < b else b`` for the smaller of two).
    """
    stack = game.balances.get(seat_account(seat))
    if stack is None:  # not (or no longer) at the table
        return []
    options = game.options
    least = options["min_stake"]
    most = options["max_stake"]
    available = game.house_available
    free = game.free
    if not free and not (game.prison_movable and any(held.owner == seat for held in game.prison)):
        return opening_legal(game, stack)
    mine = free.get(seat, {})
    room = stack  # what the stack holds beside the bettor's stakes and premiums
    for own in mine.values():
        room -= own.cost
    # The house's cover on each chance matters only when it has less than max_stake to spare
    # beyond the most it could pay now (it covers at least that much on any chance).
    totals = chance_totals(free)
    covers = None if available - exposure(totals) >= most else house_limits(totals, available)
    out: list[LegalAction] = []
    staked: list[str] = []
    insurable: list[str] = []
    for chance in CHANCES:
        stake = mine.get(chance)
        if stake is not None:  # a change: as far as the room and the stake itself would pay
            staked.append(chance)
            if not stake.insured and stake.amount >= INSURABLE and premium(stake.amount) <= room:
                insurable.append(chance)
            high = largest_stake(room + stake.cost, stake.insured)
            low = INSURABLE if stake.insured and least < INSURABLE else least
            if covers is not None:  # the stake as it stands, and what the house covers there
                cover = covers[chance]
                cover = stake.amount + (cover if cover > 0 else 0)
                high = high if high < cover else cover
        elif OPPOSITE[chance] in mine:  # never both sides of one pair
            continue
        else:
            high = room
            low = least
            if covers is not None:
                cover = covers[chance]
                high = high if high < cover else cover
        high = high if high < most else most
        if high >= low:
            out.append(
                {
                    "kind": "stake",
                    "params": {
                        "chance": {"one_of": [chance]},
                        "amount": {"min": low, "max": high},
                    },
                }
            )
    if staked:
        out.append({"kind": "remove", "params": {"chance": {"one_of": staked}}})
        if insurable and options["insurance"]:
            out.append({"kind": "insure", "params": {"chance": {"one_of": insurable}}})
    for held in game.prison if game.prison_movable else ():
        if held.owner == seat:
            others = [c for c in CHANCES if c != held.chance]
            out.append(legal("move_prison", stake=one_of([held.id]), to=one_of(others)))
    if game.countdown and (out or stack >= least):
        out.append({"kind": "done", "params": {}})
    return out


OPENINGS_KEPT = 512
"""How many sets of opening templates a table keeps (a bettor's stack below ``max_stake``
makes a new one); past that they are forgotten and built again."""


def opening_legal(game: TrenteEtQuaranteState, stack: int) -> list[LegalAction]:
    """The window's actions for a bettor holding ``stack`` when no free stake is down at the
    table and none of theirs is in prison: a stake on any chance up to the least of
    ``max_stake``, the stack and what the house has (:func:`window_legal`), then ``done``.

    They depend on nothing else, so they are kept by the ceiling and the countdown and shared
    by every such bettor and window (templates are only read); the list is a new one.
    """
    least, most = game.options["min_stake"], game.options["max_stake"]
    high = most if most < stack else stack
    high = high if high < game.house_available else game.house_available
    key = (high, game.countdown, stack >= least)
    kept = game.opening_templates.get(key)
    if kept is None:
        kept = []
        if high >= least:
            kept = [
                {
                    "kind": "stake",
                    "params": {
                        "chance": {"one_of": [chance]},
                        "amount": {"min": least, "max": high},
                    },
                }
                for chance in CHANCES
            ]
        if game.countdown and (kept or stack >= least):
            kept.append({"kind": "done", "params": {}})
        if len(game.opening_templates) >= OPENINGS_KEPT:
            game.opening_templates.clear()
        game.opening_templates[key] = kept
    return list(kept)


def apply_window(game: TrenteEtQuaranteState, seat: int, action: Action) -> None:
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
        game.log_event({"kind": "stake", "seat": seat, "chance": chance, "amount": amount})
    elif kind == "remove":
        mine = game.free[seat]
        del mine[action["chance"]]
        if not mine:
            del game.free[seat]
        game.log_event({"kind": "remove", "seat": seat, "chance": action["chance"]})
    elif kind == "insure":
        chance = action["chance"]
        stake = game.free[seat][chance]
        stake.insured = True
        cost = premium(stake.amount)
        game.log_event({"kind": "insure", "seat": seat, "chance": chance, "premium": cost})
    elif kind == "move_prison":
        moved = next(p for p in game.prison if p.id == action["stake"] and p.owner == seat)
        game.log("move_prison", seat=seat, stake=moved.id, chance=moved.chance, to=action["to"])
        moved.chance = action["to"]
    elif kind == "done":
        game.done.add(seat)
        game.log_event({"kind": "done", "seat": seat})
    else:
        raise ValueError(f"not a window action: {kind!r}")
