"""``bench/history_data.py`` runs end to end at a tiny size and reports every list it times
(the real run fills a million hands: ``python -m bench.history_data --hands 1000000``).
No timing is asserted."""

from __future__ import annotations

import json
from pathlib import Path

from bench import history_data


def test_the_history_benchmark_fills_and_times_every_list(tmp_path: Path) -> None:
    out = tmp_path / "history.json"
    url = f"sqlite+aiosqlite:///{tmp_path / 'history.db'}"
    code = history_data.main(
        ["--hands", "300", "--players", "20", "--tables", "6", "--repeat", "1",
         "--database", url, "--json", str(out)]
    )  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text())
    assert report["made"]["hands"] == 300
    assert {row["list"] for row in report["lists"]} == {
        "a table", "a table, one night", "a player", "a player, one game", "a game",
        "every hand",
    }  # fmt: skip
    for row in report["lists"]:
        assert row["first_page_ms"] > 0
    for plan in report["plans"].values():
        assert any("INDEX" in line for line in plan), plan
