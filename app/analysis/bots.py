"""The bots' three levels (docs/analysis.md §5), chosen when a bot is seated:

* ``random``: any action ``legal`` offers, uniformly (an amount uniformly in its range);
* ``steady``: the game's own bot (its ``bot.py``): the simple fixed rule a casual player uses;
* ``best``: the option the analysis finds best (:mod:`app.analysis`), from what the bot's seat
  can see (the same analysis as a finished hand's, with fewer samples where it estimates:
  :data:`~app.analysis.position.BOT_EFFORT`); where the game's analyser finds no decision (a
  forced move), the steady rule.

A bot's choice is checked like a player's by the table (an illegal one is replaced by the
default action); the analysis only reads the engine, through copies.
"""

from __future__ import annotations

import logging
import random
from typing import Any, Literal, get_args

from app.analysis import analyser_for
from app.analysis.position import BOT_EFFORT, Effort, Position
from app.analysis.rollout import MAX_STEPS, net_of
from app.games.core.actions import Action, LegalAction, action_fits, random_action
from app.games.core.game import Game
from app.games.core.registry import game_class
from app.simulate import seed_stream

log = logging.getLogger(__name__)

BotLevel = Literal["random", "steady", "best"]
LEVELS: tuple[str, ...] = get_args(BotLevel)
DEFAULT_LEVEL: BotLevel = "steady"


def bot_action(
    engine: Game, seat: int, level: str, rng: random.Random, effort: Effort = BOT_EFFORT
) -> Action:
    """The action a bot of ``level`` takes in ``seat`` now."""
    legal = engine.legal_actions(seat)
    if level == "random":
        return random_action(legal, rng)
    if level == "best":
        try:
            chosen = best_action(engine, seat, legal, rng, effort)
        except Exception:  # an analysis that fails must not stop the table: the steady rule
            log.exception("the best bot's analysis failed; it plays the steady rule")
            chosen = None
        if chosen is not None:
            return chosen
    return engine.bot_action(seat, rng)


def best_action(
    engine: Game,
    seat: int,
    legal: list[LegalAction],
    rng: random.Random,
    effort: Effort = BOT_EFFORT,
) -> Action | None:
    """The option the analysis finds best for ``seat`` now (None: no decision to make)."""
    position = Position(engine, seat, legal)
    analyser = analyser_for(engine.id)
    if not analyser.decides(position):
        return None
    verdict = analyser.analyse(position, effort, rng)
    if not verdict.options:
        return None
    best = max(verdict.options, key=lambda option: option.figures.ev)
    return dict(best.action)


def play_levels(
    game: str,
    levels: dict[int, str],
    hands: int,
    *,
    seed: int = 0,
    stack: int = 1_000,
    effort: Effort = BOT_EFFORT,
    options: dict[str, Any] | None = None,
) -> dict[int, list[int]]:
    """Bots of ``levels`` (by seat) play ``hands`` hands of ``game`` at one table, every
    choice checked against ``legal`` as the table does (an illegal one: the default action);
    each seat's chips won or lost in each hand. Seats buy back in as the simulator's bots do
    (:mod:`app.simulate`), so a long run keeps its seats."""
    cls = game_class(game)
    engine = cls({**cls.SIM_OPTIONS, **(options or {})}, seeds=seed_stream(seed))
    for seat in sorted(levels):
        engine.sit(seat, engine.sim_stack(seat, stack))
    rng = random.Random(seed)
    nets: dict[int, list[int]] = {seat: [] for seat in levels}

    def decide(seat: int) -> None:
        action = bot_action(engine, seat, levels[seat], rng, effort)
        if not action_fits(action, engine.legal_actions(seat)):
            action = engine.default_action(seat)
        engine.apply(seat, action)

    for _ in range(hands):
        for _ in range(MAX_STEPS):  # the decisions between hands (a bank offer)
            waiting = sorted(engine.to_act())
            if engine.in_hand or not waiting:
                break
            decide(waiting[0])
        for seat in engine.seated:
            engine.sim_rebuy(seat, stack)
        if engine.table_over or not engine.can_start():
            break
        engine.start_hand()
        hand = None
        for _ in range(MAX_STEPS):
            hand = engine.take_completed()
            if hand is not None:
                break
            waiting = sorted(engine.to_act())
            if waiting:
                decide(waiting[0])
            else:
                for seat, action in engine.timeout_actions():
                    engine.apply(seat, action, by_clock=True)
        if hand is None:
            raise RuntimeError(f"{game}: a hand did not end")
        engine.take_log()
        for seat in levels:
            nets[seat].append(net_of(hand, seat))
    return nets
