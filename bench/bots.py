"""The bots' levels against each other, and what the analysis costs (docs/analysis.md §5,
docs/performance.md): for every game, a ``best`` bot, a ``steady`` one and a ``random`` one
play thousands of hands at one table (the seats change role as the rules pass the deal or the
bank), and each level's chips per hand are printed with a 95% interval; then the time of one
``best`` decision and of one finished hand's analysis.

::

    python -m bench.bots                    # 2,000 hands a game
    python -m bench.bots --hands 5000 --json bench/results/bots.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from app.analysis import MODULES
from app.analysis.bots import play_levels
from app.analysis.position import ANALYSIS_EFFORT, BOT_EFFORT, Effort

BY_EXPECTATION = {"trente-et-quarante"}
"""Games whose levels are told apart by the chips given up in expectation as well (docs/analysis.md
§5: chips won vary too much there)."""
LEVELS = {0: "steady", 1: "best", 2: "random"}
"""The steady bot sits first: in Trianta Ena the first seated holds the bank (no choices)."""


def mean_interval(values: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def levels_run(game: str, hands: int, effort: Effort) -> dict[str, Any]:
    started = time.perf_counter()
    given_up: dict[int, list[float]] | None = {} if game in BY_EXPECTATION else None
    nets = play_levels(
        game, LEVELS, hands, seed=sum(game.encode()), effort=effort, given_up=given_up
    )
    seconds = time.perf_counter() - started
    row: dict[str, Any] = {"game": game, "hands": len(nets[1]), "seconds": round(seconds, 1)}
    for seat, level in LEVELS.items():
        mean, half = mean_interval(nets[seat])
        row[level] = {"per_hand": round(mean, 3), "plus_minus": round(half, 3)}
    best, rand = nets[1], nets[2]
    diff = statistics.fmean(best) - statistics.fmean(rand)
    se = math.sqrt(statistics.variance(best) / len(best) + statistics.variance(rand) / len(rand))
    row["best_minus_random"] = {"chips": round(diff, 3), "z": round(diff / se, 1) if se else None}
    if given_up is not None:
        row["given_up_per_hand"] = {
            level: round(statistics.fmean(given_up[seat]), 4) for seat, level in LEVELS.items()
        }
    return row


def analysis_cost(game: str, hands: int = 20) -> dict[str, Any]:
    """Seconds per finished hand's analysis, from hands recorded by a real table core."""
    from app.analysis.hand import analyse_hand
    from bench.records import recorded_hands

    records = recorded_hands(game, hands)
    started = time.process_time()
    decisions = 0
    for record in records:
        decisions += len(analyse_hand(record, ANALYSIS_EFFORT).decisions)
    cpu = time.process_time() - started
    return {
        "game": game,
        "hands": len(records),
        "cpu_s_per_hand": round(cpu / max(1, len(records)), 3),
        "decisions_per_hand": round(decisions / max(1, len(records)), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2_000)
    parser.add_argument("--samples", type=int, default=BOT_EFFORT.samples)
    parser.add_argument("--games", nargs="*", default=sorted(MODULES))
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args(argv)
    random.seed(0)
    rows = []
    for game in args.games:
        row = levels_run(game, args.hands, Effort(args.samples, quick=True))
        print(json.dumps(row), flush=True)
        rows.append(row)
    costs = []
    for game in args.games:
        cost = analysis_cost(game)
        print(json.dumps(cost), flush=True)
        costs.append(cost)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"levels": rows, "analysis": costs}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
