"""The table socket fuzzed (hypothesis): an attacker's socket next to two honest players.

An attacker seated at a Greek 31 table sends generated frames: random bytes, random text,
random JSON of random shape and depth, messages of the right shape with values of the wrong
type (huge integers among them), unknown types and action kinds, frames over the size
limit, and acts built from and around its view's ``legal`` templates (fitting, a parameter
too many or missing, out of range, of the wrong type), out of turn, with stale, future and
huge versions, with new, reused, empty and too long ids. After every frame:

* it is answered: an ``error`` with a known code (never ``internal_error``), an ``ack``
  (with the act's id), a ``state`` or a ``pong``; an act's error carries its id;
* an ``error`` changed nothing: the table's version did not move;
* the attacker's socket is still open.

Between frames two honest players (and, when only it may act, the attacker) play random
legal actions, each of which must be acknowledged. At the end the attacker floods and is
closed with 1008 "too many messages", the honest players still play, the chip audit
balances (``GET /api/admin/audit``), and the server logged no traceback and no error.

How it runs in bounded time: one real server (tests/conftest.py's ``LiveServer``) on an
event loop of its own in a thread, shared by every example (a server per example would cost
~0.3 s each), holding one table whose clocks are long (600 s) and no bots, so that it
changes only when one of the three clients acts. Before each frame the table is let go
quiet (no deal pending, every socket has the latest state): an answer then belongs to that
frame, and the version read before it may only move if the frame was accepted. Examples are
derandomized (the same ones each run; ``FUZZ_RANDOM=1`` for fresh ones) and not shrunk (the
server's state moves on between runs of an example); ``SOCKET_FUZZ_EXAMPLES`` sets how many
(default 300, ~6 s).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from app.games.core.actions import random_action
from app.games.core.registry import game_class
from app.runtime.protocol import MAX_CHIPS, ErrorCode
from app.runtime.table.actor import TableActor
from app.runtime.table.effects import NEXT_HAND
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.fuzz.threaded import ThreadedServer, fresh_database

EXAMPLES = int(os.environ.get("SOCKET_FUZZ_EXAMPLES", "300"))
GAME = "greek-31"
OPTIONS = {"turn_seconds": 600, "stakes": "buy_in"}
KINDS = sorted(game_class(GAME).ACTION_KINDS)
CODES = {v for k, v in vars(ErrorCode).items() if k.isupper()} - {ErrorCode.INTERNAL_ERROR}
ANSWER_SECONDS = 5.0


class Records(logging.Handler):
    """Every record the server logs (uvicorn's loggers do not propagate to the root)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def bad(self) -> list[str]:
        return [
            f"{r.name} {r.levelname}: {r.getMessage()[:300]}"
            for r in self.records
            if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()
        ]


@dataclass
class Arena:
    threaded: ThreadedServer
    table: TableActor
    honest: list[Player]
    attacker: Player
    records: Records
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def everyone(self) -> list[Player]:
        return [*self.honest, self.attacker]

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


async def set_table(live: LiveServer) -> tuple[TableActor, list[Player], Player]:
    ada, basil, attacker = [await Player.join(live, name) for name in ("Ada", "Basil", "Mallory")]
    table_id = await ada.open_table(GAME, **OPTIONS)
    for seat, person in enumerate((ada, basil, attacker)):
        await person.connect(table_id)
        await person.sit(500 if person is not attacker else 300, seat=seat)
    table = live.services.lobby.get(table_id)
    assert table is not None
    await ada.wait_for(lambda v: v["hand_id"] is not None)  # the first deal: 0.3 s
    return table, [ada, basil], attacker


@pytest.fixture(scope="module")
def arena(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path, postgres_url: str | None
) -> Iterator[Arena]:
    url = fresh_database(tmp_path_factory, sqlite_template, postgres_url, "socket-fuzz")
    records = Records()
    watched = [logging.getLogger(), logging.getLogger("uvicorn")]
    for logger in watched:
        logger.addHandler(records)
    threaded = ThreadedServer(
        url,
        "socket-fuzz",
        # every client is 127.0.0.1: the address's budget must not be what refuses
        address_messages_per_second=100_000.0,
        address_message_burst=100_000,
        # the test deals each next hand itself (deal_now), so that frames also come between
        # hands (top-ups, sitting down, standing up)
        next_hand_seconds=3600,
    )
    try:
        threaded.run(threaded.live.start())
        table, honest, attacker = threaded.run(set_table(threaded.live))
        yield Arena(threaded, table, honest, attacker, records)
        for person in [*honest, attacker]:
            threaded.run(person.close())
    finally:
        threaded.close()
        for logger in watched:
            logger.removeHandler(records)


# --------------------------------------------------------------------------- frames

HUGE = st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**30, MAX_CHIPS, MAX_CHIPS + 1, -1, 0])
"""Whole numbers at the edges: of 64 bits (a top-up of 2^63 overflowed SQLite), of what
JSON readers keep as integers, and of MAX_CHIPS."""
WEIRD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    HUGE,
    st.floats(),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)
IDS = st.text(max_size=70) | st.uuids().map(str) | st.sampled_from(["", "x" * 64, "x" * 65])
TYPES = ["sit", "leave", "top_up", "act", "resync", "ping"]


def deep(depth: int, form: int) -> str:
    """Nesting up to ``depth`` deep, within the size limit: open lists, closed lists, or
    objects within objects. (Python's own JSON reader recursed: past its recursion limit,
    which hypothesis raises while it runs a test, it failed, and the socket with it.)"""
    if form == 0:
        return "[" * depth
    if form == 1:
        depth = min(depth, 2040)
        return "[" * depth + "]" * depth
    depth = min(depth, 800)
    return '{"a":' * depth + "1" + "}" * depth


@dataclass
class Seen:
    """What the attacker's acts are built around: its view now, and its accepted ids."""

    legal: list[dict[str, Any]]
    version: int
    accepted: list[str]


@dataclass(frozen=True)
class ActRecipe:
    """How to build an act from what the attacker sees when it is sent. Hypothesis draws
    the recipe, always the same way (it requires that what it draws not depend on anything
    outside the test); the table's state only shapes the act built from it. The choices
    are made by a generator seeded from the recipe: hypothesis leans towards its simplest
    values, and every kind of act should come up."""

    seed: int
    key: str
    weird: Any
    kind: str
    made_up: dict[str, Any]
    huge: Any
    msg_id: str

    def build(self, seen: Seen) -> str:
        """An act fitting one of the legal templates, or one around it (a parameter too
        many or missing, at an edge, of the wrong type, another kind); out of turn, or of
        an unknown kind, when the recipe does not start from legal (or nothing is legal);
        at the current version, a stale one, a future one or a huge one; with a new id or
        now and then one already accepted."""
        rng = random.Random(self.seed)
        if seen.legal and rng.random() < 0.7:
            template = rng.choice(seen.legal)
            action = random_action([template], rng)
            names = sorted(template["params"])
            name = rng.choice(names) if names else None
            spec = template["params"][name] if name else {}
            change = rng.choice(["fits", "fits", "extra", "drop", "edge", "wrong", "kind"])
            if change == "extra":
                action[self.key] = self.weird
            elif change == "drop" and name:
                del action[name]
            elif change == "edge" and name:
                if "max" in spec and "subset_of" not in spec:
                    action[name] = rng.choice([spec["min"] - 1, spec["max"] + 1])
                else:
                    action[name] = rng.choice([[], ["XX"], "XX", None])
            elif change == "wrong" and name:
                action[name] = self.weird
            elif change == "kind":
                action["kind"] = self.kind
        else:
            action = {"kind": rng.choice([*KINDS, self.kind])}
            if rng.random() < 0.5:
                action.update(self.made_up)
        version = seen.version + rng.choice([0, 0, 0, -1, -7, 3])
        if rng.random() < 0.1:
            version = self.huge
        reuse = seen.accepted and rng.random() < 0.15
        msg_id = rng.choice(seen.accepted) if reuse else self.msg_id
        return json.dumps({"type": "act", "id": msg_id, "version": version, "action": action})


ACTS = st.builds(
    ActRecipe,
    seed=st.integers(0, 2**32 - 1),
    key=st.text(min_size=1, max_size=8),
    weird=WEIRD,
    kind=st.text(max_size=10),
    made_up=st.dictionaries(st.text(max_size=8), WEIRD, max_size=3),
    huge=HUGE,
    msg_id=IDS,
)
SHAPED = st.fixed_dictionaries(
    {"type": st.sampled_from([*TYPES, "dance", ""]) | WEIRD},
    optional={
        "seat": WEIRD | st.integers(-2, 10),
        "buy_in": WEIRD | st.integers(0, 2000),
        "amount": WEIRD | st.integers(0, 2000),
        "id": IDS | WEIRD,
        "version": WEIRD,
        "action": WEIRD | st.fixed_dictionaries({"kind": st.sampled_from(KINDS)}),
    },
).map(json.dumps)
SEATING = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["sit", "top_up", "sit", "top_up", "leave"]),
        "seat": st.none() | st.integers(-2, 10) | HUGE,
        "buy_in": st.integers(-5, 3000) | HUGE | st.sampled_from([2**63 - 1, 2**62]),
        "amount": st.integers(-5, 3000) | HUGE | st.sampled_from([2**63 - 1, 2**62]),
    }
).map(json.dumps)
"""Sits, top-ups and leaves of the right shape: seats taken or not there, buy-ins and
amounts too small, too large or more than the bankroll holds."""
OTHERS: list[st.SearchStrategy[str | bytes]] = [
    SEATING,
    SHAPED,
    JSON_VALUES.map(json.dumps),
    st.binary(max_size=300),
    st.text(max_size=200),
    st.builds(deep, st.integers(0, 2**32).map(lambda n: n % 4090 + 1), st.integers(0, 2)),
    st.sampled_from(['{"type":"ping"}', '{"type":"resync"}', '{"type":"leave"}']),
    st.integers(4097, 5000).map(lambda n: json.dumps({"type": "ping", "pad": "x" * n})),
]


@st.composite
def frames(draw: st.DrawFn) -> str | bytes | ActRecipe:
    """One frame: an act (as a recipe) four times in ten, else any of :data:`OTHERS`
    (picked by a wide integer, so that hypothesis's lean towards small ones does not
    decide)."""
    dial = draw(st.integers(0, 2**32 - 1)) % (4 + len(OTHERS))
    if dial < 4:
        return draw(ACTS)
    return draw(OTHERS[dial - 4])


# --------------------------------------------------------------------------- steps


async def quiet(arena: Arena) -> None:
    """Wait until the table changes no more by itself (its lock free, no buy-in under way;
    the next hand is dealt by :func:`deal_now` only) and every socket has its latest
    state."""
    table = arena.table
    deadline = asyncio.get_running_loop().time() + 10
    while not (
        not table.lock.locked()
        and not table.holding_seats
        and all(p.version == table.version for p in arena.everyone)
    ):
        for person in arena.everyone:
            ws = person.ws
            assert ws.close_code is None, f"{person.name}: closed {ws.close_code} {ws.close_reason}"
        assert asyncio.get_running_loop().time() < deadline, "the table never went quiet"
        await asyncio.sleep(0.002)
    for person in arena.everyone:
        while not person.inbox.empty():
            person.inbox.get_nowait()


async def look(arena: Arena) -> Seen:
    await quiet(arena)
    view = arena.attacker.view
    assert view is not None
    return Seen(list(view["legal"]), arena.attacker.version, list(arena.attacker.acks[-8:]))


async def attack(arena: Arena, drawn: str | bytes | ActRecipe) -> None:
    """Send one frame; its answer must come, and a refusal must change nothing."""
    seen = await look(arena)
    frame = drawn.build(seen) if isinstance(drawn, ActRecipe) else drawn
    table, attacker = arena.table, arena.attacker
    before = table.version
    await attacker.ws.send(frame)
    answer = await attacker.receive(ANSWER_SECONDS)  # ConnectionError: the socket closed
    kind = answer["type"]
    what = "act" if isinstance(drawn, ActRecipe) else "frame"
    arena.count(f"{what} -> {kind} {answer.get('code', '')}".strip())
    parsed = _json(frame)
    sent_act = isinstance(parsed, dict) and parsed.get("type") == "act"
    good_id = sent_act and isinstance(parsed.get("id"), str) and 0 < len(parsed["id"]) <= 64
    shown = frame if len(frame) < 300 else frame[:300]
    assert kind in ("error", "ack", "state", "pong"), (shown, answer)
    if kind == "error":
        assert answer["code"] in CODES, (shown, answer)
        assert table.version == before, ("a refused frame changed the table", shown, answer)
        if good_id and answer["code"] not in (ErrorCode.TOO_LARGE, ErrorCode.RATE_LIMITED):
            assert answer.get("id") == parsed["id"], (shown, answer)
    elif kind == "ack":
        assert good_id and answer["id"] == parsed["id"], (shown, answer)
    assert attacker.ws.close_code is None


def _json(frame: str | bytes) -> Any:
    """The frame as strict JSON reads it (no NaN, no lone surrogates: the standard
    library's reader takes both, a JSON text may not), or None."""
    try:
        return orjson.loads(frame)
    except orjson.JSONDecodeError:
        return None


async def honest_move(arena: Arena, rng: random.Random) -> None:
    """One honest player with something to decide plays a random legal action (or the
    attacker, when only it may: the hand must go on); broke players buy in again, and the
    attacker sits down again if a fuzzed leave stood it up."""
    await quiet(arena)
    attacker = arena.attacker
    if attacker.view and attacker.view["you"] is None:  # a fuzzed leave stood it up
        await attacker.send({"type": "sit", "seat": None, "buy_in": 100})
        await answered(attacker)
        await quiet(arena)
    movers = [p for p in arena.honest if p.view and p.view["legal"]]
    if not movers and attacker.view and attacker.view["legal"] and rng.random() < 0.5:
        movers = [attacker]  # else the next frames find it with something to decide
    if movers:
        mover = rng.choice(movers)
        assert mover.view is not None
        reply = await mover.act(random_action(mover.view["legal"], rng))
        assert reply["type"] == "ack", (mover.name, mover.view["legal"], reply)
        arena.count(f"honest ack ({mover.name})")
        return
    for person in arena.everyone:
        view = person.view
        assert view is not None
        stack = next((s["stack"] for s in view["seats"] if s["seat"] == view["you"]), None)
        if stack == 0 and view["table"]["can_top_up"]:
            await person.send({"type": "top_up", "amount": 100})
            await answered(person)
    await deal_now(arena)


async def deal_now(arena: Arena) -> None:
    """Deal the next hand, as the table's own timer would (it is set to an hour here)."""
    await arena.table.ring_now(NEXT_HAND)


async def answered(person: Player) -> dict[str, Any]:
    """The answer to a sit or a top-up: the state it caused, or the error refusing it."""
    while True:
        message = await person.receive(ANSWER_SECONDS)
        if message["type"] in ("state", "error"):
            return message


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=os.environ.get("FUZZ_RANDOM") is None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_every_frame_is_answered_and_a_refusal_changes_nothing(
    arena: Arena, data: st.DataObject
) -> None:
    run = arena.threaded.run
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    for _ in range(data.draw(st.integers(1, 3), label="frames")):
        drawn = data.draw(frames(), label="frame")
        run(attack(arena, drawn))
    run(honest_move(arena, rng))


def test_a_flooder_is_closed_and_the_others_play_on(arena: Arena) -> None:
    """Run after the examples (same module, same server): the attacker's socket is still
    open after every one of them; a second socket of the attacker floods and is closed
    with a reason; the others play on, the chips add up and the log holds no error."""
    live = arena.threaded.live

    async def flood() -> tuple[int | None, str | None]:
        assert arena.attacker.ws.close_code is None
        flooder = Player(live.base_url, live.ws_url, "flooder", arena.attacker.token, {})
        await flooder.connect(arena.table.table_id)
        for _ in range(3000):
            await flooder.ws.send('{"type":"ping"}')
        await asyncio.wait_for(flooder.ws.wait_closed(), 30)
        await flooder.close()
        return flooder.ws.close_code, flooder.ws.close_reason

    assert arena.threaded.run(flood()) == (1008, "too many messages")
    rng = random.Random(5)
    before = arena.counts.copy()
    for _ in range(20):
        arena.threaded.run(honest_move(arena, rng))
    assert arena.counts != before  # the others played on
    assert arena.attacker.ws.close_code is None
    audit = httpx.get(
        f"{arena.threaded.live.base_url}/api/admin/audit",
        headers={"authorization": f"Bearer {ADMIN_TOKEN}"},
    ).json()
    assert audit["balanced"] is True, audit
    assert arena.records.bad() == []
    print("socket fuzz answers:", dict(sorted(arena.counts.items())))
    if EXAMPLES >= 300:  # the fuzzing reached every kind of answer (it did not go blind)
        answers = {key.split(" -> ")[1] for key in arena.counts if " -> " in key}
        expected = {"ack", "pong", "state"} | {
            f"error {code}"
            for code in (
                ErrorCode.BAD_MESSAGE,
                ErrorCode.TOO_LARGE,
                ErrorCode.UNKNOWN_ACTION,
                ErrorCode.ILLEGAL_ACTION,
                ErrorCode.STALE_VERSION,
                ErrorCode.NOT_YOUR_TURN,
                ErrorCode.ALREADY_SEATED,
            )
        }
        assert expected <= answers, sorted(expected - answers)
