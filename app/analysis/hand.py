"""A finished hand's analysis (docs/analysis.md §3): replay it, and at every decision ask the
game's analyser for each option's figures.

The walk is the replay's (:mod:`app.review.replay`): the engine re-plays the record step by
step; before each recorded action the engine stands exactly as the table did when the seat
decided. An action is a decision when its game's analyser says so (two options or more that
can end differently); roster changes and forced moves are not.

Who may read it (§4): the deciding seat always; anyone else only when every card the analysis
used that was not public at the decision (:attr:`~app.analysis.figures.Decision.private`) was
shown to everyone by the hand's end, in the deciding seat's own place at the table.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.analysis import analyser_for
from app.analysis.figures import Decision
from app.analysis.position import ANALYSIS_EFFORT, Effort, Position, card_codes
from app.games.core.views import View
from app.review.replay import apply_entry, start

VERSION = 1
"""The method's version: an analysis stored by an older one is computed again."""


@dataclass
class HandAnalysis:
    """Every decision of one hand, analysed."""

    game: str
    decisions: list[Decision] = field(default_factory=list)
    shown: dict[int, list[str]] = field(default_factory=dict)
    """Each seat's cards shown to everyone by the hand's end (for the rule of §4)."""

    def to_json(self) -> dict[str, Any]:
        """Everything, for storage (not for a reader: :func:`for_reader`)."""
        return {
            "version": VERSION,
            "game": self.game,
            "decisions": [{**d.to_json(), "private": d.private} for d in self.decisions],
            "shown": {str(k): v for k, v in self.shown.items()},
        }


def seat_cards(view: View, seat: int) -> list[str]:
    """The cards a view shows in ``seat``'s place (its hands), and for the seat that holds
    the deal, the dealer's cards a game keeps apart (Greek 31's ``dealer_cards``)."""
    found: list[str] = []
    for entry in view.get("seats") or []:
        if isinstance(entry, dict) and entry.get("seat") == seat:
            found.extend(card_codes(entry.get("hands")))
    if view.get("dealer") == seat and "dealer_cards" in view:
        found.extend(card_codes(view.get("dealer_cards")))
    return found


def private_cards(engine_view: View, public_view: View) -> list[str]:
    """The cards ``engine_view`` shows that the public view at the same moment does not."""
    rest = Counter(card_codes(engine_view)) - Counter(card_codes(public_view))
    return sorted(rest.elements())


def analyse_hand(
    record: dict[str, Any], effort: Effort = ANALYSIS_EFFORT, *, seed: int = 0
) -> HandAnalysis:
    """The analysis of a finished hand's record (its private part is needed to replay it)."""
    game = str(record["game"])
    analyser = analyser_for(game)
    replay = start(record)
    replay.advance()  # the deal
    engine = replay.engine
    out = HandAnalysis(game)
    rng = random.Random(seed)
    for index, entry in enumerate(replay.entries, start=1):
        if entry.get("roster") is None and "action" in entry:
            seat = int(entry["seat"])
            legal = engine.legal_actions(seat)
            position = Position(engine, seat, legal, dict(entry["action"]))
            if legal and analyser.decides(position):
                verdict = analyser.analyse(position, effort, rng)
                out.decisions.append(
                    Decision(
                        step=index,
                        seat=seat,
                        chosen=dict(entry["action"]),
                        options=verdict.options,
                        by=str(entry.get("by") or "player"),
                        private=private_cards(engine.view(seat), engine.view(None)),
                        note=verdict.note,
                    )
                )
        apply_entry(engine, entry)
        engine.take_log()
    final = engine.view(None)
    out.shown = {seat: seat_cards(final, seat) for seat in {d.seat for d in out.decisions}}
    return out


def readable(decision: dict[str, Any], shown: list[str], reader_seat: int | None) -> bool:
    """May a reader in ``reader_seat`` (None: not seated in the hand) read this decision's
    analysis? Their own always; another's when every private card it used was shown by the
    end in the deciding seat's place (docs/analysis.md §4)."""
    if reader_seat is not None and reader_seat == decision["seat"]:
        return True
    return not (Counter(decision.get("private") or []) - Counter(shown))


def for_reader(stored: dict[str, Any], reader_seat: int | None) -> dict[str, Any]:
    """What a reader may read of a stored analysis: the decisions they may read (the private
    cards left out), and the summary of those per seat."""
    shown = {int(k): v for k, v in (stored.get("shown") or {}).items()}
    decisions = []
    for decision in stored.get("decisions") or []:
        if readable(decision, shown.get(int(decision["seat"]), []), reader_seat):
            decisions.append({k: v for k, v in decision.items() if k != "private"})
    hidden = len(stored.get("decisions") or []) - len(decisions)
    seats = sorted({int(d["seat"]) for d in decisions})
    return {
        "game": stored.get("game"),
        "decisions": decisions,
        "withheld": hidden,
        "summary": {str(s): seat_summary([d for d in decisions if d["seat"] == s]) for s in seats},
    }


def seat_summary(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """How many of these (stored) decisions were the best, and the chips given up."""
    return {
        "decisions": len(decisions),
        "best": sum(1 for d in decisions if d.get("chose_best")),
        "given_up": round(sum(float(d.get("given_up") or 0) for d in decisions), 4),
    }


__all__ = ["HandAnalysis", "analyse_hand", "for_reader", "readable", "seat_summary"]
