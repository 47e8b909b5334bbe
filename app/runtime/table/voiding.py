"""Voiding and rebuilding: a hand that cannot go on (the server failed, the table shuts
down) is void, its stakes back, and the table goes back to how it was before it began,
rebuilt from the engine's snapshot and balances taken then.
"""

from __future__ import annotations

import logging
from typing import Any

from app.db import store
from app.games.core.accounts import is_seat, seat_account, seat_of, seats_in
from app.games.core.game import Game
from app.runtime.table.state import TableState

log = logging.getLogger("table31.table")

NOTICE_SECONDS = 15.0
"""A notice (a void hand, a restart) stays at least this long, over the next deals: after a
restart the tables deal again before the players have reconnected to read it."""


class Voiding(TableState):
    """Puts the table back as it was before the hand in play."""

    def notice(self, text: str) -> None:
        """Tell everyone at the table something (shown with the table until a later deal)."""
        self.message = text
        self._notice_until = self.clock() + NOTICE_SECONDS

    def _void_hand(self, reason: str) -> None:
        """Put the table back as it was before the hand; the hand is void, stakes back."""
        if self._before is None or self.hand_id is None:
            return
        snapshot, balances, _ = self._before
        seated_then = seats_in(balances)
        engine = self._rebuilt_engine(snapshot, self._void_balances(balances), seated_then)
        engine.on_void()
        engine.take_log()
        self.engine = engine
        hand_id = self.hand_id
        log.warning("hand void: %s", reason)
        void = {"kind": "hand_void", "hand_id": hand_id, "reason": reason, "t": self.clock()}
        self.story.tell(void, self.roster)
        self.writer.submit(store.mark_void, hand_id, reason)
        self.hand_id = None
        self._before = None
        self.notice(reason)

    def _void_balances(self, balances: dict[str, int]) -> dict[str, int]:
        """The balances a voided hand goes back to: those it began with, less the seats that
        stood up during it (their stacks went to their bankrolls then) and plus the chips
        topped up during it (they are in the ledger's stacks already)."""
        adjusted = dict(balances)
        for entry in self._actions:
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

    def _rebuilt_engine(
        self,
        snapshot: dict[str, Any],
        balances: dict[str, int],
        seated_then: list[int] | None = None,
    ) -> Game:
        """A new engine as the table was when ``snapshot`` and ``balances`` were taken (before
        a hand), with the players who sat down since in their seats; ``seated_then``, the
        seats taken when the snapshot was, tells those that stood up since."""
        stacks = _seat_stacks(balances)
        for seat in self.roster:  # players who sat down since (not those sitting out)
            if seat_account(seat) not in balances and seat not in self.away:
                stacks.append((seat, self.engine.balances.get(seat_account(seat), 0)))
        return self.game_cls.rebuild(
            self.options,
            seeds=self.seeds,
            stacks=stacks,
            accounts={a: amount for a, amount in balances.items() if not is_seat(a)},
            state=snapshot,
            hand_number=self.engine.hand_number,
            # seats that stood up since leave its state too
            reconcile=seated_then is not None,
            seated_then=None
            if seated_then is None
            else set(seated_then) | (set(self.roster) - set(self.away)),
        )

    def _halt(self, reason: str) -> None:
        """Pause the table on the server's own account (the host resumes or closes it)."""
        self.status = "paused"
        self.pause_reason = reason
        self.writer.submit(store.set_table_status, self.table_id, "paused", reason[:200])
        self._changed()


def _seat_stacks(balances: dict[str, int]) -> list[tuple[int, int]]:
    """Each table stack of ``balances`` as (seat, chips), in the order of ``balances``."""
    out = []
    for account, amount in balances.items():
        seat = seat_of(account)
        if seat is not None:
            out.append((seat, amount))
    return out
