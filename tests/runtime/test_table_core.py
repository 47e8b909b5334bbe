"""The table's core in virtual time, and the shell that obeys it (docs/architecture.md).

* A whole evening of clocks: a table of bots and people, where people sometimes act and
  sometimes let the clock play, runs for hours of table time in one test, through the core's
  own timers (the decision clock, the bots' delay, the pause before a hand). Chips are
  conserved, every watcher's versions only grow, and no frame that tells of a hand's end
  comes before the hand's one job: "announce only what is committed", as the core orders it.
* The shell obeys that order: with the writer holding a hand's job uncommitted, nothing of
  the act that ended the hand is told; once the job commits, the ack and the result go out.
* Every kind of client message the protocol's registry declares has its handler on the shell.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

from app.db import store
from app.games.core.accounts import seat_account
from app.games.core.actions import random_action
from app.games.core.registry import GAME_IDS, game_class
from app.runtime.connection import Connection
from app.runtime.protocol import Act, message_kinds
from app.runtime.table.actor import TableActor
from app.runtime.table.effects import NEXT_HAND
from tests.runtime.core_harness import CoreTable, Viewer, settings

PEOPLE_GAMES = [g for g in GAME_IDS if g != "trente-et-quarante"]  # no house to count


def evening(game_id: str, seed: int, hours: float) -> tuple[CoreTable, list[Viewer], int]:
    """``hours`` of table time at a table of ``game_id``: two bots and two people, a
    spectator; the people act on some decisions and leave the rest to the clock. With the
    chips that should be on the table at the end: every buy-in, less the stacks that went
    home (a bot that could no longer play stood up)."""
    rng = random.Random(seed)
    cls = game_class(game_id)
    table = CoreTable(cls, next_hand_seconds=5, bot_delay_seconds=1, bot_table_idle_seconds=0)
    core = table.core
    core.rng = random.Random(seed)
    bought = 0
    engine_leave = core.engine.leave

    def leave(seat: int) -> Any:  # the stack that goes home with the seat
        nonlocal bought
        bought -= core.engine.balances.get(seat_account(seat), 0)
        return engine_leave(seat)

    core.engine.leave = leave  # type: ignore[method-assign]
    seats = min(4, core.engine.max_seats)
    people: dict[int, Viewer] = {}
    for seat in range(seats):
        low, high = core.engine.buy_in_limits(seat)
        if low > high:
            continue
        buy_in = min(high, max(low, 500))
        bot = seat % 2 == 1
        table.sit(seat, f"p{seat}", f"P{seat}", buy_in, bot=bot)
        bought += buy_in
        if not bot:
            people[seat] = table.watch(f"p{seat}", f"P{seat}")
    spectator = table.watch(None)
    end = table.clock.now() + hours * 3600
    for _ in range(1_000_000):  # a bound, not a duration: every turn moves the story on
        if table.clock.now() >= end:
            break
        acted = False
        for seat, viewer in people.items():
            if seat not in core.engine.to_act() or not viewer.last_view()["legal"]:
                continue
            if rng.random() < 0.3 and table.clock.next_due() is not None:
                continue  # this one is left to the clock
            legal = viewer.last_view()["legal"]
            action = (
                core.engine.bot_action(seat, rng)
                if rng.random() < 0.8
                else random_action(legal, rng)
            )
            table.act(viewer, **action)
            acted = True
        if not acted and not table.clock.run_next():
            break  # nothing more will ever happen (the table is over)
    else:
        raise AssertionError("the evening never ended")
    return table, [*people.values(), spectator], bought


@pytest.mark.parametrize("game_id", PEOPLE_GAMES)
def test_an_evening_of_clocks_plays_in_virtual_time(game_id: str) -> None:
    table, viewers, bought = evening(game_id, seed=7, hours=2)
    core = table.core
    assert core.hands_played >= 20, core.hands_played  # the clocks did deal and play
    # chips conserved: every chip bought in is on the table (none moves to a house here)
    assert sum(core.engine.balances.values()) == bought
    for viewer in viewers:
        versions = [state["version"] for state in viewer.states()]
        assert versions == sorted(set(versions)), "a watcher's versions only grow"
    finished = told_after_commit(table)
    assert len(finished) == core.hands_played


def told_after_commit(table: CoreTable) -> dict[str, int]:
    """Every hand's one job (by hand id, its place among the jobs), checked against every
    frame that carries a hand's result: no result is told before its hand's job."""
    finished = {
        job.args[0].hand_id: index
        for index, job in enumerate(table.jobs)
        if job.run is store.hand_finished
    }
    for committed, frame in table.told_after:
        if '"result":{' not in frame:
            continue
        hand_id = orjson.loads(frame)["result"]["hand_id"]
        assert committed > finished[hand_id], "a hand's result was told before its job"
    return finished


@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(PEOPLE_GAMES))
@examples(max_examples=10, deadline=None)
def test_any_evening_keeps_the_chips_and_the_order(seed: int, game: str) -> None:
    table, viewers, bought = evening(game, seed=seed, hours=0.25)
    assert sum(table.core.engine.balances.values()) == bought
    told_after_commit(table)
    for viewer in viewers:
        versions = [state["version"] for state in viewer.states()]
        assert versions == sorted(set(versions))


def test_every_registered_message_kind_has_its_handler_on_the_shell() -> None:
    for kind in message_kinds():
        handler = getattr(TableActor, kind.handler, None)
        assert callable(handler), f"{kind.type}: TableActor has no {kind.handler}"


# --------------------------------------------------------------------------- the shell


class HeldWriter:
    """A writer whose jobs commit at once, or, while :attr:`holding`, only when the test
    says so."""

    def __init__(self) -> None:
        self.held: list[tuple[Any, asyncio.Future[Any]]] = []
        self.holding = False
        self.pending = 0

    def submit(self, job: Any, /, *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.holding:
            self.held.append((job, future))
        else:
            future.set_result(None)
        return future

    async def run(self, job: Any, /, *args: Any, **kwargs: Any) -> Any:
        return None

    def commit(self) -> None:
        for _job, future in self.held:
            if not future.done():
                future.set_result(None)


class Sink:
    def __init__(self) -> None:
        self.frames: list[str] = []

    async def send_text(self, data: str) -> None:
        self.frames.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


async def test_the_shell_tells_nothing_of_a_hand_before_its_job_commits() -> None:
    writer = HeldWriter()
    actor = TableActor(
        table_id="t-shell",
        name="Shell",
        game_cls=game_class("greek-31"),
        options={},
        writer=writer,  # type: ignore[arg-type]
        settings=settings(next_hand_seconds=3600, bot_delay_seconds=3600),
    )
    sinks = []
    conns = []
    for seat in range(2):
        sink = Sink()
        conn = Connection(sink, f"p{seat}", f"P{seat}")
        await actor.seat_player(seat, f"p{seat}", f"P{seat}", 200)
        await actor.connect(conn)
        sinks.append(sink)
        conns.append(conn)
    await actor.ring_now(NEXT_HAND)
    assert actor.engine.in_hand
    rng = random.Random(3)
    writer.holding = True
    for turn in range(500):  # play until an act ends the hand
        engine = actor.engine
        seat = min(engine.to_act())
        before = [len(s.frames) for s in sinks]
        held = len(writer.held)
        act = Act(f"x{turn}", actor.version, engine.bot_action(seat, rng))
        task = asyncio.create_task(actor.handle(conns[seat], act))
        while not task.done() and len(writer.held) == held:
            await asyncio.sleep(0)
        if task.done():
            continue  # an act inside the hand: told at once, nothing to store
        jobs = [job for job, _ in writer.held[held:]]
        if store.hand_finished not in jobs:
            writer.commit()
            await task
            continue
        # the hand ended: its job is held, and nobody has been told anything of it
        for _ in range(20):
            await asyncio.sleep(0)
        assert [len(s.frames) for s in sinks] == before
        assert not task.done()
        writer.commit()
        await task
        told = sinks[seat].frames[before[seat] :]
        assert '"type":"ack"' in told[0] and '"result"' in told[1]
        break
    else:
        raise AssertionError("no hand ended")
    writer.holding = False
    await actor.shutdown("done")


@pytest.mark.parametrize("game_id", ["vingt-un", "trianta-ena", "trente-et-quarante"])
def test_a_bot_that_cannot_play_stands_up_once_its_hand_is_over(game_id: str) -> None:
    """Bots alone, each with the smallest buy-in, play until they cannot (docs/rules.md
    §0.12): between hands no bot is ever seated that the game says cannot be dealt in, each
    that went broke stood up (its seat's one ``leave`` job, its stack home), and the table
    dealt on while it could."""
    cls = game_class(game_id)
    table = CoreTable(cls, next_hand_seconds=5, bot_delay_seconds=1, bot_table_idle_seconds=0)
    core = table.core
    core.rng = random.Random(31)
    seated = []
    for seat in range(min(4, core.engine.max_seats)):
        low, high = core.engine.buy_in_limits(seat)
        if low <= high:
            table.sit(seat, f"b{seat}", f"B{seat} (bot)", low, bot=True)
            seated.append(seat)
    for _ in range(200_000):  # a bound, not a duration: every turn moves the table on
        if not core.engine.in_hand:
            broke = [s for s, i in core.roster.items() if i.is_bot and core.engine.cannot_play(s)]
            assert broke == [], f"bots seated between hands that cannot play: {broke}"
        if not table.clock.run_next():
            break  # nothing more will happen: too few bots left to deal
    gone = [s for s in seated if s not in core.roster]
    assert gone, "no bot went broke: nothing was tested"
    left = [job for job in table.jobs if job.run is store.leave]
    assert sorted(job.args[1] for job in left) == sorted(gone)
    assert core.hands_played >= 1
