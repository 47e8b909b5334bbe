"""One broadcast builds what its recipients share once (docs/performance.md).

``TableActor._broadcast`` builds the table-level parts of a state once (who is connected,
who sits where, each seat's name and flags, the ``table`` block), asks the engine for the
views of the distinct seats at once (:meth:`Game.views`, which builds what viewers share
once) and encodes with orjson. Every message must say exactly what the straightforward
per-recipient code said: the reference below is the runtime's ``view_for`` as it was, one
recipient at a time, encoded with ``json.dumps``. Random tables of all five games are played
through a real actor (acts, timeouts, sits, leaves, top-ups, pauses, void hands, sockets
coming and going, resyncs) and every state any connection is sent is compared with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from typing import Any

import orjson
import pytest

from app.core.config import Settings
from app.games.core.actions import random_action
from app.games.core.game import Game
from app.games.core.registry import GAME_IDS, game_class
from app.runtime.connection import Connection
from app.runtime.house import House
from app.runtime.protocol import ProtocolError, Resync, TopUp, encode
from app.runtime.table.actor import TableActor
from app.simulate import seed_stream, settle_between_hands

NAMES = ["Ana", "Zoë", "Émile", "李雷", "Bob", 'O\'Neil "Q"', "Σοφία", "Kai", "Lu", "Ngozi"]
ASCII_NAMES = [name for name in NAMES if name.isascii()]


# --------------------------------------------------------------------------- the reference


def reference_seat_of(actor: TableActor, player_id: str | None) -> int | None:
    if player_id is None:
        return None
    for seat, info in actor.roster.items():
        if info.player_id == player_id:
            return seat
    return None


def reference_is_connected(actor: TableActor, player_id: str) -> bool:
    return any(c.player_id == player_id and not c.closed for c in actor.connections)


def reference_view_for(actor: TableActor, seat: int | None) -> dict[str, Any]:
    """``TableActor.view_for`` as it was before the broadcast built shared parts once."""
    engine = actor.engine
    view = engine.view(seat)
    for entry in [*view.get("seats", []), *view.get("bettors", [])]:
        info = actor.roster.get(entry.get("seat", -1))
        if info is not None:
            entry["player_id"] = info.player_id
            entry["name"] = info.name
            entry["bot"] = info.is_bot
            entry["connected"] = info.is_bot or reference_is_connected(actor, info.player_id)
            entry["leaving"] = entry["seat"] in actor._pending_leave
            away = actor.away.get(entry["seat"])
            entry["ready"] = entry["seat"] in actor.ready
            entry["sitting_out"] = away is not None
            entry["sitting_out_since"] = None if away is None else away.since
            entry["sitting_out_reason"] = None if away is None else away.reason
            entry["sitting_out_next"] = entry["seat"] in actor._pending_away
    low, high = engine.buy_in_limits(None)
    view.update(
        table_id=actor.table_id,
        game=actor.game_cls.id,
        hand_id=actor.hand_id,
        you=seat,
        # a paused (or closed) table offers no action: none would be accepted
        legal=engine.legal_actions(seat) if seat is not None and actor.status == "open" else [],
        deadline=actor.deadline,
        table={
            "name": actor.name,
            "status": actor.status,
            "pause_reason": actor.pause_reason,
            "max_seats": engine.max_seats,
            "table_seats": engine.table_seats,
            "free_seats": [
                s
                for s in range(engine.table_seats)
                if s not in actor.roster and _fits(engine.buy_in_limits(s))
            ],
            "standing_room": sum(
                1 for s in range(engine.table_seats, engine.max_seats) if s not in actor.roster
            ),
            "buy_in": {"min": low, "max": high},
            "over": engine.table_over,
            "message": actor.message,
            "start": actor.options["start"],
            "waiting_for_ready": actor.waiting_for_ready,
            "can_top_up": seat is not None and engine.can_top_up(seat),
            "top_up_max": engine.top_up_limit(seat)
            if seat is not None and engine.can_top_up(seat)
            else 0,
            "cannot_play": None if seat is None else engine.cannot_play(seat),
            "spectators": sum(
                1 for c in actor.connections if reference_seat_of(actor, c.player_id) is None
            ),
        },
    )
    return view


def reference_state(actor: TableActor, seat: int | None) -> str:
    actor._sync_house()
    message = {"type": "state", "version": actor.version, "view": reference_view_for(actor, seat)}
    return json.dumps(message, separators=(",", ":"))


def _fits(limits: tuple[int, int]) -> bool:
    return limits[0] <= limits[1]


# --------------------------------------------------------------------------- a table to play


class NullSink:
    async def send_text(self, data: str) -> None:
        return None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


class CaptureWriter:
    """The writer, minus the database: every job is accepted and dropped."""

    def submit(self, job: Any, /, *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future

    async def run(self, job: Any, /, *args: Any, **kwargs: Any) -> Any:
        return None


class Watched(Connection):
    """A connection whose ``send`` a test may replace (Connection itself is slotted)."""


class Checker:
    """Hooks every connection's ``send``: each state is compared, when it is sent, with the
    reference for that connection's seat at that moment."""

    def __init__(self, actor: TableActor) -> None:
        self.actor = actor
        self.states = 0
        self.exact = 0

    def hook(self, conn: Connection) -> Connection:
        def send(text: str) -> None:
            if conn.closed:
                return
            message = orjson.loads(text)
            if message["type"] != "state":
                return
            expected = reference_state(self.actor, reference_seat_of(self.actor, conn.player_id))
            # the story told beside the view (docs/protocol.md §6.6) follows it: the state up
            # to the view is compared (tests/api/test_results_and_story.py tests the story)
            core = {k: message[k] for k in ("type", "version", "view")}
            assert list(message)[:3] == ["type", "version", "view"]
            assert set(message) <= {"type", "version", "view", "events", "story", "result"}
            # the same JSON: same keys in the same order, same values (json.dumps escapes
            # what orjson writes as UTF-8, so compare the texts once both are escaped alike)
            assert json.dumps(core, separators=(",", ":")) == expected
            if text.isascii():  # nothing to escape: byte for byte
                assert orjson.dumps(core).decode() == expected
                self.exact += 1
            self.states += 1

        conn.send = send  # type: ignore[method-assign]
        return conn


async def play_table(game_id: str, seed: int, steps: int) -> Checker:
    """Play ``steps`` random changes at a table of ``game_id``; odd seeds use ASCII text
    only, so that their states are compared byte for byte."""
    rng = random.Random(seed)
    text = ASCII_NAMES if seed % 2 else NAMES
    cls = game_class(game_id)
    clock = itertools.count(1_700_000_000_000, 1_250)
    settings = Settings(
        environment="test",
        database_url="sqlite+aiosqlite:///:memory:",
        secret_key="test-secret-key-0123456789",
        next_hand_seconds=3600,
        bot_delay_seconds=3600,
    )
    actor = TableActor(
        table_id=f"t-{game_id}-{seed}",
        name=rng.choice(["Table", "31", text[-1]]),
        game_cls=cls,
        options={},
        writer=CaptureWriter(),  # type: ignore[arg-type]
        settings=settings,
        seeds=seed_stream(seed),
        clock=lambda: next(clock) / 1000,
        house=House(rng.choice([0, 50, 10**6])),
        hands_played=1,  # the next hand waits next_hand_seconds: nothing runs on its own
    )
    checker = Checker(actor)
    engine = actor.engine
    players = [f"player-{n}" for n in range(12)]
    names = {p: rng.choice(text) for p in players}

    def new_conn(player_id: str | None) -> Connection:
        conn = checker.hook(Watched(NullSink(), player_id, names.get(player_id or "")))
        return conn

    async def sit(seat: int) -> None:
        seated = {i.player_id for i in actor.roster.values()}
        free = [p for p in players if p not in seated]
        if rng.random() < 0.05 and seated:  # the same player twice: seat_of takes the first
            free = sorted(seated)
        low, high = actor.engine.buy_in_limits(seat)
        if not free or low > high:
            return
        player = rng.choice(free)
        buy_in = rng.choice([low, high, min(high, max(low, rng.randint(low, low + 2000)))])
        with contextlib.suppress(ProtocolError):  # a seat the engine still holds
            await actor.seat_player(seat, player, names[player], buy_in, is_bot=rng.random() < 0.25)

    for seat in range(min(cls.SIM_PLAYERS + 1, engine.max_seats)):
        await sit(seat)
    for _ in range(rng.randint(2, 6)):
        await actor.connect(new_conn(rng.choice([None, *players])))

    for _ in range(steps):
        engine = actor.engine  # a void hand replaces it
        roll = rng.random()
        waiting = sorted(engine.to_act())
        if roll < 0.6 and waiting:
            seat = rng.choice(waiting)
            if rng.random() < 0.7:
                action = engine.bot_action(seat, actor.rng)
            else:
                action = random_action(engine.legal_actions(seat), rng)
            actor._apply(seat, action, by=rng.choice(["player", "bot"]))
        elif roll < 0.63 and engine.timer() is not None and actor.status == "open":
            for seat, action in engine.timeout_actions():
                actor._apply(seat, action, by="timeout")
        elif roll < 0.70:
            actor._start_hand()
        elif roll < 0.74:
            free = [s for s in range(engine.max_seats) if s not in actor.roster]
            if free:
                await sit(rng.choice(free))
        elif roll < 0.77 and actor.roster:
            actor.request_leave(rng.choice(sorted(actor.roster)))
        elif roll < 0.80:
            await actor.connect(new_conn(rng.choice([None, *players])))
        elif roll < 0.84 and actor.connections:
            conn = rng.choice(sorted(actor.connections, key=lambda c: c.id))
            if rng.random() < 0.7:
                conn.close()
                await actor.disconnect(conn)
            else:  # its socket died; the table has not heard yet
                conn.closed = True
        elif roll < 0.88 and actor.connections:
            conn = rng.choice(sorted(actor.connections, key=lambda c: c.id))
            await actor.handle(conn, Resync(None))
        elif roll < 0.90:
            if actor.status == "open":
                await actor.pause(rng.choice([None, "a break", f"{text[1]} left"]))
            else:
                await actor.resume()
        elif roll < 0.93:
            seats = [s for s in actor.roster if engine.can_top_up(s)]
            conns = [c for c in actor.connections if c.player_id is not None]
            for conn in conns:
                if reference_seat_of(actor, conn.player_id) in seats:
                    await actor.handle(conn, TopUp(rng.randint(1, 500)))
                    break
        elif roll < 0.95:
            actor.message = rng.choice([None, "Welcome", f"Hello {text[2]}"])
            actor._changed()
        elif roll < 0.97 and actor._before is not None:
            actor._void_hand("the hand is void")
            # a seat at the table when the hand began stood up only once it ended, so the
            # table put back holds exactly the players seated (none of them left mid-hand)
            assert set(actor.engine.seated) == set(actor.roster)
            actor._changed()
        elif actor.house is not None:
            actor.house.balance = rng.choice([0, 30, 500, 10**6])
            actor._changed()

    if actor._timer is not None:
        actor._timer.cancel()
    for task in (actor._bot_task, actor._next_hand_task):
        if task is not None:
            task.cancel()
    await asyncio.sleep(0)
    return checker


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_broadcast_says_what_the_per_recipient_views_said(game_id: str) -> None:
    states = exact = 0
    for seed in range(10):
        checker = await play_table(game_id, seed, steps=400)
        states += checker.states
        exact += checker.exact
    assert states > 3000, states  # the tables did play
    assert exact > 0  # and some states were compared byte for byte


# --------------------------------------------------------------------------- engines


def same_views(game: Game) -> None:
    viewers: list[int | None] = [None, *range(game.max_seats)]
    views = game.views(viewers)
    assert list(views) == viewers
    assert len({id(v) for v in views.values()}) == len(viewers)
    for viewer in viewers:
        assert encode(views[viewer]) == encode(game.view(viewer)), viewer


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_engines_views_are_its_view_for_every_viewer(game_id: str) -> None:
    """``Game.views`` equals ``Game.view`` for every viewer: each seat (seated or not) and a
    spectator, after every action of many bot hands; and each view is a dict of its own."""
    cls = game_class(game_id)
    for seed in range(3):
        rng = random.Random(seed)
        game: Game = cls({}, seeds=seed_stream(seed))
        for seat in range(min(cls.SIM_PLAYERS + 1, game.max_seats)):
            game.sit(seat, game.sim_stack(seat, 1000))
        for _ in range(40):
            settle_between_hands(game, rng)
            same_views(game)
            for seat in game.seated:
                game.sim_rebuy(seat, 1000)
            if not game.can_start():
                break
            game.start_hand()
            same_views(game)
            while game.take_completed() is None:
                seat = rng.choice(sorted(game.to_act()))
                game.apply(seat, game.bot_action(seat, rng))
                same_views(game)


def test_encode_is_compact_json_and_falls_back_where_orjson_refuses() -> None:
    message = {"type": "state", "version": 3, "view": {"a": [1, None, True], "b": 1.5}}
    assert encode(message) == json.dumps(message, separators=(",", ":"))
    assert json.loads(encode({"name": "Zoë 李"})) == {"name": "Zoë 李"}
    # what orjson refuses, the standard library writes as before
    assert encode({"id": "\ud800"}) == json.dumps({"id": "\ud800"}, separators=(",", ":"))
    assert encode({1: "x"}) == '{"1":"x"}'  # type: ignore[dict-item]
    assert encode({"n": 2**70}) == f'{{"n":{2**70}}}'
