"""The garbage collector: kept out of the event loop's way, and watched.

A full (generation 2) collection stops the one event loop for as long as it takes to walk
every live container object: with 5,000 sockets and the recovered tables that was up to a
second (docs/performance.md, "The bottleneck now", item 6). Two remedies, applied once the
app has started:

* ``gc.freeze()`` moves everything alive at start-up (modules, the app, the recovered
  tables) into the permanent generation, which no collection walks again;
* a larger first-generation threshold makes young collections rarer (most of the server's
  garbage is acyclic and freed by reference counting at once; the collector only finds
  cycles).

The :class:`Pauses` probe times every collection through ``gc.callbacks`` so that
``/metrics`` (and the load benchmark) show the pauses the loop actually suffered.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from app.ops.metrics import Histogram

GEN0_THRESHOLD = 10_000
"""Allocations (net of frees) between young collections; CPython's default is 700."""
PAUSE_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Pauses:
    """How long each generation's collections stopped the process."""

    def __init__(self) -> None:
        self.by_generation = [Histogram(PAUSE_BUCKETS) for _ in range(3)]
        self.longest = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        self.by_generation[info["generation"]].observe(pause)
        self.longest = max(self.longest, pause)

    def lines(self) -> list[str]:
        out = [
            "# HELP table31_gc_pause_seconds Garbage collections by generation, and how long "
            "each stopped the process.",
            "# TYPE table31_gc_pause_seconds histogram",
        ]
        for generation, histogram in enumerate(self.by_generation):
            out.extend(histogram.lines("table31_gc_pause_seconds", f'generation="{generation}"'))
        out.append("# HELP table31_gc_pause_longest_seconds The longest collection so far.")
        out.append("# TYPE table31_gc_pause_longest_seconds gauge")
        out.append(f"table31_gc_pause_longest_seconds {self.longest:.6f}")
        return out


PAUSES = Pauses()
"""The process's one probe (``gc.callbacks`` is process-wide)."""


def settle_after_start() -> None:
    """Freeze what start-up built, raise the young threshold, and start timing pauses.
    Idempotent: every app built in one process (the tests build many) may call it."""
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    if PAUSES not in gc.callbacks:
        gc.callbacks.append(PAUSES)
