"""Estimating an option by simulation (docs/analysis.md §2): deal the cards the deciding seat
cannot see afresh, take the option, play the hand out with a model of everyone's later
decisions, count what the seat ended with; again, many times.

The game's own module says which cards its seat cannot see and how to deal them afresh (its
``resample``); this module plays out and counts, for every game alike. The model of later
decisions is the game's ``steady`` bot (the simple fixed rule of its ``bot.py``) unless a
game's module passes another.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from app.analysis.figures import Figures, Tally
from app.games.core.accounts import owner_of
from app.games.core.actions import Action
from app.games.core.cards import seeded_source
from app.games.core.game import Game
from app.games.core.hand import CompletedHand
from app.games.core.money import Transfer

Policy = Callable[[Game, int, random.Random], Action]
"""A model of a decision: the action ``seat`` takes on ``engine`` (an engine the caller may
change afterwards)."""

Resample = Callable[[Game, int, random.Random], Game]
"""A copy of ``engine`` with every card ``seat`` cannot see dealt afresh from those cards."""

Outcome = Callable[[Game, CompletedHand, int, int], str | None]
"""A game's own reading of who won a hand for ``seat`` (``win``/``tie``/``lose``), given the
chips it gained; None: read from the sign of the chips."""

MAX_STEPS = 2_000
"""A played-out hand longer than this is a bug in a model, not a hand."""


def steady(engine: Game, seat: int, rng: random.Random) -> Action:
    """The game's own bot (its ``bot.py``: the fixed rule a casual player uses)."""
    return engine.bot_action(seat, rng)


def net_of(hand: CompletedHand, seat: int) -> int:
    """The chips ``seat`` gained in ``hand`` (negative: lost), over every account it owns
    (its stack, its bets, its stakes in prison): moves between its own accounts count nothing."""
    return net_of_transfers(hand.transfers, seat)


def chips_so_far(engine: Game, seat: int) -> int:
    """The chips the hand in play has moved for ``seat`` so far, counted as :func:`net_of`
    counts a finished hand's."""
    return net_of_transfers(engine.transfers, seat)


def net_of_transfers(transfers: list[Transfer], seat: int) -> int:
    """What ``transfers`` gave ``seat`` (negative: took), over every account it owns."""
    net = 0
    for t in transfers:
        into, out = owner_of(t.target) == seat, owner_of(t.source) == seat
        if into and not out:
            net += t.amount
        elif out and not into:
            net -= t.amount
    return net


def play_out(engine: Game, rng: random.Random, policy: Policy = steady) -> CompletedHand:
    """Play ``engine``'s hand to its end with ``policy`` for every decision left (several
    seats to act at once, as in a betting window, decide in seat order)."""
    for _ in range(MAX_STEPS):
        done = engine.completed_pending
        if done is not None:
            return done
        seats = sorted(engine.to_act())
        if seats:
            seat = seats[0]
            engine.apply(seat, policy(engine, seat, rng))
            continue
        if engine.timer() is None:
            break
        for seat, action in engine.timeout_actions():
            engine.apply(seat, action, by_clock=True)
    raise RuntimeError("a played-out hand did not end")


def detached(engine: Game, rng: random.Random) -> Game:
    """A deep copy of ``engine`` whose own shuffles draw their seeds from ``rng`` (not the
    record's seeds, which would repeat the real shuffle)."""
    twin = copy.deepcopy(engine)
    twin.seeds = seeded_source(rng.randbytes(32))
    twin.take_log()
    return twin


def estimate(
    engine: Game,
    seat: int,
    action: Action,
    *,
    resample: Resample,
    samples: int,
    rng: random.Random,
    policy: Policy = steady,
    outcome: Outcome | None = None,
) -> Figures:
    """The figures of ``action`` for ``seat`` by ``samples`` simulated hands."""
    tally = Tally()
    for _ in range(samples):
        twin = resample(detached(engine, rng), seat, rng)
        twin.apply(seat, dict(action))
        hand = play_out(twin, rng, policy)
        net = net_of(hand, seat)
        tally.add(net, outcome(twin, hand, seat, net) if outcome else None)
    return tally.figures()
