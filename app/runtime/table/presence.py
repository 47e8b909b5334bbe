"""Presence: a friends' table deals its first hand when everyone is ready, and a seated
player may sit out and come back (docs/rules.md §0.11, docs/protocol/socket.md §5.10).

Both belong to the table, not to the game. On a table opened with ``"start": "when_ready"``
the runtime offers ``ready``, ``deal``, ``sit_out`` and ``sit_in`` in ``legal`` beside the
game's own actions (a client that knows no rules presses them like any other); no engine
knows of them. A table opened with ``"start": "auto"`` offers none of them and behaves as
tables always did: its first hand is dealt as soon as the game's minimum is seated.

* **Ready to deal.** Before its first hand, and again once everybody has stood up, the table
  deals nothing until every seated player (bots are always ready) has pressed Ready, or its
  opener, seated, has pressed Deal. Between hands the usual pause stays.
* **Sitting out.** A player who sits out leaves the *engine* as one who stands up does, at
  the first moment the game allows it (:meth:`Game.can_leave`), so a banker's bank and a
  dealer's deal pass as the game's rules say for one who leaves; the *table* keeps their seat
  and their stack. Not a chip moves: the stack stays in the ledger's ``stack:T:P`` where it
  was. Coming back seats them in the engine again with that stack (a sit: dealt in from the
  next hand). A person whose clock played for them on two decisions in a row is sat out, and
  told why. The opener (or the host, over REST) may stand up a seat that has been sitting out
  for at least a chosen time: its stack goes home through the ledger as a leave's does.
"""

from __future__ import annotations

from typing import Any

from app.games.core.actions import Action, LegalAction, action_fits, legal
from app.runtime.protocol import ErrorCode, ProtocolError
from app.runtime.records import Away
from app.runtime.table.seating import Seating

TABLE_KINDS = frozenset({"ready", "deal_now", "sit_out", "sit_in"})
"""The table's own action kinds, offered in ``legal`` beside the game's on a friends' table."""
AWAY_KEY = "runtime_away"
"""The stored state's key for the seats sitting out (seat number -> :class:`Away`)."""
WAITING_KEY = "runtime_waiting"
"""The stored state's key: the table waits for Ready before dealing, and who has pressed it."""
CLOCK_STRIKES = 2
"""Decisions in a row the clock may play for a person before they are sat out."""
CLOCK_SAT_OUT = (
    "The clock played for you twice in a row, so you are sitting out. Press I'm back to play again."
)


class Presence(Seating):
    """Who is ready, who sits out, and the table's own actions that say so."""

    @property
    def friends(self) -> bool:
        """A table opened ``when_ready``: Ready to deal and sitting out are offered."""
        return self.options.get("start") == "when_ready"

    # ------------------------------------------------------------------ what is offered

    def _legal(self, seat: int | None) -> list[LegalAction]:
        """Everything the player in ``seat`` may do now: the game's decisions (none while
        sitting out) and the table's own actions."""
        if seat is None or self.status != "open":
            return []
        game = [] if seat in self.away else self.engine.legal_actions(seat)
        return game + self._table_legal(seat) if self.friends else game

    def _table_legal(self, seat: int) -> list[LegalAction]:
        if seat not in self.roster or seat in self._pending_leave:
            return []
        out: list[LegalAction] = []
        if self.waiting_for_ready and seat not in self.away:
            if seat not in self.ready:
                out.append(legal("ready"))
            if self._player_in(seat) == self.created_by and self._can_deal_now():
                out.append(legal("deal_now"))
        if seat in self.away or seat in self._pending_away:
            out.append(legal("sit_in"))
        else:
            out.append(legal("sit_out"))
        return out

    def _can_deal_now(self) -> bool:
        return not self.engine.in_hand and not self.engine.table_over and self.engine.can_start()

    def _waiting(self) -> bool:
        """Does the table hold its deal for Ready? Until every seated player is ready (a bot
        always is), or the opener has pressed Deal."""
        if not self.waiting_for_ready:
            return False
        return not all(
            seat in self.ready or self.roster[seat].is_bot
            for seat in self.engine.seated
            if seat in self.roster
        )

    def _hand_dealt(self) -> None:
        """A hand was dealt: the wait for Ready is over."""
        if self.waiting_for_ready:
            self.waiting_for_ready = False
            self.ready.clear()
            self._state_dirty = True

    # ------------------------------------------------------------------ the table's actions

    def _table_act(self, seat: int, action: Action) -> bool:
        """Apply ``action`` if it is one of the table's own that fits (True), else False."""
        if action.get("kind") not in TABLE_KINDS:
            return False
        if not action_fits(action, self._table_legal(seat) if self.friends else []):
            return False
        kind = action["kind"]
        if kind == "ready":
            self.ready.add(seat)
            self._tell(seat, "ready")
        elif kind == "deal_now":
            self.waiting_for_ready = False
            self.ready.clear()
            self._tell(seat, "deal_now")
        elif kind == "sit_out":
            self._pending_away[seat] = None
            self.ready.discard(seat)
            self._process_leaves()
        elif seat in self._pending_away:
            del self._pending_away[seat]  # changed their mind before the hand let them go
        else:
            self._come_back(seat)
        self._state_dirty = True
        self._changed()
        return True

    def _note_decision(self, seat: int, by: str) -> None:
        """A person's own act clears their clock's strikes."""
        if by == "player":
            self._clock_strikes.pop(seat, None)

    def _clock_played(self, seats: set[int]) -> None:
        """The clock decided for ``seats`` (a default action they could have taken): a person
        it has decided for on :data:`CLOCK_STRIKES` decisions in a row sits out, told why."""
        if not self.friends:
            return
        struck = False
        for seat in sorted(seats):
            info = self.roster.get(seat)
            if info is None or info.is_bot or seat in self.away or seat in self._pending_away:
                continue
            strikes = self._clock_strikes[seat] = self._clock_strikes.get(seat, 0) + 1
            if strikes >= CLOCK_STRIKES:
                self._pending_away[seat] = CLOCK_SAT_OUT
                struck = True
        if struck:
            self._process_leaves()
            self._changed()

    # ------------------------------------------------------------------ going and coming

    def _process_away(self) -> None:
        """Let the pending sit-outs go that the game allows now (as it allows a leave)."""
        for seat, reason in sorted(self._pending_away.items()):
            info = self.roster.get(seat)
            if info is None or seat in self._pending_leave or seat in self.away:
                del self._pending_away[seat]
                continue
            if not self.engine.can_leave(seat) or self._in_open_hand(seat):
                continue
            stack = self.engine.leave(seat)  # the game's leave: a bank or a deal passes on
            self._note_roster(seat, "leave")
            self.away[seat] = Away(info.player_id, stack, self.clock(), reason)
            del self._pending_away[seat]
            self._clock_strikes.pop(seat, None)
            self.ready.discard(seat)
            self._tell(seat, "sat_out", reason=reason)
            self._state_dirty = True

    def _come_back(self, seat: int) -> None:
        """The player sitting out in ``seat`` sits in: seated in the engine with their stack,
        dealt in from the next hand (a hand in play goes on without them)."""
        away = self.away.pop(seat)
        self.engine.sit(seat, away.stack)
        self._note_roster(seat, "sit", away.stack)
        if self.hand_id is not None:
            self._hand_roster[seat] = self.roster[seat]
        self._clock_strikes.pop(seat, None)
        self._tell(seat, "came_back")

    def _after_leave(self) -> None:
        """Someone stood up: a friends' table left with nobody seated waits for Ready again."""
        if self.friends and not self.roster and not self.waiting_for_ready:
            self.waiting_for_ready = True
            self.ready.clear()
            self._state_dirty = True

    async def stand_up(self, seat: int, away_at_least: float) -> None:
        """The opener or the host stands up ``seat``, which must have been sitting out for at
        least ``away_at_least`` seconds (the time they chose), else ``not_allowed``."""
        async with self.lock:
            if self.closed:
                raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
            away = self.away.get(seat)
            if away is None:
                raise ProtocolError(ErrorCode.NOT_ALLOWED, f"seat {seat} is not sitting out")
            waited = self.clock() - away.since
            if waited < away_at_least:
                raise ProtocolError(
                    ErrorCode.NOT_ALLOWED,
                    f"seat {seat} has been sitting out for {int(waited)} seconds, "
                    f"not {int(away_at_least)}",
                )
            self._stand_away(seat)
            self._after_leave()
            self._changed()

    # ------------------------------------------------------------------ views and storage

    def _presence_extras(self, seat: int) -> dict[str, Any]:
        """What every viewer sees of ``seat``: ready, sitting out (since when, why), going."""
        away = self.away.get(seat)
        return {
            "ready": seat in self.ready,
            "sitting_out": away is not None,
            "sitting_out_since": None if away is None else away.since,
            "sitting_out_reason": None if away is None else away.reason,
            "sitting_out_next": seat in self._pending_away,
        }

    def _away_entries(self) -> list[dict[str, Any]]:
        """Seat entries for the seats sitting out, which the engine's view no longer has."""
        return [
            {"seat": seat, "stack": away.stack, "role": "sitting out", "hands": [], "cards": []}
            for seat, away in sorted(self.away.items())
        ]

    def _presence_stored(self) -> dict[str, Any]:
        return {
            AWAY_KEY: {str(seat): away.stored() for seat, away in sorted(self.away.items())},
            WAITING_KEY: {"waiting": self.waiting_for_ready, "ready": sorted(self.ready)},
        }

    def restore_presence(self, state: dict[str, Any] | None, stacks: dict[int, int]) -> set[int]:
        """At start-up: who was sitting out and who was ready, from the stored state; each
        seat sitting out takes its stack from ``stacks`` (the ledger's). Returns those seats,
        which the engine must not seat."""
        if not self.friends:
            return set()
        state = state or {}
        waiting = state.get(WAITING_KEY)
        if isinstance(waiting, dict):
            self.waiting_for_ready = bool(waiting.get("waiting"))
            self.ready = {s for s in waiting.get("ready", []) if s in self.roster}
        else:
            self.waiting_for_ready = self.hands_played == 0
        away = state.get(AWAY_KEY)
        if not isinstance(away, dict):
            return set()
        for key, entry in away.items():
            seat = int(key)
            info = self.roster.get(seat)
            if info is None or entry.get("player_id") != info.player_id:
                continue  # stood up since
            self.away[seat] = Away(
                info.player_id, stacks.get(seat, 0), float(entry["since"]), entry.get("reason")
            )
        return set(self.away)
