"""The bots' levels (docs/analysis.md §5): a ``best`` bot does measurably better than a
``random`` one at the same table, in every game with decisions. The benchmark plays thousands
of hands (``python -m bench.bots``); here enough hands for the difference to stand more than
three standard errors clear of nothing, with fewer samples in the best bot's estimates."""

from __future__ import annotations

import math
import statistics

import pytest

from app.analysis import MODULES
from app.analysis.bots import play_levels
from app.analysis.position import Effort

HANDS = {
    "trianta-ena": 500,
    "greek-31": 300,
    "vingt-un": 200,
    "trente-et-quarante": 150,
    "en-og-tredive": 200,
}

OPTIONS = {"trianta-ena": {"min_bet": 10, "max_bet": 10}}
"""One bet size where a random bot's amounts would drown the difference in their variance
(the bet's own analysis is tested in the game's file)."""


BY_EXPECTATION = {"trente-et-quarante"}
"""Games judged by the chips given up in expectation rather than by the chips won: every
Trente et Quarante stake loses about 1.1% to the house (the 31 tie), and a random bot's
stakes vary by hundreds of chips a coup, so its results would need some 10^5 coups to stand
three standard errors from a best bot's; the analysis's exact chances tell them apart at once."""


@pytest.mark.parametrize("game", sorted(set(MODULES) - BY_EXPECTATION))
def test_best_bots_beat_random_ones(game: str) -> None:
    # the steady bot sits first: in Trianta Ena the first seated holds the bank, with no choices
    levels = {0: "steady", 1: "best", 2: "random"}
    nets = play_levels(
        game, levels, HANDS[game], seed=5, effort=Effort(30, quick=True), options=OPTIONS.get(game)
    )
    best, rand = nets[1], nets[2]
    assert len(best) >= HANDS[game] // 2, "the table stopped dealing"
    diff = statistics.fmean(best) - statistics.fmean(rand)
    se = math.sqrt(statistics.variance(best) / len(best) + statistics.variance(rand) / len(rand))
    assert diff > 3 * se, (
        f"{game}: best {statistics.fmean(best):.2f} vs random "
        f"{statistics.fmean(rand):.2f} chips a hand (se {se:.2f})"
    )


def test_best_bots_give_up_less_than_random_ones_in_expectation() -> None:
    game = "trente-et-quarante"
    given_up: dict[int, list[float]] = {}
    levels = {0: "steady", 1: "best", 2: "random"}
    play_levels(game, levels, HANDS[game], seed=5, effort=Effort(30, quick=True), given_up=given_up)
    best, rand = given_up[1], given_up[2]
    assert len(best) >= HANDS[game] // 2, "the table stopped dealing"
    diff = statistics.fmean(rand) - statistics.fmean(best)
    se = math.sqrt(statistics.variance(best) / len(best) + statistics.variance(rand) / len(rand))
    assert diff > 3 * se, (
        f"{game}: random gave up {statistics.fmean(rand):.3f}, best "
        f"{statistics.fmean(best):.3f} chips a coup in expectation (se {se:.3f})"
    )
