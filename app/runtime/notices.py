"""The table's notices to everyone at it: the view's ``table.message`` (a hand made void, the
room moving on, the table closing) and a void hand's ``reason``, each said as a code and its
values beside its English (:class:`~app.games.core.coded.Coded`; docs/protocol/view.md §6.7).

The view is built once for every reader, so the table does not word its notices: each client
words the code in its reader's language (static/js/engine-words.js, which lists every code
here). Every notice is made here, from :data:`ENGLISH`, the one place its English is written;
:func:`reread` finds the notice again in its English, as a void hand's reason comes back from
the database after a restart. A reason given in someone's own words (the server's owner
closing a table) has no code: it is shown as it was written.
"""

from __future__ import annotations

import re
from typing import Any

from app.games.core.coded import Coded

ENGLISH: dict[str, str] = {
    "table.resting": (
        "Nobody has been here for a while, so the bots have stopped dealing; they start "
        "again as soon as someone connects or sits down."
    ),
    "table.room_switching": "The room switches to {title} once this hand ends.",
    "table.room_switched": "The room switched to {title}.",
    "table.room_moved": "The room moved to another table.",
    "table.options_changed": "The host changed the table's options: from the next hand.",
    "table.host_closed": "The table's host closed it",
    "table.opener_closed": "The player who opened this table closed it",
    "table.nobody_here": "Nobody was at this table for {minutes} minutes: it closed",
    "table.engine_failed": "the server hit an error; the hand is void and stakes returned",
    "table.not_saved": (
        "The server could not save for a while: the hand in play was void, stakes returned. "
        "Play goes on from what was saved."
    ),
    "table.restarted": "The server restarted: the hand in play was void, stakes returned.",
    "table.node_stopped": (
        "The node serving this table stopped: the hand in play was void, stakes returned."
    ),
    "table.node_restarting": (
        "The server is restarting: the hand in play was void, stakes returned."
    ),
    "table.shutting_down": "The server is shutting down",
}
"""Each notice's English by its code; ``{name}``: a value."""


def notice(code: str, **values: Any) -> Coded:
    """The notice ``code`` with its ``values`` (a number as the English writes it: ``2.5``,
    ``10``)."""
    english = ENGLISH[code].format(**{name: _english(v) for name, v in values.items()})
    return Coded(code, english, **values)


def _english(value: Any) -> Any:
    return f"{value:g}" if isinstance(value, float) else value


RESTING = notice("table.resting")
ROOM_MOVED = notice("table.room_moved")
OPTIONS_CHANGED = notice("table.options_changed")
HOST_CLOSED = notice("table.host_closed")
OPENER_CLOSED = notice("table.opener_closed")
ENGINE_FAILED = notice("table.engine_failed")
NOT_SAVED = notice("table.not_saved")
RESTARTED = notice("table.restarted")
NODE_STOPPED = notice("table.node_stopped")
NODE_RESTARTING = notice("table.node_restarting")
SHUTTING_DOWN = notice("table.shutting_down")


def room_switching(title: str) -> Coded:
    """A switch asked for during a hand: the room moves on to the game ``title`` after it."""
    return notice("table.room_switching", title=title)


def room_switched(title: str) -> Coded:
    """A room's new table, of the game ``title``, tells the switch that made it."""
    return notice("table.room_switched", title=title)


def nobody_here(minutes: float) -> Coded:
    """A table nobody was at for ``minutes`` closed on its own."""
    return notice("table.nobody_here", minutes=int(minutes) if minutes == int(minutes) else minutes)


_NUMBERS = frozenset({"minutes"})
"""The values that are numbers (the others are words: a game's title)."""


def _pattern(english: str) -> re.Pattern[str]:
    """A notice's English as a pattern that finds its values again."""
    parts = re.split(r"\{(\w+)\}", english)
    regex = "".join(
        re.escape(part)
        if i % 2 == 0
        else f"(?P<{part}>{r'[0-9]+(?:[.][0-9]+)?' if part in _NUMBERS else '.+?'})"
        for i, part in enumerate(parts)
    )
    return re.compile(rf"{regex}\Z")


_PATTERNS = {code: _pattern(english) for code, english in ENGLISH.items()}


def reread(text: str | None) -> str | None:
    """``text`` as the notice it is (a :class:`Coded`), when its English is one of
    :data:`ENGLISH`'s; otherwise ``text`` as it was (someone's own words, or None)."""
    if text is None or isinstance(text, Coded):
        return text
    for code, pattern in _PATTERNS.items():
        found = pattern.match(text)
        if found is None:
            continue
        values: dict[str, Any] = dict(found.groupdict())
        for name in _NUMBERS & values.keys():
            number = float(values[name])
            values[name] = int(number) if number == int(number) else number
        return Coded(code, text, **values)
    return text
