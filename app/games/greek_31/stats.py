"""What ``python -m app simulate greek-31`` counts (docs/rules.md §2).

Fed each finished hand's summary (see :meth:`app.games.greek_31.engine.Greek31.finish`):

* ``hands`` dealt and ``void_hands`` (the deck ran out; every stake returned);
* ``dealer_outcomes``: how the dealer's draw ended (``bust``, ``31``, ``14`` or ``other``),
  as counts and as frequencies of the hands actually played (void hands left out);
* ``bank_result_per_chip``: the dealers' net result divided by every chip staked against
  them (positive: the deal is worth having);
* a few more figures: chips staked, player busts and 31s per stake, how long a deal lasts.
"""

from __future__ import annotations

from typing import Any

from app.games.core.hand import CompletedHand, GameStats

OUTCOMES = ("bust", "31", "14", "other")


class Greek31Stats(GameStats):
    """Counters over simulated Greek 31 hands."""

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        self.hands = 0
        self.void_hands = 0
        self.outcomes = dict.fromkeys(OUTCOMES, 0)
        self.staked = 0
        self.stakes = 0
        self.dealer_net = 0
        self.player_busts = 0
        self.player_31s = 0
        self.deal_passes = 0

    def observe(self, hand: CompletedHand) -> None:
        summary = hand.summary
        self.hands += 1
        if summary.get("void"):
            self.void_hands += 1
            return
        self.outcomes[str(summary["outcome"])] += 1
        self.staked += int(summary["staked"])
        self.stakes += int(summary["stakes"])
        self.dealer_net += int(summary["dealer_net"])
        self.player_busts += int(summary["player_busts"])
        self.player_31s += int(summary["player_31s"])
        if summary.get("deal_passes_to") is not None:
            self.deal_passes += 1

    def report(self) -> dict[str, Any]:
        played = self.hands - self.void_hands
        return {
            "hands": self.hands,
            "void_hands": self.void_hands,
            "dealer_outcomes": {
                outcome: {"count": count, "frequency": _ratio(count, played)}
                for outcome, count in self.outcomes.items()
            },
            "bank_result_per_chip": _ratio(self.dealer_net, self.staked),
            "chips_staked": self.staked,
            "dealer_net": self.dealer_net,
            "player_bust_per_stake": _ratio(self.player_busts, self.stakes),
            "player_31_per_stake": _ratio(self.player_31s, self.stakes),
            "deal_passes": self.deal_passes,
            "hands_per_deal": _ratio(played, self.deal_passes),
        }


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0
