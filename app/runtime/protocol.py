"""The table socket's messages (docs/protocol.md §5; docs/protocol/socket.md §5.2).

A frame is size-checked, parsed as JSON, then turned into one of a closed set of typed
messages; anything else is a :class:`ProtocolError` with a stable code. No rules here.

Every kind of message a client may send is declared once, in :data:`KINDS`: its ``type``,
its dataclass, the reader of its fields, the table's method that handles it, whether it
carries an act's id, and the errors it may be answered with. :func:`parse` checks the frame,
looks its ``type`` up there and calls that kind's reader; the "unknown message type" answer
names the registry's types. A new kind is a dataclass, a reader and one entry (and a member
of :data:`Message`, for the type checker: a test holds the two together).

Whatever a client sends, reading it raises nothing but :class:`ProtocolError`: the JSON is
read by orjson, which stops at 1,024 levels of nesting by itself (the standard library's
parser recursed until Python's own limit, a ``RecursionError`` and a closed socket), and a
message nested deeper than :data:`MAX_DEPTH` is refused. Every number that may reach the
database or an engine (a buy-in, a top-up, an act's parameters) is bounded by
:data:`MAX_CHIPS`: a top-up of 2^63 chips once overflowed SQLite's integers.
"""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeGuard, TypeVar

import orjson

from app.games.core.errors import ErrorCode, RuleError
from app.i18n.locales import DEFAULT
from app.i18n.messages import N_, Text, localize
from app.runtime.rule_words import worded

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
    """A refused message: ``code`` is stable, ``message`` is for people (marked for
    translation, an engine's English refusal through :func:`~app.runtime.rule_words.worded`,
    and worded in the reader's language when sent)."""

    def __init__(self, code: ErrorCode, message: str, msg_id: str | None = None) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = worded(message)
        self.msg_id = msg_id

    @classmethod
    def refusing(cls, err: RuleError, msg_id: str | None = None) -> ProtocolError:
        """The socket's error for an engine's refusal: its code and message, unchanged (the one
        place an engine's :class:`RuleError` becomes a socket error)."""
        return cls(err.code, err.message, msg_id)

    def to_message_text(self, locale: str = DEFAULT) -> str:
        return encode(self.to_message(locale))

    def to_message(self, locale: str = DEFAULT) -> dict[str, Any]:
        """The error frame, its ``message`` in ``locale`` (the reading socket's language:
        app/i18n/messages.py); ``code`` is the same in every language."""
        message = localize(self.message, locale)
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": message}
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


@dataclass(frozen=True)
class SwitchGame:
    """A room's host switches the room to another game between hands (docs/rules.md
    §0.15; docs/protocol/socket.md §5.12): the game's id and its options."""

    game: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Host:
    """One of the table host's actions (docs/protocol/socket.md §5.13): ``action`` is one
    of the host's ``legal`` (pause, resume, unseat, set_options, make_host, close, approve,
    refuse); ``id`` is echoed by its ``ack`` or error."""

    id: str
    action: dict[str, Any]


Message = (
    Sit
    | Leave
    | TopUp
    | Act
    | Ping
    | Resync
    | Chat
    | React
    | Mute
    | RemoveChat
    | StandUp
    | SwitchGame
    | Host
)
"""What :func:`parse` returns: the dataclasses of :data:`KINDS`, written out for the type
checker (tests/runtime/test_message_registry.py checks that they are the same)."""


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


NON_FINITE = re.compile(rb"(?:\bNaN\b|\bInfinity\b)")
"""Words that Python's and JavaScript's loose writers put where a number cannot be."""


def _unreadable(raw: str | bytes, err: orjson.JSONDecodeError) -> str:
    """Why a frame is not JSON, in words: a number that no JSON number can be (``NaN``,
    ``Infinity``, or one too large for a double such as ``1e400``) is named as such; any
    other frame is simply not one JSON object."""
    data = raw.encode(errors="replace") if isinstance(raw, str) else raw
    if "infinity" in str(err).lower() or NON_FINITE.search(data):
        return N_(
            "a message must be one JSON object, and its numbers finite: NaN, Infinity and "
            "numbers too large for a double (like 1e400) are not JSON"
        )
    return N_("a message must be one JSON object")


def _bad(message: str, msg_id: str | None = None) -> ProtocolError:
    """A ``bad_message`` refusal of a message's fields."""
    return ProtocolError(ErrorCode.BAD_MESSAGE, message, msg_id)


# ---------------------------------------------------------------------- the registry

M = TypeVar("M", bound=Message)

Reader = Callable[[dict[str, Any], str | None], M]
"""A kind's reader: the decoded message and its ``id`` (when it is a string) in, the
typed message out, or a :class:`ProtocolError`. It checks the fields' types and bounds
only; what they mean at the table is the table's to say."""


@dataclass(frozen=True)
class Refusal:
    """An error a kind of message may be answered with: its code, and when."""

    code: ErrorCode
    when: str


@dataclass(frozen=True)
class Kind(Generic[M]):
    """One kind of client message: where it is declared, the one place.

    ``handler`` names the table's method that handles it (``on_act``); ``act_id`` says that
    the message carries the client's ``id``, which its ``ack`` and its errors echo;
    ``errors`` are the refusals particular to it, beside :data:`ANY_MESSAGE_ERRORS`."""

    type: str
    message: builtins.type[M]
    read: Reader[M]
    handler: str
    act_id: bool = False
    errors: tuple[Refusal, ...] = ()


def _read_sit(data: dict[str, Any], msg_id: str | None) -> Sit:
    seat, buy_in = data.get("seat"), data.get("buy_in")
    if seat is not None and not _whole(seat):
        raise _bad(N_("seat must be a seat number or null"))
    if not _whole(buy_in):
        raise _bad(N_("buy_in must be a whole number of chips"))
    if not 0 <= buy_in <= MAX_CHIPS:  # below the table's minimum: bad_buy_in, from it
        raise _bad(Text(N_("buy_in must be from 0 to {most} chips"), most=MAX_CHIPS))
    return Sit(seat, buy_in)


def _read_leave(data: dict[str, Any], msg_id: str | None) -> Leave:
    return Leave()


def _read_top_up(data: dict[str, Any], msg_id: str | None) -> TopUp:
    amount = data.get("amount")
    if not _whole(amount) or not 0 < amount <= MAX_CHIPS:
        raise _bad(Text(N_("amount must be a whole number from 1 to {most}"), most=MAX_CHIPS))
    return TopUp(amount)


def _read_act(data: dict[str, Any], msg_id: str | None) -> Act:
    if not msg_id:
        raise _bad(N_("an act needs a string id"))
    version, action = data.get("version"), data.get("action")
    if not _whole(version):
        raise _bad(N_("an act needs the view version"), msg_id)
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise _bad(N_("an act needs an action object with a kind"), msg_id)
    if not _within_bounds(action):
        raise _bad(
            Text(N_("the numbers in an action are from -{most} to {most}"), most=MAX_CHIPS), msg_id
        )
    return Act(msg_id, version, action)


def _read_resync(data: dict[str, Any], msg_id: str | None) -> Resync:
    version = data.get("version")  # informative only: anything else is no version
    return Resync(version if _whole(version) else None)


def _read_ping(data: dict[str, Any], msg_id: str | None) -> Ping:
    return Ping()


def _read_chat(data: dict[str, Any], msg_id: str | None) -> Chat:
    text = data.get("text")  # what it may hold is the table's to say (chat.py)
    if not isinstance(text, str):
        raise _bad(N_("a chat message needs its text"))
    return Chat(text)


def _read_react(data: dict[str, Any], msg_id: str | None) -> React:
    reaction = data.get("reaction")  # one of the set: the table checks
    if not isinstance(reaction, str):
        raise _bad(N_("a reaction needs its name"))
    return React(reaction)


def _player_id(kind: str, data: dict[str, Any]) -> str:
    player_id = data.get("player_id")
    if not isinstance(player_id, str) or not 0 < len(player_id) <= MAX_ID_LENGTH:
        raise _bad(Text(N_("{kind} needs a player_id"), kind=kind))
    return player_id


def _read_mute(data: dict[str, Any], msg_id: str | None) -> Mute:
    return Mute(_player_id("mute", data), muted=True)


def _read_unmute(data: dict[str, Any], msg_id: str | None) -> Mute:
    return Mute(_player_id("unmute", data), muted=False)


def _read_remove_chat(data: dict[str, Any], msg_id: str | None) -> RemoveChat:
    message_id = data.get("id")
    if not _whole(message_id) or not 0 < message_id <= MAX_CHIPS:
        raise _bad(N_("remove_chat needs the message's id (a whole number)"))
    return RemoveChat(message_id)


def _read_stand_up(data: dict[str, Any], msg_id: str | None) -> StandUp:
    seat, least = data.get("seat"), data.get("away_at_least")
    if not _whole(seat) or not 0 <= seat < 100:
        raise _bad(N_("stand_up needs a seat number"), msg_id)
    if not _whole(least) or not 0 <= least <= 86_400:
        raise _bad(N_("away_at_least is a whole number of seconds to 86400"))
    return StandUp(seat, least)


def _read_switch_game(data: dict[str, Any], msg_id: str | None) -> SwitchGame:
    game, options = data.get("game"), data.get("options", {})
    if not isinstance(game, str) or not 0 < len(game) <= MAX_ID_LENGTH:
        raise _bad(N_("switch_game needs the game's id"), msg_id)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _bad(N_("switch_game's options are an object"), msg_id)
    return SwitchGame(game, options)


def _read_host(data: dict[str, Any], msg_id: str | None) -> Host:
    if not msg_id:
        raise _bad(N_("a host action needs a string id"))
    action = data.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise _bad(N_("a host action needs an action object with a kind"), msg_id)
    return Host(msg_id, action)


_BAD = ErrorCode.BAD_MESSAGE
_OPENER_ONLY = Refusal(ErrorCode.NOT_ALLOWED, "from anyone but the table's opener")
_SPECTATOR = "from a spectator (a socket without a token)"
_CHAT_REFUSALS = (
    Refusal(ErrorCode.MUTED, "from a person muted at this table"),
    Refusal(ErrorCode.RATE_LIMITED, "beyond the person's chat budget at this table"),
)
_MUTE_REFUSALS = (
    Refusal(_BAD, "no player_id of 1 to 64 characters; yourself; a person the table does not know"),
    _OPENER_ONLY,
)

KINDS: tuple[Kind[Any], ...] = (
    Kind(
        "sit",
        Sit,
        _read_sit,
        handler="on_sit",
        errors=(
            Refusal(
                _BAD,
                "seat neither a number nor null, or outside the table; buy_in not a"
                " whole number from 0 to MAX_CHIPS",
            ),
            Refusal(ErrorCode.UNAUTHORIZED, _SPECTATOR),
            Refusal(ErrorCode.ALREADY_SEATED, "already seated at this table"),
            Refusal(ErrorCode.TABLE_PAUSED, "while the host has paused the table"),
            Refusal(ErrorCode.SEAT_TAKEN, "the seat is occupied, or seat null at a full table"),
            Refusal(ErrorCode.BAD_BUY_IN, "buy_in outside the view's table.buy_in"),
            Refusal(ErrorCode.INSUFFICIENT_FUNDS, "the bankroll cannot pay the buy_in"),
        ),
    ),
    Kind(
        "leave",
        Leave,
        _read_leave,
        handler="on_leave",
        errors=(Refusal(ErrorCode.NOT_SEATED, "from someone not seated"),),
    ),
    Kind(
        "top_up",
        TopUp,
        _read_top_up,
        handler="on_top_up",
        errors=(
            Refusal(_BAD, "amount not a whole number from 1 to MAX_CHIPS"),
            Refusal(ErrorCode.NOT_SEATED, "from someone not seated"),
            Refusal(ErrorCode.ILLEGAL_ACTION, "the rules allow no top-up, or not that much, now"),
            Refusal(ErrorCode.INSUFFICIENT_FUNDS, "the bankroll cannot pay the amount"),
        ),
    ),
    Kind(
        "act",
        Act,
        _read_act,
        handler="on_act",
        act_id=True,
        errors=(
            Refusal(
                _BAD,
                "no string id; no whole version; action not an object with a string"
                " kind, or holding a whole number beyond +/- MAX_CHIPS",
            ),
            Refusal(ErrorCode.NOT_SEATED, "from someone not seated"),
            Refusal(ErrorCode.TABLE_PAUSED, "while the host has paused the table"),
            Refusal(ErrorCode.UNKNOWN_ACTION, "action.kind is none of the game's kinds"),
            Refusal(ErrorCode.STALE_VERSION, "it fits no legal action and its version is older"),
            Refusal(ErrorCode.NOT_YOUR_TURN, "it fits none, its version is current, legal empty"),
            Refusal(ErrorCode.ILLEGAL_ACTION, "it fits none, its version is current"),
        ),
    ),
    Kind("resync", Resync, _read_resync, handler="on_resync"),
    Kind("ping", Ping, _read_ping, handler="on_ping"),
    Kind(
        "chat",
        Chat,
        _read_chat,
        handler="on_chat",
        errors=(
            Refusal(
                _BAD,
                "no text; a text empty once trimmed, over 200 characters, or holding"
                " a control character",
            ),
            Refusal(ErrorCode.UNAUTHORIZED, _SPECTATOR),
            *_CHAT_REFUSALS,
        ),
    ),
    Kind(
        "react",
        React,
        _read_react,
        handler="on_react",
        errors=(
            Refusal(_BAD, "no reaction, or one not in the set"),
            Refusal(ErrorCode.UNAUTHORIZED, _SPECTATOR),
            *_CHAT_REFUSALS,
        ),
    ),
    Kind("mute", Mute, _read_mute, handler="on_mute", errors=_MUTE_REFUSALS),
    Kind("unmute", Mute, _read_unmute, handler="on_mute", errors=_MUTE_REFUSALS),
    Kind(
        "remove_chat",
        RemoveChat,
        _read_remove_chat,
        handler="on_remove_chat",
        errors=(
            Refusal(_BAD, "id not a whole number from 1 to MAX_CHIPS"),
            _OPENER_ONLY,
            Refusal(ErrorCode.NO_SUCH_MESSAGE, "a message the table does not hold"),
        ),
    ),
    Kind(
        "stand_up",
        StandUp,
        _read_stand_up,
        handler="on_stand_up",
        errors=(
            Refusal(_BAD, "seat not from 0 to 99; away_at_least not whole seconds to 86400"),
            Refusal(
                ErrorCode.NOT_ALLOWED,
                "from anyone but the table's host; a seat not sitting out, or not for that long",
            ),
        ),
    ),
    Kind(
        "switch_game",
        SwitchGame,
        _read_switch_game,
        handler="on_switch_game",
        errors=(
            Refusal(
                _BAD,
                "no game id; options not an object; a game the server does not offer; "
                "options the game refuses (the message names the option)",
            ),
            Refusal(
                ErrorCode.NOT_ALLOWED,
                "from anyone but the room's host; at a table that is no room's; in cluster mode",
            ),
            Refusal(
                ErrorCode.ILLEGAL_ACTION,
                "an En og tredive match in play; a buy-in on its way (a hand in play: the "
                "switch waits for it to end)",
            ),
            Refusal(ErrorCode.TABLE_PAUSED, "while the host has paused the table"),
            Refusal(ErrorCode.TABLE_CLOSED, "the room is closed, or has left this table"),
        ),
    ),
    Kind(
        "host",
        Host,
        _read_host,
        handler="on_host",
        act_id=True,
        errors=(
            Refusal(
                _BAD,
                "no string id; no action object with a kind; a seat or player_id the action"
                " cannot name (nobody there, nobody asking)",
            ),
            Refusal(ErrorCode.NOT_HOST, "from anyone but the table's host"),
            Refusal(ErrorCode.UNKNOWN_ACTION, "action.kind is none of the host's kinds"),
            Refusal(ErrorCode.ILLEGAL_ACTION, "pause at a paused table, resume at an open one"),
            Refusal(ErrorCode.HAND_IN_PLAY, "set_options or close while a hand is in play"),
            Refusal(
                ErrorCode.BAD_OPTIONS,
                "an option that cannot change on a live table, or a value the game refuses",
            ),
            Refusal(ErrorCode.TABLE_PAUSED, "approve while the table is paused"),
            Refusal(ErrorCode.SEAT_TAKEN, "approve when the seat asked for was taken since"),
            Refusal(ErrorCode.INSUFFICIENT_FUNDS, "approve when the asker cannot pay the buy-in"),
        ),
    ),
)
"""Every kind of client message, in the order the protocol's documents list them."""

ANY_MESSAGE_ERRORS: tuple[Refusal, ...] = (
    Refusal(ErrorCode.TOO_LARGE, "the frame is over the socket's MAX_MESSAGE_BYTES"),
    Refusal(
        _BAD,
        "not one JSON object (or a number no JSON number can be); nested more than"
        " MAX_DEPTH deep; an id over 64 characters; a type none of KINDS has",
    ),
    Refusal(ErrorCode.RATE_LIMITED, "beyond the socket's budget of messages"),
    Refusal(ErrorCode.TABLE_CLOSED, "the table has just been closed"),
    Refusal(ErrorCode.STORAGE_UNAVAILABLE, "the table stopped: the server cannot save"),
    Refusal(ErrorCode.INTERNAL_ERROR, "the server failed on the message (a bug of its own)"),
)
"""The errors any message may be answered with, whatever its kind."""

_BY_TYPE: dict[str, Kind[Any]] = {kind.type: kind for kind in KINDS}
_BY_CLASS: dict[type, Kind[Any]] = {kind.message: kind for kind in reversed(KINDS)}
"""Each dataclass's first entry (mute's for Mute: unmute shares its class and handler)."""

UNKNOWN_TYPE = Text(
    N_("unknown message type; expected {types} or {last}"),
    types=", ".join(kind.type for kind in KINDS[:-1]),
    last=KINDS[-1].type,
)


def message_kinds() -> Iterator[Kind[Any]]:
    """The registry's entries, in order (for the documents and the tests)."""
    yield from KINDS


def kind_of(message: Message) -> Kind[Any]:
    """The entry of a parsed message's kind (``mute``'s for an unmute: they share their
    dataclass and their handler)."""
    return _BY_CLASS[type(message)]


def parse(raw: str | bytes, *, max_bytes: int) -> Message:
    """Parse one frame into a typed message, or raise :class:`ProtocolError` (nothing else,
    whatever the frame holds): the frame's size, JSON and shape here, its fields by the
    reader of its kind in :data:`KINDS`."""
    if _too_large(raw, max_bytes):
        raise ProtocolError(
            ErrorCode.TOO_LARGE, Text(N_("a message may be at most {most} bytes"), most=max_bytes)
        )
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as err:  # also too deep (1,024 levels), invalid UTF-8, NaN
        raise _bad(_unreadable(raw, err)) from None
    if not isinstance(data, dict):
        raise _bad(N_("a message must be one JSON object"))
    msg_id = data.get("id") if isinstance(data.get("id"), str) else None
    if msg_id is not None and len(msg_id) > MAX_ID_LENGTH:
        raise _bad(Text(N_("an id is at most {most} characters"), most=MAX_ID_LENGTH))
    # Each bracket opens at most one level: a frame with few (almost all) is not walked.
    brackets = raw.count("{") + raw.count("[") if isinstance(raw, str) else MAX_DEPTH + 1
    if brackets > MAX_DEPTH and not _nests_within(data, MAX_DEPTH):
        raise _bad(Text(N_("a message may nest at most {most} deep"), most=MAX_DEPTH), msg_id)
    kind = data.get("type")
    entry = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if entry is None:
        raise _bad(UNKNOWN_TYPE, msg_id)
    message: Message = entry.read(data, msg_id)
    return message
