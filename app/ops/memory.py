"""Memory the process has freed goes back to the system, now and then.

Every state message is a string of a couple of kilobytes, allocated with ``malloc`` and freed
once sent; thousands a second leave holes in the C heap that ``free`` keeps for later instead
of returning them. After play, a server with 5,000 sockets held ~7 KiB a socket more than it
used (docs/performance.md, "Memory per connection"). glibc's ``malloc_trim(0)`` hands those
free pages back; it takes a millisecond or two, so the loop calls it every ``TRIM_SECONDS``.
Elsewhere than glibc (musl, macOS) there is nothing to call and nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from collections.abc import Callable, Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.core import Metric as MetricFamily

from app.ops.clock import Every
from app.ops.metrics import as_lines

TRIM_SECONDS = 2.0


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


class Trimmer:
    """Calls ``malloc_trim(0)`` every ``seconds`` on the running loop; times each call."""

    def __init__(self, seconds: float = TRIM_SECONDS) -> None:
        self.trims = 0
        self.longest = 0.0
        self.total = 0.0
        self._trim = _malloc_trim()
        self._every = Every(seconds, self.trim)

    @property
    def available(self) -> bool:
        return self._trim is not None

    def trim(self) -> bool:
        """Give free heap pages back now; False where the C library has no ``malloc_trim``."""
        if self._trim is None:
            return False
        started = time.perf_counter()
        self._trim(0)
        took = time.perf_counter() - started
        self.trims += 1
        self.total += took
        self.longest = max(self.longest, took)
        return True

    def start(self) -> None:
        if self._trim is not None:
            self._every.start()

    def stop(self) -> None:
        self._every.stop()

    def families(self) -> Iterator[MetricFamily]:
        yield CounterMetricFamily(
            "table31_malloc_trims", "Free C-heap pages handed back to the system.", self.trims
        )
        yield CounterMetricFamily(
            "table31_malloc_trim_seconds",
            "Time the event loop spent handing them back.",
            self.total,
        )
        yield GaugeMetricFamily(
            "table31_malloc_trim_longest_seconds", "The longest single trim.", self.longest
        )

    def lines(self) -> list[str]:
        """:meth:`families` as ``/metrics`` writes them."""
        return as_lines(self.families())


TRIMMER = Trimmer()
"""The served process's one trimmer (started by ``python -m app serve``)."""
