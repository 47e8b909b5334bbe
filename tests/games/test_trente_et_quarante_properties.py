"""Property tests for Trente et Quarante: thousands of random coups (docs/rules.md §4).

Random legal actions, timeouts, bettors sitting (seated and standing), leaving and topping up,
the house's cover changing under the table, random options, and shoes that are either shuffled
or rigged to make ties on 31 and void coups frequent. After every step the invariants are
checked: chips conserved across the bettors and the house (the house's net is read from the
transfers of the finished hands), no negative balance, the prison accounts match the stakes in
prison, ``to_act`` is exactly the seats with a ``legal`` action, near-miss actions do not fit,
the cards of an unrigged shoe are conserved, views show no card but the rows dealt, and a
snapshot restores to the same table.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.core.actions import Action, LegalAction, action_fits, random_action
from app.games.core.cards import canonical_shoe, fixed_seeds
from app.games.trente_et_quarante.engine import TrenteEtQuarante

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "decks": st.integers(1, 2),
        "seats": st.integers(1, 4),
        "min_stake": st.integers(1, 20),
        "max_stake": st.integers(20, 400),
        "insurance": st.booleans(),
        "venice_rule": st.booleans(),
        "max_apres": st.integers(1, 3),
    },
)

CARD_CODE = re.compile(r'"([A2-9TJQK][SHDC])"')
"""A card code as a JSON string, wherever it is in a view."""

RIGGED_POOL = ["TS", "KH", "QD", "JC", "TH", "AS", "AH", "AD", "9C"]
"""Cards of a rigged shoe: mostly tens and aces, so rows often end on 31 (un après)."""

HOUSE_LIMITS = [0, 15, 60, 300, 10**15]


class Table:
    """A game under test with the chips that should be on it."""

    def __init__(self, options: dict[str, Any], seed: int, rigged: bool) -> None:
        self.game = TrenteEtQuarante(options, seeds=fixed_seeds(seed.to_bytes(32, "big")))
        self.rng = random.Random(seed)
        self.rigged = rigged
        self.chips = 0
        self.house = 0
        self.coups = 0
        self.un_apres = 0
        self.shoe: Counter[str] = Counter()
        self.timer_key: tuple[Any, ...] | None = None

    # ------------------------------------------------------------------ the roster

    def positions(self) -> list[int]:
        game = self.game
        return list(range(min(game.max_seats, game.options["seats"] + 3)))

    def sit_somewhere(self) -> None:
        free = [s for s in self.positions() if f"seat:{s}" not in self.game.balances]
        if free:
            chips = self.rng.choice([0, 5, 30, 100, 400])
            self.game.sit(self.rng.choice(free), chips)
            self.chips += chips

    def leave_someone(self) -> None:
        leavers = [s for s in self.game.seated if self.game.can_leave(s)]
        if leavers:
            self.chips -= self.game.leave(self.rng.choice(leavers))

    def top_up_someone(self) -> None:
        seats = [s for s in self.game.seated if self.game.can_top_up(s)]
        if seats:
            self.game.add_chips(self.rng.choice(seats), 50)
            self.chips += 50

    # ------------------------------------------------------------------ steps

    def step(self) -> None:
        game, rng = self.game, self.rng
        roll = rng.random()
        if roll < 0.04:
            self.sit_somewhere()
        elif roll < 0.07:
            self.leave_someone()
        elif roll < 0.09:
            self.top_up_someone()
        elif roll < 0.11:
            game.house_available = rng.choice(HOUSE_LIMITS)
        elif not game.in_hand:
            self.between_hands()
        elif roll < 0.27 and game.timer() is not None:
            self.timeout()
        else:
            waiting = sorted(game.to_act())
            if waiting:
                seat = rng.choice(waiting)
                self.act(seat, random_action(game.legal_actions(seat), rng))
            elif game.timer() is not None:
                self.timeout()
            else:  # the window rests: someone with chips comes, or the house is funded
                game.house_available = 10**15
                self.sit_somewhere()
        self.collect()

    def between_hands(self) -> None:
        game = self.game
        self.check_snapshot()
        if self.rigged and self.rng.random() < 0.5:
            game.stock.cards = [
                self.rng.choice(RIGGED_POOL) for _ in range(self.rng.randint(0, 40))
            ]
        if game.can_start():
            game.start_hand()
        else:
            game.house_available = 10**15
            self.sit_somewhere()

    def act(self, seat: int, action: Action) -> None:
        assert action_fits(action, self.game.legal_actions(seat))
        self.game.apply(seat, action)

    def timeout(self) -> None:
        game = self.game
        actions = game.timeout_actions()
        assert actions
        for seat, action in actions:
            if game.phase == "un_apres":  # the default prison is a legal choice
                assert action_fits(action, game.legal_actions(seat))
            else:
                assert action == {"kind": "close"}
                assert not action_fits(action, game.legal_actions(seat))
            game.apply(seat, action, by_clock=True)

    def collect(self) -> None:
        """Read the log (cards of the shoe) and the finished hand (the house's net)."""
        game = self.game
        for event in game.take_log():
            if event["kind"] == "shuffle":
                self.shoe = Counter(canonical_shoe(game.options["decks"]))
            elif event["kind"] in ("burn", "card"):
                for card in event.get("cards", [event.get("card")]):
                    self.shoe[card] -= 1
        hand = game.take_completed()
        if hand is not None:
            self.coups += 1
            self.un_apres += hand.summary.get("tie") == "un_apres"
            for transfer in hand.transfers:
                if transfer.target == "house":
                    self.house += transfer.amount
                if transfer.source == "house":
                    self.house -= transfer.amount

    # ------------------------------------------------------------------ invariants

    def check(self) -> None:
        game = self.game
        balances = game.balances
        assert all(chips >= 0 for chips in balances.values()), balances
        in_play = sum(t.amount for t in game.transfers if t.target == "house") - sum(
            t.amount for t in game.transfers if t.source == "house"
        )
        assert sum(balances.values()) + self.house + in_play == self.chips
        held: Counter[int] = Counter()
        for stake in game.prison:
            assert 1 <= stake.level <= game.options["max_apres"]
            assert f"seat:{stake.owner}" in balances
            held[stake.owner] += stake.amount
        for account, chips in balances.items():
            if account.startswith("prison:"):
                assert chips == held[int(account[7:])], (account, chips)
        assert game.in_hand == (game.phase != "idle")
        self.check_legal()
        self.check_views()
        self.check_timer()
        if not self.rigged and self.shoe:
            assert self.shoe == Counter(game.stock.cards), "cards lost or made"

    def check_legal(self) -> None:
        game = self.game
        positions = [*self.positions(), game.max_seats - 1]
        acting = {s for s in positions if game.legal_actions(s)}
        assert game.to_act() == acting
        assert game.legal_actions(None) == []
        if not acting:
            return
        seat = self.rng.choice(sorted(acting))
        templates = game.legal_actions(seat)
        assert len({json.dumps(t, sort_keys=True) for t in templates}) == len(templates)
        for template in templates:
            for miss in near_misses(template, self.rng):
                assert not action_fits(miss, templates), (miss, templates)
        assert not action_fits({"kind": "close"}, templates)
        idle = [s for s in positions if s not in acting]
        if idle:
            other = random_action(templates, self.rng)
            assert not action_fits(other, game.legal_actions(self.rng.choice(idle)))

    def check_views(self) -> None:
        game = self.game
        dealt: Counter[str] = Counter()
        if game.last is not None:
            dealt = Counter(
                game.last["rows"]["noir"]["cards"] + game.last["rows"]["rouge"]["cards"]
            )
        viewers: list[int | None] = [None, *game.seated[:1]]
        for viewer in viewers:
            view = game.view(viewer)
            text = json.dumps(view)
            assert Counter(CARD_CODE.findall(text)) == dealt
            assert [s["seat"] for s in view["seats"]] == [
                s for s in game.seated if s < game.options["seats"]
            ]
            assert [b["seat"] for b in view["bettors"]] == game.seated
            assert view["phase"] == game.phase

    def check_timer(self) -> None:
        game = self.game
        timer = game.timer()
        if game.phase == "betting":
            assert (timer is None) == (not game.countdown)
            same_window = self.timer_key is not None and self.timer_key == ("window", game.window)
            if timer is not None and same_window:
                assert timer.key == self.timer_key
        elif game.phase == "un_apres":
            assert timer is not None
        else:
            assert timer is None
        self.timer_key = timer.key if timer else None

    def check_snapshot(self) -> None:
        game = self.game
        data = json.loads(json.dumps(game.snapshot()))
        copy = TrenteEtQuarante(dict(game.options), seeds=fixed_seeds())
        for seat in game.seated:
            copy.sit(seat, game.stack(seat))
        for account, chips in game.balances.items():
            if account.startswith("prison:"):
                copy.balances[account] = chips
        copy.house_available = game.house_available
        copy.restore(data)
        assert copy.snapshot() == data
        assert copy.view(None) == game.view(None)
        assert copy.can_start() == game.can_start()


def near_misses(template: LegalAction, rng: random.Random) -> list[Action]:
    """Actions one step away from fitting ``template``."""
    good = random_action([template], rng)
    out: list[Action] = [{**good, "kind": "bogus"}, {**good, "extra": 1}]
    for name, spec in template["params"].items():
        out.append({k: v for k, v in good.items() if k != name})
        if "min" in spec and "one_of" not in spec:
            out.append({**good, name: spec["max"] + 1})
            out.append({**good, name: spec["min"] - 1})
            out.append({**good, name: str(good[name])})
        if "one_of" in spec:
            out.append({**good, name: "nowhere"})
    return out


@settings(max_examples=40, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32), rigged=st.booleans())
def test_random_play_keeps_every_invariant(
    options: dict[str, Any], seed: int, rigged: bool
) -> None:
    table = Table(options, seed, rigged)
    for _ in range(3):
        table.sit_somewhere()
    for _ in range(400):
        table.step()
        table.check()
    assert table.coups > 0


def test_many_coups_reach_every_path() -> None:
    """A long run: un après, prison, voids and shoe ends all happen, and nothing stalls."""
    coups = un_apres = 0
    for seed in range(6):
        table = Table({"decks": 1, "max_stake": 100}, seed, rigged=seed % 2 == 0)
        for _ in range(4):
            table.sit_somewhere()
        for _ in range(1500):
            table.step()
            if table.rng.random() < 0.1:
                table.check()
        coups += table.coups
        un_apres += table.un_apres
    assert coups > 1000
    assert un_apres > 20
