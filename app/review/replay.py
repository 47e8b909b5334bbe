"""Re-playing a finished hand from its record (docs/rules.md §0.9 and "Randomness").

The record's private part holds the table as it stood just before the hand: the engine's
:meth:`~app.games.core.game.Game.snapshot` (the stock's order and the seeds of its shuffles), every
account's balance, and the seeds of the shuffles made during the hand, in order. An engine is
deterministic given those, so the hand re-plays exactly:

1. build the game with the hand's options and the recorded seeds as its seed source
   (:func:`app.games.core.cards.fixed_seeds`), sit every seat with its stack, put back the other
   accounts (a pot, bets in front, stakes in prison), :meth:`~app.games.core.game.Game.restore`
   the snapshot and the hand number;
2. :meth:`~app.games.core.game.Game.start_hand` (the deal);
3. apply each recorded entry in order: an action (``{"seat", "action"}``; timeouts and bots
   included, applied without a ``legal`` check as the live table does for timeouts), or a
   change of the roster during the hand (``{"seat", "roster": "sit" | "top_up" | "leave"}``).

After each step the viewer's view is the engine's own :meth:`~app.games.core.game.Game.view`,
the single place where the live table filters hidden cards: a replay can show a viewer
nothing the live table did not. The record's ``v`` on an entry is the table version that
change produced, so a replayed view can be set beside the one the live table sent.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app.games.core.accounts import is_seat, seat_of
from app.games.core.cards import fixed_seeds
from app.games.core.game import Game
from app.games.core.hand import CompletedHand
from app.games.core.money import Transfer
from app.games.core.registry import game_class
from app.games.core.views import View
from app.i18n.messages import N_, Text

RUNTIME_KEYS = ("table_id", "game", "hand_id", "you", "legal", "deadline", "table")
"""View keys the table runtime adds to the engine's view (``app/runtime/table/views.py``)."""
RUNTIME_SEAT_KEYS = (
    "player_id",
    "name",
    "bot",
    "bot_level",
    "connected",
    "leaving",
    "ready",
    "sitting_out",
    "sitting_out_since",
    "sitting_out_reason",
    "sitting_out_next",
    "time_bank",
)
"""Per-seat keys the table runtime adds to the engine's view."""
OUTSIDE_FIELDS = (("limits", "house_cover"),)
"""Fields an engine's view draws from outside the hand: Trente et Quarante's cover, from the
house's balance less the other tables' exposure, which the runtime sets before every view
(``house_available``). No record holds it and it is not the hand's: a replay leaves it
unset (no limit, shown as null)."""


class ReplayError(Exception):
    """The record cannot be re-played (no private part, an unknown game, a void hand), or
    re-playing it went wrong."""


@dataclass
class Step:
    """One step of a hand: the deal (index 0) or one recorded entry, and what it produced."""

    index: int
    entry: dict[str, Any] | None
    """The recorded action or roster change (None for the deal)."""
    events: list[dict[str, Any]]
    """The engine's log entries this step produced (unfiltered)."""

    @property
    def version(self) -> int | None:
        """The live table's version after this step, when the record has it."""
        if self.entry is None or "v" not in self.entry:
            return None
        return int(self.entry["v"])


@dataclass
class Replay:
    """A hand being re-played: the engine, stepped forward one entry at a time."""

    record: dict[str, Any]
    engine: Game
    entries: list[dict[str, Any]]
    steps: list[Step] = field(default_factory=list)
    completed: CompletedHand | None = None

    @property
    def done(self) -> bool:
        return len(self.steps) == len(self.entries) + 1

    def advance(self) -> Step:
        """Deal, or apply the next recorded entry; the step says what it produced."""
        if self.done:
            raise ReplayError(Text(N_("the hand is over: nothing left to replay")))
        index = len(self.steps)
        if index == 0:
            entry = None
            self.engine.start_hand()
        else:
            entry = self.entries[index - 1]
            try:
                apply_entry(self.engine, entry)
            except Exception as err:  # a record the engine refuses is a broken record
                raise ReplayError(f"step {index}: the engine refused {entry}: {err}") from err
        step = Step(index, entry, self.engine.take_log())
        done = self.engine.take_completed()
        if done is not None:
            self.completed = done
        self.steps.append(step)
        return step

    def run(self) -> Iterator[Step]:
        """Every remaining step, in order (the engine is left after each as it stood)."""
        while not self.done:
            yield self.advance()

    def finish(self) -> Replay:
        for _ in self.run():
            pass
        return self

    @property
    def transfers(self) -> list[Transfer]:
        """The chips the re-played hand moved (empty until it is over)."""
        return list(self.completed.transfers) if self.completed is not None else []


def rebuild(record: dict[str, Any]) -> Game:
    """The engine as it stood just before the hand of ``record`` was dealt."""
    private = record.get("private")
    if not isinstance(private, dict) or "start_state" not in private:
        raise ReplayError(Text(N_("this record has no private part: it cannot be re-played")))
    try:
        cls = game_class(str(record["game"]))
    except KeyError:
        raise ReplayError(f"unknown game {record.get('game')!r}") from None
    seeds = fixed_seeds(*(bytes.fromhex(s) for s in private.get("shuffle_seeds", [])))
    balances: dict[str, int] = private.get("balances_before") or {}
    # seats in seat order: JSONB does not keep the order the players sat in
    stacks = sorted(
        (seat, int(amount)) for a, amount in balances.items() if (seat := seat_of(a)) is not None
    )
    return cls.rebuild(
        record.get("options") or {},
        seeds=seeds,
        stacks=stacks,
        accounts={a: int(amount) for a, amount in balances.items() if not is_seat(a)},
        # A copy: an engine may keep the lists it is restored from (En og tredive's match)
        # and change them as it plays, which must not change the record.
        state=copy.deepcopy(private["start_state"]),
        hand_number=int(record["number"]) - 1,
    )


def apply_entry(engine: Game, entry: dict[str, Any]) -> None:
    """Apply one recorded entry: an action, or a sit, top-up or leave during the hand."""
    seat = int(entry["seat"])
    roster = entry.get("roster")
    if roster is None:
        # a timeout's default may be one only the clock takes (Trente et Quarante's close)
        engine.apply(seat, dict(entry["action"]), by_clock=entry.get("by") == "timeout")
    elif roster == "sit":
        engine.sit(seat, int(entry["amount"]))
    elif roster == "top_up":
        engine.add_chips(seat, int(entry["amount"]))
    elif roster == "leave":
        engine.leave(seat)
    else:
        raise ReplayError(f"unknown roster change {roster!r}")


def start(record: dict[str, Any]) -> Replay:
    """A replay of ``record``, before its deal."""
    if record.get("void") and "private" not in record:
        raise ReplayError(Text(N_("this hand was void: there is nothing to replay")))
    return Replay(record, rebuild(record), list(record.get("actions") or []))


def engine_view(view: View) -> View:
    """The part of a live view that the engine made from the hand (the runtime's additions
    and :data:`OUTSIDE_FIELDS` removed).

    The runtime names the players in ``seats``; a game whose view lists the same seat
    entries under another key as well (Trente et Quarante's ``bettors``) shows the names
    there too, so they are removed from every top-level list of seat entries.
    """
    out = {k: v for k, v in view.items() if k not in RUNTIME_KEYS}
    for key, value in out.items():
        if isinstance(value, list) and all(isinstance(s, dict) and "seat" in s for s in value):
            out[key] = [{k: v for k, v in s.items() if k not in RUNTIME_SEAT_KEYS} for s in value]
    for key, inner in OUTSIDE_FIELDS:
        if isinstance(out.get(key), dict) and inner in out[key]:
            out[key] = {k: v for k, v in out[key].items() if k != inner}
    return out


def views(record: dict[str, Any], seat: int | None) -> list[tuple[Step, View]]:
    """Every step of the hand with the view ``seat`` (None: a spectator) had after it."""
    replay = start(record)
    return [(step, replay.engine.view(seat)) for step in replay.run()]
