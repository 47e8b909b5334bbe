"""The process's counters, exposed at ``/metrics`` through prometheus-client.

Connections, tables, hands settled per game, actions and their latency (from the frame's
arrival to the new views queued for every connection), errors by code. The hot path only adds
to plain integers (:class:`Metrics`, :class:`Histogram`); a scrape turns them into metric
families (:mod:`app.ops.exposition`), so counting an act costs no more than an addition.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class _Families(Collector):
    def __init__(self, families: Iterable[Metric]) -> None:
        self.families = list(families)

    def collect(self) -> Iterator[Metric]:
        yield from self.families


def as_lines(families: Iterable[Metric]) -> list[str]:
    """``families`` as the lines ``/metrics`` writes for them (Prometheus's text format)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Families(families))
    return generate_latest(registry).decode().splitlines()


class Histogram:
    """Observations counted into buckets by their upper bound (``le``), plus their sum."""

    def __init__(self, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        self.total = 0.0
        self.n = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.buckets, seconds)] += 1
        self.total += seconds
        self.n += 1

    def cumulative(self) -> list[tuple[str, float]]:
        """The buckets as Prometheus has them: ``(le, observations ≤ le)``, ``+Inf`` last."""
        out: list[tuple[str, float]] = []
        running = 0
        for bound, count in zip(self.buckets, self.counts, strict=False):
            running += count
            out.append((str(bound), running))
        out.append(("+Inf", self.n))
        return out

    def family(self, name: str, documentation: str, **labels: str) -> HistogramMetricFamily:
        """The histogram as one metric family (one series, under ``labels``)."""
        family = HistogramMetricFamily(name, documentation, labels=list(labels))
        family.add_metric(list(labels.values()), self.cumulative(), self.total)
        return family


@dataclass(frozen=True)
class Gauges:
    """What a scrape reads from the running server itself, not from a counter."""

    connections: int = 0
    tables: dict[str, int] = field(default_factory=dict)
    """Open tables by game."""
    writer_pending: int = 0
    writer_failures: int = 0
    storage_ok: bool = True
    """False while the tables are stopped because the database cannot store."""
    storage_trips: int = 0
    node: str = ""
    """Cluster mode: this node's id (``NODE_ID``); empty for a process on its own."""


def _by_label(
    family: CounterMetricFamily | GaugeMetricFamily, counts: dict[str, int]
) -> CounterMetricFamily | GaugeMetricFamily:
    for value, count in sorted(counts.items()):
        family.add_metric([str(value)], count)
    return family


class Metrics:
    """The process's counters; one instance, injected into the tables and the socket."""

    def __init__(self) -> None:
        self.hands: dict[str, int] = defaultdict(int)
        self.actions: dict[str, int] = defaultdict(int)
        self.errors: dict[str, int] = defaultdict(int)
        self.rejected: dict[str, int] = defaultdict(int)
        self.action_latency = Histogram()
        self.messages_in = 0

    def hand_settled(self, game: str) -> None:
        self.hands[game] += 1

    def action(self, game: str, seconds: float) -> None:
        self.actions[game] += 1
        self.action_latency.observe(seconds)

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def families(self, gauges: Gauges) -> Iterator[Metric]:
        """The counters, and the ``gauges`` read at this scrape, as metric families."""
        if gauges.node:
            info = GaugeMetricFamily(
                "table31_node_info", "This node of the cluster (NODE_ID).", labels=["node"]
            )
            info.add_metric([gauges.node], 1)
            yield info
        yield GaugeMetricFamily("table31_connections", "Open table sockets.", gauges.connections)
        yield _by_label(
            GaugeMetricFamily("table31_tables", "Open tables by game.", labels=["game"]),
            gauges.tables,
        )
        yield _by_label(
            CounterMetricFamily("table31_hands", "Hands settled by game.", labels=["game"]),
            self.hands,
        )
        yield _by_label(
            CounterMetricFamily("table31_actions", "Actions applied by game.", labels=["game"]),
            self.actions,
        )
        yield self.action_latency.family(
            "table31_action_seconds",
            "From an act's arrival to every connection's new view queued.",
        )
        yield _by_label(
            CounterMetricFamily(
                "table31_errors", "Refused messages by error code.", labels=["code"]
            ),
            self.errors,
        )
        yield _by_label(
            CounterMetricFamily(
                "table31_rejected_connections", "Sockets refused, by reason.", labels=["reason"]
            ),
            self.rejected,
        )
        yield CounterMetricFamily(
            "table31_messages", "Socket frames received.", value=self.messages_in
        )
        yield GaugeMetricFamily(
            "table31_writer_pending", "Database jobs waiting to be written.", gauges.writer_pending
        )
        yield CounterMetricFamily(
            "table31_writer_failures",
            "Database jobs that failed because the storage did (a refused buy-in or a bug's "
            "exception is not counted).",
            value=gauges.writer_failures,
        )
        yield GaugeMetricFamily(
            "table31_storage_ok",
            "1 while the database stores; 0 while every table is stopped until it does again.",
            int(gauges.storage_ok),
        )
        yield CounterMetricFamily(
            "table31_storage_trips",
            "Times every table stopped because the database could not store.",
            value=gauges.storage_trips,
        )
