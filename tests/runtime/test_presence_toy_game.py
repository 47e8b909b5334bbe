"""Ready to deal and sitting out belong to the table, not to the game: a sixth game that knows
nothing of them (a toy one here, written against :class:`~app.games.core.game.Game` alone)
gets them at a table opened ``when_ready`` (app/runtime/table/presence.py).

Three people sit at a toy table where each, in turn, passes once a hand: nothing is dealt until
all three are ready; one sits out during a hand and is dealt out of the next, their stack kept;
they come back and are dealt in again; the clock deciding for one person twice in a row sits
them out. The toy engine's own ``legal`` never offers any of the table's actions.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any, ClassVar

from app.core.config import Settings
from app.games.core.actions import Action, LegalAction, legal
from app.games.core.game import Game
from app.games.core.hand import CompletedHand, GameStats, Timer
from app.games.core.options import TableOptions, TurnSeconds
from app.games.core.views import View
from app.runtime.connection import Connection
from app.runtime.protocol import Act
from app.runtime.table.actor import TableActor
from tests.runtime.test_broadcast import CaptureWriter, NullSink, Watched


class ToyOptions(TableOptions):
    turn_seconds: TurnSeconds = 30


class ToyStats(GameStats):
    def observe(self, hand: CompletedHand) -> None:
        return None

    def report(self) -> dict[str, Any]:
        return {"hands": 0}


class Toy(Game):
    """Each seated player passes once, in seat order; then the hand ends. No chip moves."""

    id: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy"
    OPTIONS_MODEL = ToyOptions
    ACTION_KINDS = frozenset({"pass"})
    STATS = ToyStats

    def __init__(self, options: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(options, **kwargs)
        self.waiting: list[int] = []
        self.dealt: list[list[int]] = []

    @property
    def max_seats(self) -> int:
        return 4

    def can_start(self) -> bool:
        return len(self.seated) >= 2

    def deal(self) -> None:
        self.waiting = list(self.seated)
        self.dealt.append(list(self.seated))

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        return [legal("pass")] if self.in_hand and self.waiting[:1] == [seat] else []

    def play(self, seat: int, action: Action) -> None:
        self.waiting.pop(0)
        if not self.waiting:
            self.end_hand()

    def to_act(self) -> set[int]:
        return set(self.waiting[:1]) if self.in_hand else set()

    def timer(self) -> Timer | None:
        if not self.in_hand or not self.waiting:
            return None
        return Timer((self.hand_number, len(self.waiting)), self.options["turn_seconds"])

    def default_action(self, seat: int) -> Action:
        return {"kind": "pass"}

    def view(self, seat: int | None) -> View:
        return {
            "phase": "playing" if self.in_hand else "waiting",
            "seats": [
                {"seat": s, "stack": self.stack(s), "role": "player", "hands": []}
                for s in self.seated
            ],
        }

    def snapshot(self) -> dict[str, Any]:
        return {}

    def restore(self, data: dict[str, Any]) -> None:
        return None


_ids = itertools.count(1)


class Writer(CaptureWriter):
    """Every job dropped, and never behind (the next deal does not wait for it)."""

    pending = 0


async def send(actor: TableActor, conn: Connection, kind: str) -> None:
    await actor.handle(conn, Act(f"a{next(_ids)}", actor.version, {"kind": kind}))


async def until(predicate: Any, timeout: float = 5) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("condition not met")


async def toy_table(turn_seconds: int = 30) -> tuple[TableActor, list[Connection]]:
    settings = Settings(
        environment="test",
        database_url="sqlite+aiosqlite:///:memory:",
        secret_key="test-secret-key-0123456789",
        next_hand_seconds=0.05,
        bot_delay_seconds=3600,
    )
    actor = TableActor(
        table_id="t-toy",
        name="Toy",
        game_cls=Toy,
        options={"start": "when_ready", "turn_seconds": turn_seconds},
        writer=Writer(),  # type: ignore[arg-type]
        settings=settings,
        created_by="p0",
    )
    conns = []
    for n in range(3):
        conn = Watched(NullSink(), f"p{n}", f"P{n}")
        await actor.seat_player(n, f"p{n}", f"P{n}", 100)
        await actor.connect(conn)
        conns.append(conn)
    return actor, conns


async def test_a_game_that_knows_nothing_of_them_gets_ready_and_sitting_out() -> None:
    actor, (p0, p1, p2) = await toy_table()
    toy = actor.engine
    assert isinstance(toy, Toy)
    await asyncio.sleep(0.5)
    assert toy.dealt == [] and actor.waiting_for_ready
    assert [t["kind"] for t in actor._legal(1)] == ["ready", "sit_out"]
    assert toy.legal_actions(1) == []  # the game's own legal knows none of them
    for conn in (p0, p1):
        await send(actor, conn, "ready")
    await asyncio.sleep(0.3)
    assert toy.dealt == []
    await send(actor, p2, "ready")
    await until(lambda: toy.dealt == [[0, 1, 2]])

    # P1 sits out during the hand: from its end, dealt out of the next, stack kept
    await send(actor, p1, "sit_out")
    assert 1 in actor._pending_away
    for conn in (p0, p1, p2):
        await send(actor, conn, "pass")
    await until(lambda: len(toy.dealt) == 2)
    assert toy.dealt[-1] == [0, 2] and actor.away[1].stack == 100
    assert [t["kind"] for t in actor._legal(1)] == ["sit_in"]
    await send(actor, p1, "sit_in")
    for conn in (p0, p2):
        await send(actor, conn, "pass")
    await until(lambda: len(toy.dealt) == 3)
    assert toy.dealt[-1] == [0, 1, 2]
    await actor.shutdown("done")


async def test_the_clock_twice_in_a_row_sits_a_toy_player_out() -> None:
    actor, (p0, _, p2) = await toy_table(turn_seconds=1)
    await send(actor, p0, "deal_now")
    toy = actor.engine
    assert isinstance(toy, Toy)
    await until(lambda: bool(toy.dealt))
    # p0 and p2 pass each hand at once; p1's clock decides for them twice
    for _ in range(2):
        hand = len(toy.dealt)
        await send(actor, p0, "pass")
        await until(lambda h=hand: toy.waiting[:1] == [2] or len(toy.dealt) > h, timeout=3)
        if toy.waiting[:1] == [2]:
            await send(actor, p2, "pass")
        await until(lambda h=hand: len(toy.dealt) > h or 1 in actor.away, timeout=5)
    await until(lambda: 1 in actor.away, timeout=5)
    assert "twice" in (actor.away[1].reason or "")
    assert 1 not in toy.seated
    await actor.shutdown("done")
