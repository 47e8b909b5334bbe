"""What ``python -m app simulate vingt-un`` counts (docs/rules.md §3)."""

from __future__ import annotations

from typing import Any

from app.games.core.hand import CompletedHand, GameStats

NATURAL_EXACT = 2 * (4 * 16) / (52 * 51)
"""The chance that two cards from a full 52-card pack are an ace and a ten-value card."""


class VingtUnStats(GameStats):
    """Naturals, doubles, splits and the bank's result, from each hand's summary."""

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.hands = 0
        self.player_hands = 0
        self.player_naturals = 0
        self.dealer_naturals = 0
        self.doubled = 0
        self.splits = 0
        self.over = 0
        self.staked = 0
        self.bank_result = 0
        self.deal_passed = 0
        self.stake_cuts = 0

    def observe(self, hand: CompletedHand) -> None:
        summary = hand.summary
        self.hands += 1
        self.player_hands += int(summary["player_hands"])
        self.player_naturals += len(summary["naturals"])
        self.dealer_naturals += int(bool(summary["dealer_natural"]))
        self.doubled += int(bool(summary["doubled"]))
        self.splits += int(summary["splits"])
        self.over += int(summary["over"])
        self.staked += int(summary["staked"])
        self.bank_result += int(summary["bank_result"])
        self.deal_passed += int(bool(summary["deal_passed"]))
        self.stake_cuts += int(summary["stake_cuts"])

    def report(self) -> dict[str, Any]:
        hands = max(self.hands, 1)
        player_hands = max(self.player_hands, 1)
        return {
            "hands": self.hands,
            "player_hands": self.player_hands,
            "natural_frequency": {
                "players": round(self.player_naturals / player_hands, 6),
                "dealer": round(self.dealer_naturals / hands, 6),
            },
            "natural_exact": round(NATURAL_EXACT, 6),
            "dealer_doubled": round(self.doubled / hands, 6),
            "splits_per_hand": round(self.splits / hands, 6),
            "over_21_per_player_hand": round(self.over / player_hands, 6),
            "deal_passed": round(self.deal_passed / hands, 6),
            "stake_cuts": self.stake_cuts,
            "chips_staked": self.staked,
            "bank_result": self.bank_result,
            "bank_result_per_chip": round(self.bank_result / max(self.staked, 1), 6),
        }
