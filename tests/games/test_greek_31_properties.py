"""Property tests for Greek 31: thousands of random hands through the engine (docs/rules.md §0, §2).

After every action: chips are conserved and never negative, the dealer can always pay every
stake still at risk, the cards in play and in the deck make up the whole shoe, ``to_act`` is
exactly the seats with ``legal`` actions, near-miss actions do not fit, and no face-down card
of the dealer reaches another seat's or a spectator's view. Between hands the snapshot
round-trips.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import app.simulate as simulate_module
from app.games.core.actions import Action, action_fits, random_action
from app.games.core.cards import canonical_shoe, fixed_seeds
from app.games.core.errors import RuleError
from app.games.core.values import ACE_RULES
from app.games.greek_31.engine import Greek31

OPTIONS = st.fixed_dictionaries(
    {
        "decks": st.sampled_from(["auto", 1, 2]),
        "min_bet": st.integers(1, 20),
        "max_bet": st.one_of(st.none(), st.integers(20, 200)),
        "ace_rule": st.sampled_from(ACE_RULES),
        "stakes": st.sampled_from(["buy_in", "table_stakes"]),
        "shuffle": st.sampled_from(["once", "new_dealer"]),
        "heath": st.booleans(),
        "max_players": st.just(9),
    }
)


class Tracker:
    """The chips that entered the table (buy-ins, top-ups) less those that left it."""

    def __init__(self) -> None:
        self.total = 0


def card_views(view: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for entry in view["seats"]:
        for hand in entry["hands"]:
            out.extend(hand["cards"])
    if view["last_hand"]:
        for hand in view["last_hand"]["hands"]:
            out.extend(hand["cards"])
    return out


def check_views(game: Greek31, rng: random.Random) -> None:
    """No face-down dealer card reaches anyone but the dealer."""
    hand = game.hand
    if hand is None:
        return
    public = {card for cards in hand.cards.values() for card in cards}
    hidden = []
    for index, card in enumerate(hand.dealer_cards):
        up = hand.revealed or (hand.concealed is not None and index != hand.concealed)
        if up:
            public.add(card)
        else:
            hidden.append(card)
    # the spectator and one seat each time, every seat now and then (the same filter serves all)
    viewers: list[int | None] = [None, rng.choice(game.seated)]
    if hidden and rng.random() < 0.25:
        viewers = [None, *game.seated]
    for viewer in viewers:
        view = game.view(viewer)
        text = json.dumps(view)
        assert view["dealer_cards"] == (len(hand.dealer_cards) if game.in_hand else 0)
        if viewer == hand.dealer:
            assert all(seen["card"] is not None for seen in card_views(view))
            continue
        for seen in card_views(view):
            assert seen["up"] or seen["card"] is None
        for card in hidden:
            if card not in public:
                assert f'"{card}"' not in text, (viewer, card)


def check_near_misses(game: Greek31, seat: int) -> None:
    templates = game.legal_actions(seat)
    misses: list[Action] = [{"kind": "bogus"}, {"kind": "stake"}, {"amount": 1}]
    for template in templates:
        kind = template["kind"]
        params = template["params"]
        base = {"kind": kind}
        for name, spec in params.items():
            base[name] = spec["min"] if "min" in spec else spec["one_of"][0]
        assert action_fits(base, templates)
        misses.append({**base, "extra": 1})
        for name, spec in params.items():
            misses.append({k: v for k, v in base.items() if k != name})
            if "min" in spec:
                misses.append({**base, name: spec["max"] + 1})
                misses.append({**base, name: spec["min"] - 1})
                misses.append({**base, name: float(spec["min"])})
            else:
                misses.append({**base, name: len(spec["one_of"])})
                misses.append({**base, name: True})
        for other in game.seated:
            if other != seat:
                assert not action_fits(base, game.legal_actions(other))
    for action in misses:
        assert not action_fits(action, templates), action
        with pytest.raises(RuleError):
            game.apply(seat, action)


def check(game: Greek31, tracker: Tracker, stacked: bool, rng: random.Random) -> None:
    assert sum(game.balances.values()) == tracker.total
    assert all(amount >= 0 for amount in game.balances.values())
    waiting = {seat for seat in game.seated if game.legal_actions(seat)}
    assert game.to_act() == waiting
    assert game.legal_actions(None) == []
    assert (game.timer() is None) == (not waiting)
    assert len(waiting) <= 1
    hand = game.hand
    if game.in_hand and hand is not None:
        at_risk = {
            seat: stake
            for seat, stake in hand.stakes.items()
            if hand.results.get(seat) in (None, "stood")
        }
        assert game.stack(hand.dealer) >= sum(at_risk.values())
        for seat, stake in at_risk.items():
            assert game.stack(seat) >= stake
        in_play = [c for s, cards in hand.cards.items() if s not in hand.gathered for c in cards]
        in_play += hand.dealer_cards
    else:
        in_play = []
    if not stacked and game.decks_in_play is not None:
        shoe = canonical_shoe(game.decks_in_play)
        assert sorted(game.stock.cards + in_play) == sorted(shoe)
    check_views(game, rng)


def play_table(
    options: dict[str, Any], stacks: list[int], seed: int, hands: int, short_deck: bool
) -> int:
    """Play ``hands`` hands with random legal actions, checking every invariant."""
    rng = random.Random(seed)
    game = Greek31(options, seeds=fixed_seeds(seed.to_bytes(32, "big")))
    tracker = Tracker()
    for seat, stack in enumerate(stacks):
        game.sit(seat, stack)
        tracker.total += stack
    if short_deck:
        game.stock.cards = rng.sample(canonical_shoe(1), rng.randint(3, 16))
    played = 0
    for _ in range(hands):
        between_hands(game, rng, tracker)
        if not game.can_start():
            break
        game.start_hand()
        played += 1
        check(game, tracker, short_deck, rng)
        steps = 0
        while game.in_hand:
            (seat,) = game.to_act()
            if rng.random() < 0.05:
                check_near_misses(game, seat)
            roll = rng.random()
            if roll < 0.6:
                action = random_action(game.legal_actions(seat), rng)
            elif roll < 0.8:
                action = game.bot_action(seat, rng)
            else:
                action = game.default_action(seat)
            assert action_fits(action, game.legal_actions(seat)), action
            game.apply(seat, action)
            check(game, tracker, short_deck, rng)
            steps += 1
            assert steps < 500
        done = game.take_completed()
        assert done is not None
        assert game.take_completed() is None
        game.take_log()
        moved = sum(t.amount for t in done.transfers)
        assert moved >= 0 and all(t.source.startswith("seat:") for t in done.transfers)
        if done.summary["void"]:
            assert sum(1 for t in done.transfers) % 2 == 0
    return played


def between_hands(game: Greek31, rng: random.Random, tracker: Tracker) -> None:
    """Players come, go and top up; the snapshot round-trips."""
    data = json.loads(json.dumps(game.snapshot()))
    copy = Greek31(game.options, seeds=fixed_seeds())
    for seat in game.seated:
        copy.sit(seat, game.stack(seat))
    copy.restore(data)
    assert copy.snapshot() == game.snapshot()
    if game.table_over:
        assert not game.can_start()
        return
    for seat in game.seated:
        if game.stack(seat) == 0 and game.can_top_up(seat) and rng.random() < 0.7:
            game.add_chips(seat, 200)
            tracker.total += 200
    if rng.random() < 0.05 and len(game.seated) > 2:
        seat = rng.choice(game.seated)
        assert game.can_leave(seat)
        # leave only if two seats with chips remain, so that the table can still deal
        if sum(1 for s in game.seated if s != seat and game.stack(s) > 0) >= 2:
            tracker.total -= game.leave(seat)
    free = [s for s in range(game.max_seats) if f"seat:{s}" not in game.balances]
    if free and rng.random() < 0.05:
        stack = rng.randint(0, 300)
        seat = rng.choice(free)
        if game.session and stack > game.away.get(seat, 0):  # table stakes (§2.11)
            with pytest.raises(RuleError):
                game.sit(seat, stack)
            return
        game.sit(seat, stack)
        tracker.total += stack


@settings(max_examples=120, deadline=None)
@given(
    options=OPTIONS,
    stacks=st.lists(st.integers(0, 400), min_size=2, max_size=9),
    seed=st.integers(0, 2**32),
    short_deck=st.booleans(),
)
def test_random_hands_keep_every_invariant(
    options: dict[str, Any], stacks: list[int], seed: int, short_deck: bool
) -> None:
    if sum(1 for s in stacks if s > 0) < 2:
        stacks = [*stacks[:-2], 100, 100]
    played = play_table(options, stacks, seed, hands=15, short_deck=short_deck)
    assert played >= 1


def test_many_hands_with_bots_and_every_option() -> None:
    """A long run of table-stakes and Heath tables ends cleanly (a table over, or all hands)."""
    total = 0
    for seed in range(6):
        options = {
            "stakes": "table_stakes" if seed % 2 else "buy_in",
            "heath": seed % 3 == 0,
            "shuffle": "new_dealer" if seed < 3 else "once",
            "decks": [1, "auto", 2][seed % 3],
            "max_players": 9,
        }
        stacks = [random.Random(seed).randint(20, 300) for _ in range(2 + seed)]
        total += play_table(options, stacks, seed, hands=150, short_deck=False)
    assert total > 300


def test_long_simulations_never_stall(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "game_class", lambda game_id: Greek31)
    options = {"heath": True, "decks": 1, "shuffle": "new_dealer", "max_players": 9}
    report = simulate_module.simulate("greek-31", hands=1500, seed=4, players=9, options=options)
    assert report["hands"] == 1500
    assert report["players"] == 9
