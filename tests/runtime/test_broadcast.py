"""One broadcast builds what its recipients share once (docs/performance.md).

The table's broadcast (app/runtime/table/views.py) builds the table-level parts of a state
once (who is connected, who sits where, each seat's name and flags, the ``table`` block),
asks the engine for the views of the distinct seats at once (:meth:`Game.views`, which
builds what viewers share once) and encodes with orjson. Every message must say exactly what
the straightforward per-recipient code said: the reference below is the runtime's
``view_for`` as it was, one recipient at a time, encoded with ``json.dumps``. Random tables
of all five games are played on a real table core in virtual time (acts, timeouts, sits,
leaves, top-ups, pauses, void hands, watchers coming and going, resyncs) and every state any
watcher is told is compared with it.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import orjson
import pytest

from app.games.core.actions import random_action
from app.games.core.coded import coded_json, english
from app.games.core.game import Game
from app.games.core.registry import GAME_IDS, game_class
from app.runtime.house import House
from app.runtime.protocol import ProtocolError, TopUp, encode
from app.runtime.table.core import TableCore
from app.simulate import seed_stream, settle_between_hands
from tests.runtime.core_harness import CoreTable, Viewer

NAMES = ["Ana", "Zoë", "Émile", "李雷", "Bob", 'O\'Neil "Q"', "Σοφία", "Kai", "Lu", "Ngozi"]
ASCII_NAMES = [name for name in NAMES if name.isascii()]


# --------------------------------------------------------------------------- the reference


def reference_seat_of(actor: TableCore, player_id: str | None) -> int | None:
    if player_id is None:
        return None
    for seat, info in actor.roster.items():
        if info.player_id == player_id:
            return seat
    return None


def reference_is_connected(actor: TableCore, player_id: str) -> bool:
    return any(c.player_id == player_id and not c.closed for c in actor.watchers)


def reference_view_for(actor: TableCore, seat: int | None) -> dict[str, Any]:
    """``TableCore.view_for`` as it was before the broadcast built shared parts once."""
    engine = actor.engine
    view = engine.view(seat)
    for entry in [*view.get("seats", []), *view.get("bettors", [])]:
        info = actor.roster.get(entry.get("seat", -1))
        if info is not None:
            entry["player_id"] = info.player_id
            entry["name"] = info.name
            entry["bot"] = info.is_bot
            if info.is_bot:
                entry["bot_level"] = info.bot_level
            entry["connected"] = info.is_bot or reference_is_connected(actor, info.player_id)
            entry["leaving"] = entry["seat"] in actor.pending_leave
            away = actor.away.get(entry["seat"])
            entry["ready"] = entry["seat"] in actor.ready
            entry["sitting_out"] = away is not None
            entry["sitting_out_since"] = None if away is None else away.since
            entry["sitting_out_reason"] = None if away is None else away.reason
            entry["sitting_out_next"] = entry["seat"] in actor.pending_away
            entry["time_bank"] = actor.time_bank.of(info.player_id)
    low, high = engine.buy_in_limits(None)
    view.update(
        table_id=actor.table_id,
        game=actor.game_cls.id,
        hand_id=actor.hand_id,
        you=seat,
        # a paused (or closed) table offers no action: none would be accepted
        # the time bank's More time is the table's, offered beside the game's
        legal=engine.legal_actions(seat) + actor._bank_legal(seat)
        if seat is not None and actor.status == "open"
        else [],
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
            "over": english(engine.table_over),
            "over_coded": coded_json(engine.table_over),
            "message": actor.message,
            "start": actor.options["start"],
            "waiting_for_ready": actor.waiting_for_ready,
            "host": actor.host_block(),
            "approval": actor.approval,
            "can_top_up": seat is not None and engine.can_top_up(seat),
            "top_up_max": engine.top_up_limit(seat)
            if seat is not None and engine.can_top_up(seat)
            else 0,
            "cannot_play": None if seat is None else english(engine.cannot_play(seat)),
            "cannot_play_coded": None if seat is None else coded_json(engine.cannot_play(seat)),
            "leave_cost": None if seat is None else english(engine.leave_cost(seat)),
            "leave_cost_coded": None if seat is None else coded_json(engine.leave_cost(seat)),
            "spectators": sum(
                1 for c in actor.watchers if reference_seat_of(actor, c.player_id) is None
            ),
            # what is each person's own (the host's requests, an asker's): none here
            "host_legal": [],
            "requests": [],
            "seat_request": None,
            "seat_request_message": None,
        },
    )
    return view


def reference_state(actor: TableCore, seat: int | None) -> str:
    message = {"type": "state", "version": actor.version, "view": reference_view_for(actor, seat)}
    return json.dumps(message, separators=(",", ":"))


def _fits(limits: tuple[int, int]) -> bool:
    return limits[0] <= limits[1]


# --------------------------------------------------------------------------- a table to play


class Checker:
    """Sees every frame as it is told: each state is compared with the reference for that
    watcher's seat at that moment (the table as the step left it)."""

    def __init__(self) -> None:
        self.table: CoreTable | None = None
        self.states = 0
        self.exact = 0

    def __call__(self, watcher: Viewer, text: str) -> None:
        assert self.table is not None
        core = self.table.core
        message = orjson.loads(text)
        if message["type"] != "state" or watcher.closed:
            return
        expected = reference_state(core, reference_seat_of(core, watcher.player_id))
        # the story told beside the view (docs/protocol.md §6.6) follows it: the state up
        # to the view is compared (tests/api/test_results_and_story.py tests the story)
        head = {k: message[k] for k in ("type", "version", "view")}
        assert list(message)[:3] == ["type", "version", "view"]
        assert set(message) <= {"type", "version", "view", "events", "story", "result"}
        # the same JSON: same keys in the same order, same values (json.dumps escapes
        # what orjson writes as UTF-8, so compare the texts once both are escaped alike)
        assert json.dumps(head, separators=(",", ":")) == expected
        if text.isascii():  # nothing to escape: byte for byte
            assert orjson.dumps(head).decode() == expected
            self.exact += 1
        self.states += 1


def play_table(game_id: str, seed: int, steps: int) -> Checker:
    """Play ``steps`` random changes at a table of ``game_id``; odd seeds use ASCII text
    only, so that their states are compared byte for byte."""
    rng = random.Random(seed)
    text = ASCII_NAMES if seed % 2 else NAMES
    cls = game_class(game_id)
    checker = Checker()
    table = CoreTable(
        cls,
        house=House(rng.choice([0, 50, 10**6])),
        on_frame=checker,
        next_hand_seconds=3600,
        bot_delay_seconds=3600,
    )
    checker.table = table
    core = table.core
    core.name = rng.choice(["Table", "31", text[-1]])
    core.seeds = core.engine.seeds = seed_stream(seed)
    core.hands_played = 1  # the next hand waits next_hand_seconds: nothing runs on its own
    players = [f"player-{n}" for n in range(12)]
    names = {p: rng.choice(text) for p in players}
    viewers: list[Viewer] = []

    def sit(seat: int) -> None:
        seated = {i.player_id for i in core.roster.values()}
        free = [p for p in players if p not in seated]
        if rng.random() < 0.05 and seated:  # the same player twice: seat_of takes the first
            free = sorted(seated)
        low, high = core.engine.buy_in_limits(seat)
        if not free or low > high:
            return
        player = rng.choice(free)
        buy_in = rng.choice([low, high, min(high, max(low, rng.randint(low, low + 2000)))])
        with contextlib.suppress(ProtocolError):  # a seat the engine still holds
            table.sit(seat, player, names[player], buy_in, bot=rng.random() < 0.25)

    def watch() -> None:
        player = rng.choice([None, *players])
        viewers.append(table.watch(player, names.get(player or "")))

    for seat in range(min(cls.SIM_PLAYERS + 1, core.engine.max_seats)):
        sit(seat)
    for _ in range(rng.randint(2, 6)):
        watch()

    for _ in range(steps):
        engine = core.engine  # a void hand replaces it
        roll = rng.random()
        waiting = sorted(engine.to_act())
        if roll < 0.6 and waiting:
            seat = rng.choice(waiting)
            if rng.random() < 0.7:
                action = engine.bot_action(seat, core.rng)
            else:
                action = random_action(engine.legal_actions(seat), rng)
            table.step(core.apply_for, seat, action, by=rng.choice(["player", "bot"]))
        elif roll < 0.63 and engine.timer() is not None and core.status == "open":
            for seat, action in engine.timeout_actions():
                table.step(core.apply_for, seat, action, by="timeout")
        elif roll < 0.70:
            table.step(core.deal_next)
        elif roll < 0.74:
            free = [s for s in range(engine.max_seats) if s not in core.roster]
            if free:
                sit(rng.choice(free))
        elif roll < 0.77 and core.roster:
            table.step(core.request_leave, rng.choice(sorted(core.roster)))
        elif roll < 0.80:
            watch()
        elif roll < 0.84 and core.watchers:
            viewer = rng.choice([v for v in viewers if v in core.watchers])
            viewer.closed = True
            if rng.random() < 0.7:
                table.step(core.part, viewer)
            # else its socket died; the table has not heard yet
        elif roll < 0.88 and core.watchers:
            viewer = rng.choice([v for v in viewers if v in core.watchers])
            with contextlib.suppress(ProtocolError):
                table.step(core.resync, viewer)
        elif roll < 0.90:
            if core.status == "open":
                table.step(core.pause, rng.choice([None, "a break", f"{text[1]} left"]))
            else:
                table.step(core.resume)
        elif roll < 0.93:
            seats = [s for s in core.roster if engine.can_top_up(s)]
            for viewer in viewers:
                if viewer in core.watchers and reference_seat_of(core, viewer.player_id) in seats:
                    top_up = TopUp(rng.randint(1, 500))
                    with contextlib.suppress(ProtocolError):
                        seat = core.check_top_up(viewer, top_up)
                        table.step(core.topped_up, seat, top_up.amount)
                    break
        elif roll < 0.95:
            core.message = rng.choice([None, "Welcome", f"Hello {text[2]}"])
            table.step(core.refresh)
        elif roll < 0.97 and core.hand is not None:
            table.step(core.void_hand, "the hand is void")
            # a seat at the table when the hand began stood up only once it ended, so the
            # table put back holds exactly the players seated (none of them left mid-hand)
            assert set(core.engine.seated) == set(core.roster)
        elif core.house is not None:
            core.house.balance = rng.choice([0, 30, 500, 10**6])
            table.step(core.house_moved)
    return checker


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_broadcast_says_what_the_per_recipient_views_said(game_id: str) -> None:
    states = exact = 0
    for seed in range(10):
        checker = play_table(game_id, seed, steps=400)
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
