"""``/metrics`` as prometheus-client writes it: the server's own counters read by one
collector at scrape time, in a registry of each app's own."""

from __future__ import annotations

from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from app.ops.exposition import scrape, server_registry
from app.ops.metrics import Gauges, Metrics


def samples(body: bytes) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def test_the_counters_are_read_at_each_scrape_under_their_names() -> None:
    metrics = Metrics()
    gauges = Gauges(connections=3, tables={"greek-31": 2}, writer_pending=4, writer_failures=1)
    registry = server_registry(metrics, lambda: gauges)
    metrics.action("greek-31", 0.002)
    metrics.action("greek-31", 2.0)
    metrics.hand_settled("greek-31")
    metrics.error("not_your_turn")
    metrics.rejected["cross_site"] += 1
    metrics.messages_in += 5
    got = samples(scrape(registry))
    assert got[("table31_connections", ())] == 3
    assert got[("table31_tables", (("game", "greek-31"),))] == 2
    assert got[("table31_actions_total", (("game", "greek-31"),))] == 2
    assert got[("table31_hands_total", (("game", "greek-31"),))] == 1
    assert got[("table31_errors_total", (("code", "not_your_turn"),))] == 1
    assert got[("table31_rejected_connections_total", (("reason", "cross_site"),))] == 1
    assert got[("table31_messages_total", ())] == 5
    assert got[("table31_writer_pending", ())] == 4
    assert got[("table31_writer_failures_total", ())] == 1
    assert got[("table31_action_seconds_bucket", (("le", "0.0025"),))] == 1
    assert got[("table31_action_seconds_bucket", (("le", "1.0"),))] == 1
    assert got[("table31_action_seconds_bucket", (("le", "+Inf"),))] == 2
    assert got[("table31_action_seconds_count", ())] == 2
    assert abs(got[("table31_action_seconds_sum", ())] - 2.002) < 1e-9
    assert ("table31_gc_pause_seconds_count", (("generation", "2"),)) in got
    assert ("table31_gc_sweeps_total", ()) in got
    assert ("table31_malloc_trims_total", ()) in got
    # counted after the first scrape: the next one sees it
    metrics.action("greek-31", 0.001)
    assert samples(scrape(registry))[("table31_actions_total", (("game", "greek-31"),))] == 3


def test_each_app_has_a_registry_of_its_own() -> None:
    first, second = Metrics(), Metrics()
    first.hand_settled("vingt-un")
    one = samples(scrape(server_registry(first, Gauges)))
    other = samples(scrape(server_registry(second, Gauges)))
    assert one[("table31_hands_total", (("game", "vingt-un"),))] == 1
    assert ("table31_hands_total", (("game", "vingt-un"),)) not in other
    assert REGISTRY.get_sample_value("table31_hands_total", {"game": "vingt-un"}) is None


def test_counting_is_plain_arithmetic() -> None:
    """The hot path adds to integers: no prometheus-client metric (and its lock) per act."""
    metrics = Metrics()
    metrics.action("trianta-ena", 0.01)
    assert metrics.actions == {"trianta-ena": 1}
    assert metrics.action_latency.n == 1
    kinds = {type(value).__module__ for value in vars(metrics).values()}
    assert not any(kind.startswith("prometheus_client") for kind in kinds), kinds
