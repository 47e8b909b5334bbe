"""The stable error codes of the table (docs/protocol.md §5.5) and the error an engine raises.

One enumeration serves the engines, the socket and REST: an engine refuses with a
:class:`RuleError` carrying one of these codes, and the socket sends that code with the
error's message unchanged. The codes are strings (a ``StrEnum``): ``ErrorCode.ILLEGAL_ACTION ==
"illegal_action"``, and they encode to JSON as their value.

>>> ErrorCode("not_your_turn") is ErrorCode.NOT_YOUR_TURN
True
>>> RuleError(ErrorCode.ILLEGAL_ACTION, "not now").code
<ErrorCode.ILLEGAL_ACTION: 'illegal_action'>
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable error codes; the client shows the message that comes with them."""

    BAD_MESSAGE = "bad_message"
    UNKNOWN_ACTION = "unknown_action"
    ILLEGAL_ACTION = "illegal_action"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_VERSION = "stale_version"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    RATE_LIMITED = "rate_limited"
    UNAUTHORIZED = "unauthorized"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    SEAT_TAKEN = "seat_taken"
    BAD_BUY_IN = "bad_buy_in"
    TABLE_CLOSED = "table_closed"
    TABLE_PAUSED = "table_paused"
    TOO_LARGE = "message_too_large"
    NO_SUCH_TABLE = "no_such_table"
    INTERNAL_ERROR = "internal_error"
    CROSS_SITE = "cross_site"
    MUTED = "muted"
    NOT_ALLOWED = "not_allowed"
    NO_SUCH_MESSAGE = "no_such_message"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    NO_SUCH_PLAYER = "no_such_player"
    TOO_MANY_BLOCKS = "too_many_blocks"
    NOT_HOST = "not_host"
    HAND_IN_PLAY = "hand_in_play"
    BAD_OPTIONS = "bad_options"
    SEAT_REFUSED = "seat_refused"


class RuleError(Exception):
    """Raised by an engine for something the rules refuse now: an action outside ``legal``
    (refused by :meth:`app.games.core.game.Game.apply` before any handler runs, the state
    unchanged), or a roster call at the wrong moment. ``code`` is what the socket sends."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message


class Refused(RuleError):
    """An action outside ``legal`` (or a clock's action sent by no clock), refused by
    :meth:`app.games.core.game.Game.apply` before any handler ran: the state is unchanged, so
    the caller may answer the sender and go on."""
