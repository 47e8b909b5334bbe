"""Greek 31's analysis (app/analysis/greek_31.py; docs/analysis.md, Greek 31).

* A player's draw or stand is exact: two positions worked by hand (the fractions in the
  comments), and small random positions against an independent brute force over every order
  of the unseen cards (the concealed card first, then the deck, then the used cards).
* The stake and the dealer's decisions are estimates: against an independent Monte Carlo
  that plays the real engine (the ``steady`` bot for everyone), within 4 sigma; and the
  analysis's own fast replay of a hand against the engine, deal for deal.
* Random hands, every decision analysed; and positions that differ only in cards the seat
  cannot see get identical figures.

Seats are numbered clockwise and play goes to the dealer's right: with seats 0, 1, 2 and
seat 0 dealing, seat 2 plays first, then seat 1.
"""

from __future__ import annotations

import copy
import math
import random
from collections import defaultdict
from itertools import permutations
from typing import Any

import pytest

from app.analysis.figures import Z95, Figures
from app.analysis.greek_31 import (
    ANALYSER,
    _play,
    player_results,
    resample,
    sim_from,
    unseen,
)
from app.analysis.position import Effort, Position
from app.games.core.actions import random_action
from app.games.core.cards import canonical_shoe, fixed_seeds, seeded_source
from app.games.greek_31.engine import Greek31
from app.games.greek_31.scoring import BUST, FOURTEEN, THIRTY_ONE, hand_rank


def table(players: int = 2, stack: int = 1000, **options: Any) -> Greek31:
    game = Greek31(options, seeds=fixed_seeds())
    for seat in range(players):
        game.sit(seat, stack)
    return game


def stacked(game: Greek31, cards: list[str], used: int = 0) -> None:
    """The deck: ``cards`` in deal order; the last ``used`` of them are used cards under
    the deck (shuffled before they are dealt), the rest the last shuffle's."""
    game.stock.cards = list(cards)
    game.fresh = len(cards) - used


def position(game: Greek31, chosen: dict[str, Any] | None = None) -> Position:
    (seat,) = game.to_act()
    return Position(game, seat, game.legal_actions(seat), chosen)


def figures(game: Greek31, effort: int = 100, seed: int = 0) -> dict[str, Figures]:
    verdict = ANALYSER.analyse(position(game), Effort(effort), random.Random(seed))
    return {_name(o.action): o.figures for o in verdict.options}


def _name(action: dict[str, Any]) -> str:
    if action["kind"] == "stake":
        return f"stake {action['amount']}"
    if "conceal" in action:
        return f"stand {action['conceal']}"
    return str(action["kind"])


def close(f: Figures, win: float, tie: float, lose: float, ev: float) -> None:
    assert f.exact
    assert f.win == pytest.approx(win, abs=1e-9)
    assert f.tie == pytest.approx(tie, abs=1e-9)
    assert f.lose == pytest.approx(lose, abs=1e-9)
    assert f.ev == pytest.approx(ev, abs=1e-9)


# --------------------------------------------------------------------------- hand-worked


def test_against_a_fourteen_worked_by_hand() -> None:
    """Seat 1 holds K-9 (19) against the dealer's A-3 (14, shown); the deck holds 2, Q, A.

    Against a 14 only 31 wins (§2.3), so standing loses the 10 staked. Drawing, each card
    a third:
    * 2 (21): the next card is Q (31, paid) or A (22, and then only Q: bust), a half each,
      so drawing on is worth 0 (standing: -1);
    * Q (29): 2 makes 31, A makes 30 and the last card 2 busts it: again a half;
    * A (K-9-A is 20 or 30: 30): 2 makes 22 and Q makes 30 (the ace counting 1), both
      losing to a 14, and the last card busts either: lost.
    So drawing wins 1/3 and loses 2/3: ev -1/3 of the stake.
    """
    game = table()
    stacked(game, ["KS", "AS", "3D", "9H", "2C", "QH", "AH"])
    game.start_hand()
    game.apply(1, {"kind": "stake", "amount": 10})
    game.apply(0, {"kind": "draw"})  # AS was drawn at once; 3D: 14
    game.apply(0, {"kind": "stand"})
    game.apply(1, {"kind": "draw"})  # 9H
    assert game.hand is not None and game.hand.cards[1] == ["KS", "9H"]
    found = figures(game)
    close(found["stand"], 0, 0, 1, -10)
    close(found["draw"], 1 / 3, 0, 2 / 3, -10 / 3)


def test_against_a_concealed_card_worked_by_hand() -> None:
    """Seat 1 holds T-9 (19); the dealer shows K-8 and conceals one card; the seat cannot
    see Q, 9, 3 and 6 (one is the concealed card, the others the deck).

    Each of them leaves the dealer an ordinary stand (28, 27, 21, 24), so the concealed card
    is any of the four alike, and so is the next card drawn. Standing on 19 loses to all.
    Drawing:
    * Q (29) beats every dealer's hand left: won.
    * 9 (28): the dealer is 28 (a tie loses), 27 or 21: standing wins 2/3; drawing again
      makes 31 only with the 3 (1/3) and busts otherwise (ev -1/3): stand, ev 1/3.
    * 3 (22) loses to all; drawing: Q busts, 9 makes 31, 6 makes 28 against 28 or 27
      (stand: a half; drawing busts): win 1/3 + 1/6 = 1/2, ev 0.
    * 6 (25) beats only 21: stand, win 1/3 (drawing: Q and 9 bust, 3 makes 28 worth 0: ev
      -2/3, worse than -1/3).
    So drawing wins (1 + 2/3 + 1/2 + 1/3)/4 = 5/8, loses 3/8: ev 1/4 of the stake.
    """
    game = table()
    stacked(game, ["TS", "KD", "8C", "6H", "9S", "QH", "9D", "3C"])
    game.start_hand()
    game.apply(1, {"kind": "stake", "amount": 10})
    game.apply(0, {"kind": "draw"})  # KD at once, 8C
    game.apply(0, {"kind": "draw"})  # 6H: 24
    game.apply(0, {"kind": "stand", "conceal": 2})
    game.apply(1, {"kind": "draw"})  # 9S: 19
    found = figures(game)
    close(found["stand"], 0, 0, 1, -10)
    close(found["draw"], 5 / 8, 0, 3 / 8, 2.5)


def test_a_card_that_would_have_been_shown_is_not_the_concealed_one() -> None:
    """The dealer shows K-Q and conceals one card; the seat cannot see A, 5 and 9. K-Q-A is
    31, which the dealer would have shown (§2.6): so the concealed card is the 5 or the 9
    (25 or 29), a half each, never the ace.

    Seat 1 holds T-8-9 (27): standing beats 25 and loses to 29, a half (ev 0). Drawing: the
    next card is the ace with chance (1·2 - 0)/(2·2) = 1/2 (it is never the hidden one), the
    5 or the 9 a quarter each, and those bust. The ace makes 28 (the ace as 1): the dealer
    is still 25 or 29, standing wins a half (drawing again busts). So drawing wins 1/4 and
    loses 3/4: ev -1/2 of the stake. (Were the ace a possible concealed card, standing on 27
    would win only 1/3.)
    """
    game = table()
    stacked(game, ["TS", "KD", "QC", "9H", "8S", "9S", "5H", "AD"])
    game.start_hand()
    game.apply(1, {"kind": "stake", "amount": 10})
    game.apply(0, {"kind": "draw"})  # KD at once, QC
    game.apply(0, {"kind": "draw"})  # 9H: 29
    game.apply(0, {"kind": "stand", "conceal": 2})
    game.apply(1, {"kind": "draw"})  # 8S
    game.apply(1, {"kind": "draw"})  # 9S: 27
    found = figures(game)
    close(found["stand"], 0.5, 0, 0.5, 0)
    close(found["draw"], 0.25, 0, 0.75, -5)


# --------------------------------------------------------------------------- brute force


def brute_force(game: Greek31, seat: int) -> dict[str, tuple[float, float, float, float]]:
    """Stand and draw for one chip, by every order of the unseen cards: the concealed card
    first (only one that leaves an ordinary stand), then the rest of the deck, then the
    used cards; the player then stands or draws, whichever is worth more at each point,
    knowing only the cards drawn so far."""
    hand = game.hand
    assert hand is not None
    rule, heath = game.ace_rule, game.heath

    def rank(cards: list[str]) -> int:
        return hand_rank(cards, rule, heath)

    fresh = game.stock.cards[: game.fresh]
    used = game.stock.cards[game.fresh :]
    orders: list[tuple[int, tuple[str, ...]]] = []
    if hand.revealed:
        for deck in permutations(fresh):
            for tail in permutations(used):
                orders.append((rank(hand.dealer_cards), deck + tail))
    else:
        shown = hand.shown_dealer_cards()
        pool = [*fresh, hand.dealer_cards[hand.concealed or 0]]
        for order in permutations(pool):
            dealer = rank([*shown, order[0]])
            if 0 <= dealer < FOURTEEN:
                for tail in permutations(used):
                    orders.append((dealer, order[1:] + tail))

    def stand(cards: list[str], group: list[tuple[int, tuple[str, ...]]]) -> tuple[float, ...]:
        win = sum(1 for dealer, _ in group if rank(cards) > dealer) / len(group)
        return (win, 0.0, 1 - win, 2 * win - 1)

    def draw(cards: list[str], group: list[tuple[int, tuple[str, ...]]]) -> tuple[float, ...]:
        k = len(cards) - len(hand.cards[seat])
        nexts: dict[str | None, list[tuple[int, tuple[str, ...]]]] = defaultdict(list)
        for dealer, deck in group:
            nexts[deck[k] if k < len(deck) else None].append((dealer, deck))
        total = [0.0, 0.0, 0.0, 0.0]
        for card, sub in nexts.items():
            if card is None:
                result: tuple[float, ...] = (0.0, 1.0, 0.0, 0.0)  # void
            elif rank([*cards, card]) == BUST:
                result = (0.0, 0.0, 1.0, -1.0)
            elif rank([*cards, card]) == THIRTY_ONE:
                result = (1.0, 0.0, 0.0, 1.0)
            else:
                result = best([*cards, card], sub)
            for i in range(4):
                total[i] += result[i] * len(sub) / len(group)
        return tuple(total)

    def best(cards: list[str], group: list[tuple[int, tuple[str, ...]]]) -> tuple[float, ...]:
        s, d = stand(cards, group), draw(cards, group)
        return d if d[3] > s[3] + 1e-12 else s

    mine = list(hand.cards[seat])
    return {"stand": stand(mine, orders), "draw": draw(mine, orders)}  # type: ignore[dict-item]


def small_position(
    rng: random.Random, rule: str, heath: bool, fourteen: bool
) -> tuple[Greek31, int] | None:
    """A hand dealt from a short deck (one deck's cards in a random order, cut short, some
    of them used cards), played by random choices to a player's draw or stand with at most
    five cards left in the deck; with ``fourteen`` the dealer's first two cards make 14 and
    the dealer stands on them. None when the hand ends first."""
    game = table(2, ace_rule=rule, heath=heath)
    cards = canonical_shoe(1)
    rng.shuffle(cards)
    if fourteen:
        pairs = [
            (a, b)
            for i, a in enumerate(cards[1:12], 1)
            for b in cards[i + 1 : 12]
            if hand_rank([a, b], game.ace_rule, heath) >= FOURTEEN
            and hand_rank([a, b], game.ace_rule, heath) != THIRTY_ONE
        ]
        if not pairs:
            return None
        a, b = rng.choice(pairs)
        cards = [cards[0], a, b, *(c for c in cards[1:] if c not in (a, b))]
    stacked(game, cards[: rng.randint(7, 10)], used=rng.choice([0, 0, 1, 2]))
    game.seeds = seeded_source(rng.randbytes(32))
    game.start_hand()
    game.apply(1, {"kind": "stake", "amount": 10})
    if fourteen:
        game.apply(0, {"kind": "draw"})
        game.apply(0, {"kind": "stand"})
    while game.in_hand:
        hand = game.hand
        assert hand is not None
        if hand.phase == "players" and len(game.stock.cards) <= 5:
            return game, 1
        (seat,) = game.to_act()
        game.apply(seat, random_action(game.legal_actions(seat), rng))
    return None


@pytest.mark.parametrize(
    ("rule", "heath"),
    [("at_least_one_high", False), ("alternating", True), ("at_most_one_low", False)],
)
def test_exact_figures_match_a_brute_force_over_every_order(rule: str, heath: bool) -> None:
    """Against a concealed card (20 positions) and against a 14 (10), some drawing into the
    used cards under the deck; positions where both options are sure to win or to lose are
    passed over."""
    rng = random.Random(f"greek brute {rule}")
    for fourteen, wanted in ((False, 20), (True, 10)):
        checked = 0
        while checked < wanted:
            found = small_position(rng, rule, heath, fourteen)
            if found is None:
                continue
            game, seat = found
            mine = player_results(game, seat)
            if all(result[0] in (0.0, 1.0) for result in mine.values()):
                continue  # decided either way: a weak check
            theirs = brute_force(game, seat)
            for kind in ("stand", "draw"):
                assert mine[kind] == pytest.approx(theirs[kind], abs=1e-9), (kind, game.hand)
            checked += 1


# --------------------------------------------------------------------------- estimates


def dealt(seed: str, players: int = 4, **options: Any) -> Greek31:
    """A table of ``players`` with a deck shuffled from ``seed``, a hand or two played by the
    steady bot first (so that used cards lie under the deck), and a new hand dealt."""
    game = Greek31(options, seeds=seeded_source(seed.encode().ljust(32, b".")[:32]))
    for seat in range(players):
        game.sit(seat, 1000)
    rng = random.Random(seed)
    for _ in range(rng.randint(0, 2)):
        game.start_hand()
        while game.in_hand:
            (seat,) = game.to_act()
            game.apply(seat, game.bot_action(seat, rng))
        game.take_completed()
    game.start_hand()
    return game


def play_to(game: Greek31, phase: str, rng: random.Random, *, draws: int = 0) -> None:
    """Play on with the steady bot until ``phase``; in the dealer's phase, ``draws`` more
    cards first."""
    hand = game.hand
    assert hand is not None
    while hand.phase != phase:
        (seat,) = game.to_act()
        game.apply(seat, game.bot_action(seat, rng))
    for _ in range(draws):
        game.apply(hand.dealer, {"kind": "draw"})


def monte_carlo(
    game: Greek31, seat: int, action: dict[str, Any], samples: int, rng: random.Random
) -> tuple[float, float]:
    """The seat's chips with ``action``, by playing the real engine: the deck's not-yet-dealt
    cards shuffled (and the used cards under them), then the steady bot for everyone.
    Returns the mean and its standard error."""
    fresh = game.fresh if game.fresh is not None else len(game.stock.cards)
    total = squares = 0.0
    for _ in range(samples):
        twin = copy.deepcopy(game)
        twin.seeds = seeded_source(rng.randbytes(32))
        top, bottom = twin.stock.cards[:fresh], twin.stock.cards[fresh:]
        rng.shuffle(top)
        rng.shuffle(bottom)
        twin.stock.cards = top + bottom
        before = twin.stack(seat)
        twin.apply(seat, dict(action))
        while twin.in_hand:
            (who,) = twin.to_act()
            twin.apply(who, twin.bot_action(who, rng))
        net = twin.stack(seat) - before
        total += net
        squares += net * net
    mean = total / samples
    variance = squares / samples - mean * mean
    return mean, math.sqrt(max(variance, 0.0) / samples)


def within_4_sigma(estimate: Figures, mean: float, error: float) -> None:
    sigma = math.hypot(estimate.half_width / Z95, error)
    assert abs(estimate.ev - mean) <= 4 * sigma + 1e-9, (estimate, mean, error)


def test_a_stake_against_the_engine() -> None:
    """Seat 1, the second to stake of three players (seat 3 has staked): one chip's
    result, scaled to the stakes, against the engine played out with the later player in."""
    game = dealt("stake position")
    rng = random.Random(5)
    play_to(game, "staking", rng)
    (first,) = game.to_act()
    game.apply(first, game.bot_action(first, rng))
    (seat,) = game.to_act()
    found = figures(game, effort=3000, seed=1)
    low = int(game.legal_actions(seat)[0]["params"]["amount"]["min"])
    high = int(game.legal_actions(seat)[0]["params"]["amount"]["max"])
    assert found[f"stake {high}"].ev == pytest.approx(found[f"stake {low}"].ev * high / low)
    mean, error = monte_carlo(game, seat, {"kind": "stake", "amount": low}, 2000, rng)
    within_4_sigma(found[f"stake {low}"], mean, error)


def test_the_dealers_options_against_the_engine() -> None:
    """The dealer holding two cards: drawing and each way of standing, against the engine
    played out by the steady bot for every player."""
    game = dealt("dealer position")
    rng = random.Random(6)
    play_to(game, "dealer", rng, draws=1)
    hand = game.hand
    assert hand is not None and len(hand.dealer_cards) == 2
    found = ANALYSER.analyse(position(game), Effort(1500), random.Random(2))
    assert len(found.options) >= 2
    for option in found.options:
        mean, error = monte_carlo(game, hand.dealer, option.action, 1000, rng)
        within_4_sigma(option.figures, mean, error)


def test_the_fast_replay_plays_the_hand_as_the_engine_does() -> None:
    """The analysis replays hands on plain lists (:class:`Sim`): deal for deal, it must end
    every hand as the engine does (the steady bot for everyone). Deals in which the engine
    reshuffled the used cards are left out (the two shuffle them differently)."""
    rng = random.Random(7)
    compared = 0
    for index in range(12):
        game = dealt(f"replay {index}", players=rng.randint(2, 6))
        hand = game.hand
        assert hand is not None
        play_to(game, "dealer", rng, draws=rng.randint(0, 2))
        if not game.in_hand:
            continue
        for action in ANALYSER.analyse(position(game), Effort(1), rng).options:
            for _ in range(5):
                twin = resample(copy.deepcopy(game), hand.dealer, rng)
                sim = sim_from(twin, hand.dealer, dict(hand.stakes))
                fresh = twin.fresh if twin.fresh is not None else len(twin.stock.cards)
                sim.fresh = list(reversed(twin.stock.cards[:fresh]))
                sim.used = list(twin.stock.cards[fresh:])
                stacks = {s: twin.stack(s) for s in twin.seated}
                twin.apply(hand.dealer, dict(action.action))
                while twin.in_hand:
                    (who,) = twin.to_act()
                    twin.apply(who, twin.bot_action(who, rng))
                done = twin.take_completed()
                assert done is not None
                if any(e["kind"] == "shuffle" for e in done.log) or done.summary["void"]:
                    continue
                net = _play(sim, action.action)
                assert net is not None
                for seat, stake in hand.stakes.items():
                    assert twin.stack(seat) - stacks[seat] == net[seat], (action, seat, stake)
                compared += 1
    assert compared >= 60


# --------------------------------------------------------------------------- random hands


def test_random_hands_analysed() -> None:
    """Hands played by the steady bot and by random choices (2 to 7 players, every ace
    rule, Heath's version): every decision analysed, its chances summing to 1, the chosen
    action among the options, exact figures where they should be."""
    rng = random.Random(8)
    rules = ["at_least_one_high", "at_most_one_low", "alternating"]
    analysed = 0
    hands = 0
    while hands < 60:
        heath = rng.random() < 0.2
        game = dealt(
            f"random {hands}", players=rng.randint(2, 7), ace_rule=rng.choice(rules), heath=heath
        )
        hands += 1
        wild = rng.random() < 0.5
        while game.in_hand:
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            action = random_action(legal, rng) if wild else game.bot_action(seat, rng)
            spot = Position(game, seat, legal, action)
            if ANALYSER.decides(spot):
                verdict = ANALYSER.analyse(spot, Effort(8), rng)
                assert sum(1 for o in verdict.options if o.action == action) == 1
                phase = game.hand.phase if game.hand else ""
                for option in verdict.options:
                    f = option.figures
                    assert f.win + f.tie + f.lose == pytest.approx(1.0)
                    assert min(f.win, f.tie, f.lose) >= -1e-12
                    assert f.exact == (phase == "players")
                analysed += 1
            game.apply(seat, action)
    assert analysed > 300


def test_positions_differing_only_in_unseen_cards_get_the_same_figures() -> None:
    """The seat's unseen cards dealt afresh (a player: the deck and the dealer's concealed
    card; the dealer: the deck): the same figures, with the same random numbers."""
    rng = random.Random(9)
    checked = defaultdict(int)
    for index in range(30):
        game = dealt(f"hidden {index}", players=rng.randint(2, 5))
        while game.in_hand:
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            action = game.bot_action(seat, rng)
            spot = Position(game, seat, legal, action)
            if ANALYSER.decides(spot) and rng.random() < 0.5:
                other = resample(copy.deepcopy(game), seat, random.Random(index))
                assert unseen(other, seat) == unseen(game, seat)
                mine = ANALYSER.analyse(spot, Effort(30), random.Random(3))
                theirs = ANALYSER.analyse(
                    Position(other, seat, legal, action), Effort(30), random.Random(3)
                )
                assert mine.options == theirs.options
                checked[game.hand.phase if game.hand else ""] += 1
            game.apply(seat, action)
    assert min(checked.values()) >= 10 and len(checked) == 3
