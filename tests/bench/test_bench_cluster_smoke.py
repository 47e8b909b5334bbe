"""The cluster benchmark runs end to end at a tiny size and prints its figures.

One table of three players through nginx on a 1-node and a 2-node cluster, then a failover
(a 2-node cluster, the probe table's owner killed with SIGKILL, a 3 s lease). No timing is
asserted (the machine is shared and noisy): only that every layer's CPU is read, the clients'
acts are accepted through the front, and the failover's clock stops at an ``ack`` from the
node that took the table over (docs/scaling.md relies on these fields).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import cluster
from tests.cluster.harness import need_cluster

pytestmark = pytest.mark.cluster

LAYERS = {"nginx", "node n1", "writer n1", "postgres", "nodes", "writers"}


def test_cluster_benchmark_measures_one_and_two_nodes_and_a_failover(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    need_cluster()
    out = tmp_path / "cluster.json"
    code = cluster.main(
        [
            "--tables", "2", "--clients", "3", "--seconds", "1.5", "--warmup", "0.5",
            "--rounds", "1", "--workers", "1", "--lease", "3", "--short-lease", "0",
            "--failover-tables", "2", "--failover-play", "1", "--failover-repeats", "1",
            "--base-port", "18580",
            "--database", "postgresql+asyncpg://postgres@127.0.0.1:5432/t31_e_smoke",
            "--json", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "actions/s" in printed and "kill->ack s" in printed, printed
    report = json.loads(out.read_text())
    runs = {row["nodes"]: row for row in report["runs"]}
    assert set(runs) == {1, 2}
    for nodes, row in runs.items():
        assert row["sockets"] == 6, row
        assert row["actions_per_s"] > 0, row
        assert row["ack_ms"]["n"] > 0
        assert set(row["cpu_us_per_action"]) >= LAYERS, row["cpu_us_per_action"]
        assert row["cpu_us_per_action"]["nodes"] > 0
        assert sum(row["tables_per_node"].values()) == 2
        assert len(row["tables_per_node"]) == nodes
        assert not row["closed"], row["closed"]
    assert "node n2" in runs[2]["cpu_us_per_action"]
    (failover,) = report["failover"]
    assert failover["lease_seconds"] == 3
    assert failover["victim_tables"] >= 1
    assert failover["survivors"] and failover["victim"] not in failover["survivors"]
    assert failover["kill_to_first_ack_s"] is not None, failover
    assert failover["kill_to_first_ack_s"] >= failover["kill_to_first_state_s"] > 0
    (kill,) = failover["kills"]
    assert kill["victim"] == failover["victim"]
