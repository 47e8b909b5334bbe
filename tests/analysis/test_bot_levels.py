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
    "trianta-ena": 300,
    "greek-31": 300,
    "vingt-un": 300,
    "trente-et-quarante": 300,
    "en-og-tredive": 120,
}


@pytest.mark.parametrize("game", sorted(MODULES))
def test_best_bots_beat_random_ones(game: str) -> None:
    nets = play_levels(
        game, {0: "best", 1: "random", 2: "steady"}, HANDS[game], seed=5, effort=Effort(30)
    )
    best, rand = nets[0], nets[1]
    assert len(best) >= HANDS[game] // 2, "the table stopped dealing"
    diff = statistics.fmean(best) - statistics.fmean(rand)
    se = math.sqrt(statistics.variance(best) / len(best) + statistics.variance(rand) / len(rand))
    assert diff > 3 * se, (
        f"{game}: best {statistics.fmean(best):.2f} vs random "
        f"{statistics.fmean(rand):.2f} chips a hand (se {se:.2f})"
    )
