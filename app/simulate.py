"""Bots playing a game's pure engine at full speed: ``python -m app simulate GAME``.

The runner is generic over games: it seats bots, deals hand after hand, asks each seat the
table waits for for its bot's action (checking it against ``legal``, as the server would),
and hands every finished hand to the game's :class:`GameStats`, whose report is printed as
one JSON object. Bots whose stack runs dry buy back in, so a long run keeps its seats.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from app.games.core.actions import action_fits
from app.games.core.cards import SeedSource
from app.games.core.game import Game
from app.games.core.hand import CompletedHand, GameStats
from app.games.core.registry import game_class


def seed_stream(seed: int) -> SeedSource:
    """Deterministic 32-byte shuffle seeds derived from one integer (for reproducible runs)."""
    counter = [0]

    def next_seed() -> bytes:
        counter[0] += 1
        return hashlib.sha256(f"table31-sim:{seed}:{counter[0]}".encode()).digest()

    return next_seed


def play_hand(
    game: Game, rng: random.Random, *, max_steps: int = 10_000, check: bool = True
) -> CompletedHand:
    """Deal one hand and let every seat's bot play it to the end. With ``check`` every bot
    action is checked against ``legal`` first, as the server would (the tests do that; the
    command line skips it for speed)."""
    game.start_hand()
    steps = 0
    while True:
        done = game.take_completed()
        if done is not None:
            game.take_log()
            return done
        waiting = game.to_act()
        if not waiting:
            raise RuntimeError(f"{game.id}: hand stalled with nobody to act")
        seat = min(waiting)
        action = game.bot_action(seat, rng)
        if check and not action_fits(action, game.legal_actions(seat)):
            raise RuntimeError(f"{game.id}: bot chose an illegal action {action}")
        game.apply(seat, action)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"{game.id}: hand did not end in {max_steps} steps")


def settle_between_hands(game: Game, rng: random.Random) -> None:
    """Answer the decisions some games ask between hands (a bank offer), with the bots."""
    for _ in range(1000):
        waiting = sorted(game.to_act())
        if game.in_hand or not waiting:
            return
        seat = waiting[0]
        game.apply(seat, game.bot_action(seat, rng))
    raise RuntimeError(f"{game.id}: between-hands decisions never ended")


def simulate(
    game_id: str,
    *,
    hands: int,
    seed: int,
    players: int | None = None,
    stack: int = 1000,
    options: dict[str, Any] | None = None,
    check: bool = True,
) -> dict[str, Any]:
    """Play ``hands`` hands with bots and return the game's report."""
    cls = game_class(game_id)
    game = cls({**cls.SIM_OPTIONS, **(options or {})}, seeds=seed_stream(seed))
    rng = random.Random(seed)
    seats = players or cls.SIM_PLAYERS
    for seat in range(seats):
        game.sit(seat, game.sim_stack(seat, stack))
    stats: GameStats = cls.STATS(game.options)
    played = 0
    while played < hands:
        settle_between_hands(game, rng)
        for seat in game.seated:
            game.sim_rebuy(seat, stack)
        if not game.can_start():
            raise RuntimeError(f"{game_id}: the table cannot deal with {seats} bots")
        stats.observe(play_hand(game, rng, check=check))
        played += 1
    report = {"game": game_id, "seed": seed, "players": seats, "options": dict(game.options)}
    report.update(stats.report())
    return report
