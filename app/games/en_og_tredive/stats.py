"""What ``python -m app simulate en-og-tredive`` counts. A simulated hand is one round."""

from __future__ import annotations

from typing import Any

from app.games.core.hand import CompletedHand, GameStats

ENDINGS = ("31", "knock", "coup_d_etat")
"""How a round ends (docs/rules.md §5.7 to §5.8)."""


class EnOgTrediveStats(GameStats):
    """Matches, rounds, how rounds end, and how long they last."""

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.rounds = 0
        self.matches = 0
        self.rounds_in_matches = 0
        self.endings = dict.fromkeys(ENDINGS, 0)
        self.turns = 0
        self.restocks = 0
        self.eliminations = 0
        self.knocker_paid = 0
        self.dealt_wins = 0
        self.no_bets_rounds = 0

    def observe(self, hand: CompletedHand) -> None:
        summary = hand.summary
        self.rounds += 1
        self.endings[summary["ending"]] += 1
        self.turns += summary["turns"]
        self.restocks += summary["restocks"]
        self.eliminations += len(summary["out"])
        self.dealt_wins += summary["dealt"]
        self.no_bets_rounds += summary["no_bets"]
        if summary["ending"] == "knock" and summary["knocker"] in summary["owed"]:
            self.knocker_paid += 1
        if summary["match_winner"] is not None:
            self.matches += 1
            self.rounds_in_matches += summary["round"]

    def report(self) -> dict[str, Any]:
        knocks = self.endings["knock"]
        return {
            "hands": self.rounds,
            "rounds": self.rounds,
            "matches": self.matches,
            "rounds_per_match": round(self.rounds_in_matches / self.matches, 2)
            if self.matches
            else None,
            "round_endings": dict(self.endings),
            "turns_per_round": round(self.turns / self.rounds, 2) if self.rounds else None,
            "restocks": self.restocks,
            "eliminations": self.eliminations,
            "knocker_paid_share": round(self.knocker_paid / knocks, 3) if knocks else None,
            "dealt_31_or_coup": self.dealt_wins,
            "rounds_without_bets": self.no_bets_rounds,
        }
