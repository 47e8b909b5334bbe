"""``/metrics``: one prometheus-client collector over the server's own counters.

prometheus-client's ``Counter.inc`` takes a lock on every call; the table counts each act in
a plain integer instead (:mod:`app.ops.metrics`), and :class:`ServerCollector` reads those
integers into metric families only when Prometheus scrapes. Each app has its own
:class:`~prometheus_client.CollectorRegistry` (the tests build many apps in one process; the
library's global registry would mix them), rendered by ``generate_latest`` in the text format
0.0.4.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry
from prometheus_client.core import Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from prometheus_client.registry import Collector

from app.ops import collector, memory
from app.ops.metrics import Gauges, Metrics

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""The text format ``generate_latest`` writes."""


class ServerCollector(Collector):
    """The server's counters (``metrics``), its gauges read at each scrape (``gauges``), and
    the process's garbage-collection and heap-trim probes."""

    def __init__(self, metrics: Metrics, gauges: Callable[[], Gauges]) -> None:
        self.metrics = metrics
        self.gauges = gauges

    def collect(self) -> Iterator[Metric]:
        yield from self.metrics.families(self.gauges())
        yield from collector.PAUSES.families()
        yield from collector.COLLECTOR.families()
        yield from memory.TRIMMER.families()


def server_registry(metrics: Metrics, gauges: Callable[[], Gauges]) -> CollectorRegistry:
    """A registry of its own holding one :class:`ServerCollector`."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServerCollector(metrics, gauges))
    return registry


def scrape(registry: CollectorRegistry) -> bytes:
    """The body of a ``/metrics`` answer."""
    return generate_latest(registry)
