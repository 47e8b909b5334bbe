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


POLICY = """
import asyncio, gc, json
from app.ops import collector

class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it

async def main():
    collector.settle_after_start()
    policy = collector.Collector(young_seconds=0.01)
    policy.start()
    out = {}
    frozen = gc.get_freeze_count()
    keep = [[n] for n in range(1000)]  # alive across a young collection
    for _ in range(3):
        Node()  # young cyclic garbage
    out["young_freed"] = gc.collect(0)
    out["survivors_frozen"] = gc.get_freeze_count() - frozen >= 1000
    out["young_empty"] = gc.get_count()[1:] == (0, 0)
    await asyncio.sleep(0.1)
    ticks = collector.PAUSES.by_generation[0].n
    await asyncio.sleep(0.1)
    out["collected_on_the_clock"] = collector.PAUSES.by_generation[0].n - ticks >= 3
    old = [Node() for _ in range(50)]
    gc.collect(0)  # now frozen: a young collection no longer sees them
    del old
    out["frozen_garbage_left"] = gc.collect(0)
    out["sweep_freed"] = policy.sweep()
    policy.swept_at = 1  # as if memory had grown since the last sweep
    await asyncio.sleep(0.05)
    out["sweeps"] = policy.sweeps
    out["metric"] = policy.lines()[-1]
    policy.stop()
    out["stopped"] = not policy.running and policy.on_collection not in gc.callbacks
    del keep
    print(json.dumps(out))

asyncio.run(main())
"""


def test_survivors_are_frozen_young_garbage_freed_and_the_frozen_heap_swept() -> None:
    out = subprocess.run(
        [sys.executable, "-c", POLICY], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(out.stdout)
    assert report["young_freed"] >= 3  # the three young Nodes
    assert report["survivors_frozen"] and report["young_empty"]
    assert report["collected_on_the_clock"]
    assert report["frozen_garbage_left"] == 0  # out of the young collections' sight...
    assert report["sweep_freed"] >= 50  # ...until a sweep
    assert report["sweeps"] >= 2  # the one above, and one when memory "grew"
    assert report["metric"].startswith("table31_gc_sweeps_total ")
    assert report["stopped"]
