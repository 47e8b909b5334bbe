"""The hand's record: a hand's start, its events and actions as they happen, and at its end
the ONE database job that holds its record, its ledger movements and the table's state
(docs/rules.md §0: the record and its chips in one transaction).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.db import store
from app.db.session import encode_json
from app.games.core.accounts import seat_account
from app.games.core.hand import CompletedHand
from app.runtime import records
from app.runtime.records import SeatInfo


@dataclass(slots=True)
class HandLog:
    """What the table writes down of the hand in play (none between hands)."""

    hand_id: str
    number: int
    started: float
    """When it was dealt (the table's clock)."""
    snapshot: dict[str, Any]
    """The engine's state before it: a void hand goes back to it."""
    balances: dict[str, int]
    """Every account's chips before it."""
    roster: dict[int, SeatInfo]
    """Who plays it: the seats taken when it was dealt, and those that sat down in it."""
    events: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)

    def acted(self, seat: int) -> bool:
        """Has ``seat`` made a decision in this hand?"""
        return any(entry.get("seat") == seat and "action" in entry for entry in self.actions)

    def started_fields(self, table_id: str, game: str) -> dict[str, Any]:
        """The hand's row as it is dealt (:func:`app.db.store.hand_started`)."""
        return {
            "hand_id": self.hand_id,
            "table_id": table_id,
            "game": game,
            "number": self.number,
            "started_at": _moment(self.started),
            "seats": records.seats_listing(self.roster, self.balances),
        }

    def void_balances(self) -> dict[str, int]:
        """The balances a voided hand goes back to: those it began with, less the seats that
        stood up during it (their stacks went to their bankrolls then) and plus the chips
        topped up during it (they are in the ledger's stacks already)."""
        adjusted = dict(self.balances)
        for entry in self.actions:
            change = entry.get("roster")
            seat = entry.get("seat")
            if not isinstance(seat, int):
                continue
            account = seat_account(seat)
            if change == "leave":
                adjusted.pop(account, None)
            elif change == "top_up" and account in adjusted:
                adjusted[account] += int(entry["amount"])
        return adjusted

    def finished(
        self,
        done: CompletedHand,
        *,
        table_id: str,
        game: str,
        options: dict[str, Any],
        balances_after: dict[str, int],
        ended: float,
        table_state: dict[str, Any],
    ) -> tuple[store.FinishedHand, dict[str, Any]]:
        """The hand's one job (its record, its ledger movements, the table's state after it)
        and its result, as the table tells it."""
        roster = self.roster
        net = records.net_by_seat(done.transfers)
        acted = {entry["seat"] for entry in self.actions if "action" in entry}
        # who played: seated when it began, or sat down during it and acted in it (a
        # Trente et Quarante punter joining the betting window) or had chips moved
        played = {
            seat
            for seat in roster
            if seat_account(seat) in self.balances or seat in net or seat in acted
        }
        result = records.result_of(self.hand_id, self.number, done.transfers, roster, played)
        started_at, ended_at = _moment(self.started), _moment(ended)
        record: dict[str, Any] = {
            "version": records.RECORD_VERSION,
            "hand_id": self.hand_id,
            "table_id": table_id,
            "game": game,
            "number": self.number,
            "options": dict(options),
            "started_at": started_at.isoformat(),
            "ended_at": ended_at.isoformat(),
            "seats_before": records.seats_listing(roster, self.balances),
            "seats_after": records.seats_listing(roster, balances_after),
            "events": self.events,
            "actions": self.actions,
            "shuffles": {
                "new": [s.commit for s in done.new_shuffles],
                "retired": [s.commit for s in done.retired_shuffles],
            },
            "settlement": records.settlement(done.transfers, roster),
            "summary": done.summary,
            "result": result,
            "private": {
                "start_state": self.snapshot,
                "balances_before": self.balances,
                "shuffle_seeds": [s.seed.hex() for s in done.new_shuffles],
            },
        }
        finished = store.FinishedHand(
            hand_id=self.hand_id,
            table_id=table_id,
            game=game,
            number=self.number,
            started_at=started_at,
            ended_at=ended_at,
            movements=records.movements(done.transfers, table_id, roster),
            record=encode_json(record),
            # the same players and nets as the result the table tells
            players={p["player_id"]: (p["seat"], p["net"]) for p in result["players"]},
            staked=int(done.summary.get("staked", 0)),
            new_shoes=[
                {"commit": s.commit, "seed": s.seed.hex(), "source": s.source}
                for s in done.new_shuffles
            ],
            retired_commits=[s.commit for s in done.retired_shuffles],
            table_state=encode_json(table_state),
        )
        return finished, result


def _moment(t: float) -> datetime:
    """A moment of the table's clock as the database keeps it."""
    return datetime.fromtimestamp(t, UTC)
