"""The garbage collector's tuning (app/ops/collector.py), in a process of its own: freezing
the start-up heap and changing thresholds must not leak into the test process."""

from __future__ import annotations

import json
import subprocess
import sys

from app.ops.collector import PAUSES, Pauses

SCRIPT = """
import gc, json
from app.ops import collector
before = gc.get_freeze_count()
collector.settle_after_start()
collector.settle_after_start()  # idempotent: one probe
junk = []
for _ in range(50):
    a = []; a.append(a); junk.append(a)  # cycles only the collector frees
del junk
gc.collect()
print(json.dumps({
    "before": before,
    "frozen": gc.get_freeze_count(),
    "gen0": gc.get_threshold()[0],
    "probes": sum(1 for c in gc.callbacks if c is collector.PAUSES),
    "full": collector.PAUSES.by_generation[2].n,
    "longest": collector.PAUSES.longest,
}))
"""


def test_settle_freezes_the_start_up_heap_and_times_every_collection() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(out.stdout)
    assert report["before"] == 0
    assert report["frozen"] > 1000  # the modules and everything built so far
    assert report["gen0"] == 10_000
    assert report["probes"] == 1
    assert report["full"] >= 1  # the gc.collect() above, timed
    assert report["longest"] > 0


def test_pauses_render_as_a_prometheus_histogram_per_generation() -> None:
    probe = Pauses()
    probe("start", {"generation": 1})
    probe("stop", {"generation": 1})
    text = "\n".join(probe.lines())
    assert 'table31_gc_pause_seconds_count{generation="1"} 1' in text
    assert 'table31_gc_pause_seconds_count{generation="2"} 0' in text
    assert "table31_gc_pause_longest_seconds" in text
    assert PAUSES.lines()[0].startswith("# HELP table31_gc_pause_seconds")
