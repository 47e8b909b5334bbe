"""A room's switch, the table's side of it (docs/rules.md §0.15; app/runtime/rooms.py drives
it): when the table may be left for another game, the chips it holds released to their
players' stacks, and the table closed on its watchers once the switch is committed.

Pure steps on a :class:`~app.runtime.table.core.TableCore`, as its own are: nothing here
waits, writes or sends.
"""

from __future__ import annotations

from typing import Any

from app.db.ledger import Movement
from app.games.core.accounts import seat_account
from app.games.core.errors import ErrorCode
from app.i18n.messages import N_
from app.runtime import notices, records, time_bank
from app.runtime.protocol import ProtocolError, encode
from app.runtime.records import SeatInfo
from app.runtime.table.core import BEGUN_KEY, TableCore
from app.runtime.table.effects import Effects

ROOM_SWITCH_CLOSE = 4301
"""The close code of a table its room has left for another (docs/protocol/socket.md §3): the
``room_switch`` message just before it names the table to open instead."""
SWITCHED = notices.ROOM_MOVED


def refusal(core: TableCore) -> ProtocolError | None:
    """Why the room cannot leave this table now, or None. Only between hands: no hand in
    play, and in En og tredive no match (docs/rules.md §0.15); nobody's buy-in on its way to
    a seat; the table open (not paused, closed or stopped)."""
    if core.closed or core.stopped or core.suspended:
        return ProtocolError(ErrorCode.TABLE_CLOSED, N_("this table is closed"))
    if core.status == "paused":
        return ProtocolError(ErrorCode.TABLE_PAUSED, N_("the host has paused this table"))
    if core.hand is not None or core.engine.in_hand:
        return ProtocolError(
            ErrorCode.ILLEGAL_ACTION, N_("a hand is in play: switch the game once it ends")
        )
    match = getattr(core.engine, "match", None)
    if match is not None and getattr(match, "seats", None):
        return ProtocolError(
            ErrorCode.ILLEGAL_ACTION, N_("a match is in play: switch the game once it ends")
        )
    if core.reserved:
        return ProtocolError(
            ErrorCode.ILLEGAL_ACTION, N_("someone is sitting down: try again in a moment")
        )
    return None


def waits_for_hand(core: TableCore) -> bool:
    """Whether a switch refused now may wait for the hand in play to end instead: a hand is
    in play at a table still running (not paused: that is refused as ``table_paused``), and
    no En og tredive match, whose hands go on after this one (docs/rules.md §0.15)."""
    if core.closed or core.stopped or core.suspended or core.status == "paused":
        return False
    if core.hand is None and not core.engine.in_hand:
        return False
    match = getattr(core.engine, "match", None)
    return not (match is not None and getattr(match, "seats", None))


def wait_for_hand(core: TableCore, game: str, title: str) -> Effects:
    """The host asked for the switch during a hand: no next hand is dealt here, and everyone
    is told the room moves on to ``title`` once this hand ends (the story's
    ``room_switch_next``, and the table's message)."""
    core.switch_next = {"game": game, "title": title}
    event = {
        "kind": "room_switch_next",
        "from_game": core.game_cls.id,
        "from_title": core.game_cls.title,
        "game": game,
        "title": title,
        "t": core.clock(),
    }
    core.story.tell(event, core.roster)
    core.notice(notices.room_switching(title))
    return core.refresh()


def waited(core: TableCore) -> Effects:
    """The switch that waited for the hand could not happen after all (the table closed, or
    the room left it): the table deals on."""
    core.switch_next = None
    return core.refresh()


def release(core: TableCore) -> tuple[list[tuple[int, SeatInfo, int]], list[Movement]]:
    """Every chip the table holds outside the stacks back to its owners' stacks, as a close
    between hands releases them (the game's ``release_all``): the ledger movements, and who
    sits where with what stack, in seat order. The engine is the table's no more after it:
    the caller closes the table (:func:`switched`) or it is rebuilt from the database."""
    core.engine.transfers = []
    core.engine.release_all()
    released = records.movements(core.engine.transfers, core.table_id, core.roster)
    core.engine.transfers = []
    seated: list[tuple[int, SeatInfo, int]] = []
    for seat, info in sorted(core.roster.items()):
        away = core.away.get(seat)
        stack = away.stack if away is not None else core.engine.balances.get(seat_account(seat), 0)
        seated.append((seat, info, stack))
    return seated, released


def switched(core: TableCore, frame: dict[str, Any]) -> Effects:
    """The switch is committed: the table is closed here (its seats and stacks are the new
    table's); each watcher is told ``frame`` (``room_switch``) and its socket closed with
    :data:`ROOM_SWITCH_CLOSE`."""
    core._stop()
    core.roster.clear()
    core.away.clear()
    core.status = "closed"
    core.message = SWITCHED
    if core.house is not None:
        core.house.forget(core.table_id)
    fx = Effects(stop=True)
    text = encode(frame)
    for watcher in core.watchers:
        fx.send(watcher, text)
        fx.close(watcher, ROOM_SWITCH_CLOSE, SWITCHED)
    return fx


def carried(core: TableCore, full: int, event: dict[str, Any]) -> dict[str, Any]:
    """The new table's first stored state, written by the switch's job with the table: what
    it carries of the old one. Each seated player's time bank, less what they spent here
    (the bank is the evening's: :func:`app.runtime.time_bank.carried`), and the switch as
    the event its story begins with (``room_switch``: the game left, the game now), so that
    a restart before its first hand tells it still."""
    players = [info.player_id for info in core.roster.values()]
    return {
        time_bank.STORED_KEY: time_bank.carried(core.time_bank, full, players),
        BEGUN_KEY: {**event, "kind": "room_switch", "t": core.clock()},
    }


def begun(core: TableCore) -> Effects:
    """The new table, built from the database, tells everyone the switch (its story begins
    with it: :func:`carried`)."""
    core.notice(notices.room_switched(core.game_cls.title))
    return core.refresh()
