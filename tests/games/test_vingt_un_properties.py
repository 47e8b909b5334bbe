"""Property tests for Vingt-un: thousands of random hands through the engine (docs/rules.md §0, §3).

After every action: chips are conserved and never negative; ``to_act`` is exactly the seats
with something legal; every action drawn from ``legal`` is applied without error; near-miss
actions do not fit; no face-down card reaches another seat's or a spectator's view; views are
JSON-ready. Between hands: snapshot → restore round-trips. At the end of each hand: a hand
that went over 21 never has its first two cards in a public log event.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.core.actions import Action, action_fits, random_action
from app.games.core.cards import fixed_seeds
from app.games.vingt_un.engine import VingtUn
from app.games.vingt_un.state import Hand
from app.games.vingt_un.stats import NATURAL_EXACT
from app.simulate import simulate


def table_hands(game: VingtUn) -> list[tuple[int, Hand]]:
    """Every hand on the table with its holder, the dealer's included."""
    out = [(seat, hand) for seat, hands in game.hands.items() for hand in hands]
    if game.dealer_hand is not None and game.hand_dealer is not None:
        out.append((game.hand_dealer, game.dealer_hand))
    return out


def check_hidden_cards(game: VingtUn, views: dict[int | None, str]) -> None:
    """No viewer's view (as JSON text, every field) names a card that is face down, or in a
    hand over 21, unless it is the viewer's own."""
    hands = table_hands(game)
    public = {
        card
        for _, hand in hands
        if not hand.over
        for card, up in zip(hand.cards, hand.up, strict=True)
        if up
    }
    for viewer, text in views.items():
        # a card gathered, shuffled into a new pack and dealt again is in two hands at once
        own = {card for holder, hand in hands if holder == viewer for card in hand.cards}
        for holder, hand in hands:
            if holder == viewer:
                continue
            for card, up in zip(hand.cards, hand.up, strict=True):
                if (hand.over or not up) and card not in public | own:
                    assert f'"{card}"' not in text, (viewer, holder, card)


def near_misses(game: VingtUn, seat: int) -> list[tuple[int, Action]]:
    """Actions next to the legal ones that must not fit."""
    misses: list[tuple[int, Action]] = [
        (seat, {"kind": "fold"}),
        (seat, {"kind": "stand", "extra": 1}),
        (seat, {"kind": "stake"} if game.phase == "staking" else {"kind": "split"}),
        (seat, {"kind": "stake", "amount": True}),
    ]
    for template in game.legal_actions(seat):
        amount = template["params"].get("amount")
        if amount is not None:
            misses.append((seat, {"kind": template["kind"], "amount": amount["max"] + 1}))
            misses.append((seat, {"kind": template["kind"], "amount": amount["min"] - 1}))
            misses.append((seat, {"kind": template["kind"], "amount": float(amount["min"])}))
        for other in game.seated:
            if other != seat:
                misses.append((other, random_action([template], random.Random(0))))
    if game.phase != "double":
        misses.append((seat, {"kind": "double"}))
    return misses


def check_state(game: VingtUn, chips: int) -> None:
    assert sum(game.balances.values()) == chips
    assert all(amount >= 0 for amount in game.balances.values())
    acting = {s for s in range(game.max_seats) if game.legal_actions(s)}
    assert game.to_act() == acting
    assert game.legal_actions(None) == []
    assert (game.timer() is not None) == bool(acting)
    assert len(acting) <= 1
    if game.in_hand:
        assert acting, "a hand waits for nobody"
    for seat in acting:
        for who, action in near_misses(game, seat):
            assert not action_fits(action, game.legal_actions(who)), (who, action)
    views = {viewer: json.dumps(game.view(viewer)) for viewer in [None, *game.seated]}
    check_hidden_cards(game, views)
    cards_held = sum(len(h.cards) for _, h in table_hands(game) if not h.gathered)
    if game.in_hand and game.stock.shuffle is not None:
        assert cards_held + game.cards_left() == 52


def check_busted_never_shown(game: VingtUn, log: list[dict[str, Any]]) -> None:
    for seat, hands in game.hands.items():
        for index, hand in enumerate(hands):
            if not hand.over:
                continue
            first_two = set(hand.cards[:2])
            for event in log:
                if event.get("seat") != seat or event.get("private_to") is not None:
                    continue
                if event.get("hand") != index and event.get("new_hand") != index:
                    continue
                shown = {event.get("card")} | set(event.get("cards", []))
                assert not first_two & shown, event


def random_options(rng: random.Random) -> dict[str, Any]:
    min_bet = rng.choice([1, 5, 10])
    return {
        "min_bet": min_bet,
        "max_bet": rng.choice([min_bet, 3 * min_bet, 20 * min_bet]),
        "natural_takes_deal": rng.random() < 0.5,
        "natural_paid_by_all": rng.random() < 0.5,
        "max_split_hands": rng.randint(1, 4),
    }


def choose(game: VingtUn, seat: int, rng: random.Random) -> Action:
    """A random legal action, the timeout default, or the bot's choice."""
    roll = rng.random()
    if roll < 0.15:
        return game.default_action(seat)
    if roll < 0.35:
        return game.bot_action(seat, rng)
    return random_action(game.legal_actions(seat), rng)


def play_table(seed: int, hands: int) -> int:
    rng = random.Random(seed)
    game = VingtUn(random_options(rng), seeds=fixed_seeds())
    seats = rng.sample(range(game.max_seats), rng.randint(2, game.max_seats))
    for seat in seats:
        game.sit(seat, rng.choice([40, 100, 300, 2000]))
    chips = sum(game.balances.values())
    played = 0
    for _ in range(hands):
        # between hands: a top-up, a player leaving, another sitting down
        for seat in game.seated:
            if not game.can_play(seat) and rng.random() < 0.7:
                amount = rng.choice([40, 200])
                game.add_chips(seat, amount)
                chips += amount
        if rng.random() < 0.05 and len(game.seated) > 2:
            seat = rng.choice(game.seated)
            chips -= game.leave(seat)
        if rng.random() < 0.05:
            free = [s for s in range(game.max_seats) if s not in game.seated]
            if free:
                game.sit(rng.choice(free), 300)
                chips += 300
        data = json.loads(json.dumps(game.snapshot()))
        copy = VingtUn(game.options, seeds=fixed_seeds())
        for seat in game.seated:
            copy.sit(seat, game.stack(seat))
        copy.restore(data)
        assert copy.snapshot() == data
        if not game.can_start():
            continue
        game.start_hand()
        played += 1
        check_state(game, chips)
        steps = 0
        while game.in_hand:
            seat = next(iter(game.to_act()))
            action = choose(game, seat, rng)
            assert action_fits(action, game.legal_actions(seat)), action
            game.apply(seat, action)
            check_state(game, chips)
            # someone not in the hand may leave, or sit down, mid-hand
            if rng.random() < 0.02:
                idle = [s for s in game.seated if game.can_leave(s)]
                if idle:
                    chips -= game.leave(rng.choice(idle))
            steps += 1
            assert steps < 500
        done = game.take_completed()
        assert done is not None
        assert sum(t.amount for t in done.transfers if t.target == "house") == 0
        check_busted_never_shown(game, done.log)
        check_state(game, chips)
    return played


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_tables(seed: int) -> None:
    play_table(seed, hands=30)


def test_many_random_hands() -> None:
    """A fixed run of about a thousand hands, so the total never depends on hypothesis."""
    played = sum(play_table(seed, hands=100) for seed in range(12))
    assert played >= 900


def test_simulation_stats_and_natural_frequency() -> None:
    report = simulate("vingt-un", hands=2000, seed=1)
    assert report["hands"] == 2000
    assert report["natural_exact"] == round(NATURAL_EXACT, 6) == 0.048265
    players = report["natural_frequency"]["players"]
    dealt = report["player_hands"]
    error = (NATURAL_EXACT * (1 - NATURAL_EXACT) / dealt) ** 0.5
    assert abs(players - NATURAL_EXACT) < 4 * error
    dealer_error = (NATURAL_EXACT * (1 - NATURAL_EXACT) / 2000) ** 0.5
    assert abs(report["natural_frequency"]["dealer"] - NATURAL_EXACT) < 4 * dealer_error
    assert 0.2 < report["dealer_doubled"] < 0.6
    assert report["bank_result_per_chip"] > 0  # ties and players going over favour the bank


def test_simulation_with_every_option() -> None:
    options = {"natural_paid_by_all": True, "natural_takes_deal": False, "max_split_hands": 2}
    report = simulate("vingt-un", hands=500, seed=7, players=9, options=options)
    assert report["hands"] == 500 and report["players"] == 9
