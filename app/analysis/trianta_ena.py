"""Trianta Ena's analysis (docs/analysis.md; the game: docs/rules.md §1).

A player decides twice in a round: the bet (fold, or stake from ``min_bet`` to the top of the
range, §1.4 step 2) having seen only their face-down card and the banker's up card; then, in
seat order, hit or stand (§1.5) having seen their own cards, the banker's up card and every
face-up card on the table, while the banker's second card lies face down, seen by nobody
(§1.4 step 3). The banker has no choices (§1.6). The bank offers (§1.9) come between hands.

**What the seat knows.** Its own view (:meth:`~app.games.trianta_ena.engine.TriantaEna.view`):
its cards, the banker's up card, the other players' face-up cards (and face-down cards shown
when they went bust), the bets, and how many cards the stock and the discard pile hold. The
*unseen pool* is the shoe (``decks`` × 52 cards, §1.1) less the cards that view shows: the
stock, the banker's face-down card, the other players' face-down cards and the discard pile.
The table keeps no record of which used cards were shown face up in earlier rounds, so the
analysis counts the whole discard pile among the unseen cards: the seat's information is the
table as it stands, not a memory of the earlier rounds of the shoe.

**The reshuffle (§1.8).** When the stock runs out the discard pile becomes the new stock, the
cards in play staying out. Every card of the discard pile is in the unseen pool, so a card
drawn after a reshuffle is, like one drawn before it, a uniformly random card of what is left
of the pool: the reshuffle changes no figure. (It would, were the shown used cards counted as
known: they would come back into play only after the stock ran out.)

**Hit or stand: exact.** The figures of both options are computed exactly, by an enumeration
over the pool's composition by rank class (ace, 2 to 9, and the ten-values: ``T`` apart from
``J Q K`` when only face cards make a natural, ``natural_cards`` = ``face``). The banker's rule
is the model of the banker: turn the face-down card, draw while worth less than
``dealer_stands_on``; the banker's natural is its first three cards, an ace and two cards of
``natural_cards``. Settlement follows §1.7 (a bust player has lost; the banker's natural beats
everything; the player's natural wins; a bust banker pays; otherwise the higher value wins and
ties go to the banker). The seat's later choices are optimal (most chips expected). The other
players still to play are left out: the cards they will take are random cards of the same
pool, which changes no distribution of the seat's or the banker's cards (exchangeability).

How: the cards the banker ends with (face-down card and draws) are enumerated once per up card
and rules as *terminal multisets*, each with the number of orders the banker can draw it in
(:func:`banker_paths`); the probability of one for a pool ``U`` of ``N`` cards is
``ways · Π_r U_r^(m_r) / N^(k)`` (falling factorials). Since the seat's hits and the banker's
cards are disjoint random draws from the same exchangeable pool, the banker's distribution
after the seat drew the multiset ``P`` is the same list reweighted by
``Π_r (U_r - m_r)^(p_r) / (N - k)^(|P|)``; the seat's tree is walked once (memoised by ``P``),
each hit updating the weights in one pass. Two exact shortcuts: worth 21 or less, a hit can
neither bust nor lower the hand and leaves the banker's distribution the same on average, so
hitting is at least as good as standing and standing is not evaluated there (but at the
decision itself); and a hit is not expanded where standing already beats the chance that the
next card does not bust.

**The bet: estimated.** By simulation: the cards the seat cannot see are dealt afresh from the
unseen pool (:func:`resample` says which), the other players still to bet bet as the steady bot
(:mod:`app.games.trianta_ena.bot`), the bank's cover is allotted in seat order (§0.6: a bet can
be cut, even to nothing, by the stakes before it), and everyone, the seat included, plays the
turns as the steady bot. A fold is exact: nothing is won or lost. The figures' unit is the
seat's chips in the round: *win* when it gains, *lose* when it loses, *tie* when nothing changes
hands (a fold, a bet the bank could not cover).
"""

from __future__ import annotations

import functools
import operator
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.analysis import notes
from app.analysis.figures import Figures, Option, Tally, exact
from app.analysis.position import Effort, Position, Verdict
from app.games.core.actions import Action, action_fits
from app.games.core.cards import canonical_shoe, rank
from app.games.core.game import Game
from app.games.core.values import ace_sums
from app.games.trianta_ena.bot import bet_amount, folds, hit_below
from app.games.trianta_ena.engine import TriantaEna
from app.games.trianta_ena.scoring import LIMIT, banker_draws, is_natural, settle, value
from app.games.trianta_ena.state import DECIDING, FOLDED

SAFE = 21
"""A hand worth this or less cannot go bust with one more card, nor lose value by it."""

# ----------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class Rules:
    """The table options the analysis depends on (docs/rules.md §1.2)."""

    ace_rule: str
    stands_on: int
    natural_cards: str

    @property
    def classes(self) -> int:
        """Rank classes: ace, 2 to 9, ten (with J Q K under ``ten``), face (``face`` only)."""
        return 11 if self.natural_cards == "face" else 10

    @property
    def natural_class(self) -> int:
        """The class whose cards make a natural with an ace."""
        return 10 if self.natural_cards == "face" else 9

    def class_of(self, card: str) -> int:
        r = rank(card)
        if r == "A":
            return 0
        if r in "23456789":
            return int(r) - 1
        if r == "T" or self.natural_cards == "ten":
            return 9
        return 10

    @property
    def outcomes(self) -> int:
        """The banker's outcomes: bust, each final value from ``stands_on`` to 31, natural."""
        return LIMIT - self.stands_on + 3

    def win_cut(self, worth: int) -> int:
        """Outcomes ``[0, cut)`` are the ones a plain hand worth ``worth`` beats: the banker
        bust, or standing on less (§1.7: ties go to the banker)."""
        return 1 + max(0, worth - self.stands_on)


def table_of(engine: Game) -> TriantaEna:
    """The engine as the Trianta Ena table it is."""
    if not isinstance(engine, TriantaEna):
        raise TypeError(f"not a Trianta Ena engine: {type(engine).__name__}")
    return engine


def rules_of(engine: Game) -> Rules:
    options = engine.options
    return Rules(
        str(options["ace_rule"]), int(options["dealer_stands_on"]), str(options["natural_cards"])
    )


PIPS = (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10)
"""Each class's points; the ace (class 0) counts by the ace rule (§0.4)."""


@functools.lru_cache(maxsize=4096)
def worth(base: int, aces: int, ace_rule: str) -> int | None:
    """A hand's value (best total not over 31, None when bust) from its non-ace points and
    its aces (docs/rules.md §0.4, §1.3)."""
    under = [base + s for s in ace_sums(aces, ace_rule) if base + s <= LIMIT]
    return max(under) if under else None


def add(base: int, aces: int, cls: int) -> tuple[int, int]:
    return (base, aces + 1) if cls == 0 else (base + PIPS[cls], aces)


# ----------------------------------------------------------------------------- the banker


@dataclass(frozen=True)
class BankerPaths:
    """Every way the banker's hand can end, from its up card: the multisets of the cards
    after the up card (the face-down card and the draws), by class, sorted by outcome (bust,
    then each final value from ``stands_on`` up, then natural), with the number of orders in
    which the banker can draw each (its prefixes all short of ``stands_on``)."""

    counts: tuple[tuple[int, ...], ...]
    ways: tuple[int, ...]
    outcome: tuple[int, ...]

    @functools.cached_property
    def sizes(self) -> tuple[int, ...]:
        return tuple(sum(c) for c in self.counts)

    @functools.cached_property
    def sparse(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        return tuple(tuple((cls, m) for cls, m in enumerate(c) if m) for c in self.counts)


@functools.lru_cache(maxsize=128)
def banker_paths(rules: Rules, up: int) -> BankerPaths:
    """The banker's terminal multisets for an up card of class ``up`` (§1.6, §1.3)."""
    k = rules.classes
    natural = rules.outcomes - 1
    base0, aces0 = add(0, 0, up)
    zero = (0,) * k
    level: dict[tuple[int, ...], tuple[int, int, int, int]] = {
        zero: (1, base0, aces0, int(up == rules.natural_class))
    }
    found: dict[tuple[int, ...], list[int]] = {}
    cards = 1
    while level:
        cards += 1
        following: dict[tuple[int, ...], tuple[int, int, int, int]] = {}
        for counts, (ways, base, aces, nat) in level.items():
            for cls in range(k):
                b, a = add(base, aces, cls)
                n = nat + (cls == rules.natural_class)
                grown = (*counts[:cls], counts[cls] + 1, *counts[cls + 1 :])
                v = worth(b, a, rules.ace_rule)
                if v is None:
                    outcome = 0
                elif cards == 3 and a == 1 and n == 2:
                    outcome = natural
                elif v >= rules.stands_on:
                    outcome = 1 + v - rules.stands_on
                else:
                    before = following.get(grown)
                    following[grown] = (ways + (before[0] if before else 0), b, a, n)
                    continue
                entry = found.setdefault(grown, [0, outcome])
                entry[0] += ways
        level = following
    ordered = sorted(found.items(), key=lambda item: (item[1][1], item[0]))
    return BankerPaths(
        tuple(c for c, _ in ordered),
        tuple(e[0] for _, e in ordered),
        tuple(e[1] for _, e in ordered),
    )


def falling(n: int, m: int) -> int:
    """``n (n-1) ... (n-m+1)``: the ordered ways to draw ``m`` cards of ``n``."""
    out = 1
    for i in range(m):
        out *= n - i
    return out


@dataclass
class Weights:
    """The banker's terminal multisets possible from a pool, with their probabilities."""

    weights: list[float]
    outcomes: list[int]
    counts: list[tuple[int, ...]]
    sizes: list[int]


def banker_weights(rules: Rules, up: int, pool: tuple[int, ...]) -> Weights:
    """The probability of each terminal multiset of the banker's (face-down card and draws:
    uniformly random cards of ``pool``, class counts). Normalised: a pool too small for some
    endings, which the engine could not deal either, is read as the deal going on with the
    cards there are."""
    paths = banker_paths(rules, up)
    size = sum(pool)
    most = max(paths.sizes)
    table = [[falling(have, m) for m in range(most + 1)] for have in pool]
    inverse = [1 / falling(size, k) if falling(size, k) else 0.0 for k in range(most + 1)]
    out = Weights([], [], [], [])
    for index, sparse in enumerate(paths.sparse):
        num = paths.ways[index]
        for cls, m in sparse:
            num *= table[cls][m]
            if not num:
                break
        if num:
            k = paths.sizes[index]
            out.weights.append(num * inverse[k])
            out.outcomes.append(paths.outcome[index])
            out.counts.append(paths.counts[index])
            out.sizes.append(k)
    total = sum(out.weights)
    if total <= 0:
        raise ValueError("the pool cannot complete the banker's hand")
    out.weights = [w / total for w in out.weights]
    return out


def banker_distribution(rules: Rules, up: int, pool: tuple[int, ...]) -> list[float]:
    """The banker's outcome probabilities (bust, ``stands_on``..31, natural) from ``pool``."""
    found = banker_weights(rules, up, pool)
    out = [0.0] * rules.outcomes
    for weight, outcome in zip(found.weights, found.outcomes, strict=True):
        out[outcome] += weight
    return out


# ----------------------------------------------------------------------------- hit or stand


@dataclass(frozen=True)
class TurnFigures:
    """The chance that one chip staked wins, standing now and hitting now (then playing
    on optimally; None when hitting is not allowed, on 31), and the seat's tree's size."""

    stand: float
    hit: float | None
    nodes: int


class _Turn:
    """The seat's tree of hits after the decision, the banker's distribution carried along
    as weights over its terminal multisets (see the module's docstring).

    A node's weights are ``p(banker ends with t, seat drew this sequence)``, unnormalised:
    their sum is the probability of the seat's sequence. Drawing a card of class ``c`` after
    ``j`` cards multiplies terminal ``t``'s weight by ``(U_c - p_c - m_tc) / (N - j - k_t)``;
    that factor takes few values (by ``m_tc`` and ``k_t``), so each terminal carries a code
    per class and a node's update is one table look-up and one product per terminal."""

    def __init__(self, rules: Rules, up: int, pool: tuple[int, ...]) -> None:
        self.rules = rules
        self.pool = pool
        self.size = sum(pool)
        found = banker_weights(rules, up, pool)
        self.distribution = [0.0] * rules.outcomes
        for weight, outcome in zip(found.weights, found.outcomes, strict=True):
            self.distribution[outcome] += weight
        # only the endings some stand beats are ever summed (below 31, or bust): the others
        # are dropped; a node's probability is carried apart (``reach``)
        kept = sum(1 for o in found.outcomes if o < rules.win_cut(LIMIT))
        found = Weights(
            found.weights[:kept], found.outcomes[:kept], found.counts[:kept], found.sizes[:kept]
        )
        self.root = found.weights
        self.outcomes = found.outcomes
        self.most = max(found.sizes) + 1
        self.sizes = range(self.most)
        self.codes = [
            [c[cls] * self.most + k for c, k in zip(found.counts, found.sizes, strict=True)]
            for cls in range(rules.classes)
        ]
        self.top = [max((c[cls] for c in found.counts), default=0) for cls in range(rules.classes)]
        self._cut: dict[int, int] = {}
        self.memo: dict[tuple[int, ...], float] = {}

    def cut(self, worth_: int) -> int:
        """How many terminals (sorted by outcome) a plain hand worth ``worth_`` beats."""
        found = self._cut.get(worth_)
        if found is None:
            limit = self.rules.win_cut(worth_)
            found = sum(1 for o in self.outcomes if o < limit)
            self._cut[worth_] = found
        return found

    def stand(self, weights: list[float], worth_: int) -> float:
        """The (unnormalised) chance to win standing on a plain ``worth_`` (§1.7)."""
        return sum(weights[: self.cut(worth_)])

    def child(self, weights: list[float], cls: int, have: int, drawn: int) -> list[float]:
        """The weights once the seat, having drawn ``drawn`` cards, draws one of class
        ``cls`` (``have`` of it left in the pool after the seat's own draws)."""
        left = self.size - drawn
        factor = [0.0] * (self.most * (self.top[cls] + 1))
        for m in range(self.top[cls] + 1):
            for k in self.sizes:
                if left > k and have > m:
                    factor[m * self.most + k] = (have - m) / (left - k)
        return list(map(operator.mul, weights, map(factor.__getitem__, self.codes[cls])))

    def value(
        self,
        drawn: tuple[int, ...],
        count: int,
        base: int,
        aces: int,
        weights: list[float],
        reach: float,
    ) -> float:
        """The chance to win (unnormalised: times ``reach``, the probability of the seat's
        draws) of a seat that has drawn ``drawn`` (class counts, ``count`` cards) since the
        decision, playing on optimally."""
        known = self.memo.get(drawn)
        if known is not None:
            return known * reach
        v = worth(base, aces, self.rules.ace_rule)
        assert v is not None
        stand = None if v <= SAFE else self.stand(weights, v) / reach
        if v == LIMIT:
            assert stand is not None
            self.memo[drawn] = stand
            return stand * reach
        if stand is not None:
            safe = sum(
                self.pool[c] - drawn[c]
                for c in range(self.rules.classes)
                if worth(*add(base, aces, c), self.rules.ace_rule) is not None
            )
            if stand * (self.size - count) >= safe:
                self.memo[drawn] = stand
                return stand * reach
        hit = self.hit(drawn, count, base, aces, weights, reach) / reach
        best = hit if stand is None else max(stand, hit)
        self.memo[drawn] = best
        return best * reach

    def hit(
        self,
        drawn: tuple[int, ...],
        count: int,
        base: int,
        aces: int,
        weights: list[float],
        reach: float,
    ) -> float:
        """The (unnormalised) chance to win hitting now, then optimally."""
        left = self.size - count
        total = 0.0
        for cls in range(self.rules.classes):
            have = self.pool[cls] - drawn[cls]
            if have <= 0:
                continue
            b, a = add(base, aces, cls)
            if worth(b, a, self.rules.ace_rule) is None:
                continue
            grown = (*drawn[:cls], drawn[cls] + 1, *drawn[cls + 1 :])
            further = reach * have / left
            known = self.memo.get(grown)
            if known is not None:
                total += known * further
            else:
                total += self.value(
                    grown, count + 1, b, a, self.child(weights, cls, have, count), further
                )
        return total


def turn_figures(
    rules: Rules, up: int, cards: Iterable[int], pool: tuple[int, ...], natural: bool = False
) -> TurnFigures:
    """Exact: the chance one staked chip wins standing now and hitting now (then optimally),
    for a seat holding ``cards`` (classes) against the banker's ``up`` class, the unseen
    cards being ``pool`` (class counts)."""
    base, aces = 0, 0
    for cls in cards:
        base, aces = add(base, aces, cls)
    v = worth(base, aces, rules.ace_rule)
    if v is None:
        raise ValueError("a bust hand has no decision")
    tree = _Turn(rules, up, pool)
    # a natural loses only to the banker's (§1.7)
    stand = 1.0 - tree.distribution[-1] if natural else tree.stand(tree.root, v)
    hit = None
    if v < LIMIT:
        hit = tree.hit((0,) * rules.classes, 0, base, aces, tree.root, 1.0)
    return TurnFigures(stand, hit, len(tree.memo))


# ----------------------------------------------------------------------------- what the seat sees


def shown_cards(view: dict[str, Any]) -> Counter[str]:
    """Every card a view shows in the seats' hands (the banker's included), with repeats."""
    out: Counter[str] = Counter()
    for entry in view.get("seats") or []:
        for hand in entry.get("hands") or []:
            for card in hand.get("cards") or []:
                if card.get("card"):
                    out[str(card["card"])] += 1
    return out


def unseen(engine: Game, seat: int) -> list[str]:
    """The seat's unseen pool, sorted: the shoe less every card its view shows (the stock,
    the face-down cards it cannot see and the discard pile; see the module's docstring)."""
    shoe = Counter(canonical_shoe(int(engine.options["decks"])))
    return sorted((shoe - shown_cards(engine.view(seat))).elements())


def class_counts(rules: Rules, cards: Iterable[str]) -> tuple[int, ...]:
    counts = [0] * rules.classes
    for card in cards:
        counts[rules.class_of(card)] += 1
    return tuple(counts)


def resample(engine: Game, seat: int, rng: random.Random) -> Game:
    """``engine`` (already detached) with every card ``seat`` cannot see dealt afresh: the
    other players' face-down cards not shown, the banker's face-down card while it is down,
    the stock and the discard pile. The cards are gathered, sorted, shuffled with ``rng`` and
    put back in the same places, so the result depends only on what the seat sees."""
    places: list[tuple[list[str], int]] = []
    round_ = table_of(engine).round
    if engine.in_hand and round_ is not None:
        for other in round_.order:
            hand = round_.hands[other]
            if other != seat and not hand.shown:
                places.append((hand.cards, 0))
        if len(round_.banker_cards) > 1 and not round_.hole_shown:
            places.append((round_.banker_cards, 1))
    stock: list[str] = table_of(engine).stock.cards
    discard: list[str] = table_of(engine).discard
    places += [(stock, i) for i in range(len(stock))]
    places += [(discard, i) for i in range(len(discard))]
    cards = sorted(where[i] for where, i in places)
    rng.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    table_of(engine).stock.shuffle = None  # the real order, now stale
    return engine


# ----------------------------------------------------------------------------- the bet


@dataclass
class Betting:
    """The betting window as the seat sees it (docs/rules.md §1.4)."""

    rules: Rules
    me: int
    mine: str
    """The seat's face-down card."""
    up: str
    order: list[int]
    """The players dealt in, in seat order (the order of the cover and of the turns)."""
    bank: int
    decided: dict[int, int | None]
    """Other players' bets already made (None: folded): public."""
    stacks: dict[int, int]
    min_bet: int
    max_bet: int | None
    others: list[int]
    """The other players dealt in, each holding a face-down card the seat cannot see."""
    pool: list[str]
    stock: int
    discard: int


def betting(engine: Game, seat: int) -> Betting:
    """What ``seat`` knows in the betting window: its card, the up card, the bets made."""
    game = table_of(engine)
    round_ = game.round
    assert round_ is not None
    decided: dict[int, int | None] = {}
    for other in round_.order:
        hand = round_.hands[other]
        if other != seat and hand.status != DECIDING:
            decided[other] = None if hand.status == FOLDED else int(hand.bet)
    return Betting(
        rules=rules_of(engine),
        me=seat,
        mine=round_.hands[seat].cards[0],
        up=round_.banker_cards[0],
        order=list(round_.order),
        bank=engine.stack(round_.banker),
        decided=decided,
        stacks={other: engine.stack(other) for other in round_.order},
        min_bet=int(engine.options["min_bet"]),
        max_bet=None if engine.options["max_bet"] is None else int(engine.options["max_bet"]),
        others=[other for other in round_.order if other != seat],
        pool=unseen(engine, seat),
        stock=len(game.stock),
        discard=len(game.discard),
    )


class _Shoe:
    """The stock, then the discard pile shuffled into a new stock when it runs out (§1.8)."""

    def __init__(self, stock: list[str], discard: list[str], rng: random.Random) -> None:
        self.cards = stock[::-1]
        self.discard = discard
        self.rng = rng

    def draw(self) -> str | None:
        if not self.cards:
            if not self.discard:
                return None  # every card in play: the engine could not deal either
            self.cards, self.discard = self.discard, []
            self.rng.shuffle(self.cards)
        return self.cards.pop()


def play_round(
    table: Betting,
    amount: int | None,
    hidden: list[str],
    stock: list[str],
    discard: list[str],
    rng: random.Random,
) -> int:
    """The seat's chips at the end of one simulated round in which it bets ``amount`` (None:
    folds), the others' face-down cards being ``hidden`` (in ``table.others`` order), the
    stock ``stock`` (top first) and the discard pile ``discard``. Everyone else decides and
    everyone plays the turns as the steady bot (:mod:`app.games.trianta_ena.bot`); the cover
    is allotted in seat order (§0.6, §1.4)."""
    rules = table.rules
    face_down = dict(zip(table.others, hidden, strict=True))
    face_down[table.me] = table.mine
    cover = table.bank
    stakes: dict[int, int] = {}
    for seat in table.order:
        bet: int | None
        if seat == table.me:
            bet = amount
        elif seat in table.decided:
            bet = table.decided[seat]
        elif folds(face_down[seat], table.up):
            bet = None
        else:
            stack = table.stacks[seat]
            high = stack if table.max_bet is None else min(stack, table.max_bet)
            bet = bet_amount(face_down[seat], table.up, stack, table.min_bet, high)
        if bet is None:
            continue
        stake = min(bet, cover)
        if stake > 0:
            cover -= stake
            stakes[seat] = stake
    if table.me not in stakes:
        return 0
    shoe = _Shoe(stock, discard, rng)
    hands: dict[int, list[str]] = {}
    for seat in stakes:
        hands[seat] = [face_down[seat]]
        for _ in range(2):
            card = shoe.draw()
            if card is not None:
                hands[seat].append(card)
    banker = [table.up]
    hole = shoe.draw()
    if hole is not None:
        banker.append(hole)
    threshold = hit_below(table.up)
    for seat in stakes:
        cards = hands[seat]
        while True:
            v = value(cards, rules.ace_rule)
            if v is None or v >= threshold:
                break
            card = shoe.draw()
            if card is None:
                break
            cards.append(card)
    mine = hands[table.me]
    stake = stakes[table.me]
    if value(mine, rules.ace_rule) is None:
        return -stake
    while banker_draws(banker, rules.ace_rule, rules.stands_on):
        card = shoe.draw()
        if card is None:
            break
        banker.append(card)
    return stake if settle(mine, banker, rules.ace_rule, rules.natural_cards).won else -stake


def bet_figures(
    table: Betting, amounts: list[int], samples: int, rng: random.Random
) -> dict[int, Figures]:
    """Estimated figures of each bet in ``amounts`` by ``samples`` simulated rounds, the
    same deals for every amount (common random numbers)."""
    tallies = {amount: Tally() for amount in amounts}
    cards = list(table.pool)
    hidden_n = len(table.others)
    stock_n = min(table.stock, max(0, len(cards) - hidden_n))
    for _ in range(samples):
        rng.shuffle(cards)
        hidden = cards[:hidden_n]
        stock = cards[hidden_n : hidden_n + stock_n]
        discard = cards[hidden_n + stock_n :]
        for amount in amounts:
            tallies[amount].add(play_round(table, amount, hidden, stock, list(discard), rng))
    return {amount: tally.figures() for amount, tally in tallies.items()}


# ----------------------------------------------------------------------------- the analyser

FOLD = {"kind": "fold"}
HIT = {"kind": "hit"}
STAND = {"kind": "stand"}


def _chosen(options: list[Option], chosen: Action | None) -> list[Option]:
    """The options with the chosen action's own dict standing for its option."""
    if chosen is None:
        return options
    return [Option(dict(chosen), o.figures) if o.action == chosen else o for o in options]


def _per_chip(win: float, stake: int) -> Figures:
    """A stake that wins with chance ``win`` (no ties: they go to the banker, §1.7)."""
    return exact(win, 0.0, 1.0 - win, stake * (2.0 * win - 1.0))


class TriantaEnaAnalyser:
    """The analyser of docs/analysis.md for Trianta Ena (see the module's docstring)."""

    def decides(self, position: Position) -> bool:
        if position.chosen is not None and not action_fits(position.chosen, position.legal):
            return False
        kinds = {template["kind"] for template in position.legal}
        if kinds & {"accept_bank", "decline_bank"}:
            return False
        return len(kinds) >= 2

    def analyse(self, position: Position, effort: Effort, rng: Any) -> Verdict:
        kinds = {template["kind"] for template in position.legal}
        if "bet" in kinds or "fold" in kinds:
            return self.bet(position, effort, rng)
        if "hit" in kinds or "stand" in kinds:
            return self.turn(position)
        zero = exact(0.0, 1.0, 0.0, 0.0)
        options = [Option({"kind": kind}, zero) for kind in ("accept_bank", "decline_bank")]
        offered = [o for o in options if o.action["kind"] in kinds]
        return Verdict(_chosen(offered, position.chosen), notes.TRIANTA_ENA_BANK)

    def turn(self, position: Position) -> Verdict:
        """Hit or stand (§1.5): exact (see the module's docstring)."""
        engine, seat = position.engine, position.seat
        rules = rules_of(engine)
        round_ = table_of(engine).round
        assert round_ is not None
        hand = round_.hands[seat]
        pool = class_counts(rules, unseen(engine, seat))
        found = turn_figures(
            rules,
            rules.class_of(round_.banker_cards[0]),
            [rules.class_of(card) for card in hand.cards],
            pool,
            natural=is_natural(hand.cards, rules.natural_cards),
        )
        kinds = {template["kind"] for template in position.legal}
        options = []
        if "hit" in kinds and found.hit is not None:
            options.append(Option(dict(HIT), _per_chip(found.hit, hand.stake)))
        options.append(Option(dict(STAND), _per_chip(found.stand, hand.stake)))
        note = notes.TRIANTA_ENA_TURN.format(stands_on=rules.stands_on)
        return Verdict(_chosen(options, position.chosen), note)

    def bet(self, position: Position, effort: Effort, rng: random.Random) -> Verdict:
        """Fold or bet (§1.4 step 2): the smallest bet, the largest and the chosen amount,
        estimated by simulation; the fold exact."""
        template = next(t for t in position.legal if t["kind"] == "bet")
        bounds = template["params"]["amount"]
        amounts = {int(bounds["min"]), int(bounds["max"])}
        if position.chosen is not None and position.chosen.get("kind") == "bet":
            amounts.add(int(position.chosen["amount"]))
        table = betting(position.engine, position.seat)
        found = bet_figures(table, sorted(amounts), effort.samples, rng)
        options = [Option(dict(FOLD), exact(0.0, 1.0, 0.0, 0.0))]
        options += [Option({"kind": "bet", "amount": a}, found[a]) for a in sorted(amounts)]
        note = notes.TRIANTA_ENA_BET.format(samples=effort.samples)
        return Verdict(_chosen(options, position.chosen), note)


ANALYSER = TriantaEnaAnalyser()
"""Trianta Ena's analyser (app/analysis/__init__.py)."""
