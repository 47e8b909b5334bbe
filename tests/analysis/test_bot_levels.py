"""The bots' levels (docs/analysis.md §5): a ``best`` bot does measurably better than a
``random`` one at the same table, in every game with decisions. The benchmark plays thousands
of hands (``python -m bench.bots``); here enough hands for the difference to stand more than
three standard errors clear of nothing, with fewer samples in the best bot's estimates.

The two bots share a table, so their results are not independent (in Greek 31 and Vingt-un one
wins what the other loses: a correlation near -0.7 at seed 5): the standard error is the paired
one, of the hand-by-hand difference ``best - random``, never the two bots' errors combined as
if independent (which there understates it by a fifth or more). Each game's hands give the
margin room: at the seed and hands below the difference stands 4 to 10 paired standard errors
clear (measured; docs/analysis.md §5)."""

from __future__ import annotations

import math
import statistics

import pytest

from app.analysis import MODULES
from app.analysis.bots import play_levels
from app.analysis.position import Effort

HANDS = {
    "trianta-ena": 500,  # 4.0 paired standard errors
    "greek-31": 100,  # 8.1
    "vingt-un": 300,  # 4.8
    "trente-et-quarante": 100,  # 5.3 (in expectation, below)
    "en-og-tredive": 60,  # 9.7, heads up (LEVELS)
}

EFFORT = Effort(30, quick=True)
"""The best bot's effort: a bot's quick methods, fewer samples than at the table."""

STEADY_BEST_RANDOM = {0: "steady", 1: "best", 2: "random"}
"""The steady bot sits first: in Trianta Ena the first seated holds the bank, with no choices."""

LEVELS = {"en-og-tredive": {0: "best", 1: "random"}}
"""En og tredive heads up: at a table of three the steady bot takes many of the matches' pots
and the best bot's edge over the random one (at 30 deals an option, docs/analysis.md §10) stood
under three paired standard errors in 200 rounds; heads up it is about 15 chips a round, some
nine standard errors in 60 rounds."""

OPTIONS = {"trianta-ena": {"min_bet": 10, "max_bet": 10}}
"""One bet size where a random bot's amounts would drown the difference in their variance
(the bet's own analysis is tested in the game's file)."""


BY_EXPECTATION = {"trente-et-quarante"}
"""Games judged by the chips given up in expectation rather than by the chips won: every
Trente et Quarante stake loses about 1.1% to the house (the 31 tie), and a random bot's
stakes vary by hundreds of chips a coup, so its results would need some 10^5 coups to stand
three standard errors from a best bot's; the analysis's exact chances tell them apart at once."""


def paired(better: list[float], worse: list[float]) -> tuple[float, float]:
    """The mean of the hand-by-hand difference ``better - worse`` and its standard error (the
    two seats' results come from the same hands)."""
    assert len(better) == len(worse)
    diffs = [b - w for b, w in zip(better, worse, strict=True)]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def test_the_paired_error_is_the_differences() -> None:
    """Results that move together differ by little: the paired error is small where the
    independent one would be large; results that move apart, the other way round."""
    base = [float(i % 7) * 10 for i in range(60)]
    together = paired([b + 1 for b in base], base)
    assert together == (1.0, 0.0)
    diff, se = paired(base, [-b for b in base])
    assert diff == pytest.approx(2 * statistics.fmean(base))
    assert se == pytest.approx(2 * statistics.stdev(base) / math.sqrt(60))


@pytest.mark.parametrize("game", sorted(set(MODULES) - BY_EXPECTATION))
def test_best_bots_beat_random_ones(game: str) -> None:
    levels = LEVELS.get(game, STEADY_BEST_RANDOM)
    best_seat = next(seat for seat, level in levels.items() if level == "best")
    random_seat = next(seat for seat, level in levels.items() if level == "random")
    nets = play_levels(game, levels, HANDS[game], seed=5, effort=EFFORT, options=OPTIONS.get(game))
    best, rand = nets[best_seat], nets[random_seat]
    assert len(best) >= HANDS[game] // 2, "the table stopped dealing"
    diff, se = paired([float(n) for n in best], [float(n) for n in rand])
    assert diff > 3 * se, (
        f"{game}: best {statistics.fmean(best):.2f} vs random "
        f"{statistics.fmean(rand):.2f} chips a hand (paired se {se:.2f})"
    )


def test_best_bots_give_up_less_than_random_ones_in_expectation() -> None:
    game = "trente-et-quarante"
    given_up: dict[int, list[float]] = {}
    play_levels(game, STEADY_BEST_RANDOM, HANDS[game], seed=5, effort=EFFORT, given_up=given_up)
    best, rand = given_up[1], given_up[2]
    assert len(best) >= HANDS[game] // 2, "the table stopped dealing"
    diff, se = paired(rand, best)
    assert diff > 3 * se, (
        f"{game}: random gave up {statistics.fmean(rand):.3f}, best "
        f"{statistics.fmean(best):.3f} chips a coup in expectation (paired se {se:.3f})"
    )
