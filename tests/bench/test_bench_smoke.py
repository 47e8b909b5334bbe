"""The benchmarks run end to end at a tiny size and report their JSON fields.

No timing is asserted (the machine is shared and noisy): only that each benchmark starts
what it must, drives it, and writes every figure docs/performance.md relies on.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench import broadcast, engines, load


def test_engines_benchmark_reports_every_game_and_the_database(tmp_path: Path) -> None:
    out = tmp_path / "engines.json"
    code = engines.main(
        [
            "--seconds", "0.05", "--hands", "8", "--batches", "1,4",
            "--postgres", "none", "--json", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text())
    from app.games.core.registry import GAME_IDS

    assert [row["game"] for row in report["engines"]] == list(GAME_IDS)
    for row in report["engines"]:
        assert row["hands_per_s"] > 0
        assert row["with_views_hands_per_s"] > 0
        assert row["views_per_s"] > 0
    batches = {row["batch"]: row for row in report["database"] if row["database"] == "sqlite"}
    assert set(batches) == {1, 4}
    for row in batches.values():
        assert row["hands"] == 8
        assert row["hands_per_s"] > 0
        assert row["ledger_entries_per_hand"] > 0
        assert row["cpu_ms_per_hand"] > 0
    assert report["machine"]["cores"] >= 1


def test_broadcast_benchmark_times_a_real_table_in_every_game(tmp_path: Path) -> None:
    out = tmp_path / "broadcast.json"
    code = broadcast.main(["--game", "all", "--spectators", "2", "--seconds", "0.05"])
    assert code == 0
    code = broadcast.main(["--seconds", "0.05", "--json", str(out)])
    assert code == 0
    (row,) = json.loads(out.read_text())["broadcast"]
    assert row["game"] == "trianta-ena" and row["connections"] == 5
    assert row["us_per_broadcast"] > 0 and row["bytes_per_state"] > 100


def test_load_benchmark_drives_the_project_and_the_bare_endpoint(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    code = load.main(
        [
            "--tables", "2", "--clients", "3", "--seconds", "1.5", "--warmup", "0.5",
            "--rounds", "1", "--workers", "1", "--json", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text())
    runs = {row["target"]: row for row in report["runs"]}
    assert set(runs) == {"project", "bare"}
    for row in runs.values():
        assert row["sockets"] == 6
        assert row["actions_per_s"] > 0, row
        for key in ("ack_ms", "state_ms", "ping_ms"):
            assert set(row[key]) >= {"p50", "p95", "p99", "max", "n"}
        for key in (
            "messages_in_per_s",
            "bytes_in_per_s",
            "server_cpu_pct",
            "server_cpu_us_per_action",
            "client_cpu_pct",
            "rss_per_connection_kib",
            "rss_per_connection_idle_kib",
            "rss_per_connection_marginal_kib",
        ):
            assert key in row, key
        assert not row["closed"], row["closed"]
    assert runs["project"]["hands_per_s"] is not None
    # the server's own gauges: its writer's queue and its collector's pauses
    assert runs["project"]["writer_pending"] is not None
    assert runs["project"]["gc_pause_longest_ms"] is not None
    assert runs["project"]["full_gcs"] is not None
    # every generation's collections counted, those over 10 ms, and the collector's sweeps
    assert runs["project"]["gc_ms_per_s"] is not None
    assert runs["project"]["gc_over_10ms"] is not None
    assert runs["project"]["gc_sweeps"] is not None
    assert runs["bare"]["mean_message_bytes"] > 0
    (ratio,) = report["ratios"]
    assert ratio["throughput_ratio"] > 0
    assert ratio["p99_ratio"] > 0
    assert set(ratio["targets"]) == {
        "p99_ack_under_50ms",
        "throughput_at_least_half_of_bare",
        "under_40_kib_per_connection_slope",
        "under_40_kib_per_connection_after_play",
    }
