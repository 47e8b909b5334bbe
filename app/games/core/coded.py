"""The engines' sentences for people, said as a code and its values (docs/protocol/view.md
§6.7, docs/i18n.md "The engines' sentences").

An engine writes what a table shows in words (a view's ``status``, a hand's ``note``, the
dealer's calls) in English, as the protocol has always carried it. The rules are pure and
know nobody's language, and one view goes to readers of several, so each such sentence is a
:class:`Coded`: a ``str`` whose value is that English, which also remembers a ``code`` (which
sentence it is, ``"vingt-un.stakes"``) and its ``values`` (``seat``, ``stake``). The view sends
both: the English field as before, and beside it ``<field>_coded``,
``{"code": ..., "values": {...}}``, which each client words in its reader's language
(static/js/engine-words.js lists every code; tests/i18n/test_engine_words.py holds the engines
to that list).

A value is data (a seat number, a count of chips, a protocol word such as a settle reason),
or itself a :class:`Coded` (a sentence within a sentence, coded the same way).
"""

from __future__ import annotations

from typing import Any


class Coded(str):
    """An engine's sentence: its ``str`` is the English; ``code`` and ``values`` say it for
    a client to word in its reader's language.

    >>> said = Coded("vingt-un.stakes", "Seat 2 stakes 10", seat=2, stake=10)
    >>> said, said.code, said.values
    ('Seat 2 stakes 10', 'vingt-un.stakes', {'seat': 2, 'stake': 10})
    >>> coded_json(said)
    {'code': 'vingt-un.stakes', 'values': {'seat': 2, 'stake': 10}}
    """

    code: str
    values: dict[str, Any]

    def __new__(cls, code: str, english: str, **values: Any) -> Coded:
        made = super().__new__(cls, english)
        made.code = code
        made.values = values
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # copied and pickled whole (an engine's copy)
        return (_rebuild, (self.code, str(self), self.values))


def _rebuild(code: str, english: str, values: dict[str, Any]) -> Coded:
    return Coded(code, english, **values)


def coded_json(said: str | None) -> dict[str, Any] | None:
    """What a view sends beside an English sentence: its code and values (a value that is
    itself coded, as such), or None when ``said`` is None or carries no code."""
    if not isinstance(said, Coded):
        return None
    return {"code": said.code, "values": {k: _value(v) for k, v in said.values.items()}}


def said_json(field: str, said: str) -> dict[str, Any]:
    """A record's sentence as JSON: ``{field: its English}``, and ``<field>_coded`` beside it
    when it carries a code (a chip movement's reason, a result line's: a reason written before
    the codes, or by no engine, has none).

    >>> said_json("reason", Coded("chips.table_closed", "table closed"))
    {'reason': 'table closed', 'reason_coded': {'code': 'chips.table_closed', 'values': {}}}
    >>> said_json("reason", "room switch")
    {'reason': 'room switch'}
    """
    out: dict[str, Any] = {field: str(said)}
    coded = coded_json(said)
    if coded is not None:
        out[f"{field}_coded"] = coded
    return out


def from_json(english: str, coded: Any) -> str:
    """A sentence read back from JSON: its English, a :class:`Coded` when ``coded`` (its
    ``<field>_coded``) is a code and flat values, else the plain English.

    >>> back = from_json("bet paid", {"code": "en-og-tredive.chips_bet_paid", "values": {}})
    >>> back, back.code
    ('bet paid', 'en-og-tredive.chips_bet_paid')
    >>> type(from_json("bet paid", None)).__name__
    'str'
    """
    if not (isinstance(coded, dict) and isinstance(coded.get("code"), str)):
        return english
    values = coded.get("values")
    if not isinstance(values, dict):
        values = {}
    return Coded(coded["code"], english, **{str(k): v for k, v in values.items()})


def _value(value: Any) -> Any:
    if isinstance(value, Coded):
        return coded_json(value)
    if isinstance(value, list | tuple):
        return [_value(item) for item in value]
    return value


def english(said: str | None) -> str | None:
    """The English of a sentence as a plain ``str`` (the view's English field), or None."""
    return None if said is None else str(said)


def seat_list(seats: list[int]) -> str:
    """Seats in the English of the statuses: ``1, 2, 3``."""
    return ", ".join(str(seat) for seat in seats)
