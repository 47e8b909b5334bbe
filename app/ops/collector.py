"""The garbage collector: kept out of the event loop's way, and watched.

CPython's collector stops the one event loop for as long as it takes to walk the objects of
the generations it collects. A server holding 5,000 sockets keeps hundreds of thousands of
objects alive, and a good share of them are renewed all the time without ever becoming
garbage of the collector's kind (each socket's pending ``receive``, each hand's cards and
events, each table's clock). Left to CPython's defaults, those survivors pile up in the young
generations and then in the old one: young collections of 50-110 ms every couple of seconds,
and a full collection of ~650 ms whenever the old generation has taken in a quarter of its
size again (docs/performance.md, §9). The policy here:

* **Start-up is frozen.** ``gc.freeze()`` moves everything alive once the app has started
  (modules, the app, the recovered tables) into the permanent generation, which no
  collection walks. Until then the collector is off (``python -m app serve`` turns it off
  first thing): what the imports build lives as long as the process, and the collections
  that walked it again and again while they ran cost a sixth of a start's CPU; one full
  collection before the freeze finds what start-up left.
* **Survivors are frozen too.** After every young collection, what survived it is frozen
  (:meth:`Collector.on_collection`). A young collection then walks only the objects born
  since the one before, and nothing ever reaches the old generation, so CPython's own full
  collections find it empty. A frozen object is still freed by reference counting the moment
  it is no longer used, which is how almost every object of this server dies: in play the
  collector finds a few dozen objects of cyclic garbage a second (measured, §9).
* **Young collections run on a clock** (every ``YOUNG_SECONDS``) as well as on CPython's
  allocation count. That count is net of frees, and the frees of older objects keep it low
  while the young generation fills up; a clock keeps each young collection to the objects of
  a tenth of a second.
* **The frozen heap is swept when memory has grown by half.** Cyclic garbage made of objects
  that were already frozen (a closed socket's protocol objects, say) is found only by a full
  collection over everything: :meth:`Collector.sweep` unfreezes, collects and freezes again.
  It runs when the process's resident memory has grown by ``SWEEP_GROWTH`` since the last
  sweep, the same "collect when the heap has grown" rule as CPython's, measured on what
  is really alive rather than on how many objects ever survived a young collection.

The :class:`Pauses` probe times every collection through ``gc.callbacks`` so that
``/metrics`` (and the load benchmark) show the pauses the loop actually suffered.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.core import Metric as MetricFamily

from app.ops.clock import Every
from app.ops.metrics import Histogram, as_lines

GEN0_THRESHOLD = 10_000
"""Allocations (net of frees) between young collections; CPython's default is 700."""
YOUNG_SECONDS = 0.1
"""A young collection at least this often, whatever the allocation count says."""
SWEEP_GROWTH = 1.5
"""Resident memory, relative to the last sweep's, beyond which the frozen heap is swept."""
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

    def families(self) -> Iterator[MetricFamily]:
        pauses = HistogramMetricFamily(
            "table31_gc_pause_seconds",
            "Garbage collections by generation, and how long each stopped the process.",
            labels=["generation"],
        )
        for generation, histogram in enumerate(self.by_generation):
            pauses.add_metric([str(generation)], histogram.cumulative(), histogram.total)
        yield pauses
        yield GaugeMetricFamily(
            "table31_gc_pause_longest_seconds", "The longest collection so far.", self.longest
        )

    def lines(self) -> list[str]:
        """:meth:`families` as ``/metrics`` writes them."""
        return as_lines(self.families())


PAUSES = Pauses()
"""The process's one probe (``gc.callbacks`` is process-wide)."""


def resident_bytes() -> int:
    """This process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Collector:
    """The policy above for one served process: :meth:`start` once the app has started
    (after :func:`settle_after_start`), :meth:`stop` when it shuts down."""

    def __init__(
        self, young_seconds: float = YOUNG_SECONDS, sweep_growth: float = SWEEP_GROWTH
    ) -> None:
        self.sweep_growth = sweep_growth
        self.sweeps = 0
        self.swept_at = 0
        """Resident bytes right after the last sweep (or the start)."""
        self._every = Every(young_seconds, self._tick)

    @property
    def running(self) -> bool:
        return self._every.running

    def start(self) -> None:
        if self._every.running:
            return
        self.swept_at = resident_bytes()
        if self.on_collection not in gc.callbacks:
            gc.callbacks.append(self.on_collection)
        self._every.start()

    def stop(self) -> None:
        self._every.stop()
        if self.on_collection in gc.callbacks:
            gc.callbacks.remove(self.on_collection)

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """After a young collection, freeze its survivors (``gc.callbacks``: the collection
        is over by the "stop" phase, and freezing only moves the generations' lists)."""
        if phase == "stop" and info["generation"] < 2:
            gc.freeze()

    def sweep(self) -> int:
        """A full collection over the frozen heap too; the survivors are frozen again.
        Returns the objects it freed."""
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.sweeps += 1
        self.swept_at = resident_bytes()
        return freed

    def _tick(self) -> None:
        gc.collect(0)
        if resident_bytes() > self.swept_at * self.sweep_growth:
            self.sweep()

    def families(self) -> Iterator[MetricFamily]:
        yield CounterMetricFamily(
            "table31_gc_sweeps", "Full collections over the frozen heap.", value=self.sweeps
        )

    def lines(self) -> list[str]:
        """:meth:`families` as ``/metrics`` writes them."""
        return as_lines(self.families())


COLLECTOR = Collector()
"""The served process's one policy (started by ``python -m app serve``)."""


def settle_after_start() -> None:
    """Freeze what start-up built, raise the young threshold, start timing pauses, and turn
    the collector on (``python -m app serve`` starts with it off: app/__main__.py).
    Idempotent: every app built in one process (the tests build many) may call it."""
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    if PAUSES not in gc.callbacks:
        gc.callbacks.append(PAUSES)
    gc.enable()
