"""Counters for ``/metrics`` in the Prometheus text format (no client library needed).

Connections, tables, hands settled per game, actions and their latency (from the frame's
arrival to the new views queued for every connection), errors by code.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Histogram:
    def __init__(self, buckets: tuple[float, ...] = LATENCY_BUCKETS) -> None:
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        self.total = 0.0
        self.n = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.buckets, seconds)] += 1
        self.total += seconds
        self.n += 1

    def lines(self, name: str, labels: str = "") -> Iterable[str]:
        running = 0
        sep = "," if labels else ""
        for bound, count in zip(self.buckets, self.counts, strict=False):
            running += count
            yield f'{name}_bucket{{{labels}{sep}le="{bound}"}} {running}'
        yield f'{name}_bucket{{{labels}{sep}le="+Inf"}} {self.n}'
        yield (
            f"{name}_sum{{{labels}}} {self.total:.6f}" if labels else f"{name}_sum {self.total:.6f}"
        )
        yield f"{name}_count{{{labels}}} {self.n}" if labels else f"{name}_count {self.n}"


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

    def render(
        self, *, connections: int, tables: dict[str, int], writer_pending: int, writer_failures: int
    ) -> str:
        out: list[str] = []

        def family(name: str, kind: str, help_text: str) -> None:
            out.append(f"# HELP {name} {help_text}")
            out.append(f"# TYPE {name} {kind}")

        family("table31_connections", "gauge", "Open table sockets.")
        out.append(f"table31_connections {connections}")
        family("table31_tables", "gauge", "Open tables by game.")
        for game, count in sorted(tables.items()):
            out.append(f'table31_tables{{game="{game}"}} {count}')
        family("table31_hands_total", "counter", "Hands settled by game.")
        for game, count in sorted(self.hands.items()):
            out.append(f'table31_hands_total{{game="{game}"}} {count}')
        family("table31_actions_total", "counter", "Actions applied by game.")
        for game, count in sorted(self.actions.items()):
            out.append(f'table31_actions_total{{game="{game}"}} {count}')
        family(
            "table31_action_seconds",
            "histogram",
            "From an act's arrival to every connection's new view queued.",
        )
        out.extend(self.action_latency.lines("table31_action_seconds"))
        family("table31_errors_total", "counter", "Refused messages by error code.")
        for code, count in sorted(self.errors.items()):
            out.append(f'table31_errors_total{{code="{code}"}} {count}')
        family("table31_rejected_connections_total", "counter", "Sockets refused, by reason.")
        for reason, count in sorted(self.rejected.items()):
            out.append(f'table31_rejected_connections_total{{reason="{reason}"}} {count}')
        family("table31_messages_total", "counter", "Socket frames received.")
        out.append(f"table31_messages_total {self.messages_in}")
        family("table31_writer_pending", "gauge", "Database jobs waiting to be written.")
        out.append(f"table31_writer_pending {writer_pending}")
        family("table31_writer_failures_total", "counter", "Database jobs that failed.")
        out.append(f"table31_writer_failures_total {writer_failures}")
        return "\n".join(out) + "\n"
