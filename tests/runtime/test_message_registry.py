"""The registry of the table socket's client messages (app/runtime/protocol.py, ``KINDS``).

Each kind is declared there once: its ``type``, its dataclass, the reader of its fields, the
table's handler, whether it carries an act's id, and its refusals. These tests hold the
registry to the parser, to the ``Message`` union and to the documents
(docs/protocol/socket.md §5.2, docs/protocol/errors.md §5.5).
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from app.runtime import protocol
from app.runtime.protocol import (
    ANY_MESSAGE_ERRORS,
    KINDS,
    MAX_CHIPS,
    UNKNOWN_TYPE,
    Act,
    Chat,
    ErrorCode,
    Host,
    Kind,
    Leave,
    Message,
    Mute,
    Ping,
    ProtocolError,
    React,
    RemoveChat,
    Resync,
    Sit,
    StandUp,
    SwitchGame,
    TopUp,
    kind_of,
    message_kinds,
    parse,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol"

WELL_FORMED: dict[str, tuple[dict[str, Any], Message]] = {
    "sit": ({"type": "sit", "seat": 0, "buy_in": 300}, Sit(0, 300)),
    "leave": ({"type": "leave"}, Leave()),
    "top_up": ({"type": "top_up", "amount": 25}, TopUp(25)),
    "act": (
        {"type": "act", "id": "d-1", "version": 3, "action": {"kind": "stake", "amount": 10}},
        Act("d-1", 3, {"kind": "stake", "amount": 10}),
    ),
    "resync": ({"type": "resync", "version": 3}, Resync(3)),
    "ping": ({"type": "ping"}, Ping()),
    "chat": ({"type": "chat", "text": "good luck all"}, Chat("good luck all")),
    "react": ({"type": "react", "reaction": "party"}, React("party")),
    "mute": ({"type": "mute", "player_id": "9c1f"}, Mute("9c1f", muted=True)),
    "unmute": ({"type": "unmute", "player_id": "9c1f"}, Mute("9c1f", muted=False)),
    "remove_chat": ({"type": "remove_chat", "id": 12}, RemoveChat(12)),
    "stand_up": ({"type": "stand_up", "seat": 2, "away_at_least": 300}, StandUp(2, 300)),
    "switch_game": (
        {"type": "switch_game", "game": "greek-31", "options": {"start": "when_ready"}},
        SwitchGame("greek-31", {"start": "when_ready"}),
    ),
    "host": (
        {"type": "host", "id": "h-1", "action": {"kind": "unseat", "seat": 2}},
        Host("h-1", {"kind": "unseat", "seat": 2}),
    ),
}
"""One well-formed message of every kind (the documents' examples), and what it reads as."""

MALFORMED: dict[str, list[tuple[dict[str, Any], str]]] = {
    "sit": [
        ({"type": "sit", "seat": 1}, "buy_in must be a whole number of chips"),
        ({"type": "sit", "seat": "one", "buy_in": 100}, "seat must be a seat number or null"),
        (
            {"type": "sit", "seat": 0, "buy_in": 9223372036854775808},
            f"buy_in must be from 0 to {MAX_CHIPS} chips",
        ),
    ],
    "top_up": [
        ({"type": "top_up", "amount": 0}, f"amount must be a whole number from 1 to {MAX_CHIPS}"),
        ({"type": "top_up", "amount": 2.5}, f"amount must be a whole number from 1 to {MAX_CHIPS}"),
    ],
    "act": [
        ({"type": "act", "version": 1, "action": {"kind": "stake"}}, "an act needs a string id"),
        (
            {"type": "act", "id": "c-1", "action": {"kind": "stake"}},
            "an act needs the view version",
        ),
        (
            {"type": "act", "id": "c-2", "version": 1, "action": {}},
            "an act needs an action object with a kind",
        ),
        (
            {"type": "act", "id": "c-3", "version": 1, "action": {"kind": "x", "n": MAX_CHIPS + 1}},
            f"the numbers in an action are from -{MAX_CHIPS} to {MAX_CHIPS}",
        ),
    ],
    "chat": [({"type": "chat", "text": 7}, "a chat message needs its text")],
    "react": [({"type": "react"}, "a reaction needs its name")],
    "mute": [({"type": "mute", "player_id": ""}, "mute needs a player_id")],
    "unmute": [({"type": "unmute", "player_id": "p" * 65}, "unmute needs a player_id")],
    "remove_chat": [
        ({"type": "remove_chat", "id": "12"}, "remove_chat needs the message's id (a whole number)")
    ],
    "stand_up": [
        ({"type": "stand_up", "seat": 100, "away_at_least": 0}, "stand_up needs a seat number"),
        (
            {"type": "stand_up", "seat": 2, "away_at_least": 86_401},
            "away_at_least is a whole number of seconds to 86400",
        ),
    ],
    "switch_game": [
        ({"type": "switch_game", "game": 31}, "switch_game needs the game's id"),
        (
            {"type": "switch_game", "game": "greek-31", "options": [1]},
            "switch_game's options are an object",
        ),
    ],
    "host": [
        ({"type": "host", "action": {"kind": "pause"}}, "a host action needs a string id"),
        (
            {"type": "host", "id": "h-2", "action": "pause"},
            "a host action needs an action object with a kind",
        ),
    ],
}
"""Messages with a field the reader refuses, and the words of the refusal (``bad_message``;
those in docs/protocol/errors.md §5.5 are quoted from there)."""


def _read(frame: dict[str, Any]) -> Message:
    return parse(json.dumps(frame), max_bytes=4096)


def _refusal(frame: dict[str, Any]) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        _read(frame)
    return refused.value


def _types() -> list[str]:
    return [kind.type for kind in message_kinds()]


def _client_messages_section() -> str:
    text = (DOCS / "socket.md").read_text(encoding="utf-8")
    start = text.index("### 5.2 Client-to-server messages")
    return text[start : text.index("### 5.3", start)]


def test_message_kinds_yields_the_registry_in_order() -> None:
    assert list(message_kinds()) == list(KINDS)
    assert _types() == [
        "sit",
        "leave",
        "top_up",
        "act",
        "resync",
        "ping",
        "chat",
        "react",
        "mute",
        "unmute",
        "remove_chat",
        "stand_up",
        "switch_game",
        "host",
    ]
    assert len(set(_types())) == len(KINDS), "a type declared twice"


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.type)
def test_every_kind_reads_a_well_formed_example_and_keeps_its_fields(kind: Kind[Any]) -> None:
    assert set(WELL_FORMED) == set(_types()), "every kind of the registry needs an example here"
    frame, expected = WELL_FORMED[kind.type]
    message = _read(frame)
    assert message == expected
    assert type(message) is kind.message
    assert kind_of(message).message is kind.message
    for field in dataclasses.fields(message):
        if field.name in frame:
            assert getattr(message, field.name) == frame[field.name], field.name
    # the same frame as bytes (a binary frame) reads the same
    assert parse(json.dumps(frame).encode(), max_bytes=4096) == expected


def test_mute_and_unmute_share_their_dataclass_and_handler() -> None:
    mute, unmute = _read(WELL_FORMED["mute"][0]), _read(WELL_FORMED["unmute"][0])
    assert isinstance(mute, Mute) and isinstance(unmute, Mute)
    assert (mute.muted, unmute.muted) == (True, False)
    by_class: dict[type, Kind[Any]] = {}
    for kind in KINDS:
        first = by_class.setdefault(kind.message, kind)
        assert (first.handler, first.act_id) == (kind.handler, kind.act_id), kind.type


@pytest.mark.parametrize("kind", ["dance", "", "Ping", "ping ", 3, None, ["ping"], {"a": 1}])
def test_an_unknown_type_names_every_registered_kind(kind: Any) -> None:
    refused = _refusal({"type": kind, "id": "d-1"})
    assert refused.code == ErrorCode.BAD_MESSAGE
    assert refused.msg_id == "d-1"
    assert refused.message == UNKNOWN_TYPE
    named = re.findall(r"[a-z_]+", refused.message.split("expected", 1)[1])
    assert [word for word in named if word != "or"] == _types()
    # the protocol's words, unchanged
    assert refused.message == (
        "unknown message type; expected sit, leave, top_up, act, resync, ping, chat, react, "
        "mute, unmute, remove_chat, stand_up, switch_game or host"
    )


def test_a_message_without_a_type_is_unknown() -> None:
    assert _refusal({"seat": 0}).message == UNKNOWN_TYPE


def test_every_kind_is_documented_with_the_client_messages() -> None:
    section = _client_messages_section()
    for kind in KINDS:
        assert f"| `{kind.type}` |" in section, f"{kind.type} is not in socket.md §5.2's table"
    assert "`app/runtime/protocol.py`" in section, "§5.2 names where a kind is declared"


def test_the_documented_unknown_type_answer_is_the_parsers() -> None:
    section = " ".join(_client_messages_section().split())
    assert f'("{UNKNOWN_TYPE}")' in section


@pytest.mark.parametrize(
    ("frame", "words"),
    [case for cases in MALFORMED.values() for case in cases],
    ids=lambda value: value["type"] if isinstance(value, dict) else "",
)
def test_a_malformed_field_gives_the_documented_error(frame: dict[str, Any], words: str) -> None:
    kind = next(kind for kind in KINDS if kind.type == frame["type"])
    refused = _refusal(frame)
    assert refused.message == words
    assert refused.code == ErrorCode.BAD_MESSAGE
    assert refused.code in {refusal.code for refusal in kind.errors}, (
        f"{kind.type} answers bad_message without declaring it"
    )


def test_the_kinds_with_fields_to_refuse_declare_bad_message_and_have_cases() -> None:
    for kind in KINDS:
        declared = ErrorCode.BAD_MESSAGE in {refusal.code for refusal in kind.errors}
        assert declared == (kind.type in MALFORMED), kind.type


def test_an_acts_refusals_carry_its_id() -> None:
    act, host = [kind for kind in KINDS if kind.act_id]
    assert act.type == "act" and act.message is Act
    assert host.type == "host" and host.message is Host
    for frame, _words in [*MALFORMED["act"], *MALFORMED["host"]]:
        assert _refusal(frame).msg_id == frame.get("id")
    assert _refusal({"type": "act", "id": "c-9"}).to_message()["id"] == "c-9"
    assert _refusal({"type": "host", "id": "h-9"}).to_message()["id"] == "h-9"


def test_every_refusal_is_an_error_code_the_documents_explain() -> None:
    table = (DOCS / "errors.md").read_text(encoding="utf-8")
    for refusal in [*ANY_MESSAGE_ERRORS, *(r for kind in KINDS for r in kind.errors)]:
        assert isinstance(refusal.code, ErrorCode)
        assert refusal.when.strip(), refusal
        assert f"| `{refusal.code.value}` |" in table, refusal.code


def test_every_kind_names_a_handler() -> None:
    for kind in KINDS:
        assert kind.handler.isidentifier() and kind.handler.startswith("on_"), kind
    assert {kind.type: kind.handler for kind in KINDS} == {
        "sit": "on_sit",
        "leave": "on_leave",
        "top_up": "on_top_up",
        "act": "on_act",
        "resync": "on_resync",
        "ping": "on_ping",
        "chat": "on_chat",
        "react": "on_react",
        "mute": "on_mute",
        "unmute": "on_mute",
        "remove_chat": "on_remove_chat",
        "stand_up": "on_stand_up",
        "switch_game": "on_switch_game",
        "host": "on_host",
    }


def test_no_kind_is_declared_outside_the_registry() -> None:
    """The ``Message`` union (written out for the type checker) holds exactly the registry's
    dataclasses, and the module defines no message dataclass the registry leaves out."""
    registered = {kind.message for kind in KINDS}
    assert set(typing.get_args(Message)) == registered
    defined = {
        value
        for value in vars(protocol).values()
        if dataclasses.is_dataclass(value)
        and isinstance(value, type)
        and value.__module__ == protocol.__name__
    }
    assert defined - {Kind, protocol.Refusal} == registered
