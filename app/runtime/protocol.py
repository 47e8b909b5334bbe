"""The table socket's messages (docs/protocol.md §5; docs/protocol.md §5).

A frame is size-checked, parsed as JSON, then turned into one of a closed set of typed
messages; anything else is a :class:`ProtocolError` with a stable code. No rules here.

Whatever a client sends, reading it raises nothing but :class:`ProtocolError`: the JSON is
read by orjson, which stops at 1,024 levels of nesting by itself (the standard library's
parser recursed until Python's own limit, a ``RecursionError`` and a closed socket), and a
message nested deeper than :data:`MAX_DEPTH` is refused. Every number that may reach the
database or an engine (a buy-in, a top-up, an act's parameters) is bounded by
:data:`MAX_CHIPS`: a top-up of 2^63 chips once overflowed SQLite's integers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeGuard

import orjson

from app.games.core.errors import ErrorCode, RuleError

MAX_ID_LENGTH = 64
MAX_DEPTH = 4
"""How deep a message may nest: the message, an act's ``action``, a list parameter in it
(3), and one level to spare."""
MAX_CHIPS = 1_000_000_000_000
"""The largest number of chips a message may name (a buy-in, a top-up, any whole number in
an act's action): far beyond any bankroll, far below the database's 64-bit integers."""


def encode(message: dict[str, Any]) -> str:
    """A message as the text of one frame: compact JSON, as ``json.dumps`` with
    ``separators=(",", ":")`` would give it, but encoded by orjson (ten times faster on the
    table's states). orjson writes UTF-8 where json escapes to ``\\uXXXX``: the same JSON
    text to any parser. What orjson refuses (a key that is not a string, an integer beyond 64
    bits, a lone surrogate in a client's id) falls back to the standard library."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(message, separators=(",", ":"))


class ProtocolError(Exception):
    """A refused message: ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: ErrorCode, message: str, msg_id: str | None = None) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.msg_id = msg_id

    @classmethod
    def refusing(cls, err: RuleError, msg_id: str | None = None) -> ProtocolError:
        """The socket's error for an engine's refusal: its code and message, unchanged (the one
        place an engine's :class:`RuleError` becomes a socket error)."""
        return cls(err.code, err.message, msg_id)

    def to_message_text(self) -> str:
        return encode(self.to_message())

    def to_message(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.msg_id is not None:
            out["id"] = self.msg_id
        return out


@dataclass(frozen=True)
class Sit:
    seat: int | None
    buy_in: int


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class TopUp:
    amount: int


@dataclass(frozen=True)
class Act:
    id: str
    version: int
    action: dict[str, Any]


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class Resync:
    """A client asks for its current view again (after a gap in versions)."""

    version: int | None


@dataclass(frozen=True)
class Chat:
    """A chat message's text, as the client sent it (the table cleans and checks it)."""

    text: str


@dataclass(frozen=True)
class React:
    reaction: str


@dataclass(frozen=True)
class Mute:
    """The opener mutes a person at the table (``unmute``: ``muted`` is False)."""

    player_id: str
    muted: bool


@dataclass(frozen=True)
class RemoveChat:
    id: int


@dataclass(frozen=True)
class StandUp:
    """The opener stands up a seat that has been sitting out for ``away_at_least`` seconds
    or more (docs/protocol/socket.md §5.10)."""

    seat: int
    away_at_least: int


Message = Sit | Leave | TopUp | Act | Ping | Resync | Chat | React | Mute | RemoveChat | StandUp


def _whole(value: Any) -> TypeGuard[int]:
    return type(value) is int


def _nests_within(value: Any, room: int) -> bool:
    """Whether ``value`` holds objects and lists at most ``room`` levels deep (it is one)."""
    if isinstance(value, dict):
        return room > 0 and all(_nests_within(v, room - 1) for v in value.values())
    if isinstance(value, list):
        return room > 0 and all(_nests_within(v, room - 1) for v in value)
    return True


def _out_of_bounds(value: Any) -> bool:
    """A whole number (or one in a list) beyond +/- :data:`MAX_CHIPS`."""
    if type(value) is int:
        return not -MAX_CHIPS <= value <= MAX_CHIPS
    if isinstance(value, list):
        return any(_out_of_bounds(v) for v in value)
    return False


def _within_bounds(action: dict[str, Any]) -> bool:
    """No parameter of ``action`` is out of bounds (a plain loop: no generator for each act,
    on the socket's hot path)."""
    for value in action.values():  # noqa: SIM110 - all() would allocate a generator
        if _out_of_bounds(value):
            return False
    return True


def _too_large(raw: str | bytes, max_bytes: int) -> bool:
    """Longer than ``max_bytes`` in UTF-8. A text frame is counted in characters first: one
    of at most ``max_bytes // 4`` characters cannot be over, so only longer ones are encoded."""
    if len(raw) > max_bytes:
        return True
    return isinstance(raw, str) and len(raw) > max_bytes // 4 and len(raw.encode()) > max_bytes


def parse(raw: str | bytes, *, max_bytes: int) -> Message:
    """Parse one frame into a typed message, or raise :class:`ProtocolError` (nothing else,
    whatever the frame holds)."""
    if _too_large(raw, max_bytes):
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a message may be at most {max_bytes} bytes")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:  # also too deep (1,024 levels), invalid UTF-8, NaN
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be one JSON object")
    kind = data.get("type")
    msg_id = data.get("id") if isinstance(data.get("id"), str) else None
    if msg_id is not None and len(msg_id) > MAX_ID_LENGTH:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"an id is at most {MAX_ID_LENGTH} characters")
    # Each bracket opens at most one level: a frame with few (almost all) is not walked.
    brackets = raw.count("{") + raw.count("[") if isinstance(raw, str) else MAX_DEPTH + 1
    if brackets > MAX_DEPTH and not _nests_within(data, MAX_DEPTH):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"a message may nest at most {MAX_DEPTH} deep", msg_id
        )
    if kind == "ping":
        return Ping()
    if kind == "leave":
        return Leave()
    if kind == "resync":
        version = data.get("version")
        return Resync(version if _whole(version) else None)
    if kind == "sit":
        seat = data.get("seat")
        buy_in = data.get("buy_in")
        if seat is not None and not _whole(seat):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "seat must be a seat number or null")
        if not _whole(buy_in):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "buy_in must be a whole number of chips")
        if not 0 <= buy_in <= MAX_CHIPS:  # below the table's minimum: bad_buy_in, from it
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"buy_in must be from 0 to {MAX_CHIPS} chips"
            )
        return Sit(seat, buy_in)
    if kind == "top_up":
        amount = data.get("amount")
        if not _whole(amount) or not 0 < amount <= MAX_CHIPS:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"amount must be a whole number from 1 to {MAX_CHIPS}"
            )
        return TopUp(amount)
    if kind == "act":
        if msg_id is None or not msg_id:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "an act needs a string id")
        version = data.get("version")
        action = data.get("action")
        if not _whole(version):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "an act needs the view version", msg_id)
        if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, "an act needs an action object with a kind", msg_id
            )
        if not _within_bounds(action):
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"the numbers in an action are from -{MAX_CHIPS} to {MAX_CHIPS}",
                msg_id,
            )
        return Act(msg_id, version, action)
    if kind == "stand_up":
        seat, least = data.get("seat"), data.get("away_at_least")
        if not _whole(seat) or not 0 <= seat < 100:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "stand_up needs a seat number", msg_id)
        if not _whole(least) or not 0 <= least <= 86_400:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, "away_at_least is a whole number of seconds to 86400"
            )
        return StandUp(seat, least)
    chat = _chat_message(kind, data)
    if chat is not None:
        return chat
    raise ProtocolError(
        ErrorCode.BAD_MESSAGE,
        "unknown message type; expected sit, leave, top_up, act, resync, ping, chat, react, "
        "mute, unmute, remove_chat or stand_up",
        msg_id,
    )


def _chat_message(kind: Any, data: dict[str, Any]) -> Message | None:
    """The chat's messages (docs/protocol/socket.md §5.9): their fields' types only; what a
    text may hold and who may mute is the table's to say. None for another type."""
    if kind == "chat":
        text = data.get("text")
        if not isinstance(text, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a chat message needs its text")
        return Chat(text)
    if kind == "react":
        reaction = data.get("reaction")
        if not isinstance(reaction, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a reaction needs its name")
        return React(reaction)
    if kind in ("mute", "unmute"):
        player_id = data.get("player_id")
        if not isinstance(player_id, str) or not 0 < len(player_id) <= MAX_ID_LENGTH:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind} needs a player_id")
        return Mute(player_id, kind == "mute")
    if kind == "remove_chat":
        message_id = data.get("id")
        if not _whole(message_id) or not 0 < message_id <= MAX_CHIPS:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, "remove_chat needs the message's id (a whole number)"
            )
        return RemoveChat(message_id)
    return None
