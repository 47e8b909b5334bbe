"""Vingt-un's analysis (app/analysis/vingt_un.py; docs/analysis.md, Vingt-un; rules §3).

* hand-worked figures (a tiny pool worked in the comments, and one by every order of its
  cards), compared exactly;
* positions dealt on the real engine, whose draw-or-stand figures an independent enumeration
  (written here: an explicit posterior over the dealer's two cards, the dealer by plain
  recursion) gives exactly;
* the exact figures and the estimated ones against Monte Carlo on the real engine (the unseen
  cards dealt afresh here, the hand played out by the framework's ``play_out``), within 4 sigma;
* bots' random hands, every decision analysed.

The deal order with the dealer in seat 0 and players in seats 1 and 2: a first card to seat 1,
seat 2, the dealer; after the stakes and the double call a second card to seat 1, seat 2, the
dealer; then the cards drawn, in the order they are asked for.
"""

from __future__ import annotations

import copy
import math
import random
from functools import cache
from itertools import permutations
from typing import Any

import pytest

from app.analysis.figures import Z95, Figures, Tally
from app.analysis.position import ANALYSIS_EFFORT, Effort, Position, cards_in
from app.analysis.rollout import net_of, play_out
from app.analysis.vingt_un import (
    ANALYSER,
    PlayerHand,
    Solver,
    dealer_odds,
    pool_of,
    resample,
    twin,
)
from app.games.core.actions import Action
from app.games.core.cards import deck, fixed_seeds, seeded_source
from app.games.vingt_un.engine import VingtUn
from app.games.vingt_un.scoring import is_ace_and_ten, outcome, points

EXACT = 1e-9

# ----------------------------------------------------------------------------- tables


def table(cards: list[str], players: int = 1, stack: int = 1000, **options: Any) -> VingtUn:
    """Dealer in seat 0, players in seats 1..players, the pack stacked with ``cards`` on top
    (the rest in deck order), the hand dealt."""
    game = VingtUn(options, seeds=fixed_seeds())
    for seat in range(players + 1):
        game.sit(seat, stack)
    game.stock.cards = list(cards) + [c for c in deck() if c not in cards]
    game.start_hand()
    return game


def act(game: VingtUn, seat: int, kind: str, **params: Any) -> None:
    game.apply(seat, {"kind": kind, **params})


def heads_up(first: str, second: str, draws: tuple[str, ...] = (), double: bool = False):
    """A player (seat 1) dealt ``first`` and ``second`` against a dealer's 9D and 7C, stake 10."""
    game = table([first, "9D", second, "7C", *draws])
    act(game, 1, "stake", amount=10)
    act(game, 0, "double" if double else "no_double")
    for _ in draws:
        act(game, 1, "draw")
    return game


def position(game: VingtUn, chosen: Action | None = None) -> Position:
    seat = next(iter(game.to_act()))
    return Position(game, seat, game.legal_actions(seat), chosen)


def by_kind(game: VingtUn, effort: Effort = ANALYSIS_EFFORT, seed: int = 0) -> dict[Any, Figures]:
    verdict = ANALYSER.analyse(position(game), effort, random.Random(seed))
    return {(o.action["kind"], o.action.get("amount")): o.figures for o in verdict.options}


def same(figures: Figures, value: tuple[float, float, float, float]) -> None:
    """``value``: ev, win, tie, lose."""
    got = (figures.ev, figures.win, figures.tie, figures.lose)
    assert figures.exact
    assert all(abs(a - b) < EXACT for a, b in zip(got, value, strict=True)), (got, value)


# ----------------------------------------------------------------------------- hand-worked


def test_a_tiny_pool_worked_by_hand() -> None:
    """The player holds 7 and 8 (15, stake 10); unseen: A, 6, T, T.

    The dealer's two cards, in order, no natural: A6, 6A, 6T, 6T, T6, T6, TT, TT (8 of 12).
    Stand: A6 is a soft 17 (stands: -10); 6T is 16 and draws the A (17: -10) or the T (over:
    +10), each 1/2; TT is 20 (-10). ev = 2/8*-10 + 4/8*0 + 2/8*-10 = -5; win 4/8*1/2 = 1/4.
    Draw: after A6 only tens are left (over: -10). After 6T the card is A (16) or T (over).
    After TT it is A (16) or 6 (21). Having drawn the A, the player knows the dealer holds 6T
    (weight 4 * 1/2) or TT (2 * 1/2): standing on 16 wins 10 against 6T (the dealer draws the
    last T) and loses 10 against TT, 2/3*10 - 1/3*10 = 10/3; drawing the last card busts:
    stand. So ev = 2/8*-10 + 4/8*(1/2*10 - 1/2*10) + 2/8*(1/2*-10 + 1/2*20) = -5/4,
    win = 4/8*1/2 + 2/8*1/2 = 3/8.
    """
    solver = Solver(pool_of(["AS", "6S", "TS", "TH"]), [PlayerHand.of(["7C", "8C"], 10)], (), 0)
    assert solver.stand() == pytest.approx((-5.0, 1 / 4, 0.0, 3 / 4), abs=EXACT)
    assert solver.draw() == pytest.approx((-1.25, 3 / 8, 0.0, 5 / 8), abs=EXACT)


def by_every_order(pool: list[str], mine: list[str], stake: int) -> dict[str, tuple[float, ...]]:
    """The figures by every order of the unseen cards: the dealer's two first (orders giving
    the dealer a natural left out), then the player's draws, then the dealer's. The player's
    best choice is made on what it has seen (the orders that agree with its draws)."""
    orders = [o for o in permutations(pool) if not is_ace_and_ten([o[0], o[1]])]

    def dealer_total(order: tuple[str, ...], used: int) -> int:
        cards = [order[0], order[1]]
        rest = list(order[2 + used :])
        while points(cards) < 17:
            cards.append(rest.pop(0))
        return points(cards)

    def figures(net: list[int]) -> tuple[float, ...]:
        n = len(net)
        return (
            sum(net) / n,
            sum(x > 0 for x in net) / n,
            sum(x == 0 for x in net) / n,
            sum(x < 0 for x in net) / n,
        )

    def stand(group: list[tuple[str, ...]], drawn: int) -> list[int]:
        total = points(mine + list(group[0][2 : 2 + drawn]))
        return [stake * outcome(dealer_total(o, drawn), total)[0] for o in group]

    def best(group: list[tuple[str, ...]], drawn: int) -> list[int]:
        s, d = stand(group, drawn), draw(group, drawn)
        return d if sum(d) > sum(s) else s

    def draw(group: list[tuple[str, ...]], drawn: int) -> list[int]:
        out: list[int] = []
        for card in sorted({o[2 + drawn] for o in group}):
            sub = [o for o in group if o[2 + drawn] == card]
            if points(mine + list(sub[0][2 : 3 + drawn])) > 21:
                out.extend(-stake for _ in sub)
            else:
                out.extend(best(sub, drawn + 1))
        return out

    return {"stand": figures(stand(orders, 0)), "draw": figures(draw(orders, 0))}


def test_a_small_pool_by_every_order() -> None:
    """Seven unseen cards (5,040 orders): the enumeration agrees with every order counted."""
    pool = ["AS", "4S", "6S", "7S", "TS", "TH", "KD"]
    mine = ["9C", "4C"]
    want = by_every_order(pool, mine, 10)
    solver = Solver(pool_of(pool), [PlayerHand.of(mine, 10)], (), 0)
    assert solver.stand() == pytest.approx(want["stand"], abs=EXACT)
    assert solver.draw() == pytest.approx(want["draw"], abs=EXACT)


def test_the_dealers_odds_by_every_order() -> None:
    pool = ["AS", "2S", "5S", "6S", "7S", "TS", "QH"]
    counts = {t: 0 for t in range(17, 23)}
    orders = 0
    for order in permutations(pool):
        if is_ace_and_ten([order[0], order[1]]):
            continue
        cards = list(order[:2])
        rest = list(order[2:])
        while points(cards) < 17:
            cards.append(rest.pop(0))
        counts[min(points(cards), 22)] += 1
        orders += 1
    want = [counts[t] / orders for t in range(17, 23)]
    assert dealer_odds(pool_of(pool)) == pytest.approx(want, abs=EXACT)


# ------------------------------------------------------------------- an independent enumeration


def enumerate_independently(
    pool: tuple[int, ...],
    hands: list[tuple[int, bool, int]],
    standing: tuple[tuple[int, int], ...] = (),
    past: int = 0,
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(stand, draw) as (ev, win, tie, lose), computed another way than the analyser: the
    dealer's two cards enumerated explicitly (ordered values, no ace and ten), their posterior
    weighed for every set of cards the player has drawn, the next card's chance from it, the
    dealer's play by plain recursion; no shortcut where drawing is sure to be better."""

    def best_total(low: int, ace: bool) -> int:
        return low + 10 if ace and low + 10 <= 21 else low

    n0 = sum(pool)
    holes = []
    for a in range(10):
        for b in range(10):
            if {a, b} == {0, 9}:
                continue
            rest = list(pool)
            chance = rest[a] / n0
            rest[a] -= 1
            chance *= rest[b] / (n0 - 1)
            rest[b] -= 1
            if chance > 0:
                holes.append((a, b, chance, tuple(rest)))

    @cache
    def dealer(low: int, ace: bool, rest: tuple[int, ...]) -> dict[int, float]:
        total = best_total(low, ace)
        if total >= 17:
            return {min(total, 22): 1.0}
        out: dict[int, float] = {}
        m = sum(rest)
        for v in range(10):
            if rest[v]:
                after = list(rest)
                after[v] -= 1
                for t, p in dealer(low + v + 1, ace or v == 0, tuple(after)).items():
                    out[t] = out.get(t, 0.0) + p * rest[v] / m
        return out

    @cache
    def posterior(drawn: tuple[int, ...]) -> list[tuple[int, int, float, tuple[int, ...]]]:
        weighed = []
        for a, b, chance, rest in holes:
            w = chance
            m = sum(rest)
            k = 0
            for v in range(10):
                for j in range(drawn[v]):
                    w *= max(rest[v] - j, 0) / (m - k)
                    k += 1
            left = tuple(x - d for x, d in zip(rest, drawn, strict=True))
            weighed.append((a, b, w, left))
        total = sum(w for _a, _b, w, _l in weighed)
        return [(a, b, w / total, left) for a, b, w, left in weighed if w > 0]

    def settle(drawn: tuple[int, ...], stand: tuple[tuple[int, int], ...], past: int):
        if not stand:
            return (float(past), float(past > 0), float(past == 0), float(past < 0))
        out = [0.0, 0.0, 0.0, 0.0]
        for a, b, w, left in posterior(drawn):
            for final, p in dealer(a + b + 2, a == 0 or b == 0, left).items():
                net = past + sum(s * outcome(final, t)[0] for t, s in stand)
                q = w * p
                out[0] += q * net
                out[1 if net > 0 else 2 if net == 0 else 3] += q
        return tuple(out)

    @cache
    def value(i: int, low: int, ace: bool, drawn: tuple[int, ...], stand, past: int, root=""):
        def after(drawn: tuple[int, ...], stand, past: int):
            if i + 1 < len(hands):
                low2, ace2, _ = hands[i + 1]
                return value(i + 1, low2, ace2, drawn, stand, past)
            return settle(drawn, stand, past)

        standing_value = after(drawn, (*stand, (best_total(low, ace), hands[i][2])), past)
        chances = [0.0] * 10
        for _a, _b, w, left in posterior(drawn):
            m = sum(left)
            for v in range(10):
                chances[v] += w * left[v] / m
        drawing = [0.0, 0.0, 0.0, 0.0]
        for v in range(10):
            if chances[v] <= 0:
                continue
            more = list(drawn)
            more[v] += 1
            if low + v + 1 > 21:
                child = after(tuple(more), stand, past - hands[i][2])
            else:
                child = value(i, low + v + 1, ace or v == 0, tuple(more), stand, past)
            for k in range(4):
                drawing[k] += chances[v] * child[k]
        if root == "stand":
            return standing_value
        if root == "draw" or drawing[0] > standing_value[0]:
            return tuple(drawing)
        return standing_value

    low, ace, _ = hands[0]
    nothing = (0,) * 10
    return (
        value(0, low, ace, nothing, standing, past, "stand"),
        value(0, low, ace, nothing, standing, past, "draw"),
    )


def unseen(game: VingtUn, seat: int) -> tuple[int, ...]:
    shown = cards_in(game.view(seat))
    return pool_of([c for c in deck() if c not in shown])


def hand_of(cards: list[str], stake: int) -> tuple[int, bool, int]:
    low = sum(min(10, "A23456789TJQK".index(c[0]) + 1) for c in cards)
    return low, any(c[0] == "A" for c in cards), stake


# The positions of docs/analysis.md (Vingt-un): ev, win, tie, lose of stand and of draw, as the
# independent enumeration gives them (each test checks the analyser against it, and it
# against these).
POSITIONS: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {}


def dealt(name: str) -> tuple[VingtUn, list[tuple[int, bool, int]], tuple, int]:
    """The positions: the game, and for the independent enumeration the seat's hands left to
    play (the current one first), its standing hands and the chips so far."""
    if name == "T2":  # a hard 12
        return heads_up("TS", "2H"), [hand_of(["TS", "2H"], 10)], (), 0
    if name == "A7":  # a soft 18
        return heads_up("AS", "7H"), [hand_of(["AS", "7H"], 10)], (), 0
    if name == "972":  # 16 drew a 2: a hard 18 of three cards
        return heads_up("9S", "7H", ("2C",)), [hand_of(["9S", "7H", "2C"], 10)], (), 0
    if name == "T3 doubled":  # seat 2, after seat 1 drew a king face up; stakes doubled
        game = table(["5S", "TC", "9D", "6H", "3D", "7C", "KD"], players=2)
        act(game, 1, "stake", amount=10)
        act(game, 2, "stake", amount=10)
        act(game, 0, "double")
        act(game, 1, "draw")
        act(game, 1, "stand")
        return game, [hand_of(["TC", "3D"], 20)], (), 0
    if name == "88 split":  # the first of two hands after splitting eights
        game = table(["8S", "9D", "8H", "7C", "TD", "KC"])
        act(game, 1, "stake", amount=10)
        act(game, 0, "no_double")
        act(game, 1, "split", amount=10)
        return game, [hand_of(["8S", "TD"], 10), hand_of(["8H", "KC"], 10)], (), 0
    if name == "88 after a bust":  # the second hand after the first went over 21
        game = table(["8S", "9D", "8H", "7C", "5D", "7S", "KC"])
        act(game, 1, "stake", amount=10)
        act(game, 0, "no_double")
        act(game, 1, "split", amount=10)
        act(game, 1, "draw")
        return game, [hand_of(["8H", "7S"], 10)], (), -10
    raise KeyError(name)


WANT = {
    "T2": (
        (-4.872477883982, 0.295584780694, 0.0, 0.704415219306),
        (-2.984459049344, 0.323917709358, 0.0, 0.676082290642),
    ),
    "A7": (
        (-1.809507290062, 0.447721246273, 0.0, 0.552278753727),
        (-0.706941424595, 0.449017696765, 0.0, 0.550982303235),
    ),
    "972": (
        (-1.838411113169, 0.445852547466, 0.0, 0.554147452534),
        (-5.978493276481, 0.16879751634, 0.0, 0.83120248366),
    ),
    "T3 doubled": (
        (-9.903176959162, 0.293032530729, 0.0, 0.706967469271),
        (-6.671877186796, 0.307297613118, 0.0, 0.692702386882),
    ),
    "88 split": (
        (-3.328601744249, 0.457023618942, 0.0, 0.542976381058),
        (-7.285485874502, 0.153051873794, 0.376763878379, 0.470184247827),
    ),
    "88 after a bust": (
        (-14.644144385558, 0.0, 0.304699684181, 0.695300315819),
        (-14.1798959968, 0.078813321946, 0.187531550634, 0.73365512742),
    ),
}
"""The figures of docs/analysis.md's Vingt-un table (12 decimals)."""


@pytest.mark.parametrize("name", ["T2", "A7", "972", "T3 doubled", "88 split", "88 after a bust"])
def test_draw_and_stand_are_exact(name: str) -> None:
    game, hands, standing, past = dealt(name)
    figures = by_kind(game)
    assert {k for k, _ in figures} >= {"stand", "draw"}
    stand, draw = enumerate_independently(unseen(game, game.turn or 0), hands, standing, past)
    same(figures[("stand", None)], stand)
    same(figures[("draw", None)], draw)
    assert stand == pytest.approx(WANT[name][0], abs=1e-11)
    assert draw == pytest.approx(WANT[name][1], abs=1e-11)


# ----------------------------------------------------------------------------- Monte Carlo


def deal_afresh(game: VingtUn, seat: int, rng: random.Random, ok: Any) -> None:
    """Every card ``seat`` does not see dealt afresh into the same places (the pack, the pile,
    the others' and the dealer's face-down cards), shuffled again until ``ok(game)``."""
    places: list[tuple[list[str], int]] = [(game.stock.cards, i) for i in range(len(game.stock))]
    places += [(game.pile, i) for i in range(len(game.pile))]
    hands = [h for s in game.players if s != seat for h in game.hands[s] if not h.gathered]
    if game.hand_dealer != seat and game.dealer_hand is not None:
        hands.append(game.dealer_hand)
    for hand in hands:
        places += [(hand.cards, j) for j, up in enumerate(hand.up) if not up]
    cards = [where[i] for where, i in places]
    while True:
        rng.shuffle(cards)
        for (where, i), card in zip(places, cards, strict=True):
            where[i] = card
        if ok(game):
            return


def no_natural_for_the_dealer(game: VingtUn) -> bool:
    assert game.dealer_hand is not None
    return game.phase != "playing" or not is_ace_and_ten(game.dealer_hand.cards)


def what_the_dealer_knows(game: VingtUn) -> bool:
    """Standing hands are not over 21; a dealt one (its seat did not split) is no natural."""
    for seat in game.players:
        for hand in game.hands[seat]:
            if hand.settled:
                continue
            if points(hand.cards) > 21:
                return False
            if len(game.hands[seat]) == 1 and is_ace_and_ten(hand.cards[:2]):
                return False
    return True


def monte_carlo(
    game: VingtUn, action: Action, n: int, seed: int, ok: Any = no_natural_for_the_dealer
) -> Figures:
    """The seat's chips over ``n`` hands: dealt afresh, ``action`` taken, played out by the
    game's bots (the framework's ``play_out``)."""
    seat = next(iter(game.to_act()))
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(n):
        copy_ = copy.deepcopy(game)
        copy_.seeds = seeded_source(rng.randbytes(32))
        deal_afresh(copy_, seat, rng, ok)
        copy_.apply(seat, dict(action))
        tally.add(net_of(play_out(copy_, rng), seat))
    return tally.figures()


def sigma(f: Figures) -> float:
    return f.half_width / Z95


def within_4_sigma(analysed: Figures, simulated: Figures) -> None:
    spread = math.sqrt(sigma(analysed) ** 2 + sigma(simulated) ** 2)
    assert abs(analysed.ev - simulated.ev) <= 4 * spread, (analysed, simulated)
    n = simulated.samples or 1
    for p, q in ((analysed.win, simulated.win), (analysed.lose, simulated.lose)):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-4) / n) + 1e-9, (analysed, simulated)


def test_standing_on_12_against_monte_carlo() -> None:
    game, _, _, _ = dealt("T2")
    within_4_sigma(by_kind(game)[("stand", None)], monte_carlo(game, {"kind": "stand"}, 2500, 1))


def test_drawing_to_20_against_monte_carlo() -> None:
    """On a hard 20 only an ace does not bust, and on 21 the bots stand: a fixed play to
    simulate for the best one."""
    game = heads_up("TS", "KH")
    within_4_sigma(by_kind(game)[("draw", None)], monte_carlo(game, {"kind": "draw"}, 2500, 2))


def test_a_stake_against_monte_carlo() -> None:
    game = table(["AS", "TD", "5H"], players=2)
    figures = by_kind(game, Effort(600), seed=3)
    assert set(figures) == {("stake", 10), ("stake", 100)}
    simulated = monte_carlo(game, {"kind": "stake", "amount": 100}, 1500, 4)
    within_4_sigma(figures[("stake", 100)], simulated)


def test_the_double_against_monte_carlo() -> None:
    game = table(["7S", "TD"])
    act(game, 1, "stake", amount=20)
    figures = by_kind(game, Effort(600), seed=5)
    assert set(figures) == {("double", None), ("no_double", None)}
    within_4_sigma(figures[("double", None)], monte_carlo(game, {"kind": "double"}, 1500, 6))


def test_a_split_against_monte_carlo() -> None:
    game = heads_up("8S", "8H")
    figures = by_kind(game, Effort(600), seed=7)
    assert set(figures) == {("stand", None), ("draw", None), ("split", 10), ("split", 100)}
    simulated = monte_carlo(game, {"kind": "split", "amount": 10}, 1500, 8)
    within_4_sigma(figures[("split", 10)], simulated)


def test_the_dealers_draw_against_monte_carlo() -> None:
    """The dealer on 16 (9D 7C) against a player standing on two cards and one who drew a
    four face up and stood."""
    game = table(["TS", "5C", "9D", "8H", "6C", "7C", "4H"], players=2)
    act(game, 1, "stake", amount=10)
    act(game, 2, "stake", amount=10)
    act(game, 0, "no_double")
    act(game, 1, "stand")
    act(game, 2, "draw")
    act(game, 2, "stand")
    assert game.phase == "dealer"
    figures = by_kind(game, Effort(600), seed=9)
    for kind in ("draw", "stand"):
        simulated = monte_carlo(game, {"kind": kind}, 1200, 10, what_the_dealer_knows)
        within_4_sigma(figures[(kind, None)], simulated)


# ----------------------------------------------------------------------------- whole hands


def test_random_hands_every_decision_analysed() -> None:
    """Hands played by the bots (1 to 3 players, the options varied), every decision
    analysed at a small effort: the chosen action among the options, chances adding to 1."""
    rng = random.Random(11)
    decided = 0
    for hand in range(160):
        options: dict[str, Any] = {
            "natural_paid_by_all": hand % 3 == 0,
            "max_split_hands": 1 + hand % 4,
        }
        game = VingtUn(options, seeds=seeded_source(rng.randbytes(32)))
        players = 1 + hand % 3
        for seat in range(players + 1):
            game.sit(seat, rng.choice([60, 200, 1000]))
        # a pack part dealt already: its cards in the pile
        used = rng.randrange(0, 45)
        game.pile = game.stock.cards[:used] if game.stock.cards else []
        game.start_hand()
        if not game.pile:
            game.pile = game.stock.cards[:used]
            game.stock.cards = game.stock.cards[used:]
        while game.completed_pending is None:
            seat = min(game.to_act())
            chosen = game.bot_action(seat, rng)
            where = Position(game, seat, game.legal_actions(seat), chosen)
            if ANALYSER.decides(where):
                decided += 1
                verdict = ANALYSER.analyse(where, Effort(3, quick=True), rng)
                assert sum(o.action == chosen for o in verdict.options) == 1
                for option in verdict.options:
                    f = option.figures
                    assert abs(f.win + f.tie + f.lose - 1) < 1e-9, option
                    assert min(f.win, f.tie, f.lose) >= 0
            game.apply(seat, chosen)
    assert decided > 500


# ----------------------------------------------------------------------------- the parts


def test_what_is_a_decision() -> None:
    game = table(["AS", "TD"], stack=40)  # a quarter of 40 is the least stake: no choice
    assert not ANALYSER.decides(position(game, {"kind": "stake", "amount": 10}))
    game = table(["AS", "TD"])
    assert ANALYSER.decides(position(game, {"kind": "stake", "amount": 10}))
    assert not ANALYSER.decides(position(game, {"kind": "stake", "amount": 5}))  # not legal
    act(game, 1, "stake", amount=10)
    assert ANALYSER.decides(position(game, {"kind": "no_double"}))
    game = heads_up("TS", "2H")
    assert ANALYSER.decides(position(game, {"kind": "stand"}))
    game.stock.cards, game.pile = [], []  # every card in play: standing only
    assert not ANALYSER.decides(position(game, {"kind": "stand"}))


def physical(game: VingtUn) -> list[str]:
    """The cards where they really are: the pack, the pile, the hands not gathered."""
    out = list(game.stock.cards) + list(game.pile)
    for hands in game.hands.values():
        out += [c for h in hands if not h.gathered for c in h.cards]
    if game.dealer_hand is not None:
        out += game.dealer_hand.cards
    return sorted(out)


def spots() -> list[tuple[str, VingtUn]]:
    """A decision of each kind."""
    staking = table(["AS", "TD", "5H"], players=2)
    double = table(["7S", "TD"])
    act(double, 1, "stake", amount=20)
    split = heads_up("8S", "8H")
    dealer = table(["TS", "5C", "9D", "8H", "6C", "7C", "4H"], players=2)
    for seat, kind in ((1, "stake"), (2, "stake"), (0, "no_double"), (1, "stand"), (2, "draw")):
        act(dealer, seat, kind, **({"amount": 10} if kind == "stake" else {}))
    act(dealer, 2, "stand")
    return [("staking", staking), ("double", double), ("split", split), ("dealer", dealer)]


@pytest.mark.parametrize("index", range(4))
def test_figures_depend_only_on_what_the_seat_sees(index: int) -> None:
    """Two positions that differ only in cards the seat cannot see: the same figures."""
    _, game = spots()[index]
    seat = next(iter(game.to_act()))
    other = resample(twin(game, random.Random(1)), seat, random.Random(2))
    assert isinstance(other, VingtUn)
    assert other.stock.cards != game.stock.cards and other.view(seat) == game.view(seat)
    one = ANALYSER.analyse(position(game), Effort(40, quick=True), random.Random(3))
    two = ANALYSER.analyse(position(other), Effort(40, quick=True), random.Random(3))
    assert one.options == two.options


def test_dealing_afresh_keeps_what_the_rules_say() -> None:
    rng = random.Random(4)
    _, split = spots()[2]
    _, dealer = spots()[3]
    for _ in range(300):
        a = resample(twin(split, rng), 1, rng)
        assert isinstance(a, VingtUn) and a.dealer_hand is not None
        assert physical(a) == sorted(deck()) and a.view(1) == split.view(1)
        assert not is_ace_and_ten(a.dealer_hand.cards)
        b = resample(twin(dealer, rng), 0, rng)
        assert isinstance(b, VingtUn)
        assert physical(b) == sorted(deck()) and b.view(0) == dealer.view(0)
        assert what_the_dealer_knows(b)


def test_a_busted_hand_the_pile_brought_back_stays_in_the_pack() -> None:
    """The seat saw its busted split hand's cards go to the pile; the pile, shuffled into a
    new pack, holds them: dealt afresh, they stay in the pack."""
    game = table(["8S", "9D", "8H", "7C", "5D", "7S", "KC"])
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    act(game, 1, "split", amount=10)
    act(game, 1, "draw")  # 8 5 K: over 21, gathered to the pile
    # the pack ran out and the pile became the new pack
    game.stock.cards, game.pile = game.pile + game.stock.cards, []
    random.Random(0).shuffle(game.stock.cards)
    mine = {"8S", "5D", "KC"}
    assert mine <= set(game.stock.cards)
    rng = random.Random(5)
    for _ in range(50):
        again = resample(twin(game, rng), 1, rng)
        assert isinstance(again, VingtUn)
        assert mine <= set(again.stock.cards) and physical(again) == sorted(deck())


@pytest.mark.parametrize("by_all", [False, True])
def test_chips_read_off_another_stake_are_the_chips_played(by_all: bool) -> None:
    """Where the analysis reads a stake's chips off a hand played with another, playing that
    stake on the same deal gives the same chips (a tight bank, several players)."""
    from app.analysis.vingt_un import Simulation, _double_scaling, _split_scaling, _stake_scaling

    game = table(["AS", "TD", "5H", "8C"], players=3, natural_paid_by_all=by_all)
    game.balances["seat:0"] = 700  # the bank covers few stakes
    cases = [(game, _stake_scaling(game, 1), "stake", 10, 100)]
    double = table(["7S", "TD", "8D"], players=2)
    act(double, 1, "stake", amount=20)
    act(double, 2, "stake", amount=100)
    cases.append((double, _double_scaling, "no_double", None, None))
    split = heads_up("8S", "8H")
    cases.append((split, _split_scaling(split, 1), "split", 10, 100))
    rng = random.Random(6)
    read = 0
    for engine, scale, kind, low, high in cases:
        seat = next(iter(engine.to_act()))
        sim = Simulation(engine, seat)
        first: Action = {"kind": kind, "amount": low} if low else {"kind": kind}
        other: Action = {"kind": kind, "amount": high} if high else {"kind": "double"}
        for _ in range(150):
            seed = rng.getrandbits(64)
            played, net = sim.play(first, seed)
            scaled = scale(played, seat, first, other, net)
            if scaled is not None:
                read += 1
                assert scaled == sim.play(other, seed)[1]
    assert read > 300
