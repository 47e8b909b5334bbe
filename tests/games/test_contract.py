"""The contract every game keeps, checked for each game of the registry with nothing but the
:class:`~app.games.core.game.Game` interface (a sixth game passes it by following the pattern).

A hypothesis state machine plays random legal play: bots' and random legal actions, timeouts,
players sitting down and standing up between hands. After every step:

* chips are conserved: the table's accounts plus what the house won equal what was brought;
* ``legal`` is exact both ways: every action drawn from ``legal`` is accepted, and actions it
  does not list (a wrong kind, an amount out of range, a choice that is not offered, a missing
  or extra parameter, another seat's action) are refused with a :class:`RuleError` and change
  nothing;
* views hide what they must: a spectator sees no face-down card, and a seat sees face-down only
  the cards dealt to it privately (or shown to everyone before);
* a hand never stalls: while a hand is being played someone is waited for (``to_act``);
* ``legal`` offers only kinds of the game's ``ACTION_KINDS``; every view has ``phase`` and
  ``seats``;
* a card a public log entry names is face-down in no view right after that step (the spectator
  would see it hidden), and a card a seat sees face-down was dealt to it by an entry that carries
  ``private_to``;
* between hands, :meth:`Game.rebuild` from the stored state gives an engine equal to the live one,
  and one rebuilt with a seat gone and a seat taken since (:meth:`Game.reconcile_seats`) deals
  and plays a hand to its end with chips conserved;
* the table's options are drawn from the game's ``OPTIONS_MODEL`` (any valid variant), and
  top-ups (where ``can_top_up``), closing the table (``release_all``) and voiding a hand
  (rebuilt from before it, then ``on_void``) happen now and then.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from app.games.core.accounts import is_seat, seat_account
from app.games.core.actions import Action, action_fits, random_action
from app.games.core.errors import RuleError
from app.games.core.game import Game
from app.games.core.registry import GAME_IDS, game_class
from tests.games.contract_play import (
    Seeds,
    card_views,
    comparable,
    house_net,
    log_cards,
    out_of_legal,
    play_out,
    state_of,
    table_options,
)

STACK = 1000
"""The chips a player brings when the game leaves the choice open."""

CONTRACT_SETTINGS = settings(
    max_examples=30,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# ----------------------------------------------------------------------------- the machine


class GameContract(RuleBasedStateMachine):
    """Random legal play at one table of ``GAME_ID``."""

    GAME_ID = ""

    def __init__(self) -> None:
        super().__init__()
        self.cls = game_class(self.GAME_ID)
        self.open_table(dict(self.cls.SIM_OPTIONS))

    @initialize(data=st.data())
    def options_drawn(self, data: st.DataObject) -> None:
        """The table is opened with options drawn from the game's model (or its simulator's)."""
        if data.draw(st.booleans()):
            self.open_table(data.draw(table_options(self.cls)))

    def open_table(self, options: dict[str, Any]) -> None:
        seeds = Seeds(f"contract:{self.GAME_ID}")
        self.engine = self.cls(options, seeds=seeds)
        self.before_hand: tuple[Game, int] | None = None
        """The engine and the chips brought as they were before the hand in play (to void it)."""
        self.total = 0
        """Chips brought to the table (sat with, topped up), less those taken away."""
        self.dealt_to: dict[int, set[str]] = {}
        """Each seat's cards dealt to it privately (from the log)."""
        self.public: set[str] = set()
        """Cards the log has shown to everyone."""
        self.face_up: set[str] = set()
        """Cards the spectator saw face up after the last step."""
        for seat in range(min(self.cls.SIM_PLAYERS, self.engine.table_seats)):
            self.sit(seat)
        self.settle_log()

    # ------------------------------------------------------------------ helpers

    def sit(self, seat: int) -> None:
        low, high = self.engine.buy_in_limits(seat)
        stack = self.engine.sim_stack(seat, min(max(low, STACK), high))
        self.engine.sit(seat, stack)
        self.total += stack

    def chips(self) -> int:
        """The table's chips plus the house's net take so far in the hand being settled."""
        engine = self.engine
        done = engine.completed_pending
        moved = engine.transfers if engine.in_hand else (done.transfers if done else [])
        return sum(engine.balances.values()) + house_net(moved)

    def settle_log(self) -> None:
        """Read the log: who was dealt what privately, what everyone saw; a finished hand.

        A card a public entry names, unless everyone saw it face up before (a card taken from
        a discard pile), is face-down in no view now: the spectator would see it hidden, so
        it was a card dealt privately whose entry lacks ``private_to``."""
        shown: set[str] = set()
        entries = self.engine.take_log()
        for entry in entries:
            cards = log_cards(entry)
            if "private_to" in entry:
                for seat in entry["private_to"]:
                    self.dealt_to.setdefault(seat, set()).update(cards)
            else:
                shown.update(cards)
        self.public |= shown
        fresh = shown - self.face_up
        for seat in self.engine.seated:
            private = self.dealt_to.get(seat, set())  # (or the same card of another deck)
            for card in card_views(self.engine.view(seat)):
                assert card["up"] or card["card"] not in fresh - private - self.turned_down(seat), (
                    f"{card['card']} is named publicly but face down to seat {seat} (hidden "
                    f"from the spectator): {[e for e in entries if card['card'] in log_cards(e)]}"
                )
        self.face_up = {c["card"] for c in card_views(self.engine.view(None)) if c["up"]}
        assert self.chips() == self.total, "chips were created or lost"
        done = self.engine.take_completed()
        if done is not None:
            self.total = sum(self.engine.balances.values())

    def turned_down(self, seat: int) -> set[str]:
        """The cards of a hand turned down whole (Vingt-un's hand over 21, gathered unseen):
        every card of the seat's own entry face down, several of them, some dealt to it
        privately. Its public cards may be face down then; a single card may not."""
        entries = [e for e in self.engine.view(seat)["seats"] if e.get("seat") == seat]
        cards = [c for e in entries for c in card_views(e)]
        down = {c["card"] for c in cards if not c["up"]}
        private = self.dealt_to.get(seat, set())
        if len(down) > 1 and all(not c["up"] for c in cards) and down & private:
            return down
        return set()

    def apply(self, seat: int, action: Action, *, by_clock: bool = False) -> None:
        self.engine.apply(seat, action, by_clock=by_clock)
        self.settle_log()

    # ------------------------------------------------------------------ rules

    @precondition(lambda self: bool(self.engine.to_act()))
    @rule(data=st.data(), rng=st.randoms(use_true_random=False), moves=st.integers(1, 8))
    def act(self, data: st.DataObject, rng: random.Random, moves: int) -> None:
        """Seats the table waits for take legal actions (a bot's, or any at random)."""
        for _ in range(moves):
            waiting = sorted(self.engine.to_act())
            if not waiting:
                return
            seat = data.draw(st.sampled_from(waiting))
            templates = self.engine.legal_actions(seat)
            assert templates, f"seat {seat} is waited for but may do nothing"
            if data.draw(st.booleans()):
                action = self.engine.bot_action(seat, rng)
            else:
                action = random_action(templates, rng)
            assert action_fits(action, templates), (action, templates)
            self.apply(seat, action)

    @rule(data=st.data(), rng=st.randoms(use_true_random=False))
    def refuse(self, data: st.DataObject, rng: random.Random) -> None:
        """Actions outside ``legal`` are refused with a rule error and change nothing."""
        seats = self.engine.seated
        if not seats:
            return
        seat = data.draw(st.sampled_from(seats))
        templates = self.engine.legal_actions(seat)
        misses = out_of_legal(self.engine, seat, templates, rng)
        before = state_of(self.engine)
        for action in data.draw(st.lists(st.sampled_from(misses), max_size=4)) if misses else []:
            with pytest.raises(RuleError):
                self.engine.apply(seat, action)
            assert state_of(self.engine) == before, f"refused {action} changed the table"

    @precondition(lambda self: bool(self.engine.to_act()))
    @rule(rng=st.randoms(use_true_random=False))
    def every_template_is_accepted(self, rng: random.Random) -> None:
        """Each action ``legal`` lists, for every seat waited for, is accepted (on a copy)."""
        for seat in sorted(self.engine.to_act()):
            for template in self.engine.legal_actions(seat):
                trial = copy.deepcopy(self.engine)
                trial.apply(seat, random_action([template], rng))

    @precondition(lambda self: self.engine.timer() is not None)
    @rule()
    def timeout(self) -> None:
        """The clock runs out: the defaults are applied (each one must be accepted)."""
        for seat, action in self.engine.timeout_actions():
            self.apply(seat, action, by_clock=True)

    @precondition(lambda self: not self.engine.in_hand and not self.engine.to_act())
    @rule()
    def deal(self) -> None:
        """Deal the next hand (a bot short of chips buys in again first)."""
        self.close_table()  # the table could close here: checked before every deal
        for seat in self.engine.seated:
            before = self.engine.balances.get(seat_account(seat), 0)
            self.engine.sim_rebuy(seat, STACK)
            self.total += self.engine.balances.get(seat_account(seat), 0) - before
        if self.engine.table_over or not self.engine.can_start():
            return
        self.before_hand = (copy.deepcopy(self.engine), self.total)
        self.engine.start_hand()
        self.settle_log()

    @precondition(lambda self: not self.engine.in_hand)
    @rule(data=st.data())
    def stand_up(self, data: st.DataObject) -> None:
        leavers = [s for s in self.engine.seated if self.engine.can_leave(s)]
        if len(leavers) <= 1:
            return
        seat = data.draw(st.sampled_from(leavers))
        self.total -= self.engine.leave(seat)
        self.settle_log()

    @precondition(lambda self: not self.engine.in_hand)
    @rule(data=st.data())
    def sit_down(self, data: st.DataObject) -> None:
        free = [s for s in range(self.engine.table_seats) if s not in self.engine.seated]
        if not free or self.engine.table_over:
            return
        seat = data.draw(st.sampled_from(free))
        low, high = self.engine.buy_in_limits(seat)
        if low > high:
            return
        self.sit(seat)
        self.settle_log()

    @precondition(lambda self: not self.engine.in_hand)
    @rule()
    def rebuild(self) -> None:
        """Rebuilt from what is stored between hands, the engine is the live one."""
        engine = copy.deepcopy(self.engine)  # the live engine plays on untouched
        rebuilt = self.cls.rebuild(
            engine.options,
            seeds=copy.deepcopy(engine.seeds),
            stacks=[(seat, engine.stack(seat)) for seat in engine.seated],
            accounts={a: n for a, n in engine.balances.items() if not is_seat(a)},
            state=copy.deepcopy(engine.snapshot()),
            hand_number=engine.hand_number,
            reconcile=True,
            seated_then=engine.seated,
        )
        live, again = comparable(engine), comparable(rebuilt)
        assert again == live, {k: (again.get(k), live[k]) for k in live if again.get(k) != live[k]}

    @precondition(lambda self: not self.engine.in_hand)
    @rule(data=st.data(), rng=st.randoms(use_true_random=False))
    def rebuild_with_seats_changed(self, data: st.DataObject, rng: random.Random) -> None:
        """Rebuilt between hands with one seat gone and one taken since the state was stored
        (:meth:`Game.reconcile_seats`), the engine deals and plays on, chips conserved."""
        engine = self.engine
        free = [s for s in range(engine.table_seats) if s not in engine.seated]
        leavers = [s for s in engine.seated if engine.can_leave(s)]
        if not free or not leavers or engine.table_over:
            return
        gone, new = data.draw(st.sampled_from(leavers)), data.draw(st.sampled_from(free))
        low, high = engine.buy_in_limits(new)
        if low > high:
            return
        stack = engine.sim_stack(new, min(max(low, STACK), high))
        rebuilt = self.cls.rebuild(
            engine.options,
            seeds=copy.deepcopy(engine.seeds),
            stacks=[(s, engine.stack(s)) for s in engine.seated if s != gone] + [(new, stack)],
            accounts={a: n for a, n in engine.balances.items() if not is_seat(a)},
            state=copy.deepcopy(engine.snapshot()),
            hand_number=engine.hand_number,
            reconcile=True,
            seated_then=engine.seated,
        )
        self.total += stack - engine.stack(gone)
        self.engine = rebuilt
        self.settle_log()
        trial = copy.deepcopy(rebuilt)
        for seat in trial.seated:
            trial.sim_rebuy(seat, STACK)
        if trial.can_start() and not trial.table_over:
            play_out(trial, rng)

    @rule(data=st.data())
    def top_up(self, data: st.DataObject) -> None:
        """A seated player brings more chips, where the game allows it now."""
        engine = self.engine
        seats = [s for s in engine.seated if engine.can_top_up(s) and engine.top_up_limit(s) > 0]
        if not seats:
            return
        seat = data.draw(st.sampled_from(seats))
        amount = data.draw(st.integers(1, min(engine.top_up_limit(seat), STACK)))
        engine.add_chips(seat, amount)
        self.total += amount
        self.settle_log()

    @precondition(lambda self: not self.engine.in_hand)
    @rule()
    def close_table(self) -> None:
        """The table closes (on a copy): every chip goes back to a seated player's stack."""
        engine = copy.deepcopy(self.engine)
        before = sum(engine.balances.values())
        engine.release_all()
        assert sum(engine.balances.values()) == before, "closing the table changed the chips"
        held = {a: n for a, n in engine.balances.items() if n and not is_seat(a)}
        assert not held, f"chips left in table accounts after release_all: {held}"
        engine.take_log()

    @precondition(lambda self: self.engine.in_hand and self.before_hand is not None)
    @rule()
    def void(self) -> None:
        """The hand in play is void: the table is rebuilt as it was before it, then
        :meth:`Game.on_void`; it deals again."""
        assert self.before_hand is not None
        was, total = self.before_hand
        self.engine = self.cls.rebuild(
            was.options,
            seeds=copy.deepcopy(was.seeds),
            stacks=[(s, was.stack(s)) for s in was.seated],
            accounts={a: n for a, n in was.balances.items() if not is_seat(a)},
            state=copy.deepcopy(was.snapshot()),
            hand_number=was.hand_number,
            reconcile=True,
            seated_then=was.seated,
        )
        self.engine.on_void()
        self.total = total
        self.before_hand = None
        self.settle_log()

    # ------------------------------------------------------------------ invariants

    @invariant()
    def a_hand_waits_for_someone(self) -> None:
        engine = self.engine
        assert not engine.in_hand or engine.to_act(), "a hand is being played, nobody is waited for"

    @invariant()
    def legal_offers_the_game_s_kinds(self) -> None:
        for seat in self.engine.seated:
            for template in self.engine.legal_actions(seat):
                assert template["kind"] in self.cls.ACTION_KINDS, (seat, template)

    @invariant()
    def views_have_phase_and_seats(self) -> None:
        for viewer in [None, *self.engine.seated]:
            view = self.engine.view(viewer)
            assert "phase" in view and "seats" in view, (viewer, sorted(view))

    @invariant()
    def chips_are_conserved(self) -> None:
        assert self.chips() == self.total

    @invariant()
    def views_hide_what_they_must(self) -> None:
        engine = self.engine
        for shown in card_views(engine.view(None)):
            assert shown["up"] or shown["card"] is None, f"a spectator sees {shown}"
        for seat in engine.seated:
            allowed = self.dealt_to.get(seat, set()) | self.public
            for shown in card_views(engine.view(seat)):
                if not shown["up"] and shown["card"] is not None:
                    assert shown["card"] in allowed, f"seat {seat} sees {shown} face down"

    @invariant()
    def views_for_several_are_each_one_s_view(self) -> None:
        viewers: list[int | None] = [None, *self.engine.seated]
        assert self.engine.views(viewers) == {v: self.engine.view(v) for v in viewers}


def contract_for(game_id: str) -> type[GameContract]:
    return type(f"Contract_{game_id.replace('-', '_')}", (GameContract,), {"GAME_ID": game_id})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_keeps_the_contract(game_id: str) -> None:
    machine = contract_for(game_id)
    machine.TestCase.settings = CONTRACT_SETTINGS
    machine.TestCase().runTest()
