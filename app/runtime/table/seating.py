"""Seating: sitting down (the seat held while the database moves the buy-in), topping up,
standing up now or at the next moment the rules allow, and closing the table for good.

A sit, top-up or leave during a hand goes in its record (the hand replays) and in the
table's story (docs/protocol.md §6.6).
"""

from __future__ import annotations

from typing import Any

from app.db import store
from app.db.ledger import InsufficientFunds
from app.db.ledger import record as ledger_record
from app.games.core.accounts import seat_account
from app.games.core.errors import RuleError
from app.review.results import owner_seat
from app.runtime import records
from app.runtime.connection import Connection
from app.runtime.protocol import ErrorCode, ProtocolError, Sit, TopUp
from app.runtime.records import SeatInfo
from app.runtime.table.state import TableState


class Seating(TableState):
    """Who sits where, and the chips they bring and take away."""

    async def _sit(self, conn: Connection, sit: Sit) -> None:
        async with self.lock:
            if self.closed:
                raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
            if conn.player_id is None:
                raise ProtocolError(ErrorCode.UNAUTHORIZED, "sign in before you sit down")
            if (
                self.seat_of(conn.player_id) is not None
                or conn.player_id in self._reserved.values()
            ):
                raise ProtocolError(ErrorCode.ALREADY_SEATED, "you are already seated")
            if self.status == "paused":
                raise ProtocolError(ErrorCode.TABLE_PAUSED, "the host paused this table")
            if self.engine.table_over:
                raise ProtocolError(ErrorCode.TABLE_CLOSED, self.engine.table_over)
            seat = sit.seat if sit.seat is not None else self._free_seat()
            if seat is None:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, "the table is full")
            if not 0 <= seat < self.engine.max_seats:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, f"seats are 0 to {self.engine.max_seats - 1}"
                )
            if seat in self.roster or seat in self._reserved:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
            low, high = self.engine.buy_in_limits(seat)
            if not low <= sit.buy_in <= high:
                raise ProtocolError(
                    ErrorCode.BAD_BUY_IN,
                    f"the buy-in at this seat is {low}"
                    if low == high
                    else f"the buy-in is from {low} to {high} chips",
                )
            self._reserved[seat] = conn.player_id
        await self.seat_player(seat, conn.player_id, conn.name or "?", sit.buy_in)

    async def seat_player(
        self, seat: int, player_id: str, name: str, buy_in: int, *, is_bot: bool = False
    ) -> None:
        """Move the buy-in from the bankroll (waiting for the database, WITHOUT the table's
        lock: play goes on meanwhile, the seat is held for this player), then seat. If the
        table refuses the seat by then, the buy-in goes straight back to the bankroll."""
        self._reserved[seat] = player_id
        try:
            await self.writer.run(store.sit, self.table_id, seat, player_id, buy_in)
        except InsufficientFunds:
            self._reserved.pop(seat, None)
            raise ProtocolError(
                ErrorCode.INSUFFICIENT_FUNDS, f"your bankroll does not hold {buy_in} chips"
            ) from None
        except BaseException:
            self._reserved.pop(seat, None)
            raise
        async with self.lock:
            self._reserved.pop(seat, None)
            try:
                if self.closed:
                    raise RuleError(ErrorCode.TABLE_CLOSED, "this table closed meanwhile")
                self.engine.sit(seat, buy_in)
            except RuleError as err:
                self.writer.submit(store.leave, self.table_id, seat, player_id)
                raise ProtocolError.refusing(err) from None
            self._seat_taken(seat, player_id, name, buy_in, is_bot)

    def _seat_taken(self, seat: int, player_id: str, name: str, buy_in: int, is_bot: bool) -> None:
        self._note_roster(seat, "sit", buy_in)
        info = SeatInfo(player_id, name, is_bot)
        self.roster[seat] = info
        self._tell_roster("sit", seat, buy_in)
        if self.hand_id is not None:
            self._hand_roster[seat] = info
        self._state_dirty = True  # a sit can change the state (the first banker takes the bank)
        self._changed()

    def _free_seat(self) -> int | None:
        for seat in range(self.engine.max_seats):  # the table's seats, then standing room
            if seat not in self.roster and seat not in self._reserved:
                low, high = self.engine.buy_in_limits(seat)
                if low <= high:
                    return seat
        return None

    def _leave(self, conn: Connection) -> None:
        seat = self.seat_of(conn.player_id)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you are not seated")
        self.request_leave(seat)

    async def remove_bot(self, seat: int) -> bool | None:
        """Stand the bot in ``seat`` up, now if the rules allow, else at the next moment
        they do. None if no bot sits there; else whether it has left already."""
        async with self.lock:
            info = self.roster.get(seat)
            if info is None or not info.is_bot:
                return None
            self.request_leave(seat)
            return seat not in self.roster

    def request_leave(self, seat: int) -> None:
        """Stand up now if the rules allow it, else at the next moment they do."""
        self._pending_leave.add(seat)
        self._process_leaves()
        self._changed()

    def _process_leaves(self) -> None:
        for seat in sorted(self._pending_leave):
            if seat not in self.roster:
                self._pending_leave.discard(seat)
                continue
            if seat in self.away:  # sitting out: the engine no longer has the seat
                self._stand_away(seat)
                continue
            if not self.engine.can_leave(seat) or self._in_open_hand(seat):
                continue
            self.engine.leave(seat)
            self._note_roster(seat, "leave")
            self._tell_roster("leave", seat)
            info = self.roster.pop(seat)
            self._pending_leave.discard(seat)
            self._pending_away.pop(seat, None)
            self.ready.discard(seat)
            self.writer.submit(store.leave, self.table_id, seat, info.player_id)
            # a leave can change the state between hands (a banker who leaves ends the
            # bank): the stored state must follow, or a restart restores a bank whose
            # banker is gone
            self._state_dirty = True
        self._process_away()
        self._after_leave()

    def _stand_away(self, seat: int) -> None:
        """Stand up the seat sitting out in ``seat``: its stack goes home through the ledger
        (the whole ``stack:T:P``, as a leave's); the engine no longer knew the seat."""
        info = self.roster[seat]
        self._tell_roster("leave", seat)
        self.roster.pop(seat)
        self.away.pop(seat, None)
        self._pending_away.pop(seat, None)
        self._pending_leave.discard(seat)
        self.ready.discard(seat)
        self.writer.submit(store.leave, self.table_id, seat, info.player_id)
        self._state_dirty = True

    def _in_open_hand(self, seat: int) -> bool:
        """Does ``seat`` wait for the hand in play to end before it stands up, although the
        rules would let it go now?

        Only a seat that has taken part in the hand: it acted in it (a Trente et Quarante
        stake) or chips of its moved. Were that hand voided, the table goes back to how it
        was when the hand began (docs/rules.md §0.9), which a player who left with the
        hand's chips cannot. A seat that only sat there (an empty betting window, a player
        not dealt in) goes at once: a window that rests until someone stakes would otherwise
        hold its chips for as long as nobody does. A void leaves it gone
        (:meth:`_void_balances`)."""
        if self._before is None or seat_account(seat) not in self._before[1]:
            return False
        if any(entry.get("seat") == seat and "action" in entry for entry in self._actions):
            return True
        return any(
            owner_seat(t.source) == seat or owner_seat(t.target) == seat
            for t in self.engine.transfers
        )

    async def _top_up(self, conn: Connection, top_up: TopUp) -> None:
        seat = self.seat_of(conn.player_id)
        if seat is None or conn.player_id is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you are not seated")
        if seat in self.away:
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, "sit in before you add chips")
        if not self.engine.can_top_up(seat):
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, "you cannot add chips now")
        most = self.engine.top_up_limit(seat)
        if top_up.amount > most:
            raise ProtocolError(
                ErrorCode.ILLEGAL_ACTION, f"you may add at most {most} chips at this table now"
            )
        player_id = conn.player_id
        try:
            await self.writer.run(store.top_up, self.table_id, player_id, top_up.amount)
        except InsufficientFunds:
            raise ProtocolError(
                ErrorCode.INSUFFICIENT_FUNDS,
                f"your bankroll does not hold {top_up.amount} chips",
            ) from None
        self.engine.add_chips(seat, top_up.amount)
        self._note_roster(seat, "top_up", top_up.amount)
        self._tell_roster("top_up", seat, top_up.amount)
        self._changed()

    def _note_roster(self, seat: int, change: str, amount: int | None = None) -> None:
        """A sit, top-up or leave during a hand goes in its record, so the hand replays."""
        if self.hand_id is None:
            return
        entry: dict[str, Any] = {"t": self.clock(), "seat": seat, "roster": change}
        if amount is not None:
            entry["amount"] = amount
        entry["v"] = self.version + 1
        self._actions.append(entry)

    def _tell_roster(self, change: str, seat: int, amount: int | None = None) -> None:
        """A sit, leave or top-up goes in the table's story (docs/protocol.md §6.6)."""
        bot = self.roster[seat].is_bot if change == "sit" else None
        self._tell(seat, change, bot=bot, amount=amount)

    def _tell(self, seat: int, kind: str, **data: Any) -> None:
        """Something a seat did in the table's story: a sit, leave or top-up, a Ready, a Deal,
        a sit-out or a sit-in; the ``data`` that is None is left out."""
        info = self.roster[seat]
        event: dict[str, Any] = {
            "kind": kind,
            "seat": seat,
            "player_id": info.player_id,
            "name": info.name,
        }
        event.update({k: v for k, v in data.items() if v is not None})
        event["t"] = self.clock()
        self.story.tell(event, self.roster)

    def _close_for_good(self) -> None:
        """Release every chip held by the table to its owner, stand everyone up (stacks back
        to bankrolls), and mark the table closed."""
        self.engine.transfers = []
        self.engine.release_all()
        released = records.movements(self.engine.transfers, self.table_id, self.roster)
        self.engine.transfers = []
        if released:
            self.writer.submit(ledger_record, released, table_id=self.table_id)
        for seat, info in sorted(self.roster.items()):
            if seat in self.away:  # sitting out: its stack is in the ledger, not the engine
                pass
            elif self.engine.can_leave(seat):
                self.engine.leave(seat)
            else:  # mid-match: the chips it held were released above
                self.engine.on_leave(seat)
                self.engine.balances.pop(seat_account(seat), None)
            self.writer.submit(store.leave, self.table_id, seat, info.player_id)
        self.roster.clear()
        self.away.clear()
        self.status = "closed"
        self.writer.submit(store.set_table_status, self.table_id, "closed")
        if self.house is not None:
            self.house.forget(self.table_id)
