"""Trente et Quarante's analysis (docs/analysis.md, Trente et Quarante; the game: docs/rules.md §4).

Every card of a coup is dealt face up (§4.5), so what a bettor has not seen is exactly the
shoe's cards not yet turned: the stock and the five cards burned when the shoe was shuffled
(§4.1), whose faces nobody saw. That *unseen pool* (:func:`pool_of`) is the shoe less every
card turned since its shuffle; the stock is a uniformly arranged part of it, and how many cards
the stock holds is public (the view's ``cards_left``): a coup that needs more is void (§4.10).

**The coup's chances, exact** (:func:`coup_chances`). The first row (Noir) takes cards until
its total passes 30, then the second (Rouge) (§4.3, §4.5), without replacement from the pool.
A row whose cards total ``F`` (31 to 40) is a row in exactly the orders that end with a card of
``F - 30`` points or more, ``(k-1)! L / prod(a_v!)`` orders of its ``k`` cards (``a_v`` of
value ``v``, ``L`` of them of ``F - 30`` points or more); an arrangement of both rows' cards has
the chance ``prod((n_v)_(a_v+b_v)) / (N)_K`` (falling factorials of the pool's counts ``n_v``
and size ``N``). The enumeration runs over the card values from ten down to the ace with, for
each row, its cards so far and their total; a row *closes* at the value ``theta`` that makes
its total ``30 + theta`` (the multiplier ``L`` is then the row's cards so far) and must be
filled exactly by the smaller values after. The lower row is the one that closes later, so the
winner is known when the first row closes; both closing at the same value is an après (§4.7),
at the ace a 31 tie (un après). The first card's colour (couleur, §4.5) is carried as a second
weight: the first card is any card of the row but the closing one. The twos and aces, the values
with the most ways through, are summed last against a table of the second row's completions.
Rouge and Noir are equally likely from any pool (the two rows' cards are exchangeable), which
the enumeration uses to leave out what it would only count twice; the couleur and inverse split
is counted in full when the pool's colours are uneven. The figures are exact up to the rounding
of floating point (about 1e-13).

A ``best`` bot (an effort that says ``quick``: :data:`~app.analysis.position.BOT_EFFORT`) takes
the quick chances instead (:func:`quick_chances`: each row's law exact from the pool, the two
rows taken as independent): those figures are marked not exact.

**What a stake is worth** (§4.6 to §4.8). A free stake wins or loses even money; an après
leaves it; a 31 tie leaves an insured one (its premium, 1% in whole chips rounded down, paid
when the coup is dealt) and puts an uninsured one to its owner's choice, to share it (half,
rounded down, back) or put it in prison; a void coup moves nothing. A stake in prison is
counted at the chips it is expected to bring back (:func:`prison_values`): each later coup
dealt with this coup's chances (the *stationary* model: the shoe's later cards are not known,
and one coup removes too few of them to matter much), its owner sharing it or leaving it deeper
at each 31 tie and moving it after a tie to the chance worth the most (§4.7), a shoe's end
returning it whole under the Venice rule (§4.10). At an un après choice the next coup's chances
are exact from the pool the coup left.

**The unit.** The coup: the seat's chips over the hand counted on every account it owns
(:func:`~app.analysis.rollout.net_of`: a stake moved to prison is still the seat's), the stakes
it has in prison at the coup's end counted at their expected value instead of their face. The
seat *wins* when that total grows, *ties* when it stays, *loses* otherwise. A window's option is
counted with the seat's stakes as the option leaves them (the seat changes nothing after); an
un après choice with the seat's other choices of that coup the best.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb, factorial
from operator import mul
from typing import Any, cast

from app.analysis import notes
from app.analysis.figures import Figures, Option, exact
from app.analysis.position import Effort, Position, Verdict
from app.analysis.rollout import chips_so_far
from app.games.core.actions import Action, LegalAction, action_fits
from app.games.core.cards import is_red
from app.games.core.game import Game
from app.games.trente_et_quarante.coup import CHANCES, COULEUR, INVERSE, NOIR, POINTS, ROUGE
from app.games.trente_et_quarante.engine import TrenteEtQuarante
from app.games.trente_et_quarante.stakes import premium
from app.games.trente_et_quarante.table import BETTING, BURNED, UN_APRES

# ----------------------------------------------------------------------------- the pool


@dataclass(frozen=True)
class Pool:
    """The cards a bettor has not seen, by points (index 0: aces, 9: ten-value cards), the red
    ones among them, and how many the stock holds (a coup needing more is void)."""

    counts: tuple[int, ...]
    reds: tuple[int, ...]
    stock: int

    @property
    def size(self) -> int:
        return sum(self.counts)

    @classmethod
    def of(cls, cards: list[str], stock: int) -> Pool:
        counts = [0] * 10
        reds = [0] * 10
        for card in cards:
            counts[POINTS[card] - 1] += 1
            reds[POINTS[card] - 1] += is_red(card)
        return cls(tuple(counts), tuple(reds), stock)


def unseen_cards(engine: TrenteEtQuarante) -> list[str]:
    """The shoe's cards not turned face up since its shuffle: the five burned and the stock.

    The shuffle's record keeps the shoe's order (burned cards first, then the cards turned in
    order, the stock last), and only the set the two make is read here: the shoe less the cards
    every bettor saw. A stock whose shuffle is not kept (not one this engine shuffles) counts
    its own cards only."""
    stock = engine.stock
    shuffle = stock.shuffle
    cards = stock.cards
    if shuffle is None or len(shuffle.order) < BURNED + len(cards):
        return list(cards)
    order = shuffle.order
    if cards and order[len(order) - len(cards) :] != cards:
        return list(cards)
    return list(order[:BURNED]) + list(cards)


def pool_of(engine: TrenteEtQuarante) -> Pool:
    """The unseen pool (:func:`unseen_cards`) with the stock's public size."""
    return Pool.of(unseen_cards(engine), len(engine.stock.cards))


def resample(engine: Game, seat: int, rng: random.Random) -> Game:
    """``engine`` (already detached) with the unseen cards dealt afresh: the burned cards and
    the stock gathered, sorted, shuffled with ``rng`` and put back in the same places (the
    shuffle's record too, so the cards turned stay what everyone saw)."""
    game = cast(TrenteEtQuarante, engine)
    stock = game.stock
    hidden = unseen_cards(game)
    shuffle = stock.shuffle
    burned = len(hidden) - len(stock.cards)
    cards = sorted(hidden)
    rng.shuffle(cards)
    if shuffle is not None and burned == BURNED:
        order = shuffle.order
        turned = order[BURNED : len(order) - len(stock.cards)]
        shuffle.order = cards[:BURNED] + turned + cards[BURNED:]
    stock.cards = cards[burned:]
    return game


# ----------------------------------------------------------------------------- the coup's chances


@dataclass(frozen=True)
class Chances:
    """One coup's outcomes (§4.5-4.7): the winning row with the colour chance, a tie that is
    not 31 (après), a 31 tie (un après), a void coup (§4.10). They add up to 1."""

    noir_couleur: float
    noir_inverse: float
    rouge_couleur: float
    rouge_inverse: float
    apres: float
    un_apres: float
    void: float
    exact: bool = True

    @property
    def noir(self) -> float:
        return self.noir_couleur + self.noir_inverse

    @property
    def rouge(self) -> float:
        return self.rouge_couleur + self.rouge_inverse

    @property
    def couleur(self) -> float:
        return self.noir_couleur + self.rouge_couleur

    @property
    def inverse(self) -> float:
        return self.noir_inverse + self.rouge_inverse

    def wins(self, chance: str) -> float:
        """The chance that a stake on ``chance`` wins."""
        return {NOIR: self.noir, ROUGE: self.rouge, COULEUR: self.couleur, INVERSE: self.inverse}[
            chance
        ]

    def loses(self, chance: str) -> float:
        return self.wins(OTHER[chance])

    def outcomes(self) -> Iterator[tuple[Outcome, float]]:
        """Every outcome with its chance (:data:`OUTCOMES`)."""
        yield (NOIR, COULEUR), self.noir_couleur
        yield (NOIR, INVERSE), self.noir_inverse
        yield (ROUGE, COULEUR), self.rouge_couleur
        yield (ROUGE, INVERSE), self.rouge_inverse
        yield APRES, self.apres
        yield UN_APRES_TIE, self.un_apres
        yield VOID, self.void


Outcome = tuple[str, str] | str
"""A coup's outcome: the winning row and colour chance, or :data:`APRES`, :data:`UN_APRES_TIE`,
:data:`VOID`."""
APRES, UN_APRES_TIE, VOID = "apres", "un_apres", "void"
OTHER = {ROUGE: NOIR, NOIR: ROUGE, COULEUR: INVERSE, INVERSE: COULEUR}

ROWS_MAX = 62
"""The most cards a coup can take (each row at most 31: thirty aces and one more); a stock of
at least this many cannot run out."""
CHANCES_KEPT = 64
"""Pools whose exact chances are kept (each coup of a shoe deals from a new one)."""

_FACTORIAL = [float(factorial(i)) for i in range(ROWS_MAX + 2)]
_MASK = (1 << 13) - 1
_CLOSED = 1 << 12
"""A row's state as an int: closed flag (bit 12), its cards (bits 6-11) and its total when open
or what it still needs when closed (bits 0-5)."""


def coup_chances(pool: Pool) -> Chances:
    """The coup's exact chances from ``pool`` (module docstring), kept for the latest pools."""
    return _coup_chances(pool.counts, pool.reds, min(pool.stock, ROWS_MAX))


@lru_cache(maxsize=CHANCES_KEPT)
def _coup_chances(counts: tuple[int, ...], reds: tuple[int, ...], cap: int) -> Chances:
    return _Enumeration(counts, reds, cap).run()


def _pairs(n: int, size: int) -> list[list[float]]:
    """``(n)_(a+b) / (a! b!)`` by ``a`` and ``b``: the two rows taking ``a`` and ``b`` of the
    pool's ``n`` cards of one value (their orders within each row counted apart)."""
    return [
        [float(comb(n, a + b) * comb(a + b, a)) if a + b <= n else 0.0 for b in range(size)]
        for a in range(size)
    ]


def _row_steps(row: int, v: int, n: int) -> list[tuple[int, int, int]]:
    """A row's ways through the value ``v`` (``n`` such cards in the pool): how many of them it
    takes, its state after, and ``L`` when it closes at ``v`` (0: it does not)."""
    cards = (row >> 6) & 63
    x = row & 63
    out: list[tuple[int, int, int]] = []
    if row & _CLOSED:
        a = 0
        while a * v <= x and a <= n:
            out.append((a, _CLOSED | ((cards + a) << 6) | (x - a * v), 0))
            a += 1
        return out
    a = 0
    while a <= n:
        total = x + a * v
        if total > 30 + v:
            break
        now = cards + a
        if now:  # close here: the total must end at 30 + v
            out.append((a, _CLOSED | (now << 6) | (30 + v - total), now))
        if total <= 29 + v:  # or stay open, to close at a smaller value
            out.append((a, (now << 6) | total, 0))
        a += 1
    return out


def _last_steps(
    row: int, twos: int, aces: int, red2: float, red1: float
) -> list[tuple[int, int, int, int, float, float, float]]:
    """A row's ways through the twos and the aces together, the last values: twos and aces
    taken, its cards at the end, the value it closes at (0: before), and how its weights end:
    ``W' = W mW``, ``X' = X mX + W dX``."""
    cards = (row >> 6) & 63
    x = row & 63
    out: list[tuple[int, int, int, int, float, float, float]] = []
    if row & _CLOSED:
        al = 0
        while 2 * al <= x and al <= twos:
            be = x - 2 * al
            if be <= aces:
                out.append((al, be, cards + al + be, 0, 1.0, 1.0, red2 * al + red1 * be))
            al += 1
        return out
    al = 0
    while al <= twos and x + 2 * al <= 32:
        ell = cards + al
        be = 32 - x - 2 * al  # close at the twos (32), aces to follow
        if ell and be <= aces:
            dx = red2 * al * (ell - 1) + ell * red1 * be
            out.append((al, be, cards + al + be, 2, float(ell), float(ell - 1), dx))
        if x + 2 * al <= 31:  # close at the aces (31)
            be = 31 - x - 2 * al
            ell = cards + al + be
            if ell and be <= aces:
                dx = (red2 * al + red1 * be) * (ell - 1)
                out.append((al, be, ell, 1, float(ell), float(ell - 1), dx))
        al += 1
    return out


class _Enumeration:
    """The exact enumeration of one coup (module docstring).

    States are pairs of row states (``row1 << 13 | row2``) in three classes: both rows open
    (``open``: weight ``W`` and ``X``, the weight with the first card red), both closed at the
    same value (``tied``), one closed first (``decided``: when the colours are not even, the
    weights with a sign, ``+`` when Rouge wins; when the stock may run out, unsigned too).
    """

    def __init__(self, counts: tuple[int, ...], reds: tuple[int, ...], cap: int) -> None:
        self.n = (0, *counts)  # by points, 1 to 10
        self.total = sum(counts)
        self.red = [0.5] * 11
        for v in range(1, 11):
            if self.n[v]:
                self.red[v] = reds[v - 1] / self.n[v]
        self.red_cards = sum(reds)
        self.colour = any(2 * reds[v] != counts[v] for v in range(10))
        self.cap = min(cap, self.total)  # the stock is part of the pool
        self.binds = self.cap < ROWS_MAX
        self.decided = self.colour or self.binds

    def run(self) -> Chances:
        if self.total == 0:
            return Chances(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
        opened: dict[int, list[float]] = {0: [1.0, 0.0]}
        tied: dict[int, list[float]] = {}
        decided: dict[int, list[float]] = {}
        for v in range(10, 2, -1):
            opened, tied, decided = self._step(v, opened, tied, decided)
        return self._last(opened, tied, decided)

    def _step(
        self,
        v: int,
        opened: dict[int, list[float]],
        tied: dict[int, list[float]],
        decided: dict[int, list[float]],
    ) -> tuple[dict[int, list[float]], dict[int, list[float]], dict[int, list[float]]]:
        n = self.n[v]
        red = self.red[v]
        cap, binds, keep = self.cap, self.binds, self.decided
        pair = _pairs(n, 32)
        steps: dict[int, list[tuple[int, int, int]]] = {}
        seconds: dict[tuple[int, int, int], tuple[list[tuple[int, float]], ...]] = {}
        # the second row's ways given the first row's count: (stays open, closes, either)

        def step(row: int) -> list[tuple[int, int, int]]:
            found = steps.get(row)
            if found is None:
                found = steps[row] = _row_steps(row, v, n)
            return found

        def second(row: int, a: int, cards1: int) -> tuple[list[tuple[int, float]], ...]:
            """The second row's ways given the first row took ``a``: (stays open, closes), each
            with the pair's weight (and the closing multiplier)."""
            key = (row, a, cards1 if binds else 0)
            found = seconds.get(key)
            if found is None:
                weights = pair[a]
                stays: list[tuple[int, float]] = []
                closes: list[tuple[int, float]] = []
                for b, after, ell in step(row):
                    g = weights[b]
                    if g and (not binds or cards1 + ((after >> 6) & 63) <= cap):
                        if ell:
                            closes.append((after, g * ell))
                        else:
                            stays.append((after, g))
                found = seconds[key] = (stays, closes, stays + closes)
            return found

        new_open: dict[int, list[float]] = {}
        new_tied: dict[int, list[float]] = {}
        new_decided: dict[int, list[float]] = {}
        width = 4 if binds else 2
        get_open, get_tied, get_decided = new_open.get, new_tied.get, new_decided.get
        for key, (w, x) in opened.items():
            for a, row1, ell1 in step(key >> 13):
                stays, closes, _ = second(key & _MASK, a, (row1 >> 6) & 63)
                base = row1 << 13
                xa = x + w * red * a
                if ell1:
                    wa, xa = w * ell1, xa * (ell1 - 1)
                    for row2, g in closes:  # both close here: a tie
                        k = base | row2
                        acc = get_tied(k)
                        if acc is None:
                            new_tied[k] = [wa * g, xa * g]
                        else:
                            acc[0] += wa * g
                            acc[1] += xa * g
                    if keep:
                        for row2, g in stays:  # Noir closed first: it is higher, Rouge wins
                            k = base | row2
                            acc = get_decided(k)
                            if acc is None:
                                acc = new_decided[k] = [0.0] * width
                            acc[0] += wa * g
                            acc[1] += xa * g
                            if binds:
                                acc[2] += wa * g
                                acc[3] += xa * g
                else:
                    if keep:
                        for row2, g in closes:  # Rouge closed first: Noir wins
                            k = base | row2
                            acc = get_decided(k)
                            if acc is None:
                                acc = new_decided[k] = [0.0] * width
                            acc[0] -= w * g
                            acc[1] -= xa * g
                            if binds:
                                acc[2] += w * g
                                acc[3] += xa * g
                    for row2, g in stays:
                        k = base | row2
                        acc = get_open(k)
                        if acc is None:
                            new_open[k] = [w * g, xa * g]
                        else:
                            acc[0] += w * g
                            acc[1] += xa * g
        for source, target, either in ((tied, new_tied, False), (decided, new_decided, True)):
            get = target.get
            for key, weights in source.items():
                w, x = weights[0], weights[1]
                wide = len(weights) == 4
                if wide:
                    d, z = weights[2], weights[3]
                for a, row1, ell1 in step(key >> 13):
                    ways = second(key & _MASK, a, (row1 >> 6) & 63)
                    base = row1 << 13
                    xa = x + w * red * a
                    wa = w
                    if ell1:  # the first row, open, closes (after the second did)
                        wa, xa = w * ell1, xa * (ell1 - 1)
                    if wide:
                        za = z + d * red * a
                        da = d
                        if ell1:
                            da, za = d * ell1, za * (ell1 - 1)
                        for row2, g in ways[2]:
                            k = base | row2
                            acc = get(k)
                            if acc is None:
                                target[k] = [wa * g, xa * g, da * g, za * g]
                            else:
                                acc[0] += wa * g
                                acc[1] += xa * g
                                acc[2] += da * g
                                acc[3] += za * g
                        continue
                    for row2, g in ways[2] if either else ways[0]:
                        k = base | row2
                        acc = get(k)
                        if acc is None:
                            target[k] = [wa * g, xa * g]
                        else:
                            acc[0] += wa * g
                            acc[1] += xa * g
        return new_open, new_tied, new_decided

    def _last(
        self,
        opened: dict[int, list[float]],
        tied: dict[int, list[float]],
        decided: dict[int, list[float]],
    ) -> Chances:
        """The twos and the aces, then the chances."""
        twos, aces = self.n[2], self.n[1]
        red2, red1 = self.red[2], self.red[1]
        cap = self.cap
        falling = [1.0]
        for i in range(2 * ROWS_MAX + 2):
            falling.append(falling[-1] * (self.total - i))
        two_pairs = _pairs(twos, 17)
        ace_pairs = _pairs(aces, 32)
        lasts: dict[int, list[tuple[int, int, int, int, float, float, float]]] = {}

        def last(row: int) -> list[tuple[int, int, int, int, float, float, float]]:
            found = lasts.get(row)
            if found is None:
                found = lasts[row] = _last_steps(row, twos, aces, red2, red1)
            return found

        # The first row's ways gathered by the second row's state and by what the pair's
        # chance reads of the first row (its twos, aces and cards), ten sums each: the rows
        # both open closing the first at the twos (W, X) or at the aces (W, X), the tied rows
        # (W, X), the decided ones (signed W, X; then unsigned W, X).
        groups: dict[int, dict[int, list[float]]] = {}
        firsts: dict[int, list[tuple[int, int, float, float, float]]] = {}
        for cls, states in ((0, opened), (1, tied), (2, decided)):
            for key, weights in states.items():
                row1 = key >> 13
                ways1 = firsts.get(row1)
                if ways1 is None:  # slot, where it adds, W's factor, X's factors
                    ways1 = firsts[row1] = [
                        (
                            (al << 11) | (be << 6) | cards,
                            0 if shut == 2 else 2,
                            mw,
                            mx / (cards - 1),
                            dx / (cards - 1),
                        )
                        for al, be, cards, shut, mw, mx, dx in last(row1)
                    ]
                group = groups.get(key & _MASK)
                if group is None:
                    group = groups[key & _MASK] = {}
                get = group.get
                w, x = weights[0], weights[1]
                if cls == 0:
                    for slot, at, mw, mx, dx in ways1:
                        acc = get(slot)
                        if acc is None:
                            acc = group[slot] = [0.0] * 10
                        acc[at] += w * mw
                        acc[at + 1] += x * mx + w * dx
                    continue
                at = 2 * cls + 2
                wide = len(weights) == 4
                d, z = (weights[2], weights[3]) if wide else (0.0, 0.0)
                for slot, _, mw, mx, dx in ways1:
                    acc = get(slot)
                    if acc is None:
                        acc = group[slot] = [0.0] * 10
                    acc[at] += w * mw
                    acc[at + 1] += x * mx + w * dx
                    if wide:
                        acc[8] += d * mw
                        acc[9] += z * mx + d * dx
        sums = [0.0] * 14
        for row2, group in groups.items():
            ways = [way for shut in (2, 1, 0) for way in last(row2) if way[3] == shut]
            at2 = sum(1 for way in ways if way[3] == 2)
            at1 = sum(1 for way in ways if way[3])
            mults = [way[4] * _FACTORIAL[way[2] - 1] for way in ways]
            by_pair: dict[int, list[float]] = {}
            by_size: dict[int, list[float]] = {}
            for slot, acc in group.items():
                cards1 = slot & 63
                pk = slot >> 6
                pw = by_pair.get(pk)
                if pw is None:
                    twos1, aces1 = two_pairs[slot >> 11], ace_pairs[pk & 31]
                    pw = by_pair[pk] = [
                        twos1[way[0]] * aces1[way[1]] * m
                        for way, m in zip(ways, mults, strict=True)
                    ]
                inv = by_size.get(cards1)
                if inv is None:
                    inv = by_size[cards1] = [
                        _FACTORIAL[cards1 - 1] / falling[cards1 + way[2]]
                        if cards1 + way[2] <= cap
                        else 0.0
                        for way in ways
                    ]
                prods = list(map(mul, pw, inv))
                at_two = sum(prods[:at2])
                at_ace = sum(prods[at2:at1])
                every = at_two + at_ace + sum(prods[at1:])
                # rows open at the twos: Noir 32 against Rouge 32 (après) or 31 (Rouge wins);
                # Noir 31 against Rouge 32 (Noir wins) or 31 (un après)
                sums[0] += acc[0] * at_two
                sums[1] += acc[1] * at_two
                sums[2] += acc[0] * at_ace
                sums[3] += acc[1] * at_ace
                sums[4] += acc[2] * at_two
                sums[5] += acc[3] * at_two
                sums[6] += acc[2] * at_ace
                sums[7] += acc[3] * at_ace
                for i in range(4, 10):
                    sums[i + 4] += acc[i] * every
        w_out = {
            "apres": sums[0] + sums[8],
            "rouge": sums[2],
            "noir": sums[4],
            "un_apres": sums[6],
        }
        x_out = {
            "apres": sums[1] + sums[9],
            "rouge": sums[3],
            "noir": sums[5],
            "un_apres": sums[7],
        }
        signed_x, plain_w, plain_x = sums[11], sums[12], sums[13]
        ties = w_out["apres"] + w_out["un_apres"]
        if self.binds:
            decided_w = plain_w + w_out["noir"] + w_out["rouge"]
            decided_x = plain_x + x_out["noir"] + x_out["rouge"]
            void = max(0.0, 1.0 - decided_w - ties)
        else:
            decided_w = 1.0 - ties
            if self.colour:
                decided_x = self.red_cards / self.total - x_out["apres"] - x_out["un_apres"]
            else:
                decided_x = decided_w / 2
            void = 0.0
        # Rouge less Noir, the first card red: from the rows both open at the twos, and after
        diff_x = x_out["rouge"] - x_out["noir"] + (signed_x if self.colour else 0.0)
        row_w = decided_w / 2  # Noir and Rouge are equally likely
        rouge_red = (decided_x + diff_x) / 2
        noir_red = (decided_x - diff_x) / 2
        return Chances(
            noir_couleur=max(0.0, row_w - noir_red),
            noir_inverse=max(0.0, noir_red),
            rouge_couleur=max(0.0, rouge_red),
            rouge_inverse=max(0.0, row_w - rouge_red),
            apres=w_out["apres"],
            un_apres=w_out["un_apres"],
            void=void,
        )


# ----------------------------------------------------------------------------- quick chances


def quick_chances(pool: Pool) -> Chances:
    """The quick chances (a ``best`` bot's): each row's law exact from the whole pool, with its
    cards and its first card's colour, and the two rows taken as independent (the second row
    really deals from what the first left). Marked not exact."""
    return _quick_chances(pool.counts, pool.reds, min(pool.stock, ROWS_MAX))


@lru_cache(maxsize=CHANCES_KEPT)
def _quick_chances(counts: tuple[int, ...], reds: tuple[int, ...], cap: int) -> Chances:
    cap = min(cap, sum(counts))
    law = _row_law(counts, reds)
    if not law:
        return Chances(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, exact=False)
    out = dict.fromkeys(("noir", "rouge", "apres", "un_apres", "noir_red", "rouge_red"), 0.0)
    for (f1, k1), (w1, x1) in law.items():
        for (f2, k2), (w2, _) in law.items():
            if k1 + k2 > cap:
                continue
            if f1 == f2:
                out["un_apres" if f1 == 31 else "apres"] += w1 * w2
            elif f1 < f2:
                out["noir"] += w1 * w2
                out["noir_red"] += x1 * w2
            else:
                out["rouge"] += w1 * w2
                out["rouge_red"] += x1 * w2
    done = out["noir"] + out["rouge"] + out["apres"] + out["un_apres"]
    return Chances(
        noir_couleur=out["noir"] - out["noir_red"],
        noir_inverse=out["noir_red"],
        rouge_couleur=out["rouge_red"],
        rouge_inverse=out["rouge"] - out["rouge_red"],
        apres=out["apres"],
        un_apres=out["un_apres"],
        void=max(0.0, 1.0 - done),
        exact=False,
    )


def _row_law(counts: tuple[int, ...], reds: tuple[int, ...]) -> dict[tuple[int, int], list[float]]:
    """One row's exact law from the pool: by its total and its cards, its chance and its chance
    with the first card red (the same closing enumeration as :class:`_Enumeration`, one row)."""
    n = (0, *counts)
    total = sum(counts)
    red = [reds[v - 1] / n[v] if n[v] else 0.5 for v in range(11)]
    states: dict[tuple[int, int], list[float]] = {(0, 0): [1.0, 0.0]}  # (row, closed at)
    for v in range(10, 0, -1):
        new: dict[tuple[int, int], list[float]] = {}
        for (row, shut), (w, x) in states.items():
            for a, after, ell in _row_steps(row, v, n[v]):
                if v == 1 and after & 63:
                    continue  # not filled exactly
                if v == 1 and not after & _CLOSED:
                    continue
                g = float(comb(n[v], a))
                wa, xa = w * g, (x + w * red[v] * a) * g
                if ell:
                    wa, xa = wa * ell, xa * (ell - 1)
                key = (after, v if ell else shut)
                acc = new.get(key)
                if acc is None:
                    new[key] = [wa, xa]
                else:
                    acc[0] += wa
                    acc[1] += xa
        states = new
    falling = [1.0]
    for i in range(ROWS_MAX):
        falling.append(falling[-1] * (total - i))
    law: dict[tuple[int, int], list[float]] = {}
    for (row, shut), (w, x) in states.items():
        cards = (row >> 6) & 63
        if cards < 2 or cards > ROWS_MAX // 2:
            continue
        key = (30 + shut, cards)
        acc = law.setdefault(key, [0.0, 0.0])
        acc[0] += w * _FACTORIAL[cards - 1] / falling[cards]
        acc[1] += x * _FACTORIAL[cards - 2] / falling[cards]
    return law


def chances_for(pool: Pool, quick: bool) -> Chances:
    """The exact chances, or the quick ones for a ``best`` bot's decision."""
    return quick_chances(pool) if quick else coup_chances(pool)


# ----------------------------------------------------------------------------- stakes in prison


@dataclass(frozen=True)
class PrisonValues:
    """What a stake of ``amount`` chips in prison is expected to bring back (chips), by level
    (1 to ``max_apres``) and chance, just before a coup is dealt (``held``), and the most over
    the chances, for a window in which it may be moved (``movable``, docs/rules.md §4.7)."""

    amount: int
    held: tuple[dict[str, float], ...]
    movable: tuple[float, ...]
    """Index 0 unused: levels from 1."""

    def shared(self) -> int:
        """Sharing it: half back, rounded down (§4.7)."""
        return self.amount // 2

    def after_un_apres(self, level: int, max_apres: int) -> float:
        """A stake at ``level`` (0: a free stake) after a 31 tie: the better of sharing it and
        putting it (or leaving it) a level deeper, the next window letting it move; shared
        with no choice past ``max_apres`` (§4.7)."""
        if level + 1 > max_apres:
            return float(self.shared())
        return max(float(self.shared()), self.movable[level + 1])


PRISON_ROUNDS = 400
"""Value iteration's most rounds (each removes at least the loss's share of the error)."""


def prison_values(chances: Chances, amount: int, max_apres: int, venice: bool) -> PrisonValues:
    """A stake in prison's value under the stationary model (module docstring): every later
    coup with ``chances``; the owner shares or goes deeper at each 31 tie, moves the stake
    after a tie to the chance worth the most; a void coup ends the shoe (Venice: the stake back
    whole). Solved by value iteration on the levels' values (§4.6-4.7, §4.10)."""
    return _prison_values(chances, amount, max_apres, venice)


@lru_cache(maxsize=256)
def _prison_values(chances: Chances, amount: int, max_apres: int, venice: bool) -> PrisonValues:
    levels = range(1, max_apres + 1)
    held = [dict.fromkeys(CHANCES, 0.0) for _ in range(max_apres + 2)]
    share = float(amount // 2)
    wins = {c: chances.wins(c) for c in CHANCES}
    for _ in range(PRISON_ROUNDS):
        movable = [max(held[k].values()) for k in range(max_apres + 2)]
        change = 0.0
        for k in levels:
            deeper = max(share, movable[k + 1]) if k < max_apres else share
            rest = chances.apres * movable[k] + chances.un_apres * deeper
            for c in CHANCES:
                up = float(amount) if k == 1 else held[k - 1][c]
                end = float(amount) if venice else held[k][c]
                value = wins[c] * up + rest + chances.void * end
                change = max(change, abs(value - held[k][c]))
                held[k][c] = value
        if change <= 1e-13 * max(1, amount):
            break
    movable = [max(held[k].values()) for k in range(max_apres + 2)]
    return PrisonValues(amount, tuple(held[: max_apres + 1]), tuple(movable[: max_apres + 1]))


# ----------------------------------------------------------------------------- a seat's stakes


@dataclass(frozen=True)
class Held:
    """A stake of the seat's in prison: its id, chance, chips and level (§4.6-4.7)."""

    id: int
    chance: str
    amount: int
    level: int


@dataclass(frozen=True)
class Stakes:
    """A seat's stakes on the tableau: its free stakes (chance: chips, insured) and its stakes
    in prison."""

    free: tuple[tuple[str, int, bool], ...]
    prison: tuple[Held, ...]

    def with_free(self, chance: str, amount: int | None, insured: bool | None = None) -> Stakes:
        """The free stake on ``chance`` set to ``amount`` (None: removed), insured as it was
        unless told."""
        old = {c: (a, i) for c, a, i in self.free}
        if amount is None:
            old.pop(chance, None)
        else:
            was = old.get(chance, (0, False))[1]
            old[chance] = (amount, was if insured is None else insured)
        return Stakes(tuple((c, *old[c]) for c in CHANCES if c in old), self.prison)

    def insured(self, chance: str) -> Stakes:
        amount = next(a for c, a, _ in self.free if c == chance)
        return self.with_free(chance, amount, True)

    def moved(self, stake: int, to: str) -> Stakes:
        return Stakes(
            self.free,
            tuple(replace(h, chance=to) if h.id == stake else h for h in self.prison),
        )


def stakes_of(game: TrenteEtQuarante, seat: int) -> Stakes:
    mine = game.free.get(seat, {})
    free = tuple((c, mine[c].amount, mine[c].insured) for c in CHANCES if c in mine)
    prison = tuple(Held(p.id, p.chance, p.amount, p.level) for p in game.prison if p.owner == seat)
    return Stakes(free, prison)


@dataclass(frozen=True)
class Rules:
    """The table options the figures read (docs/rules.md §4.2)."""

    max_apres: int
    venice: bool

    @classmethod
    def of(cls, game: TrenteEtQuarante) -> Rules:
        return cls(int(game.options["max_apres"]), bool(game.options["venice_rule"]))


def outcome_chips(stakes: Stakes, outcome: Outcome, chances: Chances, rules: Rules) -> float:
    """What ``stakes`` gain (negative: lose) in one coup's ``outcome``, counted as the hand's
    chips (the stack and the stakes in prison at their face, docs/analysis.md §1), the stakes
    left in prison at the end counted at their value (:func:`prison_values`) instead of their
    face; the owner's un après choices the best (§4.6-4.8, §4.10)."""
    total = 0.0
    decided = isinstance(outcome, tuple)
    for chance, amount, insured in stakes.free:
        cost = premium(amount) if insured and outcome != VOID else 0
        if decided:
            total += (amount if chance in outcome else -amount) - cost
        elif outcome == UN_APRES_TIE and not insured:
            values = prison_values(chances, amount, rules.max_apres, rules.venice)
            total += values.after_un_apres(0, rules.max_apres) - amount
        else:
            total -= cost
    for held in stakes.prison:
        values = prison_values(chances, held.amount, rules.max_apres, rules.venice)
        if decided:
            if held.chance not in outcome:
                total -= held.amount  # lost (§4.6)
            elif held.level > 1:  # a level up, in a window where it cannot move
                total += values.held[held.level - 1][held.chance] - held.amount
        elif outcome == APRES:  # kept, and movable in the next window (§4.7)
            total += values.movable[held.level] - held.amount
        elif outcome == UN_APRES_TIE:
            total += values.after_un_apres(held.level, rules.max_apres) - held.amount
        elif not rules.venice:  # void: the shoe ends, the stake stays (or comes back whole)
            total += values.held[held.level][held.chance] - held.amount
    return total


TIE = 1e-9
"""Chips: a result this close to nothing is a tie (the values in prison are real numbers)."""


def figures_of(stakes: Stakes, chances: Chances, rules: Rules, so_far: float) -> Figures:
    """The figures of ``stakes`` dealt a coup with ``chances``, ``so_far`` chips already moved
    in the hand."""
    win = tie = lose = ev = 0.0
    for outcome, chance in chances.outcomes():
        if chance <= 0:
            continue
        net = so_far + outcome_chips(stakes, outcome, chances, rules)
        ev += chance * net
        if net > TIE:
            win += chance
        elif net < -TIE:
            lose += chance
        else:
            tie += chance
    figures = exact(win, tie, lose, ev)
    return figures if chances.exact else replace(figures, exact=False)


# ----------------------------------------------------------------------------- the options


def _amounts(spec: dict[str, int], chosen: int | None) -> list[int]:
    found = {spec["min"], spec["max"]}
    if chosen is not None:
        found.add(chosen)
    return sorted(found)


def window_options(
    stakes: Stakes, legal: list[LegalAction], chosen: Action | None
) -> list[tuple[Action, Stakes]]:
    """Every option of the betting window (§4.4) with the stakes it leaves: ``done`` first (of
    options that leave the same stakes, the best one found is then to say so: a ``best`` bot
    changes nothing for nothing), a stake at its least, its most and the amount chosen; each
    removal, insurance and move of a stake in prison."""
    out: list[tuple[Action, Stakes]] = []
    if any(template["kind"] == "done" for template in legal):
        out.append(({"kind": "done"}, stakes))
    for template in legal:
        kind, params = template["kind"], template["params"]
        if kind == "stake":
            chance = params["chance"]["one_of"][0]
            mine = (
                int(chosen["amount"])
                if chosen and chosen.get("kind") == "stake" and chosen.get("chance") == chance
                else None
            )
            for amount in _amounts(params["amount"], mine):
                action = {"kind": "stake", "chance": chance, "amount": amount}
                out.append((action, stakes.with_free(chance, amount)))
        elif kind == "remove":
            for chance in params["chance"]["one_of"]:
                out.append(({"kind": "remove", "chance": chance}, stakes.with_free(chance, None)))
        elif kind == "insure":
            for chance in params["chance"]["one_of"]:
                out.append(({"kind": "insure", "chance": chance}, stakes.insured(chance)))
        elif kind == "move_prison":
            for stake in params["stake"]["one_of"]:
                for to in params["to"]["one_of"]:
                    action = {"kind": "move_prison", "stake": stake, "to": to}
                    out.append((action, stakes.moved(stake, to)))
    return out


def un_apres_items(game: TrenteEtQuarante, seat: int) -> list[tuple[str, Any, int, int]]:
    """The seat's stakes awaiting a choice after a 31 tie: (``chance`` or ``stake``, which,
    chips, level; 0 for a free stake)."""
    settlement = game.settlement
    assert settlement is not None
    items: list[tuple[str, Any, int, int]] = []
    mine = game.free.get(seat, {})
    for chance in CHANCES:
        if chance in settlement.pending.get(seat, ()):
            items.append(("chance", chance, mine[chance].amount, 0))
    held = settlement.held.get(seat, set())
    for stake in sorted(held):
        found = next(p for p in game.prison if p.id == stake)
        items.append(("stake", stake, found.amount, found.level))
    return items


def next_chances(game: TrenteEtQuarante, quick: bool) -> Chances | None:
    """The chances of the next coup, from the pool the coup just dealt left; None when the
    stock ran out and the Venice rule will return every stake in prison (§4.10)."""
    pool = pool_of(game)
    if pool.stock == 0:
        if game.options["venice_rule"]:
            return None
        decks = int(game.options["decks"])  # a new shoe: five of its cards burned
        pool = Pool(
            tuple([4 * decks] * 9 + [16 * decks]),
            tuple([2 * decks] * 9 + [8 * decks]),
            52 * decks - BURNED,
        )
    return chances_for(pool, quick)


def decided_in_prison(
    game: TrenteEtQuarante, seat: int, chances: Chances | None, rules: Rules
) -> float:
    """The seat's stakes this 31 tie has already put in prison (a free stake the seat chose to
    imprison, one it left a level deeper): their value less their face, as at the hand's end."""
    settlement = game.settlement
    assert settlement is not None
    waiting = settlement.held.get(seat, set())
    total = 0.0
    for stake in game.prison:
        if stake.owner == seat and stake.id not in waiting:
            if chances is None:  # the shoe ends first: the Venice rule returns it
                continue
            values = prison_values(chances, stake.amount, rules.max_apres, rules.venice)
            total += values.movable[stake.level] - stake.amount
    return total


def un_apres_value(
    amount: int, level: int, share: bool, chances: Chances | None, rules: Rules
) -> float:
    """A stake's chips after its un après choice: shared (half back, rounded down) or in
    prison a level deeper, then worth what it is expected to bring back (§4.7)."""
    if share or level + 1 > rules.max_apres:
        return float(amount // 2)
    if chances is None:  # the shoe ends first: the Venice rule returns it (§4.10)
        return float(amount)
    return prison_values(chances, amount, rules.max_apres, rules.venice).movable[level + 1]


# ----------------------------------------------------------------------------- the analyser


class TrenteEtQuaranteAnalyser:
    """Trente et Quarante's analyser (module docstring)."""

    def decides(self, position: Position) -> bool:
        legal = position.legal
        if position.chosen is not None and not action_fits(position.chosen, legal):
            return False
        game = cast(TrenteEtQuarante, position.engine)
        if game.phase == UN_APRES:
            return bool(legal)
        if game.phase != BETTING:
            return False
        options = window_options(stakes_of(game, position.seat), legal, position.chosen)
        return len({stakes for _, stakes in options}) >= 2

    def analyse(self, position: Position, effort: Effort, rng: Any) -> Verdict:
        game = cast(TrenteEtQuarante, position.engine)
        quick = effort.quick
        if game.phase == UN_APRES:
            return self._un_apres(game, position, quick)
        return self._window(game, position, quick)

    def _window(self, game: TrenteEtQuarante, position: Position, quick: bool) -> Verdict:
        seat = position.seat
        chances = chances_for(pool_of(game), quick)
        rules = Rules.of(game)
        so_far = chips_so_far(game, seat)
        options = [
            Option(action, figures_of(stakes, chances, rules, so_far))
            for action, stakes in window_options(
                stakes_of(game, seat), position.legal, position.chosen
            )
        ]
        note = notes.TRENTE_ET_QUARANTE_WINDOW
        return Verdict(options, note if chances.exact else notes.TRENTE_ET_QUARANTE_WINDOW_QUICK)

    def _un_apres(self, game: TrenteEtQuarante, position: Position, quick: bool) -> Verdict:
        seat = position.seat
        rules = Rules.of(game)
        chances = next_chances(game, quick)
        items = un_apres_items(game, seat)
        so_far = chips_so_far(game, seat) + decided_in_prison(game, seat, chances, rules)

        def value(item: tuple[str, Any, int, int], share: bool | None) -> float:
            _, _, amount, level = item
            if share is None:
                return max(un_apres_value(amount, level, s, chances, rules) for s in (True, False))
            return un_apres_value(amount, level, share, chances, rules)

        options: list[Option] = []
        for template in position.legal:
            kind = template["kind"]
            ((name, spec),) = template["params"].items()
            for which in spec["one_of"]:
                net = float(so_far)
                for item in items:
                    share = kind == "share" if (item[0], item[1]) == (name, which) else None
                    net += value(item, share) - item[2]
                win, tie, lose = (
                    (1.0, 0.0, 0.0)
                    if net > TIE
                    else (0.0, 0.0, 1.0)
                    if net < -TIE
                    else (0.0, 1.0, 0.0)
                )
                figures = exact(win, tie, lose, net)
                if chances is not None and not chances.exact:
                    figures = replace(figures, exact=False)
                options.append(Option({"kind": kind, name: which}, figures))
        return Verdict(options, notes.TRENTE_ET_QUARANTE_UN_APRES)


ANALYSER = TrenteEtQuaranteAnalyser()
