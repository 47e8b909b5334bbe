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
from typing import Literal, get_args

from app.analysis import analyser_for
from app.analysis.position import BOT_EFFORT, Position
from app.games.core.actions import Action, LegalAction, random_action
from app.games.core.game import Game

log = logging.getLogger(__name__)

BotLevel = Literal["random", "steady", "best"]
LEVELS: tuple[str, ...] = get_args(BotLevel)
DEFAULT_LEVEL: BotLevel = "steady"


def bot_action(engine: Game, seat: int, level: str, rng: random.Random) -> Action:
    """The action a bot of ``level`` takes in ``seat`` now."""
    legal = engine.legal_actions(seat)
    if level == "random":
        return random_action(legal, rng)
    if level == "best":
        try:
            chosen = best_action(engine, seat, legal, rng)
        except Exception:  # an analysis that fails must not stop the table: the steady rule
            log.exception("the best bot's analysis failed; it plays the steady rule")
            chosen = None
        if chosen is not None:
            return chosen
    return engine.bot_action(seat, rng)


def best_action(
    engine: Game, seat: int, legal: list[LegalAction], rng: random.Random
) -> Action | None:
    """The option the analysis finds best for ``seat`` now (None: no decision to make)."""
    position = Position(engine, seat, legal)
    analyser = analyser_for(engine.id)
    if not analyser.decides(position):
        return None
    verdict = analyser.analyse(position, BOT_EFFORT, rng)
    if not verdict.options:
        return None
    best = max(verdict.options, key=lambda option: option.figures.ev)
    return dict(best.action)
