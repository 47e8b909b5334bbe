"""Freed C-heap pages go back to the system (app/ops/memory.py): a trim really lowers the
resident memory a burst of freed messages left behind, runs on the loop's clock, and shows in
``/metrics``. In a process of its own, so the test process's heap is left alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app.ops.memory import Trimmer

SCRIPT = """
import asyncio, json, os
from app.ops.memory import Trimmer

def rss():
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

keep, junk = [], []
for i in range(200_000):  # messages freed, with a few survivors between them (fragmentation)
    text = ("x" * 1800) + str(i)
    (keep if i % 50 == 0 else junk).append(text)
junk.clear()
before = rss()
trimmer = Trimmer(seconds=0.05)

async def main():
    trimmer.start()
    # every 0.05 s: wait for a second trim (a trim of ~350 MB takes its time on a busy machine)
    for _ in range(200):
        await asyncio.sleep(0.05)
        if trimmer.trims >= 2:
            break
    trimmer.stop()

asyncio.run(main())
print(json.dumps({"before": before, "after": rss(), "trims": trimmer.trims,
                  "available": trimmer.available, "kept": len(keep)}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_a_trim_hands_freed_heap_pages_back_on_the_loops_clock() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=60
    )
    result = json.loads(out.stdout)
    assert result["available"] is True
    assert result["trims"] >= 2  # the loop's clock trims again and again, not once
    # ~350 MB of freed 1.8 KB strings, pinned in place by one survivor in fifty
    assert result["before"] - result["after"] > 100 * 2**20


def test_the_trims_show_in_the_metrics_text() -> None:
    trimmer = Trimmer()
    if trimmer.available:
        assert trimmer.trim() is True
    text = "\n".join(trimmer.lines())
    assert "table31_malloc_trims_total" in text
    assert "table31_malloc_trim_longest_seconds" in text
