"""En og tredive property tests: random matches played through the engine with random legal
actions (mixed with the bots' play so that rounds reach their ends), checking after every
action that chips are conserved and never negative, that ``legal`` is exact, that every card
is in exactly one place, and that no hidden card reaches another seat or a spectator."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.core.actions import Action, LegalAction, action_fits, random_action
from app.games.core.cards import fixed_seeds
from app.games.en_og_tredive.engine import EnOgTredive
from app.games.en_og_tredive.scoring import FULL_DECK
from app.simulate import seed_stream
from tests.games.test_en_og_tredive_helpers import all_cards, assert_no_leak

DECK = sorted(FULL_DECK)

OPTIONS = st.fixed_dictionaries(
    {
        "bet_unit": st.integers(1, 25),
        "bets": st.integers(1, 4),
        "knock_min": st.integers(15, 31),
        "knock_penalty": st.sampled_from(["lowest", "under_knock_min"]),
    }
)


def near_misses(templates: list[LegalAction], rng: random.Random) -> list[Action]:
    """Actions that must not fit: an unknown kind, a bound one past, a missing or extra key,
    a card not in the hand, too few or too many cards, a card twice."""
    misses: list[Action] = [{"kind": "fold"}, {"kind": "draw"}, {"kind": "knock", "extra": 1}]
    for template in templates:
        kind, params = template["kind"], template["params"]
        action = random_action([template], rng)
        misses.append({**action, "stray": True})
        for name, spec in params.items():
            misses.append({k: v for k, v in action.items() if k != name})
            if "min" in spec and "subset_of" not in spec:
                misses += [{**action, name: spec["min"] - 1}, {**action, name: spec["max"] + 1}]
                misses.append({**action, name: str(spec["min"])})
            elif "one_of" in spec:
                misses.append({**action, name: "nowhere"})
            else:
                pool = spec["subset_of"]
                misses.append({**action, name: [*action[name], "ZZ"]})
                if spec["min"] > 0:
                    misses.append({**action, name: []})
                if len(pool) > spec["max"]:
                    misses.append({**action, name: list(pool)})
                if pool:
                    misses.append({**action, name: [pool[0], pool[0]]})
                hand_card = next((c for c in DECK if c not in pool), None)
                if hand_card is not None:
                    misses.append({**action, name: [hand_card]})
        if kind == "knock":
            misses.append({"kind": "knock", "cards": []})
    return misses


def check_invariants(game: EnOgTredive, total: int, rng: random.Random, *, views: bool) -> None:
    """After every action: chips conserved and never negative, ``to_act`` is exactly the seats
    with something legal, near misses do not fit, every card is in exactly one place, and
    (with ``views``) no hidden card in any other viewer's view."""
    assert sum(game.balances.values()) == total
    assert all(amount >= 0 for amount in game.balances.values())
    bets = {int(a[5:]): n for a, n in game.balances.items() if a.startswith("bets:") and n}
    assert all(n % game.bet_unit == 0 for n in bets.values())
    assert set(bets) <= set(game.match.seats)  # only players still in have bets in front
    if not game.match.seats:  # between matches every chip is back in the stacks
        assert not bets and game.balances.get("pot", 0) == 0
    legal = {seat: game.legal_actions(seat) for seat in game.seated}
    assert game.to_act() == {seat for seat, templates in legal.items() if templates}
    assert game.legal_actions(None) == []
    assert len(game.to_act()) <= 1
    for seat in game.to_act():
        for action in near_misses(legal[seat], rng):
            assert not action_fits(action, legal[seat]), (seat, action, legal[seat])
        waiting = [other for other in legal if other != seat]
        if waiting:
            assert not action_fits(random_action(legal[seat], rng), legal[rng.choice(waiting)])
    if game.in_hand:
        assert all_cards(game) == DECK
        assert game.timer() is not None
    else:
        assert game.timer() is None
    if views:
        if game.in_hand:
            assert_no_leak(game)
        json.dumps(game.view(None))


def choose(game: EnOgTredive, seat: int, rng: random.Random, wildness: float) -> Action:
    """A random legal action, or (to let rounds end) the bot's, or the timeout's."""
    roll = rng.random()
    if roll < wildness:
        return random_action(game.legal_actions(seat), rng)
    if roll < wildness + 0.1:
        actions = game.timeout_actions()
        assert actions and actions[0][0] == seat
        return actions[0][1]
    return game.bot_action(seat, rng)


def play_round(
    game: EnOgTredive,
    total: int,
    rng: random.Random,
    wildness: float,
    twin: EnOgTredive,
    *,
    views: bool = True,
) -> None:
    """Play one round; ``twin`` (restored from the snapshot before it) deals the same start."""
    game.start_hand()
    twin.start_hand()
    for viewer in [*game.seated, None]:
        assert twin.view(viewer) == game.view(viewer)
        assert twin.legal_actions(viewer) == game.legal_actions(viewer)
    for step in range(2000):
        check_invariants(game, total, rng, views=views)
        (seat,) = game.to_act()
        # after a budget of random play the bots finish the round (random discards shrink
        # hands, and with no knocking a round ends only on a 31)
        action = choose(game, seat, rng, wildness if step < 200 else 0.0)
        assert action_fits(action, game.legal_actions(seat)), action
        game.apply(seat, action)
        if not game.in_hand:
            assert game.take_completed() is not None
            check_invariants(game, total, rng, views=views)
            return
    raise AssertionError("a round did not end in 2000 actions")


def restored_twin(game: EnOgTredive, rng: random.Random) -> EnOgTredive:
    """snapshot → JSON → restore; both tables then take the same next shuffle seed."""
    data = json.loads(json.dumps(game.snapshot()))
    twin = EnOgTredive(game.options)
    for seat in game.seated:
        twin.sit(seat, 0)
    twin.balances = dict(game.balances)
    twin.restore(data)
    assert twin.snapshot() == data
    seed = rng.getrandbits(256).to_bytes(32, "big")
    game.seeds, twin.seeds = fixed_seeds(seed), fixed_seeds(seed)
    return twin


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    seats=st.lists(st.integers(0, 7), min_size=2, max_size=8, unique=True),
    options=OPTIONS,
    wildness=st.sampled_from([0.3, 0.6, 0.9]),
)
def test_random_matches_keep_every_invariant(
    seed: int, seats: list[int], options: dict[str, Any], wildness: float
) -> None:
    rng = random.Random(seed)
    game = EnOgTredive(options, seeds=seed_stream(seed))
    for seat in seats:
        game.sit(seat, rng.randint(1, 4) * game.match_chips + rng.randint(0, 5))
    total = sum(game.balances.values())
    for _ in range(5):
        if not game.can_start():
            break
        play_round(game, total, rng, wildness, restored_twin(game, rng))
        if rng.random() < 0.2:  # someone out of the match stands up, someone sits down
            leaving = [seat for seat in game.seated if game.can_leave(seat)]
            if leaving:
                total -= game.leave(rng.choice(leaving))
            free = [seat for seat in range(8) if seat not in game.seated]
            if free:
                game.sit(rng.choice(free), game.match_chips)
                total += game.match_chips
        for seat in sorted(set(game.match.seats) | set(game.match.out)):
            assert seat in game.seated


def test_thousands_of_random_rounds() -> None:
    """Random legal play at every table size, the cheaper invariants after every action."""
    rounds = 0
    for players in range(2, 9):
        rng = random.Random(players)
        options = {"bets": 1 + players % 3, "knock_min": 15 + 2 * players}
        game = EnOgTredive(options, seeds=seed_stream(players))
        for seat in range(players):
            game.sit(seat, 50 * game.match_chips)
        total = sum(game.balances.values())
        for _ in range(120):
            twin = restored_twin(game, rng)
            play_round(game, total, rng, 0.5, twin, views=False)
            rounds += 1
    assert rounds == 840


def test_long_runs_with_the_bots_never_stall() -> None:
    """Bots at every table size: chips conserved, every round and match ends."""
    for players in range(2, 9):
        game = EnOgTredive({"bets": 2}, seeds=seed_stream(players))
        rng = random.Random(players)
        for seat in range(players):
            game.sit(seat, 10_000)
        total = sum(game.balances.values())
        matches = 0
        for _ in range(150):
            game.start_hand()
            while game.in_hand:
                (seat,) = game.to_act()
                game.apply(seat, game.bot_action(seat, rng))
                assert all(amount >= 0 for amount in game.balances.values())
            done = game.take_completed()
            assert done is not None and sum(game.balances.values()) == total
            matches += done.summary["match_winner"] is not None
        assert matches >= 5
