"""Trianta Ena's analysis (app/analysis/trianta_ena.py; docs/rules.md §1).

* Positions worked by hand and by an independent brute force over every order of a small
  unseen pool (with the engine's own scoring), compared exactly;
* the exact figures against simulated rounds of the real engine (within 4 sigma), the bet's
  estimates against the real engine's rounds;
* bots' hands, every decision analysed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from app.analysis.figures import Figures, Tally
from app.analysis.position import Effort, Position
from app.analysis.rollout import detached, net_of, play_out
from app.analysis.trianta_ena import (
    ANALYSER,
    Rules,
    add,
    banker_distribution,
    resample,
    worth,
)
from app.games.core.actions import action_fits
from app.games.core.cards import canonical_shoe, fixed_seeds, seeded_source
from app.games.core.game import Game
from app.games.trianta_ena.engine import TriantaEna
from app.games.trianta_ena.scoring import banker_draws, settle, value
from app.games.trianta_ena.state import BUST

# --------------------------------------------------------------------------- helpers


def act(game: Game, seat: int, kind: str, **params: Any) -> None:
    action = {"kind": kind, **params}
    assert action_fits(action, game.legal_actions(seat)), (action, game.legal_actions(seat))
    game.apply(seat, action)


def built(
    mine: list[str], up: str, pool: list[str], *, stake: int = 10, **options: Any
) -> TriantaEna:
    """Seat 1's turn with ``mine`` against the banker's ``up``, the unseen cards exactly
    ``pool`` (the banker's face-down card ``pool[0]``, the stock the rest in order): every
    other card of the one-deck shoe lies face up in seat 2's hand, gone bust."""
    game = TriantaEna({"decks": 1, **options}, seeds=fixed_seeds())
    for seat in range(3):
        game.sit(seat, game.buy_in_limits(seat)[0])
    game.start_hand()
    act(game, 1, "bet", amount=stake)
    act(game, 2, "bet", amount=10)
    round_ = game.round
    assert round_ is not None and round_.phase == "playing"
    filler = Counter(canonical_shoe(1)) - Counter([*mine, up, *pool])
    assert sum(filler.values()) == 52 - len(mine) - 1 - len(pool)
    round_.hands[1].cards = list(mine)
    other = round_.hands[2]
    other.cards, other.shown, other.status = sorted(filler.elements()), True, BUST
    round_.banker_cards = [up, pool[0]]
    round_.turn = 1
    game.stock.cards = list(pool[1:])
    game.discard = []
    return game


def figures(game: Game, seat: int = 1, effort: int = 200, seed: int = 0) -> dict[str, Figures]:
    """The analysis of ``seat``'s decision, by action (``bet 5`` for a bet of 5)."""
    verdict = ANALYSER.analyse(
        Position(game, seat, game.legal_actions(seat)), Effort(effort), random.Random(seed)
    )
    out = {}
    for option in verdict.options:
        action = option.action
        name = action["kind"] + (f" {action['amount']}" if "amount" in action else "")
        out[name] = option.figures
    return out


def brute(
    mine: list[str], up: str, pool: list[str], rules: Rules
) -> tuple[Fraction, Fraction | None]:
    """Independently: seat 1's chance to win standing and hitting (then at best), over every
    order of ``pool`` (the banker's face-down card first, the stock after), with the engine's
    own scoring. The seat's information after each hit is the cards it drew."""
    orders = list(itertools.permutations(pool))

    def banker_wins(order: tuple[str, ...], used: int, hand: list[str]) -> bool:
        banker = [up, order[0]]
        rest = list(order[1 + used :])
        while banker_draws(banker, rules.ace_rule, rules.stands_on):
            assert rest, "the pool ran out: choose a larger one"
            banker.append(rest.pop(0))
        return not settle(hand, banker, rules.ace_rule, rules.natural_cards).won

    def best(drawn: tuple[str, ...], allowed: list[tuple[str, ...]]) -> Fraction:
        hand = [*mine, *drawn]
        if value(hand, rules.ace_rule) is None:
            return Fraction(0)
        stand = Fraction(sum(not banker_wins(o, len(drawn), hand) for o in allowed), len(allowed))
        if value(hand, rules.ace_rule) == 31:
            return stand
        return max(stand, hit(drawn, allowed))

    def hit(drawn: tuple[str, ...], allowed: list[tuple[str, ...]]) -> Fraction:
        following: dict[str, list[tuple[str, ...]]] = {}
        for order in allowed:
            following.setdefault(order[1 + len(drawn)], []).append(order)
        return sum(
            (Fraction(len(group), len(allowed)) * best((*drawn, card), group))
            for card, group in following.items()
        ) or Fraction(0)

    hand = list(mine)
    stand = Fraction(sum(not banker_wins(o, 0, hand) for o in orders), len(orders))
    if value(hand, rules.ace_rule) == 31:
        return stand, None
    return stand, hit((), orders)


def chips(win: Fraction | float, stake: int = 10) -> float:
    return float(stake * (2 * win - 1))


# --------------------------------------------------------------------------- worked by hand


def test_a_position_worked_by_hand() -> None:
    """Seat 1 holds 9-T-4 (23) against a king; the unseen cards are 5, 7, K, K.

    Standing on 23 wins only when the banker busts. The banker's face-down card is each of
    the four with 1/4:
    * 5: 15, then 7 (22, then a king: 32) or a king (25, then 7 or K: bust): bust, 1/4;
    * 7: 17, then 5 (22, then K: 32, bust) 1/3 or K (27, stands) 2/3: 1/4 · 1/3 = 1/12;
    * K (2/4): 20, then 5 (25, then 7 or K: bust) 1/3, 7 (27) or K (30): 1/2 · 1/3 = 1/6.
    P(win) = 1/4 + 1/12 + 1/6 = 1/2; ev = 10 · (2 · 1/2 - 1) = 0.

    Hitting: a king (2/4) busts. A 5 (1/4) makes 28: hitting again busts on 7 or K; standing,
    the banker turns 7 (1/3: 17, K: 27 < 28, won) or K (2/3: 20, then 7: 27 won, or K: 30
    lost): 1/3 + 2/3 · 1/2 = 2/3. A 7 (1/4) makes 30: standing, the banker turns 5 (1/3: 15,
    K 25, K 35: bust, won) or K (2/3: 20, then 5: 25, K: 35 won; or K: 30, a tie, lost):
    2/3 again. P(win) = 1/4 · 2/3 + 1/4 · 2/3 = 1/3; ev = 10 · (2/3 - 1) = -10/3.
    """
    game = built(["9S", "TS", "4S"], "KS", ["KD", "5H", "7H", "KH"])
    found = figures(game)
    assert found["stand"].exact and found["hit"].exact
    assert found["stand"].win == pytest.approx(1 / 2, abs=1e-9)
    assert found["stand"].ev == pytest.approx(0.0, abs=1e-9)
    assert found["hit"].win == pytest.approx(1 / 3, abs=1e-9)
    assert found["hit"].ev == pytest.approx(-10 / 3, abs=1e-9)
    assert found["hit"].tie == 0 and found["hit"].lose == pytest.approx(2 / 3, abs=1e-9)
    # the same by brute force over the 24 orders of the pool
    stand, hit = brute(
        ["9S", "TS", "4S"], "KS", ["KD", "5H", "7H", "KH"], Rules("at_most_one_low", 27, "face")
    )
    assert (stand, hit) == (Fraction(1, 2), Fraction(1, 3))


# positions, brute-forced: (seat 1's cards, the up card, the unseen pool, table options)
BRUTE = [
    # a low hand: hits are safe, then a choice at 22 and over
    (["5S", "4S", "3S"], "9S", ["2H", "6H", "TH", "8D", "9D", "AH", "QC"], {}),
    # aces under each rule, the banker's up card an ace (a natural possible: A with J, Q)
    (["AS", "AD", "6S"], "AC", ["JH", "QD", "2H", "7C", "5D", "TH", "3C"], {}),
    (
        ["AS", "AD", "2S"],
        "AC",
        ["JH", "AH", "9H", "7C", "8D", "TH", "KC"],
        {"ace_rule": "at_least_one_high"},
    ),
    (
        ["AS", "AD", "2S"],
        "KC",
        ["AH", "QD", "2H", "7C", "5D", "TH", "3C"],
        {"ace_rule": "alternating", "natural_cards": "ten"},
    ),
    # the banker's up card a face card: an ace and a J/Q/K is its natural, a ten is not
    (["8S", "7S", "6S"], "QC", ["AH", "JD", "TH", "4C", "9H", "3C", "5H"], {}),
    (
        ["8S", "7S", "6S"],
        "QC",
        ["AH", "JD", "TH", "4C", "9H", "3C", "5H"],
        {"natural_cards": "ten", "dealer_stands_on": 25},
    ),
    # the banker stands low: 22 and over wins more often
    (
        ["TS", "6S", "7S"],
        "5C",
        ["KH", "4D", "3H", "8C", "AD", "6H", "JC"],
        {"dealer_stands_on": 21},
    ),
]


@pytest.mark.parametrize(("mine", "up", "pool", "options"), BRUTE)
def test_exact_figures_match_a_brute_force_over_every_order(
    mine: list[str], up: str, pool: list[str], options: dict[str, Any]
) -> None:
    game = built(mine, up, pool, **options)
    opts = game.options
    rules = Rules(opts["ace_rule"], opts["dealer_stands_on"], opts["natural_cards"])
    stand, hit = brute(mine, up, pool, rules)
    found = figures(game)
    assert found["stand"].win == pytest.approx(float(stand), abs=1e-9)
    assert found["stand"].ev == pytest.approx(chips(stand), abs=1e-9)
    assert hit is not None
    assert found["hit"].win == pytest.approx(float(hit), abs=1e-9)
    assert found["hit"].ev == pytest.approx(chips(hit), abs=1e-9)


def test_a_natural_only_stands_and_loses_only_to_the_banker_natural() -> None:
    """A-K-Q with faces: a natural (§1.3), only ``stand`` offered (§1.5): no decision. The
    banker (up: an ace) has a natural only with J/Q/K as face-down card and first draw: from
    the pool J, Q, 9, 5, 2 that is 2/5 · 1/4 = 1/10."""
    game = built(["AS", "KS", "QS"], "AC", ["JH", "QD", "9C", "5D", "2H"])
    position = Position(game, 1, game.legal_actions(1), {"kind": "stand"})
    assert not ANALYSER.decides(position)
    found = figures(game)
    assert list(found) == ["stand"]
    assert found["stand"].win == pytest.approx(1 - 1 / 10, abs=1e-9)


def test_the_banker_distribution_from_a_full_shoe() -> None:
    """The banker's outcomes from a full two-deck shoe less its up card sum to 1; with a
    king up the natural needs an ace and a face card (§1.3)."""
    rules = Rules("at_most_one_low", 27, "face")
    pool = [8] * 9 + [8, 24]
    pool[10] -= 1
    found = banker_distribution(rules, 10, tuple(pool))
    assert sum(found) == pytest.approx(1.0, abs=1e-12)
    # natural: face-down and first draw are {A, J/Q/K} in either order, from 103 cards
    assert found[-1] == pytest.approx(2 * 8 * 23 / (103 * 102), abs=1e-12)


@pytest.mark.parametrize("ace_rule", ["at_most_one_low", "at_least_one_high", "alternating"])
def test_worth_21_or_less_gains_from_any_card(ace_rule: str) -> None:
    """The shortcut of the exact enumeration: a hand worth 21 or less is worth more after
    any card, and never bust (so hitting it is at least as good as standing)."""
    for base in range(0, 32):
        for aces in range(0, 5):
            v = worth(base, aces, ace_rule)
            if v is None or v > 21:
                continue
            for cls in range(11):
                after = worth(*add(base, aces, cls), ace_rule)
                assert after is not None and after > v, (base, aces, cls)


# --------------------------------------------------------------------------- against the engine


def seeded_turn(seed: int, low: int, high: int) -> tuple[TriantaEna, int]:
    """A two-deck table of three bots, played by the bots to the first turn whose hand is
    worth ``low`` to ``high``, some rounds into the shoe (a discard pile)."""
    rng = random.Random(seed)
    game = TriantaEna({}, seeds=seeded_source(seed.to_bytes(4, "big") * 8))
    for seat in range(4):
        game.sit(seat, game.buy_in_limits(seat)[0])
    for _ in range(200):
        if not game.in_hand:
            while game.to_act():
                seat = min(game.to_act())
                game.apply(seat, game.bot_action(seat, rng))
            game.start_hand()
        seat = min(game.to_act())
        round_ = game.round
        assert round_ is not None
        if round_.phase == "playing" and game.discard:
            v = value(round_.hands[seat].cards, game.ace_rule)
            if v is not None and low <= v <= high:
                return game, seat
        game.apply(seat, game.bot_action(seat, rng))
    raise AssertionError("no such turn")


def redeal(engine: Game, seat: int, rng: random.Random) -> Game:
    """The test's own re-deal: the cards seat cannot see (the others' face-down cards not
    shown, the banker's, the stock, the discard pile) shuffled among their places."""
    assert isinstance(engine, TriantaEna) and engine.round is not None
    round_ = engine.round
    places: list[tuple[list[str], int]] = [
        (round_.hands[s].cards, 0) for s in round_.order if s != seat and not round_.hands[s].shown
    ]
    if len(round_.banker_cards) > 1 and not round_.hole_shown:
        places.append((round_.banker_cards, 1))
    places += [(engine.stock.cards, i) for i in range(len(engine.stock.cards))]
    places += [(engine.discard, i) for i in range(len(engine.discard))]
    cards = [where[i] for where, i in places]
    rng.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    return engine


def within(exact_win: float, tally: Tally, stake: int) -> None:
    """The tally's winning share agrees with the exact chance within 4 sigma."""
    n = tally.n
    sigma = math.sqrt(exact_win * (1 - exact_win) / n)
    assert abs(tally.wins / n - exact_win) <= 4 * sigma + 1e-12, (tally.wins / n, exact_win)


@pytest.mark.parametrize(("seed", "low", "high"), [(3, 22, 26), (8, 27, 30), (11, 12, 20)])
def test_standing_matches_the_engine(seed: int, low: int, high: int) -> None:
    """Stand, then the real engine plays on (the later players as bots, the banker by its
    rule, reshuffles and all): the share of won rounds agrees with the exact chance."""
    game, seat = seeded_turn(seed, low, high)
    found = figures(game, seat)
    stake = game.round.hands[seat].stake  # type: ignore[union-attr]
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(600):
        twin = redeal(detached(game, rng), seat, rng)
        twin.apply(seat, {"kind": "stand"})
        tally.add(net_of(play_out(twin, rng), seat))
    within(found["stand"].win, tally, stake)
    assert found["stand"].ev == pytest.approx(stake * (2 * found["stand"].win - 1), abs=1e-9)


def test_hitting_matches_the_engine_played_by_the_analysis() -> None:
    """Hit, then take each later decision as the analysis says is best: in the real engine
    the share of won rounds agrees with the exact chance of ``hit``."""
    game, seat = seeded_turn(5, 24, 27)
    found = figures(game, seat)
    rng = random.Random(1)
    tally = Tally()
    best: dict[tuple[str, ...], str] = {}  # by the ranks drawn: the same view, the same choice
    for _ in range(400):
        twin = redeal(detached(game, rng), seat, rng)
        twin.apply(seat, {"kind": "hit"})
        while seat in twin.to_act():
            ranks = tuple(card[0] for card in twin.round.hands[seat].cards)  # type: ignore[union-attr]
            if ranks not in best:
                later = figures(twin, seat)
                best[ranks] = max(later, key=lambda k: later[k].ev)
            twin.apply(seat, {"kind": best[ranks]})
        tally.add(net_of(play_out(twin, rng), seat))
    within(found["hit"].win, tally, 1)


def seeded_window(seed: int, **options: Any) -> tuple[TriantaEna, int]:
    """A two-deck table of four bots at the betting window, some rounds into the shoe, the
    last bettor in seat order to decide, those before it having bet."""
    rng = random.Random(seed)
    game = TriantaEna(options, seeds=seeded_source(seed.to_bytes(4, "big") * 8))
    for seat in range(5):
        game.sit(seat, game.buy_in_limits(seat)[0])
    for _ in range(3):
        game.start_hand()
        while game.in_hand:
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, rng))
        while game.to_act():
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, rng))
    game.start_hand()
    round_ = game.round
    assert round_ is not None
    *first, last = round_.order
    for seat in first[:2]:
        game.apply(seat, game.bot_action(seat, rng))
    return game, last


def test_the_bet_estimates_match_the_engine() -> None:
    """Each bet's estimate against the real engine's rounds (the test's own re-deal, the
    bots playing), within 4 sigma of the two estimates together; the fold is exact."""
    game, seat = seeded_window(4)
    found = figures(game, seat, effort=3000, seed=2)
    assert found["fold"] == Figures(0.0, 1.0, 0.0, 0.0, True)
    rng = random.Random(3)
    for name in ("bet 1", f"bet {game.stack(seat)}"):
        amount = int(name.split()[1])
        tally = Tally()
        for _ in range(700):
            twin = redeal(detached(game, rng), seat, rng)
            twin.apply(seat, {"kind": "bet", "amount": amount})
            tally.add(net_of(play_out(twin, rng), seat))
        engine = tally.figures()
        mine = found[name]
        sigma = math.hypot(engine.half_width, mine.half_width) / 1.959963984540054
        assert abs(engine.ev - mine.ev) <= 4 * sigma, (name, engine, mine)


def test_a_bet_the_bank_cannot_cover_is_cut() -> None:
    """§0.6: with 15 chips in the bank and 10 bet before it, any bet of 5 or more stakes 5:
    the figures of 5 and of the whole stack are the same deals, the same chips."""
    game, seat = seeded_window(6)
    round_ = game.round
    assert round_ is not None
    banker = round_.banker
    game.balances[f"seat:{banker}"] = 15
    first = round_.order[0]
    round_.hands[first].status, round_.hands[first].bet = "bet", 10
    for other in round_.order[1:-1]:
        round_.hands[other].status = "folded"
    stack = game.stack(seat)
    verdict = ANALYSER.analyse(
        Position(game, seat, game.legal_actions(seat), {"kind": "bet", "amount": 5}),
        Effort(300),
        random.Random(0),
    )
    by_amount = {o.action.get("amount"): o.figures for o in verdict.options}
    assert set(by_amount) == {None, 1, 5, stack}
    assert by_amount[5] == by_amount[stack]
    assert max(abs(by_amount[5].ev), abs(by_amount[1].ev)) > 0
    # nothing left to cover: every bet is refused, nothing changes hands
    game.balances[f"seat:{banker}"] = 10
    verdict = ANALYSER.analyse(
        Position(game, seat, game.legal_actions(seat)), Effort(50), random.Random(0)
    )
    for option in verdict.options:
        assert option.figures.ev == 0 and option.figures.tie == 1


def test_the_resample_keeps_what_the_seat_sees() -> None:
    """The re-deal changes only cards the seat cannot see, and a re-dealt table gets the
    same figures (they depend on what the seat sees)."""
    game, seat = seeded_turn(3, 22, 26)
    twin = resample(detached(game, random.Random(0)), seat, random.Random(9))
    assert twin.view(seat) == game.view(seat)
    assert Counter(twin.stock.cards + twin.discard) != Counter() or not game.stock.cards
    assert figures(twin, seat) == figures(game, seat)
    window, bettor = seeded_window(4)
    again = resample(detached(window, random.Random(0)), bettor, random.Random(9))
    assert figures(again, bettor, effort=100) == figures(window, bettor, effort=100)


# --------------------------------------------------------------------------- bots' hands


@pytest.mark.parametrize("seed", range(5))
def test_bots_hands_every_decision_analysed(seed: int) -> None:
    """Rounds played by bots through the engine, under varied options: every decision
    analysed without error, the chances summing to 1, the chosen action among the options,
    the hit/stand figures exact."""
    rng = random.Random(seed)
    options = {
        "decks": rng.choice([1, 2]),
        "ace_rule": rng.choice(["at_most_one_low", "at_least_one_high", "alternating"]),
        "natural_cards": rng.choice(["face", "ten"]),
        "dealer_stands_on": rng.choice([21, 25, 27, 31]),
        "max_players": 4,
    }
    game = TriantaEna(options, seeds=seeded_source(bytes([seed]) * 32))
    for seat in range(4):
        game.sit(seat, game.buy_in_limits(seat)[0])
    decisions = 0
    for _ in range(10):
        while not game.can_start():
            seat = min(game.to_act())
            chosen = game.bot_action(seat, rng)
            assert not ANALYSER.decides(Position(game, seat, game.legal_actions(seat), chosen))
            game.apply(seat, chosen)
        game.start_hand()
        while game.in_hand:
            seat = min(game.to_act())
            legal = game.legal_actions(seat)
            chosen = game.bot_action(seat, rng)
            position = Position(game, seat, legal, chosen)
            if ANALYSER.decides(position):
                decisions += 1
                verdict = ANALYSER.analyse(position, Effort(20), rng)
                assert sum(o.action == chosen for o in verdict.options) == 1
                for option in verdict.options:
                    f = option.figures
                    assert f.win + f.tie + f.lose == pytest.approx(1.0, abs=1e-9)
                    if option.action["kind"] in ("hit", "stand"):
                        assert f.exact and 0 <= f.win <= 1
            game.apply(seat, chosen)
        game.take_completed()
    assert decisions >= 20
