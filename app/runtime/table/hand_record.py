"""The hand record: a hand's start, its events and actions as they happen, and at its end
ONE database job with its record, its ledger movements and the table's state (docs/rules.md §0:
the record and its chips in one transaction).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from app.db import store
from app.db.session import encode_json
from app.games.core.accounts import seat_account
from app.games.core.errors import RuleError
from app.games.core.hand import CompletedHand
from app.ops.logs import set_context
from app.runtime import records
from app.runtime.table.state import TableState

log = logging.getLogger("table31.table")

SEATED_KEY = "runtime_seated"
"""The key of the stored state that lists the seats taken when it was saved."""


class HandRecord(TableState):
    """Deals a hand, writes down what happens in it, and hands its record to the writer."""

    def _start_hand(self) -> None:
        if (
            self.engine.in_hand
            or self.status != "open"
            or self.draining
            or not self.engine.can_start()
            or self._waiting()
        ):
            return
        before = (self.engine.snapshot(), dict(self.engine.balances), dict(self.roster))
        try:
            self.engine.start_hand()
        except RuleError:
            return
        except Exception:
            # a fault in the engine (a state it cannot deal from): the table goes back to
            # how it was and waits for the host, instead of failing the same way every
            # few seconds
            log.exception("table %s: the engine failed to deal", self.table_id)
            self.engine = self._rebuilt_engine(before[0], before[1])
            self._halt(
                "The server could not deal the next hand here; "
                "the host may resume or close the table."
            )
            return
        self._before = before
        self._hand_dealt()
        if self.clock() >= self._notice_until:
            self.message = None  # a notice lasts until a deal, NOTICE_SECONDS at least
        self.hand_id = store.new_id()
        self._hand_started = datetime.now(UTC)
        # who plays it: the seats sitting out are in no hand (their stacks are not in it)
        self._hand_roster = {s: i for s, i in self.roster.items() if s not in self.away}
        # events since the last hand (a bank changing hands) open this hand's record
        self._actions = []
        hand_id, number, started = self.hand_id, self.engine.hand_number, self._hand_started
        start = {"kind": "hand_start", "hand_id": hand_id, "number": number, "t": self.clock()}
        self.story.tell(start, self.roster)
        set_context(self.table_id, hand_id)
        log.debug("hand %d dealt: %d seated", number, len(self.roster))
        self.writer.submit(
            store.hand_started,
            hand_id=hand_id,
            table_id=self.table_id,
            game=self.game_cls.id,
            number=number,
            started_at=started,
        )
        self._changed()

    def _finish_hand(self, done: CompletedHand) -> None:
        assert self.hand_id is not None and self._before is not None
        snapshot_before, balances_before, _ = self._before
        roster = self._hand_roster
        ended = datetime.now(UTC)
        net = records.net_by_seat(done.transfers)
        acted = {entry["seat"] for entry in self._actions if "action" in entry}
        # who played: seated when it began, or sat down during it and acted in it (a
        # Trente et Quarante punter joining the betting window) or had chips moved
        played = {
            seat
            for seat in roster
            if seat_account(seat) in balances_before or seat in net or seat in acted
        }
        result = records.result_of(
            self.hand_id, self.engine.hand_number, done.transfers, roster, played
        )
        record: dict[str, Any] = {
            "version": records.RECORD_VERSION,
            "hand_id": self.hand_id,
            "table_id": self.table_id,
            "game": self.game_cls.id,
            "number": self.engine.hand_number,
            "options": dict(self.options),
            "started_at": self._hand_started.isoformat() if self._hand_started else None,
            "ended_at": ended.isoformat(),
            "seats_before": records.seats_listing(roster, balances_before),
            "seats_after": records.seats_listing(roster, self.engine.balances),
            "events": self._events,
            "actions": self._actions,
            "shuffles": {
                "new": [s.commit for s in done.new_shuffles],
                "retired": [s.commit for s in done.retired_shuffles],
            },
            "settlement": records.settlement(done.transfers, roster),
            "summary": done.summary,
            "result": result,
            "private": {
                "start_state": snapshot_before,
                "balances_before": balances_before,
                "shuffle_seeds": [s.seed.hex() for s in done.new_shuffles],
            },
        }
        finished = store.FinishedHand(
            hand_id=self.hand_id,
            table_id=self.table_id,
            game=self.game_cls.id,
            number=self.engine.hand_number,
            started_at=self._hand_started or ended,
            ended_at=ended,
            movements=records.movements(done.transfers, self.table_id, roster),
            record=encode_json(record),
            # the same players and nets as the result the table tells
            players={p["player_id"]: (p["seat"], p["net"]) for p in result["players"]},
            staked=int(done.summary.get("staked", 0)),
            new_shoes=[
                {"commit": s.commit, "seed": s.seed.hex(), "source": s.source}
                for s in done.new_shuffles
            ],
            retired_commits=[s.commit for s in done.retired_shuffles],
            table_state=encode_json(self.stored_state()),
        )
        self.writer.submit(store.hand_finished, finished)
        log.info(
            "hand %d settled: %d chips moved, net %s",
            finished.number,
            sum(m.amount for m in finished.movements),
            {seat: amount for seat, amount in net.items() if amount},
        )
        self.metrics.hand_settled(self.game_cls.id)
        self.hands_played += 1
        self._events = []
        self.hand_id = None
        self._before = None
        self.story.hand_ended(result, self.clock())
        self._process_leaves()

    def stored_state(self) -> dict[str, Any]:
        """The between-hands state as stored with the table: the engine's snapshot and the
        seats taken when it was taken (``seated``), so that a restart can tell the seats
        that changed since (:meth:`Game.reconcile_seats`)."""
        return {
            **self.engine.snapshot(),
            SEATED_KEY: self.engine.seated,
            **self._presence_stored(),
        }

    def _take_events(self, now: float) -> None:
        """The engine's new log events, stamped, into the hand's record and the story."""
        for event in self.engine.take_log():
            event["t"] = now
            self._events.append(event)
            self.story.tell(event, self.roster)
