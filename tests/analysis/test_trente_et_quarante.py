"""Trente et Quarante's analysis (app/analysis/trente_et_quarante.py; docs/analysis.md).

* The coup's chances against an independent enumeration that deals card by card (exact
  fractions) on small pools, with and without a stock that runs out; a hand-worked pool's
  fractions; a fresh shoe's figures against a simulation of the same shoe.
* The options' figures against a simulation on the real engine (the unseen cards dealt afresh,
  the option taken, the coup dealt and settled by the engine).
* Stakes in prison: the value iteration against a simulation of the model, the un après choice
  and a move of a stake in prison worked out by hand from the chances.
* Random hands: every decision analysed without error, chances adding up to 1, the chosen
  action among the options.
"""

from __future__ import annotations

import math
import pickle
import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from app.analysis import analyser_for
from app.analysis.position import ANALYSIS_EFFORT, Effort, Position
from app.analysis.rollout import detached, net_of
from app.analysis.trente_et_quarante import (
    APRES,
    UN_APRES_TIE,
    VOID,
    Chances,
    Pool,
    Rules,
    Stakes,
    coup_chances,
    figures_of,
    pool_of,
    prison_values,
    quick_chances,
    resample,
)
from app.games.core.cards import canonical_shoe, is_red, seeded_source
from app.games.trente_et_quarante.coup import POINTS, deal_coup
from app.games.trente_et_quarante.engine import TrenteEtQuarante
from tests.analysis.positions import decisions

ANALYSER = analyser_for("trente-et-quarante")
QUICK = Effort(30, quick=True)
"""A ``best`` bot's effort (the quick chances)."""

# ----------------------------------------------------------------------------- brute force


def brute_force(cards: list[str], stock: int) -> dict[Any, Fraction]:
    """Every outcome's exact chance: the coup dealt card by card from ``cards`` in a uniformly
    random order (the first ``stock`` of them reachable), written from the rules, not from the
    analysis: Noir takes cards until its total passes 30, then Rouge; the lower total wins;
    couleur when the first card's colour is the winning row's (red: Rouge)."""
    kinds = sorted({(POINTS[c], is_red(c)) for c in cards})
    start = tuple(sum(1 for c in cards if (POINTS[c], is_red(c)) == k) for k in kinds)

    @cache
    def deal(
        left: tuple[int, ...], noir: int, rouge: int, used: int, red: bool
    ) -> tuple[tuple[Any, Fraction], ...]:
        if rouge > 30:
            if noir == rouge:
                result: Any = UN_APRES_TIE if noir == 31 else APRES
            else:
                row = "noir" if noir < rouge else "rouge"
                result = (row, "couleur" if red == (row == "rouge") else "inverse")
            return ((result, Fraction(1)),)
        if used == stock:
            return ((VOID, Fraction(1)),)
        size = sum(left)
        found: dict[Any, Fraction] = {}
        for i, count in enumerate(left):
            if not count:
                continue
            points, colour = kinds[i]
            rest = (*left[:i], count - 1, *left[i + 1 :])
            first = colour if used == 0 else red
            if noir <= 30:
                after = deal(rest, noir + points, 0, used + 1, first)
            else:
                after = deal(rest, noir, rouge + points, used + 1, first)
            for result, chance in after:
                found[result] = found.get(result, Fraction(0)) + Fraction(count, size) * chance
        return tuple(found.items())

    return dict(deal(start, 0, 0, 0, False))


def as_dict(chances: Chances) -> dict[Any, float]:
    return {result: chance for result, chance in chances.outcomes()}


def pool(cards: list[str], stock: int | None = None) -> Pool:
    return Pool.of(cards, len(cards) if stock is None else stock)


# A small pool worked through by the brute force above (every order of its cards): ace of
# hearts, three of hearts, four, five and six of clubs, three red tens and three black ones.
# Noir and Rouge 1103/2310 each, an après 8/231, a 31 tie 4/385, never void with all eleven in
# the stock. Five red cards and six black: Noir wins with a black first card (couleur)
# 2351/9240, with a red one 2061/9240; Rouge with a red one (couleur) 1957/9240, with a black
# one 2455/9240. With nine of them in the stock (two burned): void 689/1155.
SMALL = ["AH", "3H", "4C", "5C", "6C", "TH", "JD", "QH", "KC", "TS", "JC"]
SMALL_FRACTIONS = {
    ("noir", "couleur"): Fraction(2351, 9240),
    ("noir", "inverse"): Fraction(2061, 9240),
    ("rouge", "couleur"): Fraction(1957, 9240),
    ("rouge", "inverse"): Fraction(2455, 9240),
    APRES: Fraction(8, 231),
    UN_APRES_TIE: Fraction(4, 385),
}


def test_a_small_pool_worked_out_exactly() -> None:
    found = brute_force(SMALL, len(SMALL))
    assert sum(found.values()) == 1
    assert {k: v for k, v in found.items() if v} == SMALL_FRACTIONS
    assert found[("noir", "couleur")] + found[("noir", "inverse")] == Fraction(1103, 2310)
    chances = coup_chances(pool(SMALL))
    assert chances.exact
    for result, chance in as_dict(chances).items():
        assert chance == pytest.approx(float(SMALL_FRACTIONS.get(result, 0)), abs=1e-12)
    assert brute_force(SMALL, 9)[VOID] == Fraction(689, 1155)
    assert coup_chances(pool(SMALL, 9)).void == pytest.approx(689 / 1155, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_chances_match_the_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    shoe = canonical_shoe(1)
    cards = rng.sample([c for c in shoe if POINTS[c] == 10], rng.randint(4, 6))
    cards += rng.sample([c for c in shoe if POINTS[c] < 10], rng.randint(4, 6))
    stock = rng.choice([len(cards), len(cards) - 1, len(cards) - 3])
    found = brute_force(cards, stock)
    chances = as_dict(coup_chances(pool(cards, stock)))
    for result, chance in chances.items():
        assert chance == pytest.approx(float(found.get(result, 0)), abs=1e-12), result
    assert sum(chances.values()) == pytest.approx(1, abs=1e-12)


def test_a_short_stock_makes_the_coup_void() -> None:
    # six tens and two aces: a row is three tens and an ace (31, in any order) when one ace is
    # among its first four cards, and then so is the other row; any other deal needs more
    # cards than the eight (40 and 22, 32 and 30...): 31-31 with C(4,1) C(4,1) / C(8,2) = 4/7
    # of the places of the aces, void with 3/7; with seven in the stock, always void
    cards = ["TH", "TD", "TS", "TC", "KH", "KS", "AH", "AS"]
    assert brute_force(cards, 8) == {UN_APRES_TIE: Fraction(4, 7), VOID: Fraction(3, 7)}
    chances = coup_chances(pool(cards))
    assert (chances.un_apres, chances.void) == pytest.approx((4 / 7, 3 / 7), abs=1e-12)
    assert coup_chances(pool(cards, 7)).void == pytest.approx(1, abs=1e-12)


# A fresh shoe of six decks (the first coup, five cards burned unseen): the figures of the
# enumeration, checked against the simulation below and the even split of Rouge and Noir.
FRESH_6 = {"noir": 0.44520054341893, "apres": 0.08770754267556, "un_apres": 0.02189137048657}
FRESH_1 = {"noir": 0.44554304363936, "apres": 0.08717308714147, "un_apres": 0.02174082557981}


@pytest.mark.parametrize(("decks", "figures"), [(6, FRESH_6), (1, FRESH_1)])
def test_a_fresh_shoe(decks: int, figures: dict[str, float]) -> None:
    shoe = canonical_shoe(decks)
    chances = coup_chances(pool(shoe, len(shoe) - 5))
    assert chances.noir == pytest.approx(figures["noir"], abs=1e-12)
    assert chances.rouge == pytest.approx(figures["noir"], abs=1e-12)
    assert chances.apres == pytest.approx(figures["apres"], abs=1e-12)
    assert chances.un_apres == pytest.approx(figures["un_apres"], abs=1e-12)
    assert chances.couleur == pytest.approx(chances.inverse, abs=1e-12)  # colours even
    assert chances.void == 0
    if decks != 6:
        return
    # the same shoe dealt by the engine's own deal, many times
    rng = random.Random(decks)
    samples = 15_000
    counts = dict.fromkeys(("noir", "rouge", "apres", "un_apres"), 0)
    for _ in range(samples):
        coup, _ = deal_coup(rng.sample(shoe, min(70, len(shoe))))
        assert coup is not None
        key = coup.winner or ("un_apres" if coup.tie == "un_apres" else "apres")
        counts[key] += 1
    for key, want in (
        ("noir", chances.noir),
        ("rouge", chances.rouge),
        ("apres", chances.apres),
        ("un_apres", chances.un_apres),
    ):
        sigma = math.sqrt(want * (1 - want) / samples)
        assert abs(counts[key] / samples - want) < 4 * sigma, key


def test_a_fresh_shoes_stakes() -> None:
    """The first window of a six-deck shoe: Rouge and Noir even, so a stake of 100 wins and
    loses alike, and a 31 tie costs it half (shared, or in prison worth exactly half: below)."""
    game = table(decks=6)
    game.start_hand()
    game.apply(0, {"kind": "stake", "chance": "rouge", "amount": 100})
    chosen = {"kind": "stake", "chance": "rouge", "amount": 101}
    verdict = ANALYSER.analyse(
        Position(game, 0, game.legal_actions(0), chosen), ANALYSIS_EFFORT, random.Random(0)
    )
    figures = {str(o.action): o.figures for o in verdict.options}
    u = FRESH_6["un_apres"]
    done = figures[str({"kind": "done"})]
    assert done.ev == pytest.approx(-100 * u / 2, abs=1e-9)
    assert done.ev == pytest.approx(-1.094568524328, abs=1e-9)
    assert (done.win, done.tie) == pytest.approx((FRESH_6["noir"], FRESH_6["apres"]), abs=1e-12)
    insured = figures[str({"kind": "insure", "chance": "rouge"})]
    assert insured.ev == pytest.approx(-1, abs=1e-12)  # the premium, 1 chip for 100
    assert insured.tie == 0  # an après still costs the premium
    odd = figures[str(chosen)]
    assert odd.ev == pytest.approx(-1.105776862243, abs=1e-9)


def test_the_small_pools_stakes() -> None:
    """A stake of 100 on couleur or inverse from the small pool: even money on the fractions
    above, a 31 tie the better of sharing (50 back) and prison (the model's value)."""
    chances = coup_chances(pool(SMALL))
    prison = max(bellman(chances, 100, 3)[1].values())
    assert prison == pytest.approx(51.165919282511, abs=1e-9)
    couleur = float(SMALL_FRACTIONS[("noir", "couleur")] + SMALL_FRACTIONS[("rouge", "couleur")])
    inverse = float(SMALL_FRACTIONS[("noir", "inverse")] + SMALL_FRACTIONS[("rouge", "inverse")])
    u = float(SMALL_FRACTIONS[UN_APRES_TIE])
    rules = Rules(3, True)
    for chance, won, lost in (("couleur", couleur, inverse), ("inverse", inverse, couleur)):
        figures = figures_of(Stakes(((chance, 100, False),), ()), chances, rules, 0)
        assert figures.ev == pytest.approx(100 * (won - lost) + u * (prison - 100), abs=1e-9)
        insured = figures_of(Stakes(((chance, 100, True),), ()), chances, rules, 0)
        assert insured.ev == pytest.approx(100 * (won - lost) - 1, abs=1e-9)
    assert figures_of(Stakes((("couleur", 100, False),), ()), chances, rules, 0).ev == (
        pytest.approx(-2.758449323472, abs=1e-9)
    )
    assert figures_of(Stakes((("inverse", 100, False),), ()), chances, rules, 0).ev == (
        pytest.approx(1.743715178693, abs=1e-9)
    )


def test_quick_chances_are_close_and_marked() -> None:
    cards = random.Random(5).sample(canonical_shoe(1), 30)
    exact, quick = coup_chances(pool(cards)), quick_chances(pool(cards))
    assert not quick.exact and exact.exact
    for (_, a), (_, b) in zip(exact.outcomes(), quick.outcomes(), strict=True):
        assert abs(a - b) < 0.01
    assert sum(c for _, c in quick.outcomes()) == pytest.approx(1, abs=1e-12)


# ----------------------------------------------------------------------------- engine positions


def table(decks: int = 1, seed: bytes = b"tq-analysis", **options: Any) -> TrenteEtQuarante:
    game = TrenteEtQuarante({"decks": decks, **options}, seeds=seeded_source(seed))
    game.sit(0, 10_000)
    game.sit(1, 10_000)
    return game


def close_window(game: TrenteEtQuarante) -> None:
    for seat, action in game.timeout_actions():
        game.apply(seat, action, by_clock=True)


def play_coup(game: TrenteEtQuarante, stakes: list[tuple[int, str, int]]) -> None:
    """One coup with these stakes (seat, chance, chips), every un après choice prison."""
    game.start_hand()
    for seat, chance, amount in stakes:
        game.apply(seat, {"kind": "stake", "chance": chance, "amount": amount})
    close_window(game)
    while game.in_hand:
        close_window(game)
    game.take_completed()


def front(game: TrenteEtQuarante, cards: list[str]) -> None:
    """Put ``cards`` (unseen ones) first in the stock, its shuffle's record kept in step."""
    stock = game.stock
    rest = list(stock.cards)
    for card in cards:
        rest.remove(card)
    stock.cards = cards + rest
    order = stock.shuffle.order if stock.shuffle else []
    if order:
        order[len(order) - len(stock.cards) :] = stock.cards


def unseen(game: TrenteEtQuarante) -> list[str]:
    """The shoe less every card turned face up, counted from the rows the table showed."""
    order = game.stock.shuffle.order if game.stock.shuffle else []
    shown = order[5 : len(order) - len(game.stock.cards)]
    left = list(canonical_shoe(game.options["decks"]))
    for card in shown:
        left.remove(card)
    return left


def test_the_pool_is_the_shoe_less_the_cards_shown() -> None:
    game = table()
    play_coup(game, [(0, "rouge", 100)])
    game.start_hand()
    found = pool_of(game)
    assert found.stock == len(game.stock.cards) == game.view(0)["shoe"]["cards_left"]
    assert found.size == found.stock + 5  # the burned cards are unseen too
    assert found == Pool.of(unseen(game), found.stock)
    twin = resample(detached(game, random.Random(1)), 0, random.Random(2))
    assert pool_of(twin) == found
    assert twin.view(0) == game.view(0)
    assert twin.stock.cards != game.stock.cards


def deal_afresh(game: TrenteEtQuarante, rng: random.Random) -> None:
    """The test's own shuffle of the unseen cards: the burned five and the stock."""
    stock = game.stock
    order = stock.shuffle.order if stock.shuffle else []
    hidden = order[:5] + stock.cards
    rng.shuffle(hidden)
    size = len(stock.cards)
    order[:5] = hidden[:5]
    stock.cards = hidden[5:]
    order[len(order) - size :] = stock.cards


def simulate(game: TrenteEtQuarante, seat: int, action: dict[str, Any], samples: int) -> dict:
    """The option on the real engine: the unseen cards dealt afresh, ``action`` taken, the
    window closed, every un après choice of the seat's a share; the seat's chips."""
    seeds, game.seeds = game.seeds, None  # a function does not pickle
    frozen = pickle.dumps(game)
    game.seeds = seeds
    rng = random.Random(11)
    nets = []
    for _ in range(samples):
        twin: TrenteEtQuarante = pickle.loads(frozen)
        twin.seeds = seeded_source(rng.randbytes(32))
        deal_afresh(twin, rng)
        twin.apply(seat, action)
        if twin.phase == "betting":
            close_window(twin)
        while twin.phase == "un_apres":
            for template in twin.legal_actions(seat):
                if template["kind"] == "share":
                    ((name, spec),) = template["params"].items()
                    twin.apply(seat, {"kind": "share", name: spec["one_of"][0]})
                    break
            else:
                close_window(twin)
        hand = twin.take_completed()
        assert hand is not None
        nets.append(net_of(hand, seat))
    mean = sum(nets) / samples
    sd = math.sqrt(sum((n - mean) ** 2 for n in nets) / (samples - 1))
    return {
        "ev": mean,
        "se": sd / math.sqrt(samples),
        "win": sum(n > 0 for n in nets) / samples,
        "tie": sum(n == 0 for n in nets) / samples,
        "lose": sum(n < 0 for n in nets) / samples,
    }


SAMPLES = 3_000


def test_the_options_match_the_engine_played_out() -> None:
    game = table()
    play_coup(game, [(0, "noir", 100), (1, "couleur", 300)])
    game.start_hand()
    game.apply(0, {"kind": "stake", "chance": "inverse", "amount": 200})
    legal = game.legal_actions(0)
    chosen = {"kind": "stake", "chance": "rouge", "amount": 150}
    position = Position(game, 0, legal, chosen)
    assert ANALYSER.decides(position)
    verdict = ANALYSER.analyse(position, ANALYSIS_EFFORT, random.Random(0))
    by_action = {str(o.action): o.figures for o in verdict.options}
    assert str(chosen) in by_action
    assert all(f.exact for f in by_action.values())
    checks = [chosen, {"kind": "insure", "chance": "inverse"}]
    for action in checks:
        figures = by_action[str(action)]
        found = simulate(game, 0, action, SAMPLES)
        assert abs(found["ev"] - figures.ev) < 4 * found["se"] + 0.05, (action, found, figures)
        for key in ("win", "tie", "lose"):
            want = getattr(figures, key)
            sigma = math.sqrt(max(want * (1 - want), 1e-4) / SAMPLES)
            assert abs(found[key] - want) < 4 * sigma, (action, key, found, figures)


# ----------------------------------------------------------------------------- stakes in prison


def test_a_level_one_stake_is_worth_half_when_the_chances_are_even() -> None:
    # Rouge and Noir even: V = w A + p_apres V + p_31 max(A/2, V2) with w = (1 - p_apres - p_31)/2
    # and V2 < A/2, so V = A/2 exactly, for an even stake; an odd one keeps the half-chip
    shoe = canonical_shoe(6)
    chances = coup_chances(pool(shoe, len(shoe) - 5))
    even = prison_values(chances, 100, 3, True)
    assert even.held[1]["rouge"] == pytest.approx(50, abs=1e-9)
    assert even.movable[1:] == pytest.approx((50, 25.59990001865, 13.69260243665), abs=1e-9)
    odd = prison_values(chances, 101, 3, True)
    w, a, u = chances.rouge, chances.apres, chances.un_apres
    assert odd.held[1]["noir"] == pytest.approx((101 * w + 50 * u) / (1 - a), abs=1e-9)
    assert odd.held[1]["noir"] == pytest.approx(50.48800199963, abs=1e-9)


def bellman(chances: Chances, amount: int, top: int) -> dict[int, dict[str, float]]:
    """The test's own solution of the model's values (docs/analysis.md): level by level, each
    chance, the Venice rule on; ``value[k][c]`` before a coup, its stake on ``c`` at level k."""
    sides = ("rouge", "noir", "couleur", "inverse")
    value = {k: dict.fromkeys(sides, 0.0) for k in range(1, top + 2)}
    for _ in range(120):
        best = {k: max(value[k].values()) for k in value}
        for k in range(1, top + 1):
            tie = max(amount // 2, best[k + 1]) if k < top else amount // 2
            for c in sides:
                up = amount if k == 1 else value[k - 1][c]
                value[k][c] = (
                    chances.wins(c) * up
                    + chances.apres * best[k]
                    + chances.un_apres * tie
                    + chances.void * amount
                )
    return value


def test_prison_values_match_the_models_equations() -> None:
    chances = coup_chances(pool(random.Random(5).sample(canonical_shoe(1), 30)))
    for amount in (100, 101, 2000):
        values = prison_values(chances, amount, 3, True)
        own = bellman(chances, amount, 3)
        for k in (1, 2, 3):
            for c, v in own[k].items():
                assert values.held[k][c] == pytest.approx(v, abs=1e-9)
            assert values.movable[k] == pytest.approx(max(own[k].values()), abs=1e-9)


def test_prison_values_match_a_simulation_of_the_model() -> None:
    """A stake of 101 at level 1 on Noir, every later coup dealt by the engine's deal from the
    same pool afresh, the owner choosing as the values say (prison or share at a 31 tie,
    moving after a tie to the best chance)."""
    cards = random.Random(5).sample(canonical_shoe(1), 30)
    chances = coup_chances(pool(cards))
    values = prison_values(chances, 101, 3, True)
    rng = random.Random(6)

    def best(level: int) -> str:
        return max(values.held[level], key=lambda c: values.held[level][c])

    samples, total, squares = 8_000, 0.0, 0.0
    for _ in range(samples):
        level, chance, back = 1, "noir", 0
        while True:
            coup, _ = deal_coup(rng.sample(cards, len(cards)))
            if coup is None:  # void: the shoe ends, the stake comes back (Venice)
                back = 101
                break
            if coup.tie == "un_apres":
                if level + 1 > 3 or values.movable[level + 1] < 50:
                    back = 50
                    break
                level += 1
                chance = best(level)
            elif coup.tie == "apres":
                chance = best(level)
            elif chance in coup.winning_chances:
                if level == 1:
                    back = 101
                    break
                level -= 1
            else:
                break
        total += back
        squares += back * back
    mean = total / samples
    se = math.sqrt((squares / samples - mean * mean) / samples)
    assert abs(mean - values.held[1]["noir"]) < 4 * se


def thirty_one_tie(game: TrenteEtQuarante) -> None:
    """The next coup 31 and 31: each row two tens, then two cards making 11 (the second of
    them passing 30), from the cards the stock holds."""
    left = list(game.stock.cards)
    rows: list[str] = []
    for _ in range(2):
        for low in (1, 2, 3, 4, 5):
            tens = [c for c in left if POINTS[c] == 10][: 3 if low == 1 else 2]
            rest = [c for c in left if c not in tens]
            if low == 1:
                pair = [c for c in rest if POINTS[c] == 1][:1]
            else:
                pair = [next((c for c in rest if POINTS[c] == 11 - low), "")]
                pair += [next((c for c in rest if POINTS[c] == low), "")]
            if (
                all(pair)
                and len(tens) == (3 if low == 1 else 2)
                and len(pair) == (1 if low == 1 else 2)
            ):
                rows += tens + pair
                for card in tens + pair:
                    left.remove(card)
                break
    assert len(rows) >= 8, "no 31 to be made"
    front(game, rows)


def test_the_un_apres_choice_worked_out() -> None:
    game = table()
    play_coup(game, [(0, "noir", 100)])
    game.start_hand()
    game.apply(0, {"kind": "stake", "chance": "rouge", "amount": 101})
    game.apply(0, {"kind": "stake", "chance": "couleur", "amount": 200})
    game.apply(0, {"kind": "insure", "chance": "couleur"})
    thirty_one_tie(game)
    close_window(game)
    assert game.phase == "un_apres"
    legal = game.legal_actions(0)
    assert [t["kind"] for t in legal] == ["share", "prison"]
    position = Position(game, 0, legal, {"kind": "prison", "chance": "rouge"})
    assert ANALYSER.decides(position)
    verdict = ANALYSER.analyse(position, ANALYSIS_EFFORT, random.Random(0))
    figures = {o.action["kind"]: o.figures for o in verdict.options}
    # the insured couleur stake paid its premium (2 chips) and stays; rouge's 101 chips come
    # back 50 when shared, or go to prison at level 1 in a window where they may move
    chances = coup_chances(pool_of(game))
    own = bellman(chances, 101, game.options["max_apres"])
    assert figures["share"].ev == pytest.approx(-2 - 51, abs=1e-9)
    assert figures["prison"].ev == pytest.approx(-2 + max(own[1].values()) - 101, abs=1e-9)
    assert figures["share"].lose == 1 and figures["prison"].lose == 1


def test_a_stake_in_prison_moved_after_a_tie() -> None:
    game = table()  # the coups of the un après test: its pool, its figures kept
    play_coup(game, [(0, "noir", 100)])
    game.start_hand()
    game.apply(0, {"kind": "stake", "chance": "rouge", "amount": 120})
    thirty_one_tie(game)
    close_window(game)
    game.apply(0, {"kind": "prison", "chance": "rouge"})
    game.take_completed()
    game.start_hand()  # the window after the tie: the stake may move
    legal = game.legal_actions(0)
    moves = [t for t in legal if t["kind"] == "move_prison"]
    assert moves, legal
    position = Position(game, 0, legal, {"kind": "done"})
    verdict = ANALYSER.analyse(position, ANALYSIS_EFFORT, random.Random(0))
    figures = {(o.action["kind"], o.action.get("to")): o.figures for o in verdict.options}
    chances = coup_chances(pool_of(game))
    values = prison_values(chances, 120, 3, True)
    done = figures[("done", None)]
    assert done.ev == pytest.approx(values.held[1]["rouge"] - 120, abs=1e-9)
    for to in ("noir", "couleur", "inverse"):
        moved = figures[("move_prison", to)]
        assert moved.ev - done.ev == pytest.approx(
            values.held[1][to] - values.held[1]["rouge"], abs=1e-9
        )


def test_insurance_costs_its_premium_and_saves_the_31_tie() -> None:
    game = table()
    play_coup(game, [(0, "rouge", 100)])
    game.start_hand()
    game.apply(0, {"kind": "stake", "chance": "noir", "amount": 250})
    legal = game.legal_actions(0)
    verdict = ANALYSER.analyse(Position(game, 0, legal, None), ANALYSIS_EFFORT, random.Random(0))
    figures = {o.action["kind"]: o.figures for o in verdict.options}
    chances = coup_chances(pool_of(game))
    values = prison_values(chances, 250, 3, True)
    saved = chances.un_apres * (250 - max(125, values.movable[1]))
    cost = 2 * (1 - chances.void)
    assert figures["insure"].ev - figures["done"].ev == pytest.approx(saved - cost, abs=1e-9)


# ----------------------------------------------------------------------------- random hands


def test_random_hands_are_analysed() -> None:
    met: dict[str, int] = {}
    for seed in range(6):
        for position in decisions("trente-et-quarante", seed, hands=8):
            verdict = ANALYSER.analyse(position, QUICK, random.Random(seed))
            actions = [o.action for o in verdict.options]
            assert position.chosen in actions
            assert len(actions) >= 2
            for option in verdict.options:
                f = option.figures
                assert f.win + f.tie + f.lose == pytest.approx(1, abs=1e-9)
                assert not f.exact
            met[position.chosen["kind"]] = met.get(position.chosen["kind"], 0) + 1
    assert sum(met.values()) >= 300, met
    assert {"stake", "done"} <= set(met)


def test_a_few_hands_analysed_exactly() -> None:
    game = table(seed=b"tq-exact")
    rng = random.Random(4)
    analysed = 0
    for _ in range(2):
        game.start_hand()
        for _ in range(200):
            if not game.in_hand:
                break
            waiting = sorted(game.to_act())
            if not waiting:
                close_window(game)
                continue
            seat = waiting[0]
            legal = game.legal_actions(seat)
            action = game.bot_action(seat, rng)
            position = Position(game, seat, legal, action)
            if ANALYSER.decides(position):
                verdict = ANALYSER.analyse(position, ANALYSIS_EFFORT, rng)
                assert action in [o.action for o in verdict.options]
                assert all(o.figures.exact for o in verdict.options)
                analysed += 1
            game.apply(seat, action)
        game.take_completed()
    assert analysed >= 2
