"""Views: every watcher gets its own state, the engine's view of its seat (the one place
where hidden cards are filtered) completed with what the table adds (docs/protocol.md, "The
view"), and the story's events it may see.

What every watcher shares is built once per change (:class:`Shared`); the engine's views and
the change's events once per distinct seat and reader's language, each encoded once.

The table's own words (a notice, why it is paused, an asker's request, why a seat sits out,
why a hand was void) are kept as the runtime marked them (app/i18n/messages.py) and worded
in each watcher's language as its state is built (:func:`worded_table`,
:func:`worded_events`): two friends at one table may read two languages.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Protocol

from app.games.core.coded import coded_json, english
from app.games.core.game import Game
from app.i18n.locales import DEFAULT
from app.i18n.messages import localize
from app.runtime.protocol import encode
from app.runtime.records import Away, SeatInfo
from app.runtime.story import Story, for_viewer
from app.runtime.table.effects import Effects, Watcher


class TableCore(Protocol):
    """What the views read of the table's core (app/runtime/table/core.py)."""

    table_id: str
    name: str
    game_cls: type[Game]
    options: dict[str, Any]
    engine: Game
    roster: dict[int, SeatInfo]
    watchers: set[Watcher]
    told: set[Watcher]
    pending_leave: set[int]
    away: dict[int, Away]
    status: str
    pause_reason: str | None
    message: str | None
    waiting_for_ready: bool
    version: int
    deadline: float | None
    story: Story

    @property
    def hand_id(self) -> str | None: ...

    def presence_extras(self, seat: int) -> dict[str, Any]: ...

    def away_entries(self) -> list[dict[str, Any]]: ...

    def legal(self, seat: int | None) -> list[Any]: ...

    def player_in(self, seat: int | None) -> str | None: ...

    def host_block(self) -> dict[str, Any] | None: ...

    def personal(self, player_id: str | None) -> bool: ...

    def personal_table(self, player_id: str | None) -> dict[str, Any]: ...

    def host_legal(self, player_id: str | None) -> list[Any]: ...

    @property
    def approval(self) -> bool: ...


@dataclass(slots=True)
class Shared:
    """What every watcher's state shares."""

    seat_by_player: dict[str, int]
    seat_extras: dict[int, dict[str, Any]]
    """Per occupied seat: ``player_id``, ``name``, ``bot``, ``connected``, ``leaving`` and
    what presence adds."""
    table_head: dict[str, Any]
    """The view's ``table`` block but what is each watcher's own."""
    spectators: int

    def seat_of(self, player_id: str | None) -> int | None:
        return None if player_id is None else self.seat_by_player.get(player_id)


def shared(core: TableCore) -> Shared:
    """What every watcher's state shares, built once per change: who sits where, each seat's
    name and flags, and the ``table`` block but ``can_top_up`` and what follows it."""
    engine = core.engine
    seat_by_player: dict[str, int] = {}
    for seat, info in core.roster.items():
        seat_by_player.setdefault(info.player_id, seat)  # as seat_of: the first seat
    connected = {w.player_id for w in core.watchers if not w.closed}
    seat_extras = {
        seat: {
            "player_id": info.player_id,
            "name": info.name,
            "bot": info.is_bot,
            **({"bot_level": info.bot_level} if info.is_bot else {}),
            "connected": info.is_bot or info.player_id in connected,
            "leaving": seat in core.pending_leave,
            **core.presence_extras(seat),
        }
        for seat, info in core.roster.items()
    }
    low, high = engine.buy_in_limits(None)
    table_seats, max_seats = engine.table_seats, engine.max_seats
    table_head = {
        "name": core.name,
        "status": core.status,
        "pause_reason": core.pause_reason,
        "max_seats": max_seats,
        "table_seats": table_seats,
        "free_seats": [
            s for s in range(table_seats) if s not in core.roster and _fits(engine.buy_in_limits(s))
        ],
        "standing_room": sum(1 for s in range(table_seats, max_seats) if s not in core.roster),
        "buy_in": {"min": low, "max": high},
        "over": english(engine.table_over),
        "over_coded": coded_json(engine.table_over),
        "message": core.message,  # the runtime's words: worded for each reader below
        "start": core.options.get("start", "auto"),
        "waiting_for_ready": core.waiting_for_ready,
        "host": core.host_block(),
        "approval": core.approval,
    }
    spectators = sum(1 for w in core.watchers if w.player_id not in seat_by_player)
    return Shared(seat_by_player, seat_extras, table_head, spectators)


TABLE_WORDS = ("message", "pause_reason", "seat_request_message")
"""The ``table`` block's fields the runtime words (a notice, why the table is paused, an
asker's request): worded in the reader's language."""
SEAT_WORDS = ("sitting_out_reason",)
"""A seat's fields the runtime words (why the clock sat it out)."""
EVENT_WORDS = frozenset({"hand_void", "sat_out"})
"""The story's events whose ``reason`` the runtime words (a void hand's, a seat sat out)."""


def _worded(text: Any, locale: str) -> Any:
    return localize(text, locale) if isinstance(text, str) and text else text


def worded_table(table: dict[str, Any], locale: str) -> None:
    """The ``table`` block's runtime words in ``locale``, in place (a reason a person typed
    is data: a catalog that does not know it leaves it as it is)."""
    for key in TABLE_WORDS:
        if table.get(key):
            table[key] = _worded(table[key], locale)


def worded_events(events: list[dict[str, Any]], locale: str) -> list[dict[str, Any]]:
    """The events, each one whose ``reason`` the runtime words copied with it in ``locale``
    (the others as they are: shared by every reader)."""
    return [
        {**event, "reason": _worded(event["reason"], locale)}
        if event.get("kind") in EVENT_WORDS and event.get("reason")
        else event
        for event in events
    ]


def view(
    core: TableCore,
    common: Shared,
    seat: int | None,
    seen: dict[str, Any],
    person: str | None = None,
    locale: str = DEFAULT,
) -> dict[str, Any]:
    """Complete the engine's view ``seen`` of ``seat`` with what the table adds
    (docs/protocol.md, "The view"): each seat's player, ``you``, ``legal``, the clock and the
    table; ``person``: a watcher whose view is their own (the host's, an asker's), else
    None; the table's own words in ``locale``."""
    engine = core.engine
    extras = common.seat_extras
    if core.away:  # the seats sitting out, which the engine's view no longer has
        listed = {entry.get("seat") for entry in seen.get("seats", ())}
        away = [entry for entry in core.away_entries() if entry["seat"] not in listed]
        seen["seats"] = [*seen.get("seats", ()), *away]
    # Trente et Quarante also lists its standing bettors, who are in no seat of the table.
    for entries in (seen.get("seats", ()), seen.get("bettors", ())):
        for entry in entries:
            extra = extras.get(entry.get("seat", -1))
            if extra is not None:
                entry.update(extra)  # the English again: the entry may be another reader's
                for key in SEAT_WORDS:
                    if entry.get(key):
                        entry[key] = _worded(entry[key], locale)
    table = dict(common.table_head)
    playing = seat is not None and seat not in core.away
    table["can_top_up"] = seat is not None and playing and engine.can_top_up(seat)
    # how much a top-up may bring, and why a seated player is not dealt in (if so)
    table["top_up_max"] = 0
    table["cannot_play"] = table["cannot_play_coded"] = None
    if seat is not None and playing:
        if table["can_top_up"]:
            table["top_up_max"] = engine.top_up_limit(seat)
        cannot_play = engine.cannot_play(seat)
        table["cannot_play"] = english(cannot_play)
        table["cannot_play_coded"] = coded_json(cannot_play)
    # what leaving costs beyond the stack going home (the page confirms with it)
    leave_cost = engine.leave_cost(seat) if seat is not None and playing else None
    table["leave_cost"] = english(leave_cost)
    table["leave_cost_coded"] = coded_json(leave_cost)
    table["spectators"] = common.spectators
    table.update(core.personal_table(person))
    worded_table(table, locale)
    seen.update(
        table_id=core.table_id,
        game=core.game_cls.id,
        hand_id=core.hand_id,
        you=seat,
        # a paused table accepts no action, so it offers none (docs/protocol.md: exact legal)
        legal=core.legal(seat),
        deadline=core.deadline,
        table=table,
    )
    return seen


def state_frame(
    core: TableCore,
    common: Shared,
    seat: int | None,
    seen: dict[str, Any],
    extra: dict[str, Any] | None = None,
    person: str | None = None,
    locale: str = DEFAULT,
) -> str:
    """One watcher's ``state`` message, encoded, the table's words in ``locale``."""
    message: dict[str, Any] = {
        "type": "state",
        "version": core.version,
        "view": view(core, common, seat, seen, person, locale),
    }
    if extra:
        message.update(extra)
    return encode(message)


def full_story(core: TableCore, seat: int | None, locale: str = DEFAULT) -> dict[str, Any]:
    """What a (re)connecting watcher gets beside its view: the recent story, filtered for the
    player in ``seat`` (a spectator: None), its words in ``locale``, and the last hand's
    result."""
    recent = worded_events(for_viewer(core.story.recent(), core.player_in(seat)), locale)
    return {"story": recent, "result": core.story.result}


def send_state(core: TableCore, fx: Effects, watcher: Watcher) -> None:
    """``watcher``'s whole state (its view and the recent story), to it alone."""
    common = shared(core)
    seat = common.seat_of(watcher.player_id)
    core.told.add(watcher)
    seen = core.engine.view(None if seat in core.away else seat)
    person = watcher.player_id if core.personal(watcher.player_id) else None
    locale = watcher.locale
    story = full_story(core, seat, locale)
    fx.send(watcher, state_frame(core, common, seat, seen, story, person, locale))


def broadcast(core: TableCore, fx: Effects) -> None:
    """Every watcher's own state. A watcher that has not had the story yet gets it instead of
    the change's events (docs/protocol.md §6.6)."""
    fresh, ended = core.story.take_fresh()
    told = core.told
    if not core.watchers:
        told.clear()
        return
    if len(told) > len(core.watchers):
        told &= core.watchers  # watchers that have gone
    common = shared(core)
    recipients = [(w, common.seat_of(w.player_id)) for w in core.watchers]
    wanted = dict.fromkeys(seat for _, seat in recipients)
    # a seat sitting out is dealt nothing: it sees the table as a spectator does
    views = core.engine.views([s for s in wanted if s not in core.away])
    for away in core.away.keys() & wanted.keys():
        views[away] = core.engine.view(None)
    # the host's view and an asker's are their own: keyed by (seat, person), and by the
    # reader's language
    keyed = [
        (w, seat, w.player_id if core.personal(w.player_id) else None) for w, seat in recipients
    ]
    extra: dict[str, Any] = {}
    if ended:
        extra["result"] = core.story.result
    texts: dict[tuple[int | None, str | None, str], str] = {}
    full: dict[tuple[int | None, str | None, str], str] = {}
    for watcher, seat, person in keyed:
        locale = watcher.locale
        key = (seat, person, locale)
        if watcher in told:
            text = texts.get(key)
            if text is None:
                own = dict(extra)
                if fresh:
                    own["events"] = worded_events(for_viewer(fresh, core.player_in(seat)), locale)
                # each engine view is completed in place: a copy for each person's own
                seen = views[seat] if person is None else copy.deepcopy(views[seat])
                text = texts[key] = state_frame(core, common, seat, seen, own, person, locale)
            fx.send(watcher, text)
            continue
        text = full.get(key)
        if text is None:
            seen = views[seat] if person is None else copy.deepcopy(views[seat])
            story = full_story(core, seat, locale)
            text = full[key] = state_frame(core, common, seat, seen, story, person, locale)
        told.add(watcher)
        fx.send(watcher, text)


def _fits(limits: tuple[int, int]) -> bool:
    return limits[0] <= limits[1]
