"""The table socket against malformed and hostile frames, through the real app: every frame
is answered with a typed error (never a traceback, never a dropped socket), amounts are
bounded before they reach the database, and an unexpected failure while handling one frame
is answered ``internal_error`` while the socket and the table go on (docs/protocol.md §5.5).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from app.runtime.protocol import MAX_CHIPS, MAX_DEPTH
from tests.api.test_socket import FAST, audit, trianta_table
from tests.client import Player
from tests.conftest import LiveServer


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every record the server logs, uvicorn's included (its loggers do not propagate)."""
    caplog.set_level(logging.INFO)
    uvicorn = logging.getLogger("uvicorn")
    uvicorn.addHandler(caplog.handler)
    try:
        yield caplog
    finally:
        uvicorn.removeHandler(caplog.handler)


def tracebacks(log: pytest.LogCaptureFixture) -> list[str]:
    """Records that carry a traceback (or are one): there must be none."""
    return [
        f"{r.name}: {r.getMessage()[:200]}"
        for r in log.records
        if r.exc_info or "Traceback" in r.getMessage()
    ]


async def still_open(person: Player) -> None:
    """The socket answers a ping: it was not closed."""
    await person.send({"type": "ping"})
    assert (await person.next_of("pong"))["type"] == "pong"


async def error_for(person: Player, frame: str | dict[str, Any]) -> dict[str, Any]:
    await person.send(frame)
    return await person.next_of("error")


async def test_deep_nesting_is_a_bad_message(live: LiveServer, server_log: Any) -> None:
    spectator = Player(live.base_url, live.ws_url, "watcher", "", {})
    table_id = await (await Player.join(live, "Opener")).open_table("greek-31")
    await spectator.connect(table_id)
    for frame in ("[" * 2000, "[" * 2000 + "]" * 2000, '{"a":' * 600 + "1" + "}" * 600):
        error = await error_for(spectator, frame)
        assert error["code"] == "bad_message", error
        await still_open(spectator)
    # nested just too deep inside a well-formed act: refused, with the act's id
    action = {"kind": "stake", "amount": 10, "x": json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)}
    error = await error_for(spectator, {"type": "act", "id": "n-1", "version": 0, "action": action})
    assert error == {
        "type": "error",
        "code": "bad_message",
        "message": f"a message may nest at most {MAX_DEPTH} deep",
        "id": "n-1",
    }
    # as deep as allowed: parsed, and refused for what it is (not seated)
    action["x"] = json.loads("[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2))
    error = await error_for(spectator, {"type": "act", "id": "n-2", "version": 0, "action": action})
    assert error["code"] == "not_seated"
    await still_open(spectator)
    assert tracebacks(server_log) == []
    await spectator.close()


async def test_amounts_beyond_any_bankroll_are_refused_before_the_database(
    live: LiveServer, server_log: Any
) -> None:
    """A top-up of 2^63 once overflowed SQLite's integers (a traceback and a closed socket);
    every amount is now bounded when the frame is read."""
    opener = await Player.join(live, "Banker")
    table_id = await opener.open_table("greek-31")
    await opener.connect(table_id)
    error = await error_for(opener, {"type": "sit", "seat": 0, "buy_in": 2**63})
    assert error["code"] == "bad_message" and str(MAX_CHIPS) in error["message"], error
    await opener.sit(100, seat=0)
    version = opener.version
    for amount in (2**63, 2**64 + 5, MAX_CHIPS + 1, 0, -1):
        error = await error_for(opener, {"type": "top_up", "amount": amount})
        assert error["code"] == "bad_message", (amount, error)
        assert error["message"] == f"amount must be a whole number from 1 to {MAX_CHIPS}"
    for params in ({"amount": 2**63}, {"amount": -(10**13)}, {"cards": [1, 2**63 - 1]}):
        reply = await opener.act({"kind": "stake", **params})
        assert reply["code"] == "bad_message", (params, reply)
        assert str(MAX_CHIPS) in reply["message"]
    await still_open(opener)
    assert opener.version == version  # nothing changed
    assert (await opener.http.get("/api/me")).json()["bankroll"] == 900
    assert (await audit(live))["balanced"] is True
    assert tracebacks(server_log) == []
    await opener.close()


async def test_refused_buy_ins_are_answered_and_logged_quietly(
    live: LiveServer, server_log: pytest.LogCaptureFixture
) -> None:
    p = await Player.join(live, "Poor")
    table_id = await p.open_table("greek-31", stakes="buy_in")
    await p.connect(table_id)
    error = await error_for(p, {"type": "sit", "seat": 0, "buy_in": 5000})
    assert error["code"] == "insufficient_funds"
    await p.sit(1000, seat=0)  # the whole bankroll
    error = await error_for(p, {"type": "top_up", "amount": 10})
    assert error["code"] == "insufficient_funds"
    await live.services.writer.flush()
    assert tracebacks(server_log) == []
    loud = [r for r in server_log.records if r.levelno >= logging.ERROR]
    assert loud == [], [r.getMessage() for r in loud]
    await p.close()


async def test_an_unexpected_failure_is_answered_and_the_table_goes_on(
    live: LiveServer, server_log: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last resort: a bug met while handling one frame is answered ``internal_error``
    (with the act's id), logged as one line naming the exception, and neither the socket nor
    the table stops."""
    table_id, (banker, player) = await trianta_table(live, 2)
    table = live.services.lobby.get(table_id)
    assert table is not None
    view = await player.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    version = player.version

    def broken(*_: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(table.core, "act", broken)
    server_log.clear()
    reply = await player.act({"kind": "bet", "amount": 2}, msg_id="boom-1")
    assert reply == {
        "type": "error",
        "code": "internal_error",
        "message": "the server failed on that message; resync to see the table as it is",
        "id": "boom-1",
    }
    monkeypatch.undo()
    failed = [r for r in server_log.records if "ZeroDivisionError" in r.getMessage()]
    assert len(failed) == 1 and failed[0].levelno == logging.ERROR, failed
    assert tracebacks(server_log) == []
    await still_open(player)
    assert player.version == version
    # the table goes on: the same act, sent again, is applied
    assert view["legal"]
    reply = await player.act({"kind": "bet", "amount": 2}, msg_id="boom-1")
    assert reply == {"type": "ack", "id": "boom-1"}
    await banker.close()
    await player.close()


async def test_a_frame_of_many_bytes_in_few_characters_is_too_large(live: LiveServer) -> None:
    """The limit counts bytes, as documented: 1,400 three-byte characters are 4,200 bytes."""
    spectator = Player(live.base_url, live.ws_url, "watcher", "", {})
    table_id = await (await Player.join(live, "Opener")).open_table("trianta-ena", **FAST)
    await spectator.connect(table_id)
    frame = json.dumps({"type": "ping", "pad": "€" * 1400}, ensure_ascii=False)
    assert len(frame) < live.settings.max_message_bytes < len(frame.encode())
    error = await error_for(spectator, frame)
    assert error["code"] == "message_too_large"
    await still_open(spectator)
    await spectator.close()
