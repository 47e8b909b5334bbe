"""A table's chat: what a message may hold, the reactions, and what the table remembers.

The rules (docs/protocol/socket.md §5.9):

* A message is plain text, 1 to :data:`MAX_CHAT_CHARS` characters once trimmed. Tabs and line
  breaks become spaces; any other control character (and the invisible controls that reorder
  text, U+202A-U+202E and U+2066-U+2069) is refused, not stripped: the sender learns why.
  The server never reads the text as markup; clients show it as text. A message must show
  something: one made only of invisible characters (zero-width spaces and joiners, other
  format characters, Hangul fillers, whitespace, combining marks with nothing to sit on) is
  refused (:func:`shows_nothing`).
* A message carries only what its writer typed, with the name, seat and time the server
  knows: never anything of the game (no card, no stack).
* A reaction is one of the fixed :data:`REACTIONS`; it is told to everyone, never stored.
* The table keeps its last :data:`CHAT_KEEP` messages and the people muted at it; the
  database keeps the same (app/db/store/chat.py), so both survive a restart. A removed
  message is sent to nobody again; it stays among the last messages as a mark
  (``{"id": n, "removed": True}``), so that ids never repeat, even across a restart.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from app.core.names import BLANKS
from app.i18n.messages import N_, Text

MAX_CHAT_CHARS = 200
CHAT_KEEP = 100
"""Messages a table keeps (in memory and in the database) and sends a connecting client."""

REACTIONS: dict[str, str] = {
    "thumbs_up": "\N{THUMBS UP SIGN}",
    "clap": "\N{CLAPPING HANDS SIGN}",
    "laugh": "\N{FACE WITH TEARS OF JOY}",
    "wow": "\N{FACE WITH OPEN MOUTH}",
    "sad": "\N{CRYING FACE}",
    "party": "\N{PARTY POPPER}",
}
"""The reactions a client may send, by key, with the emoji a client may show for each."""

_SPACES = {"\t", "\n", "\r", "\u2028", "\u2029", "\x85"}
"""Characters that break or indent a line: each becomes one space."""
_REORDERING = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
"""Invisible controls that reorder the text around them (a name shown backwards)."""


def shows_nothing(text: str) -> bool:
    """Every character of ``text`` is invisible: a default-ignorable one (zero-width space or
    joiner, variation selector, Hangul filler: app/core/names.py's BLANKS), a format
    character (Cf), whitespace or a combining mark (M*)."""
    return all(
        ord(ch) in BLANKS
        or ch.isspace()
        or unicodedata.category(ch)[0] == "M"
        or unicodedata.category(ch) == "Cf"
        for ch in text
    )


class ChatRefused(ValueError):
    """A message the chat does not take; ``str()`` says why, in words for its writer."""


def clean_text(raw: str) -> str:
    """The text of a chat message as the table keeps it, or :class:`ChatRefused`.

    >>> clean_text("  good luck\\nall  ")
    'good luck all'
    >>> clean_text("<img src=x onerror=alert(1)>")
    '<img src=x onerror=alert(1)>'
    >>> clean_text("bell\\x07")
    Traceback (most recent call last):
    ...
    app.runtime.chat.ChatRefused: a chat message may not hold control characters
    """
    text = "".join(" " if ch in _SPACES else ch for ch in raw).strip()
    if not text:
        raise ChatRefused(N_("a chat message needs some text"))
    if len(text) > MAX_CHAT_CHARS:
        raise ChatRefused(
            Text(N_("a chat message is at most {most} characters"), most=MAX_CHAT_CHARS)
        )
    for ch in text:
        if ch in _REORDERING or unicodedata.category(ch) in ("Cc", "Cs", "Co"):
            raise ChatRefused(N_("a chat message may not hold control characters"))
    if shows_nothing(text):
        raise ChatRefused(
            N_("a chat message needs some visible text (it held only invisible characters)")
        )
    return text


@dataclass(frozen=True, slots=True)
class Muted:
    """A person muted at a table: their id and the name they had when muted."""

    player_id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"player_id": self.player_id, "name": self.name}


@dataclass(slots=True)
class TableChat:
    """What one table remembers of its chat: the last messages, in order, and the mutes."""

    messages: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEEP))
    """Each message as it is sent (``id``, ``at``, ``player_id``, ``name``, ``seat``,
    ``text``), or the mark of a removed one."""
    muted: dict[str, Muted] = field(default_factory=dict)
    last_id: int = 0
    """The highest message id used at this table (ids grow by one, across restarts)."""

    def restore(self, messages: list[dict[str, Any]], muted: list[Muted], last_id: int) -> None:
        """What the database kept (oldest message first)."""
        self.messages.clear()
        self.messages.extend(messages[-CHAT_KEEP:])
        self.muted = {m.player_id: m for m in muted}
        self.last_id = max(last_id, *(int(m["id"]) for m in messages), 0)

    def post(
        self, at: float, player_id: str, name: str, seat: int | None, text: str
    ) -> dict[str, Any]:
        """A new message, kept (the oldest beyond :data:`CHAT_KEEP` is let go)."""
        self.last_id += 1
        message = {
            "id": self.last_id,
            "at": round(at, 3),  # milliseconds: as the database gives it back
            "player_id": player_id,
            "name": name,
            "seat": seat,
            "text": text,
        }
        self.messages.append(message)
        return message

    def remove(self, message_id: int) -> bool:
        """Leave a mark where a message was; False if the table does not hold it."""
        for index, message in enumerate(self.messages):
            if message["id"] == message_id and not message.get("removed"):
                self.messages[index] = {"id": message_id, "removed": True}
                return True
        return False

    def shown(self) -> list[dict[str, Any]]:
        """The messages a client receives: every kept one but the removed."""
        return [m for m in self.messages if not m.get("removed")]

    def muted_list(self) -> list[dict[str, str]]:
        return [m.to_json() for m in self.muted.values()]

    def name_of(self, player_id: str) -> str | None:
        """The name a person last wrote under here (the newest message), if any."""
        for message in reversed(self.messages):
            if message.get("player_id") == player_id:
                return str(message["name"])
        muted = self.muted.get(player_id)
        return muted.name if muted is not None else None
