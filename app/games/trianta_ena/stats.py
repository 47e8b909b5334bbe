"""What ``python -m app simulate trianta-ena`` counts (docs/rules.md §1).

Each finished round's summary (see ``TriantaEna._summary``) carries its facts; this adds them
up. ``bank_result_per_chip`` is the bank's net result divided by the chips the bank covered:
the banker's edge per chip staked against it.
"""

from __future__ import annotations

from typing import Any

from app.games.core.hand import CompletedHand, GameStats


class TriantaEnaStats(GameStats):
    """Counters over simulated rounds of Trianta Ena."""

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.hands = 0
        self.rounds_without_stakes = 0
        self.stakes = 0
        self.staked = 0
        self.bank_result = 0
        self.player_naturals = 0
        self.banker_naturals = 0
        self.banker_busts = 0
        self.player_busts = 0
        self.player_wins = 0
        self.folds = 0
        self.stakes_cut = 0
        self.stakes_refused = 0
        self.reshuffles = 0
        self.bank_changes = 0
        self._last_banker: int | None = None

    def observe(self, hand: CompletedHand) -> None:
        summary = hand.summary
        self.hands += 1
        if summary["stakes"] == 0:
            self.rounds_without_stakes += 1
        self.stakes += summary["stakes"]
        self.staked += summary["staked"]
        self.bank_result += summary["bank_result"]
        self.player_naturals += summary["player_naturals"]
        self.banker_naturals += int(summary["banker_natural"])
        self.banker_busts += int(summary["banker_bust"])
        self.player_busts += summary["player_busts"]
        self.player_wins += summary["player_wins"]
        self.folds += summary["folds"]
        self.stakes_cut += summary["stakes_cut"]
        self.stakes_refused += summary["stakes_refused"]
        self.reshuffles += summary["reshuffles"]
        if self._last_banker is not None and summary["banker"] != self._last_banker:
            self.bank_changes += 1
        self._last_banker = summary["banker"]

    def report(self) -> dict[str, Any]:
        per_chip = self.bank_result / self.staked if self.staked else 0.0
        win_rate = self.player_wins / self.stakes if self.stakes else 0.0
        return {
            "hands": self.hands,
            "rounds_without_stakes": self.rounds_without_stakes,
            "stakes": self.stakes,
            "chips_staked": self.staked,
            "naturals": {"player": self.player_naturals, "banker": self.banker_naturals},
            "banker_busts": self.banker_busts,
            "player_busts": self.player_busts,
            "player_win_rate": round(win_rate, 4),
            "bank_result": self.bank_result,
            "bank_result_per_chip": round(per_chip, 4),
            "folds": self.folds,
            "stakes_cut": self.stakes_cut,
            "stakes_refused": self.stakes_refused,
            "reshuffles": self.reshuffles,
            "bank_changes": self.bank_changes,
        }
