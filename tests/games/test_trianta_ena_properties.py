"""Property tests for Trianta Ena: thousands of random rounds through the engine (docs/rules.md §1).

Random legal actions (and timeouts), players leaving and sitting down between rounds and during
them, random table options; after every step the invariants are checked: chips conserved and
never negative, cards conserved, ``to_act`` matches ``legal_actions``, near-miss actions do not
fit, no face-down card reaches a viewer not entitled to it, views and snapshots are JSON-ready
and a snapshot restores to the same table.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.core.actions import Action, action_fits, random_action
from app.games.core.cards import canonical_shoe, fixed_seeds
from app.games.trianta_ena.engine import TriantaEna
from app.games.trianta_ena.state import Round

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "max_players": st.integers(1, 9),
        "decks": st.integers(1, 3),
        "min_bet": st.integers(1, 20),
        "max_bet": st.one_of(st.none(), st.integers(20, 60)),
        "buy_in": st.integers(20, 150),
        "banker_multiple": st.integers(1, 4),
        "ace_rule": st.sampled_from(["at_most_one_low", "at_least_one_high", "alternating"]),
        "dealer_stands_on": st.integers(17, 31),
        "natural_cards": st.sampled_from(["face", "ten"]),
    },
)


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][SHDC])(?![A-Za-z0-9])")
"""A card code anywhere in a view's JSON, inside a longer string too."""


class Table:
    """A game under test with the chips that should be on it."""

    def __init__(self, options: dict[str, Any], seed: int) -> None:
        self.game = TriantaEna(options, seeds=fixed_seeds(seed.to_bytes(32, "big")))
        self.rng = random.Random(seed)
        self.chips = 0
        self.shoe = Counter(canonical_shoe(self.game.options["decks"]))

    # ------------------------------------------------------------------ the roster

    def sit_somewhere(self) -> None:
        free = [s for s in range(self.game.max_seats) if f"seat:{s}" not in self.game.balances]
        if not free:
            return
        seat = self.rng.choice(free)
        low, high = self.game.buy_in_limits(seat)
        assert low == high
        self.game.sit(seat, low)
        self.chips += low
        self.check()

    def leave_somewhere(self) -> None:
        leaving = [s for s in self.game.seated if self.game.can_leave(s)]
        if leaving:
            self.chips -= self.game.leave(self.rng.choice(leaving))
            self.check()

    # ------------------------------------------------------------------ play

    def step(self) -> None:
        """One decision: a random legal action, or the timeout's actions."""
        game = self.game
        waiting = sorted(game.to_act())
        assert waiting
        timer = game.timer()
        assert timer is not None
        if self.rng.random() < 0.15:
            for seat, action in game.timeout_actions():
                assert action_fits(action, game.legal_actions(seat))
                game.apply(seat, action)
                self.check()
            return
        seat = self.rng.choice(waiting)
        if self.rng.random() < 0.5:
            action = game.bot_action(seat, self.rng)
        else:
            action = random_action(game.legal_actions(seat), self.rng)
        assert action_fits(action, game.legal_actions(seat))
        game.apply(seat, action)
        self.check()

    def play_round(self) -> None:
        game = self.game
        game.start_hand()
        self.check()
        for _ in range(500):
            if not game.in_hand:
                break
            if self.rng.random() < 0.05:
                self.sit_somewhere()  # waits for the next round
                self.leave_somewhere()  # only a seat not in the round may go
            self.step()
        assert not game.in_hand
        done = game.take_completed()
        assert done is not None
        assert game.take_completed() is None
        moved = Counter[str]()
        for transfer in done.transfers:
            moved[transfer.source] -= transfer.amount
            moved[transfer.target] += transfer.amount
        assert sum(moved.values()) == 0
        assert moved[f"seat:{done.summary['banker']}"] == done.summary["bank_result"]
        for account in game.balances:
            if account.startswith("bets:"):
                assert game.balances[account] == 0
        json.dumps(done.summary)
        json.dumps(done.log)
        check_log_privacy(done.log)

    def between_rounds(self) -> None:
        game = self.game
        for _ in range(200):
            if game.can_start() and self.rng.random() < 0.8:
                return
            roll = self.rng.random()
            if game.to_act() and roll < 0.7:
                self.step()
            elif roll < 0.85 or not game.seated:
                self.sit_somewhere()
            else:
                self.leave_somewhere()
            self.check_restore()
        raise AssertionError("the table never got going")

    # ------------------------------------------------------------------ invariants

    def check(self) -> None:
        game = self.game
        assert all(amount >= 0 for amount in game.balances.values())
        assert sum(game.balances.values()) == self.chips
        acting = {s for s in range(game.max_seats) if game.legal_actions(s)}
        assert game.to_act() == acting
        assert game.legal_actions(None) == []
        assert (game.timer() is None) == (not acting)
        self.check_cards()
        for seat in range(game.max_seats):
            self.check_near_misses(seat)
        for viewer in [None, *game.seated]:
            self.check_view(viewer)
        if game.banker is not None:
            assert f"seat:{game.banker}" in game.balances
        assert sorted(game.bank.places) == list(range(game.max_seats))

    def check_cards(self) -> None:
        game = self.game
        cards = Counter(game.stock.cards) + Counter(game.discard)
        if game.in_hand and game.round is not None:
            cards += Counter(game.round.cards_in_play())
        if game.stock.shuffle is None:  # no shoe shuffled yet
            assert not game.stock.cards and not game.discard
        else:
            assert cards == self.shoe

    def check_near_misses(self, seat: int) -> None:
        game = self.game
        templates = game.legal_actions(seat)
        misses: list[Action] = [{"kind": "double"}, {"kind": "bet", "amount": "5"}]
        kinds = {t["kind"] for t in templates}
        for kind in TriantaEna.ACTION_KINDS - kinds:
            misses.append({"kind": kind})
            misses.append({"kind": kind, "amount": game.min_bet})
        for template in templates:
            params = template["params"]
            misses.append({**random_action([template], self.rng), "extra": 1})
            if "amount" in params:
                bounds = params["amount"]
                misses.append({"kind": "bet", "amount": bounds["max"] + 1})
                misses.append({"kind": "bet", "amount": bounds["min"] - 1})
                misses.append({"kind": "bet", "amount": True})
                misses.append({"kind": "bet"})
            else:
                misses.append({"kind": template["kind"], "amount": 1})
        for action in misses:
            assert not action_fits(action, templates), (seat, action, templates)
        if not templates:
            for other in game.to_act():
                for template in game.legal_actions(other):
                    action = random_action([template], self.rng)
                    assert not action_fits(action, templates)

    def visible_cards(self, viewer: int | None, round_: Round) -> Counter[str]:
        """Every card code ``viewer`` may see, by the rules (the up card counted twice: it is
        also the view's ``up_card``)."""
        seen = Counter(round_.banker_cards[:1] * 2)
        if round_.hole_shown:
            seen.update(round_.banker_cards[1:])
        else:
            seen.update(round_.banker_cards[2:])
        for hand in round_.hands.values():
            seen.update(hand.cards[1:])
            if hand.shown or viewer == hand.seat:
                seen[hand.cards[0]] += 1
        return seen

    def check_view(self, viewer: int | None) -> None:
        game = self.game
        view = game.view(viewer)
        dumped = json.dumps(view)
        assert view["phase"] == game.phase()
        assert [entry["seat"] for entry in view["seats"]] == game.seated
        round_ = game.round
        shown = Counter(CARD_CODE.findall(dumped))
        if round_ is None:
            assert not shown
            return
        assert shown <= self.visible_cards(viewer, round_), (viewer, shown)
        for entry in view["seats"]:
            if not entry["hands"]:
                continue
            cards = entry["hands"][0]["cards"]
            if entry["seat"] == round_.banker:
                truth = round_.banker_cards
                hidden = {1} if not round_.hole_shown else set()
            elif entry["seat"] in round_.hands:
                hand = round_.hands[entry["seat"]]
                truth = hand.cards
                hidden = set() if hand.shown or viewer == hand.seat else {0}
            else:
                raise AssertionError("a hand for a seat not in the round")
            assert len(cards) == len(truth)
            for index, (card, code) in enumerate(zip(cards, truth, strict=True)):
                if index in hidden:
                    assert card == {"card": None, "up": False}
                else:
                    assert card["card"] == code

    def check_restore(self) -> None:
        game = self.game
        if game.in_hand:
            return
        data = game.snapshot()
        json.dumps(data)
        copy = TriantaEna(game.options, seeds=fixed_seeds())
        for seat in game.seated:
            copy.sit(seat, game.stack(seat))
        copy.restore(data)
        assert copy.snapshot() == data
        assert copy.to_act() == game.to_act()
        assert copy.can_start() == game.can_start()
        assert copy.view(None)["seats"] == [
            {**entry, "hands": []} for entry in game.view(None)["seats"]
        ]


def check_log_privacy(log: list[dict[str, Any]]) -> None:
    """Face-down cards are logged private (the banker's to nobody) until a public ``show``."""
    hidden: dict[int, str] = {}
    banker = next(e for e in log if e["kind"] == "round")["banker"]
    for event in log:
        if "card" not in event:
            assert "cards" not in event or isinstance(event["cards"], int)
            continue
        seat = event["seat"]
        if event["kind"] == "deal" and not event["up"]:
            assert seat not in hidden
            hidden[seat] = event["card"]
            first_down = seat != banker
            assert event["private_to"] == ([seat] if first_down else [])
        elif event["kind"] == "show":
            assert hidden.pop(seat) == event["card"]
            assert "private_to" not in event
        else:
            assert event["kind"] in ("deal", "hit", "banker_draw")
            assert "private_to" not in event


@settings(max_examples=30, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32), players=st.integers(1, 9), rounds=st.just(35))
def test_random_rounds_keep_every_invariant(
    options: dict[str, Any], seed: int, players: int, rounds: int
) -> None:
    table = Table(options, seed)
    for _ in range(min(players, table.game.options["max_players"]) + 1):
        table.sit_somewhere()
    for _ in range(rounds):
        table.between_rounds()
        table.play_round()
        table.check_restore()


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_bots_play_long_tables_without_stalling(seed: int) -> None:
    """Bots only, default options, 150 rounds: every round ends and the table goes on."""
    table = Table({}, seed)
    for _ in range(6):
        table.sit_somewhere()
    game = table.game
    for _ in range(150):
        for _ in range(100):
            if not game.to_act():
                break
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, table.rng))
        for seat in game.seated:
            before = game.stack(seat)
            game.sim_rebuy(seat, 0)
            table.chips += game.stack(seat) - before
        assert game.can_start()
        game.start_hand()
        while game.in_hand:
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, table.rng))
        table.check()
