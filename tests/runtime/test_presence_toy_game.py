"""Ready to deal and sitting out belong to the table, not to the game: a sixth game that knows
nothing of them (a toy one here, written against :class:`~app.games.core.game.Game` alone)
gets them at a table opened ``when_ready`` (app/runtime/table/core.py), played on the table's
core in virtual time.

Three people sit at a toy table where each, in turn, passes once a hand: nothing is dealt until
all three are ready; one sits out during a hand and is dealt out of the next, their stack kept;
they come back and are dealt in again; the clock deciding for one person twice in a row sits
them out. The toy engine's own ``legal`` never offers any of the table's actions.
"""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.core.actions import Action, LegalAction, legal
from app.games.core.game import Game
from app.games.core.hand import CompletedHand, GameStats, Timer
from app.games.core.options import TableOptions, TurnSeconds
from app.games.core.views import View
from tests.runtime.core_harness import CoreTable, Viewer


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


def toy_table(turn_seconds: int = 30) -> tuple[CoreTable, list[Viewer]]:
    """Three people at a toy table opened ``when_ready``, each watching it."""
    table = CoreTable(
        Toy,
        {"start": "when_ready", "turn_seconds": turn_seconds},
        created_by="p0",
        next_hand_seconds=2,
        bot_delay_seconds=3600,
    )
    viewers = []
    for n in range(3):
        table.sit(n, f"p{n}", f"P{n}", 100)
        viewers.append(table.watch(f"p{n}", f"P{n}"))
    return table, viewers


def kinds(table: CoreTable, seat: int) -> list[str]:
    return [t["kind"] for t in table.core.legal(seat)]


def test_a_game_that_knows_nothing_of_them_gets_ready_and_sitting_out() -> None:
    table, (p0, p1, p2) = toy_table()
    toy = table.core.engine
    assert isinstance(toy, Toy)
    table.advance(60)  # a minute: nothing is dealt before everyone is ready
    assert toy.dealt == [] and table.core.waiting_for_ready
    assert kinds(table, 1) == ["ready", "sit_out"]
    assert p1.last_view()["legal"] == table.core.legal(1)
    assert toy.legal_actions(1) == []  # the game's own legal knows none of them
    for viewer in (p0, p1):
        table.act(viewer, "ready")
    table.advance(60)
    assert toy.dealt == []
    table.act(p2, "ready")
    table.advance(1)
    assert toy.dealt == [[0, 1, 2]]

    # P1 sits out during the hand: from its end, dealt out of the next, stack kept
    table.act(p1, "sit_out")
    assert 1 in table.core.pending_away
    for viewer in (p0, p1, p2):
        table.act(viewer, "pass")
    table.advance(2)
    assert len(toy.dealt) == 2
    assert toy.dealt[-1] == [0, 2] and table.core.away[1].stack == 100
    assert kinds(table, 1) == ["sit_in"]
    table.act(p1, "sit_in")
    for viewer in (p0, p2):
        table.act(viewer, "pass")
    table.advance(2)
    assert toy.dealt[-1] == [0, 1, 2]


def test_the_clock_twice_in_a_row_sits_a_toy_player_out() -> None:
    table, (p0, _, p2) = toy_table(turn_seconds=1)
    table.act(p0, "deal_now")
    toy = table.core.engine
    assert isinstance(toy, Toy)
    table.advance(1)
    assert toy.dealt
    # p0 and p2 pass each hand at once; p1's clock decides for them twice
    for _ in range(2):
        hand = len(toy.dealt)
        table.act(p0, "pass")
        table.advance(1)  # P1's clock runs out
        if toy.waiting[:1] == [2]:
            table.act(p2, "pass")
        table.advance(2)  # the next hand
        assert len(toy.dealt) > hand or 1 in table.core.away
    assert 1 in table.core.away
    assert "twice" in (table.core.away[1].reason or "")
    assert 1 not in toy.seated
