"""Vingt-un's analysis (docs/analysis.md, Vingt-un; the game: docs/rules.md §3).

What a seat knows is what its own view shows (:func:`seen`; docs/rules.md §0.8): its cards,
the cards face up, the naturals shown, and the chips moved so far. Every other card (in the
pack, in the pile, face down on the table, and the drawn cards of another player's hand that
went over 21, which the view turns face down, §3.8) is one of the *unseen pool*, in an order
the seat cannot tell from any other.

* A player's **draw or stand** (§3.8) is *exact*: an enumeration over the composition of the
  unseen pool (:class:`Solver`). The dealer's two cards are face down and known not to be a
  natural (the hand would have ended at step 5, §3.6): the enumeration conditions on that. The
  dealer plays the fixed rule "draw below 17" (the timeout default, §3.9); the player's own
  later draws, on this hand and on the hands a split left to play, are the best ones (the most
  chips in expectation; a further split is not considered); settlement is §3.9's table
  (:func:`app.games.vingt_un.scoring.outcome`). The other players are left out: the cards they
  hold face down or will draw are cards of the same pool, exchangeable with those the player
  and the dealer draw (the model does not read their choices, nor that their dealt hands are
  no naturals). When several hands of the seat's are left to play and their draws together are
  too many to enumerate (:data:`EXACT_POOLS`), the options are estimated instead.
* A player's **split** (§3.7: the split stake at its least, its most and the one chosen) and
  **stake** (§3.4: the least, the most and the chosen), the dealer's **double** call (§3.5)
  and the dealer's own **draw or stand** (§3.9) are *estimated*: the unseen cards dealt afresh
  (:func:`resample`, with what the rules tell the seat: the dealer's face-down pair is no
  natural after step 5; to the dealer at the end, a standing hand is not over 21 and a dealt
  one is no natural) and the hand played out on the real engine with the game's ``steady`` bot
  (:mod:`app.games.vingt_un.bot`) for every later decision, the seat's included. Every option
  is played on the same deals; a stake's or a split stake's amount, and the double, only scale
  the chips of a hand played the same, so those are read off one hand played when nothing
  (a cover, a split, a natural paid by all) could have played differently.

The unit: the seat's chips over the whole hand (every hand a split made, the stakes in force,
doubled when the dealer called double, the chips already paid this hand); the seat *wins* the
hand when it ends with more chips than it started, *ties* when with as many, *loses* otherwise.
For the dealer, every player's hand counts.

The pack (§3.1) is dealt through from hand to hand, the pile shuffled into a new pack when it
runs out: every card the seat has not seen is one of the uniformly arranged pool, whether in
the pack or the pile, so a card drawn after the reshuffle is one more card of that pool and
the enumeration needs nothing else. (Left out: the cards the seat saw on its own split hands
that went over 21 are counted out of play, although a reshuffle in the same hand could bring
them back.)

A ``best`` bot's quick decision (an effort that says ``quick``:
:data:`~app.analysis.position.BOT_EFFORT`) takes the dealer's odds by the effects of removal
when an enumeration would need many (:data:`QUICK_POOLS`): those figures are marked not exact.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, cast

from app.analysis import notes
from app.analysis.figures import Figures, Option, Tally, exact
from app.analysis.position import Effort, Position, Verdict, cards_in
from app.analysis.rollout import chips_so_far, net_of
from app.games.core.actions import Action, LegalAction, action_fits
from app.games.core.cards import Stock, deck, seeded_source
from app.games.core.game import Game
from app.games.core.values import pips
from app.games.vingt_un.bot import SPLIT_RANKS
from app.games.vingt_un.engine import VingtUn
from app.games.vingt_un.scoring import VINGT_UN, is_ace_and_ten, is_pair, outcome
from app.games.vingt_un.state import Hand

DEALER_STANDS = 17
"""The dealer's fixed rule: draw below 17, stand on 17 or more (docs/rules.md §3.9)."""

Pool = tuple[int, ...]
"""The unseen cards by value: ten counts, aces first (index 0) and ten-value cards last."""

Value = tuple[float, float, float, float]
"""ev, and the chances to win, tie and lose."""

DEALER_FINALS = (17, 18, 19, 20, 21, 22)
"""The dealer's final totals under the fixed rule (22: over 21)."""

MAX_STEPS = 2_000
"""A simulated hand longer than this is a bug, not a hand."""

TRIES = 100_000
"""Rejection sampling gives up on the exact conditional law after this many deals."""


# ----------------------------------------------------------------------------- card values


def value_index(card: str) -> int:
    """The pool index of a card: its points less one (ace 0, ten-value cards 9)."""
    return pips(card) - 1


def points(low: int, ace: bool) -> int:
    """The best total of a hand whose cards add to ``low`` with aces as 1 (docs/rules.md §3.3)."""
    return low + 10 if ace and low + 10 <= VINGT_UN else low


def pool_of(cards: list[str]) -> Pool:
    counts = [0] * 10
    for card in cards:
        counts[value_index(card)] += 1
    return tuple(counts)


# ----------------------------------------------------------------------------- the dealer's odds


@lru_cache(maxsize=1)
def _finals() -> tuple[tuple[float, tuple[int, ...], int, int, tuple[int, ...]], ...]:
    """Every final hand of the dealer's rule as a multiset of values: the number of orders its
    cards can come in (the first two never an ace and a ten-value card: no natural), where its
    counts read in a table of falling factorials, its size, its final (index into
    :data:`DEALER_FINALS`), and the counts themselves."""
    orders: dict[tuple[int, ...], int] = {}

    def grow(hand: tuple[int, ...], low: int, ace: bool, size: int, first: int) -> None:
        if size >= 2 and points(low, ace) >= DEALER_STANDS:
            orders[hand] = orders.get(hand, 0) + 1
            return
        for v in range(10):
            if size == 1 and {first, v} == {0, 9}:
                continue
            bigger = list(hand)
            bigger[v] += 1
            grow(tuple(bigger), low + v + 1, ace or v == 0, size + 1, v if size == 0 else first)

    grow((0,) * 10, 0, False, 0, -1)
    out = []
    for hand, count in orders.items():
        total = points(sum((v + 1) * k for v, k in enumerate(hand)), hand[0] > 0)
        final = min(total, 22) - DEALER_STANDS
        index = tuple(v * 17 + k for v, k in enumerate(hand) if k)
        out.append((float(count), index, sum(hand), final, hand))
    return tuple(out)


ODDS_KEPT = 200_000
"""The most dealer's odds kept (about 2 ms each to compute; a few hundred bytes each)."""

_odds: dict[Pool, tuple[float, ...]] = {}


def dealer_odds(pool: Pool) -> tuple[float, ...]:
    """The dealer's final total, 17 to 21 or over (:data:`DEALER_FINALS`), drawing by the rule
    from ``pool``, the first two cards conditioned not to be a natural: exact (and kept).

    A final hand of the multiset M comes in ``orders(M)`` orders, each with the chance
    prod_v (pool_v)_(M_v) / (n)_|M| (falling factorials); the sum over every final hand is the
    chance of no natural, which normalises."""
    found = _odds.get(pool)
    if found is None:
        found = _dealer_odds(pool)
        _keep(pool, found)
    return found


def _dealer_odds(pool: Pool) -> tuple[float, ...]:
    return _odds_and_effects(pool, False)[0]


def _odds_and_effects(pool: Pool, effects: bool) -> tuple[tuple[float, ...], dict[int, Any]]:
    """The dealer's odds for ``pool`` and, with ``effects``, for each pool one card short of
    it (exact too: removing a card of value v multiplies a final hand's chance by
    (pool_v - M_v) / pool_v * n / (n - |M|)), in one pass over the final hands."""
    n = sum(pool)
    falling: list[float] = []
    for count in pool:
        row = [1.0] * 17
        product = 1.0
        for k in range(1, 17):
            product *= max(count - k + 1, 0)
            row[k] = product
        falling.extend(row)
    below = [1.0] * 25
    product = 1.0
    for k in range(1, 25):
        product *= max(n - k + 1, 1)
        below[k] = product
    present = [(v, 1.0 / pool[v]) for v in range(10) if pool[v]] if effects else []
    out = [0.0] * 6
    short = {v: [0.0] * 6 for v, _ in present}
    for orders, index, size, final, hand in _finals():
        chance = orders
        for i in index:
            chance *= falling[i]
        if not chance:
            continue
        chance /= below[size]
        out[final] += chance
        if present and n > size:
            scale = chance * n / (n - size)
            for v, inverse in present:
                left = pool[v] - hand[v]
                if left:
                    short[v][final] += scale * left * inverse
    return _normal(out), {v: _normal(odds) for v, odds in short.items()}


def _normal(odds: list[float]) -> tuple[float, ...]:
    total = sum(odds)
    if not total:  # too few cards to finish the dealer's hand: not a pool play can leave
        return (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    return tuple(x / total for x in odds)


def linear_odds(base_pool: Pool) -> Callable[[Pool], tuple[float, ...]]:
    """The dealer's odds for pools a few cards short of ``base_pool`` by the effects of removal:
    the exact odds for ``base_pool`` and for each pool one card short (kept with the others),
    the rest linear in the cards removed (an approximation, for a ``best`` bot's quick
    decision)."""
    base, shorts = _odds_and_effects(base_pool, True)
    _keep(base_pool, base)
    effects: dict[int, list[float]] = {}
    for v, short_odds in shorts.items():
        fewer = list(base_pool)
        fewer[v] -= 1
        _keep(tuple(fewer), short_odds)
        effects[v] = [short_odds[k] - base[k] for k in range(6)]

    def odds(pool: Pool) -> tuple[float, ...]:
        out = list(base)
        for v, effect in effects.items():
            removed = base_pool[v] - pool[v]
            if removed:
                for k in range(6):
                    out[k] += removed * effect[k]
        return _normal([max(x, 0.0) for x in out])

    return odds


def _keep(pool: Pool, odds: tuple[float, ...]) -> None:
    if len(_odds) >= ODDS_KEPT:
        _odds.clear()
    _odds[pool] = odds


SETTLE = tuple(
    tuple(outcome(final, total)[0] for total in range(VINGT_UN + 1)) for final in DEALER_FINALS
)
"""Stakes the dealer pays a standing hand (negative: the player pays), by the dealer's final
(index into :data:`DEALER_FINALS`) and the hand's total (docs/rules.md §3.9)."""


def no_natural(pool: Pool) -> float:
    """The chance that two cards from ``pool`` are not an ace and a ten-value card."""
    n = sum(pool)
    if n < 2:
        return 1.0
    return 1.0 - 2.0 * pool[0] * pool[9] / (n * (n - 1))


# ----------------------------------------------------------------------------- the enumeration


@dataclass(frozen=True)
class PlayerHand:
    """One of the player's hands still to play: its cards' sum (aces as 1), whether it holds
    an ace, and its stake in force."""

    low: int
    ace: bool
    stake: int

    @classmethod
    def of(cls, cards: list[str], stake: int) -> PlayerHand:
        return cls(sum(pips(c) for c in cards), any(c[0] == "A" for c in cards), stake)


class Solver:
    """The exact figures of a player's draw and stand (docs/rules.md §3.8-3.9).

    The state is the player's hand being played (its sum and ace), the cards drawn since the
    decision (the unseen pool less those is the composition the next card comes from), the
    totals of the player's hands already standing and the chips already won or lost this hand.
    Each card comes from the pool with its chance given that the dealer's two face-down cards
    are not a natural (the chance of no natural in the pool left, over the chance before: the
    exact conditional law). After the last hand the dealer plays by the rule from what is left
    (:func:`dealer_odds`). The player's later choices are the best (ties: stand). A split
    later on is not among them (draw and stand only).

    Where the player's total is 16 or less and no card can take it over 21, drawing is at least
    as good as standing (a card drawn and then a stand is a higher total against the same
    dealer's odds, averaged over the card: the dealer's cards are as random after it), so
    the enumeration draws there without valuing the stand.
    """

    def __init__(
        self,
        pool: Pool,
        hands: list[PlayerHand],
        standing: tuple[tuple[int, int], ...],
        past: int,
        odds: Callable[[Pool], tuple[float, ...]] = dealer_odds,
    ) -> None:
        self.pool = pool
        self.hands = hands
        self.standing = standing
        self.past = past
        self.odds = odds
        self.memo: dict[Any, Value] = {}
        self.nothing = (0,) * 10

    # the two options at the root
    def stand(self) -> Value:
        first = self.hands[0]
        return self._stand(0, first.low, first.ace, self.nothing, self.standing, self.past)

    def draw(self) -> Value:
        first = self.hands[0]
        return self._draw(0, first.low, first.ace, self.nothing, self.standing, self.past)

    # the recursion
    def _best(self, i: int, low: int, ace: bool, drawn: Pool, standing: Any, past: int) -> Value:
        key = (i, low, ace, drawn, standing, past)
        found = self.memo.get(key)
        if found is not None:
            return found
        if low <= 11 and points(low, ace) <= 16:
            value = self._draw(i, low, ace, drawn, standing, past)
        else:
            stand = self._stand(i, low, ace, drawn, standing, past)
            draw = self._draw(i, low, ace, drawn, standing, past)
            value = draw if draw[0] > stand[0] else stand
        self.memo[key] = value
        return value

    def _stand(self, i: int, low: int, ace: bool, drawn: Pool, standing: Any, past: int) -> Value:
        standing = (*standing, (points(low, ace), self.hands[i].stake))
        return self._next(i, drawn, standing, past)

    def _draw(self, i: int, low: int, ace: bool, drawn: Pool, standing: Any, past: int) -> Value:
        left = [u - d for u, d in zip(self.pool, drawn, strict=True)]
        n = sum(left)
        if n <= 2:
            return self._stand(i, low, ace, drawn, standing, past)
        # the chance of each value given no natural among the dealer's two cards: its count
        # over n, times the chance of no natural among what is left over the chance before
        aces, tens = left[0], left[9]
        pairs = (n - 1) * (n - 2)
        before = 1.0 - 2.0 * aces * tens / (n * (n - 1))
        other = (1.0 - 2.0 * aces * tens / pairs) / (before * n)
        tilt = [other] * 10
        tilt[0] = (1.0 - 2.0 * (aces - 1) * tens / pairs) / (before * n)
        tilt[9] = (1.0 - 2.0 * aces * (tens - 1) / pairs) / (before * n)
        ev = win = tie = lose = 0.0
        stake = self.hands[i].stake
        # over 21: the same for every card when nothing is left to settle against the dealer
        over = i + 1 == len(self.hands) and not standing
        over_chance = 0.0
        for v in range(10):
            count = left[v]
            if not count:
                continue
            chance = count * tilt[v]
            if low + v + 1 > VINGT_UN and over:
                over_chance += chance
                continue
            more = list(drawn)
            more[v] += 1
            after = tuple(more)
            if low + v + 1 > VINGT_UN:
                value = self._next(i, after, standing, past - stake)
            else:
                value = self._best(i, low + v + 1, ace or v == 0, after, standing, past)
            ev += chance * value[0]
            win += chance * value[1]
            tie += chance * value[2]
            lose += chance * value[3]
        if over_chance:
            value = _settled(past - stake, over_chance)
            return (ev + value[0], win + value[1], tie + value[2], lose + value[3])
        return (ev, win, tie, lose)

    def _next(self, i: int, drawn: Pool, standing: Any, past: int) -> Value:
        """The player's next hand, or the dealer's play when none is left."""
        if i + 1 < len(self.hands):
            nxt = self.hands[i + 1]
            return self._best(i + 1, nxt.low, nxt.ace, drawn, standing, past)
        if not standing:
            return _settled(past, 1.0)
        left = tuple(u - d for u, d in zip(self.pool, drawn, strict=True))
        odds = self.odds(left)
        ev = win = tie = lose = 0.0
        for final, chance in enumerate(odds):
            if not chance:
                continue
            row = SETTLE[final]
            net = past + sum(stake * row[total] for total, stake in standing)
            ev += chance * net
            if net > 0:
                win += chance
            elif net < 0:
                lose += chance
            else:
                tie += chance
        return (ev, win, tie, lose)


def _settled(net: float, chance: float) -> Value:
    return (
        net * chance,
        chance if net > 0 else 0.0,
        chance if net == 0 else 0.0,
        chance if net < 0 else 0.0,
    )


# ----------------------------------------------------------------------------- what a seat sees


def seen(engine: VingtUn, seat: int) -> set[str]:
    """Every card the seat's view shows (its own cards, the cards face up, naturals shown)."""
    return cards_in(engine.view(seat))


def unseen_pool(engine: VingtUn, seat: int) -> Pool:
    """The composition of the 52-card pack less every card the seat sees."""
    shown = seen(engine, seat)
    return pool_of([card for card in deck() if card not in shown])


@dataclass
class PlayerSpot:
    """A player's draw-or-stand as the seat sees it: the hands left to play (the current one
    first), the totals of its hands already standing, the chips so far and the unseen pool."""

    hands: list[PlayerHand]
    standing: tuple[tuple[int, int], ...]
    past: int
    pool: Pool


def player_spot(engine: VingtUn, seat: int) -> PlayerSpot:
    """The seat's hands as its own view shows them."""
    view = engine.view(seat)
    entry = next(s for s in view["seats"] if s["seat"] == seat)
    current = int(view["turn_hand"])
    hands: list[PlayerHand] = []
    standing: list[tuple[int, int]] = []
    for index, hand in enumerate(entry["hands"]):
        cards = [c["card"] for c in hand["cards"]]
        if index == current or (index > current and hand["state"] == "playing"):
            hands.append(PlayerHand.of(cards, int(hand["stake"])))
        elif hand["state"] == "standing":
            standing.append((int(hand["total"]), int(hand["stake"])))
    return PlayerSpot(hands, tuple(standing), chips_so_far(engine, seat), unseen_pool(engine, seat))


def _multisets() -> list[int]:
    """How many multisets of card values (1 to 10) add up to each sum from 0 to 21."""
    ways = [1] + [0] * VINGT_UN
    for v in range(1, 11):
        for total in range(v, VINGT_UN + 1):
            ways[total] += ways[total - v]
    return ways


MULTISETS = _multisets()


def tree_size(hands: list[PlayerHand]) -> int:
    """About how many unseen pools an enumeration of these hands meets (each hand's draws a
    multiset of values keeping it at 21 or less; the hands' draws combined)."""
    size = 1
    for hand in hands:
        size *= sum(MULTISETS[: VINGT_UN - hand.low + 1])
    return size


EXACT_POOLS = 2_500
"""The most pools an exact enumeration takes on (:func:`tree_size`; the dealer's odds take
about a millisecond a pool): one hand always fits (two aces, the largest, 1,900); the hands a
split leaves often do not (their draws combine), and are then estimated like a split."""

QUICK_POOLS = 40
"""Below analysis effort (a ``best`` bot at the table), an enumeration needing more pools than
this takes the dealer's odds by the effects of removal (:func:`linear_odds`), and one of
several hands needing more than :data:`QUICK_HANDS` is estimated."""

QUICK_HANDS = 300


def solver_for(spot: PlayerSpot, quick: bool) -> tuple[Solver | None, bool]:
    """The enumeration of ``spot`` and whether it is exact; None when it would be too long
    (the options are then estimated). With ``quick`` (a bot's decision), the dealer's odds are
    approximated when the exact ones would need too many pools."""
    size = tree_size(spot.hands)
    if size > (QUICK_HANDS if quick and len(spot.hands) > 1 else EXACT_POOLS):
        return None, False
    solver = Solver(spot.pool, spot.hands, spot.standing, spot.past)
    if quick and size > QUICK_POOLS:
        solver.odds = linear_odds(spot.pool)
        return solver, False
    return solver, True


# ----------------------------------------------------------------------------- dealing afresh


def _copy_hand(hand: Hand) -> Hand:
    out = copy.copy(hand)
    out.cards = list(hand.cards)
    out.up = list(hand.up)
    return out


def twin(engine: Game, rng: random.Random) -> VingtUn:
    """A copy of a Vingt-un engine to play a simulated hand on: its own pack, pile, hands,
    balances and transfers, an empty log, and shuffles seeded from ``rng`` (as
    :func:`app.analysis.rollout.detached` does, in a fraction of a deep copy's time)."""
    game = cast(VingtUn, engine)
    out = copy.copy(game)
    for name, value in vars(game).items():
        if isinstance(value, (int, str, float, bool, tuple, type(None))) or callable(value):
            continue
        if name == "hands":
            setattr(out, name, {s: [_copy_hand(h) for h in hs] for s, hs in value.items()})
        elif isinstance(value, Hand):
            setattr(out, name, _copy_hand(value))
        elif isinstance(value, Stock):
            setattr(out, name, Stock(list(value.cards), value.shuffle))
        elif isinstance(value, list):
            setattr(out, name, list(value))
        elif isinstance(value, dict):
            setattr(out, name, dict(value))
        else:
            setattr(out, name, copy.deepcopy(value))
    out._log = []
    out._hand_log = []
    out.seeds = seeded_source(rng.randbytes(32))
    return out


Place = tuple[str, int, int, int]
"""Where a card lies: ``("stock", i, 0, 0)``, ``("pile", i, 0, 0)``, or a hand's card
``("hand", seat, hand index, card index)`` (the dealer's hand: hand index -1)."""

PairTest = Callable[[str, str], bool]


@dataclass
class Deal:
    """The cards a seat cannot see and their places, read once for a decision: every
    simulated hand deals them afresh (:meth:`onto`) on a copy of the same engine."""

    free: list[str]
    """The cards to deal, sorted (canonical: what the seat sees decides them)."""
    stock: int
    """The pack's size: its places come first."""
    pile: list[int]
    """The places in the pile (all but those of the seat's own busted hands' cards)."""
    table: list[Place]
    """The face-down cards on the table the seat cannot see, but for :attr:`pairs`."""
    stock_only: list[str]
    """Cards the seat saw on its own busted split hands that a reshuffle put back in the pack
    (sorted): they lie somewhere in the pack."""
    pairs: list[tuple[Place, Place, PairTest]]
    """Face-down pairs the rules tell the seat something of (:func:`_pair_test`)."""

    @classmethod
    def of(cls, game: VingtUn, seat: int) -> Deal:
        mine: Counter[str] = Counter()
        for hand in game.hands.get(seat, []):
            if hand.gathered:
                mine.update(hand.cards)
        free: list[str] = []
        stock_only: list[str] = []
        for card in game.stock.cards:
            if mine[card] > 0:
                mine[card] -= 1
                stock_only.append(card)
            else:
                free.append(card)
        pile: list[int] = []
        for i, card in enumerate(game.pile):
            if mine[card] > 0:
                mine[card] -= 1  # the seat's own busted hand's card, known to be in the pile
            else:
                pile.append(i)
                free.append(card)
        pairs: list[tuple[Place, Place, PairTest]] = []
        places: list[Place] = []
        table = [(s, i, h, len(game.hands[s])) for s in game.players for i, h in _hands(game, s)]
        if game.dealer_hand is not None and game.hand_dealer is not None:
            table.append((game.hand_dealer, -1, game.dealer_hand, 1))
        for holder, index, hand, count in table:
            if holder == seat or hand.gathered:
                continue
            down: list[Place] = [
                ("hand", holder, index, j) for j, up in enumerate(hand.up) if not up
            ]
            free.extend(hand.cards[j] for j, up in enumerate(hand.up) if not up)
            test = _pair_test(game, seat, holder, hand, count)
            if test is not None and len(down) == 2:
                pairs.append((down[0], down[1], test))
            else:
                places.extend(down)
        size = len(game.stock.cards)
        return cls(sorted(free), size, pile, places, sorted(stock_only), pairs)

    def onto(self, game: VingtUn, rng: random.Random) -> VingtUn:
        """Deal the cards afresh onto ``game`` (a copy of the engine this was read from)."""
        taken = _pick_pairs(self.free, [test for _a, _b, test in self.pairs], rng)
        for (a, b, _test), (i, j) in zip(self.pairs, taken, strict=True):
            _put(game, a, self.free[i])
            _put(game, b, self.free[j])
        if taken:
            out = {i for pair in taken for i in pair}
            cards = [c for k, c in enumerate(self.free) if k not in out]
        else:
            cards = list(self.free)
        rng.shuffle(cards)
        size = self.stock
        if self.stock_only:
            where = set(rng.sample(range(size), len(self.stock_only)))
            mine = list(self.stock_only)
            rng.shuffle(mine)
            rest = iter(cards)
            game.stock.cards[:] = [mine.pop() if k in where else next(rest) for k in range(size)]
            size -= len(self.stock_only)
        else:
            game.stock.cards[:] = cards[:size]
        pile = game.pile
        for i, card in zip(self.pile, cards[size : size + len(self.pile)], strict=True):
            pile[i] = card
        for place, card in zip(self.table, cards[size + len(self.pile) :], strict=True):
            _put(game, place, card)
        return game


def _hands(game: VingtUn, seat: int) -> list[tuple[int, Hand]]:
    return list(enumerate(game.hands.get(seat, [])))


def _put(game: VingtUn, place: Place, card: str) -> None:
    where, a, b, c = place
    if where == "stock":
        game.stock.cards[a] = card
    elif where == "pile":
        game.pile[a] = card
    elif b < 0:
        assert game.dealer_hand is not None
        game.dealer_hand.cards[c] = card
    else:
        game.hands[a][b].cards[c] = card


def _pair_test(game: VingtUn, seat: int, holder: int, hand: Hand, count: int) -> PairTest | None:
    """What the rules tell the seat of a face-down pair: the dealer's two cards are no natural
    once the naturals are past (a player sees that, §3.6); to the dealer at the end, a player's
    standing hand is not over 21 and, when dealt (not split), its two cards are no natural.
    None: nothing (the other players' hands, to a player: the model leaves them out)."""
    if holder == game.hand_dealer and game.phase == "playing" and len(hand.cards) == 2:
        return lambda a, b: not is_ace_and_ten([a, b])
    if seat == game.hand_dealer and game.phase == "dealer" and not hand.settled:
        shown = sum(pips(c) for c, up in zip(hand.cards, hand.up, strict=True) if up)
        dealt = count == 1

        def test(a: str, b: str) -> bool:
            if dealt and is_ace_and_ten([a, b]):
                return False
            return shown + pips(a) + pips(b) <= VINGT_UN

        return test
    return None


def resample(engine: Game, seat: int, rng: random.Random) -> Game:
    """``engine`` (already a copy) with every card ``seat`` cannot see dealt afresh: the cards
    of the pack, of the pile and face down on the table, sorted and shuffled with ``rng`` into
    the same places, conditioned on what the rules let the seat know of them (:func:`_pair_test`:
    no natural for the dealer's face-down pair; to the dealer at the end, standing hands not
    over 21 and no dealt natural). Depends on what the seat sees and on ``rng`` only."""
    game = cast(VingtUn, engine)
    return Deal.of(game, seat).onto(game, rng)


def _pick_pairs(
    free: list[str], tests: list[PairTest], rng: random.Random
) -> list[tuple[int, int]]:
    """Cards (their indices in ``free``) for the face-down pairs the rules say something of: a
    uniform draw conditioned on every pair passing its test (rejection, exact); after
    :data:`TRIES` deals, pair by pair (an approximation for hands all but impossible)."""
    if not tests:
        return []
    size = 2 * len(tests)
    indices = range(len(free))
    for _ in range(TRIES):
        drawn = rng.sample(indices, size)
        picked = [(drawn[2 * k], drawn[2 * k + 1]) for k in range(len(tests))]
        if all(test(free[i], free[j]) for test, (i, j) in zip(tests, picked, strict=True)):
            return picked
    left = list(indices)
    out: list[tuple[int, int]] = []
    for test in tests:
        options = [(i, j) for i in left for j in left if i != j and test(free[i], free[j])]
        i, j = rng.choice(options) if options else (left[0], left[1])
        out.append((i, j))
        left = [k for k in left if k not in (i, j)]
    return out


# ----------------------------------------------------------------------------- simulation


def _splits(hands: list[Hand]) -> bool:
    """Might the model's rule have split one of these hands (the steady bot splits aces and
    eights, :data:`app.games.vingt_un.bot.SPLIT_RANKS`), or did it?"""
    return len(hands) > 1 or any(
        is_pair(h.cards[:2]) and h.cards[0][0] in SPLIT_RANKS for h in hands
    )


def _sensitive(game: VingtUn) -> bool:
    """Could a stake's size have changed this simulated hand's play? Only through a split:
    whether one may be made, and its stake, depend on the cover the stakes leave to the bank
    and the player (docs/rules.md §3.7)."""
    return any(_splits(game.hands.get(s, [])) for s in game.players)


def play_steady(game: VingtUn, rng: random.Random) -> None:
    """Play the hand to its end, every decision by the game's steady bot (as
    :func:`app.analysis.rollout.play_out`, without checking each bot action against
    ``legal`` a second time)."""
    for _ in range(MAX_STEPS):
        if game.completed_pending is not None:
            return
        seat = game.turn
        assert seat is not None
        game.play(seat, game.bot_action(seat, rng))
    raise RuntimeError("a simulated hand did not end")


class Simulation:
    """Simulated hands from one decision: each deals the unseen cards afresh from its own seed
    (:class:`Deal`), takes an action and plays out; the same seed deals the same cards for
    every action (common random numbers)."""

    def __init__(self, engine: VingtUn, seat: int) -> None:
        self.engine = engine
        self.seat = seat
        self.deal = Deal.of(engine, seat)

    def play(self, action: Action, seed: int) -> tuple[VingtUn, int]:
        """The hand played with ``action``, and the seat's chips."""
        rng = random.Random(seed)
        return self._finish(self.deal.onto(twin(self.engine, rng), rng), action, rng)

    def play_each(self, actions: list[Action], seed: int) -> list[tuple[VingtUn, int]]:
        """The same deal played with each action in turn (dealt once, copied for each)."""
        rng = random.Random(seed)
        dealt = self.deal.onto(twin(self.engine, rng), rng)
        out = []
        for k, action in enumerate(actions):
            game = dealt if k == len(actions) - 1 else twin(dealt, rng)
            out.append(self._finish(game, action, random.Random(seed + 1 + k)))
        return out

    def _finish(self, game: VingtUn, action: Action, rng: random.Random) -> tuple[VingtUn, int]:
        game.play(self.seat, dict(action))
        play_steady(game, rng)
        done = game.completed_pending
        assert done is not None
        return game, net_of(done, self.seat)


Scaling = Callable[[VingtUn, int, Action, Action, int], int | None]
"""From a simulated hand played with one action, the seat's chips with another (None: play
that one too)."""


def simulate(
    engine: VingtUn,
    seat: int,
    actions: list[Action],
    samples: int,
    rng: random.Random,
    scaling: Scaling | None = None,
) -> list[Figures]:
    """Each action's figures by ``samples`` simulated hands, the same deals for every action
    (common random numbers). With ``scaling``, the first action is played out and the others'
    chips are read off that hand when they would have played it the same (played otherwise)."""
    sim = Simulation(engine, seat)
    tallies = [Tally() for _ in actions]
    for _ in range(samples):
        seed = rng.getrandbits(64)
        if scaling is None:
            for tally, (_game, net) in zip(tallies, sim.play_each(actions, seed), strict=True):
                tally.add(net)
            continue
        game, net = sim.play(actions[0], seed)
        tallies[0].add(net)
        for action, tally in zip(actions[1:], tallies[1:], strict=True):
            other = scaling(game, seat, actions[0], action, net)
            if other is None:
                other = sim.play(action, seed)[1]
            tally.add(other)
    return [t.figures() for t in tallies]


def _stake_scaling(engine: VingtUn, seat: int) -> Scaling:
    """A stake's chips read off a hand played with another stake (docs/rules.md §3.4).

    The stake in force is the amount cut to the bank's cover at the decision; it scales the
    seat's first hand's result and nothing else, unless the amount changed the play: a later
    player left without cover sits out (their card to the pile), a split's cover depends on the
    stakes (:func:`_sensitive`: played again), a natural paid by all is paid as far as a stack
    allows (any natural with that option: played again)."""
    free = engine.bank_free()
    later = engine.players[engine.players.index(seat) + 1 :]
    by_all = bool(engine.options["natural_paid_by_all"])

    def in_force(amount: int) -> int:
        return min(amount, free // 4)

    def sits_out(amount: int, offered: dict[int, int]) -> bool:
        left = free - 4 * in_force(amount)
        for s in later:
            cover = left // 4
            if cover == 0:
                return True
            left -= 4 * min(offered.get(s, 0), cover)
        return False

    def scale(game: VingtUn, seat: int, done: Action, other: Action, net: int) -> int | None:
        if _sensitive(game) or game.sitting_out:
            return None
        if by_all and any(h.natural for hs in game.hands.values() for h in hs):
            return None
        offered = _offered(game)
        if sits_out(done["amount"], offered) or sits_out(other["amount"], offered):
            return None
        result = game.hands[seat][0].result
        assert result is not None
        per = result // in_force(done["amount"])
        return net - result + per * in_force(other["amount"])

    return scale


def _offered(game: VingtUn) -> dict[int, int]:
    """The stakes the players offered in a simulated hand (before any cut), from its log."""
    out: dict[int, int] = {}
    for event in game._hand_log:
        if event["kind"] == "stake_cut":
            out[int(event["seat"])] = int(event["offered"])
        elif event["kind"] == "stake" and int(event["seat"]) not in out:
            out[int(event["seat"])] = int(event["amount"])
    return out


def _double_scaling(game: VingtUn, seat: int, done: Action, other: Action, net: int) -> int | None:
    """The dealer's chips double with every stake (§3.5) when no split could depend on it."""
    if _sensitive(game):
        return None
    return net * 2 if other["kind"] == "double" else net // 2


def _split_scaling(engine: VingtUn, seat: int) -> Scaling:
    """A split stake's chips read off a hand played with another: the new hand's stake in force
    is the amount cut to the bank's cover at the decision and scales that hand's result, unless
    a pair dealt anywhere after the split could make another split depend on it (§3.7)."""
    most = 2 * (2 if engine.doubled else 1)
    cover = engine.bank_free() // most
    new = len(engine.hands[seat])

    def scale(game: VingtUn, seat: int, done: Action, other: Action, net: int) -> int | None:
        hands = game.hands[seat]
        if len(hands) != new + 1 or _sensitive_after_split(game, seat, new):
            return None
        result = hands[new].result
        assert result is not None
        per = result // min(done["amount"], cover)
        return net - result + per * min(other["amount"], cover)

    return scale


def _sensitive_after_split(game: VingtUn, seat: int, new: int) -> bool:
    for s in game.players:
        hands = game.hands.get(s, [])
        if s == seat:
            if any(_splits([h]) for h in hands[new - 1 :]):
                return True
        elif _splits(hands):
            return True
    return False


# ----------------------------------------------------------------------------- the analyser


def _amounts(template: LegalAction, chosen: Action | None) -> list[int]:
    spec = template["params"]["amount"]
    out = {spec["min"], spec["max"]}
    if chosen is not None and chosen.get("kind") == template["kind"]:
        out.add(int(chosen["amount"]))
    return sorted(out)


def _template(legal: list[LegalAction], kind: str) -> LegalAction | None:
    return next((t for t in legal if t["kind"] == kind), None)


class VingtUnAnalyser:
    """Vingt-un's analysis (the module's docstring says the method)."""

    def decides(self, position: Position) -> bool:
        legal = position.legal
        if position.chosen is not None and not action_fits(position.chosen, legal):
            return False
        if len(legal) >= 2:
            return True
        if len(legal) == 1 and "amount" in legal[0]["params"]:
            spec = legal[0]["params"]["amount"]
            return bool(spec["min"] < spec["max"])
        return False

    def analyse(self, position: Position, effort: Effort, rng: Any) -> Verdict:
        game = cast(VingtUn, position.engine)
        phase = game.phase
        if phase == "staking":
            return self._stake(game, position, effort, rng)
        if phase == "double":
            return self._double(game, position, effort, rng)
        if phase == "dealer":
            return self._dealer(game, position, effort, rng)
        return self._player(game, position, effort, rng)

    # a player's stake (§3.4)
    def _stake(self, game: VingtUn, position: Position, effort: Effort, rng: Any) -> Verdict:
        template = _template(position.legal, "stake")
        assert template is not None
        amounts = _amounts(template, position.chosen)
        first = int(position.chosen["amount"]) if position.chosen else amounts[0]
        order = [first] + [a for a in amounts if a != first]
        actions: list[Action] = [{"kind": "stake", "amount": a} for a in order]
        figures = simulate(
            game,
            position.seat,
            actions,
            effort.samples,
            rng,
            _stake_scaling(game, position.seat),
        )
        by_amount = dict(zip(order, figures, strict=True))
        return Verdict(
            [Option({"kind": "stake", "amount": a}, by_amount[a]) for a in amounts],
            notes.VINGT_UN_STAKE,
        )

    # the dealer's double (§3.5)
    def _double(self, game: VingtUn, position: Position, effort: Effort, rng: Any) -> Verdict:
        kinds = [t["kind"] for t in position.legal]
        first = position.chosen["kind"] if position.chosen else "no_double"
        order = [first] + [k for k in kinds if k != first]
        figures = simulate(
            game,
            position.seat,
            [{"kind": k} for k in order],
            effort.samples,
            rng,
            _double_scaling,
        )
        by_kind = dict(zip(order, figures, strict=True))
        return Verdict(
            [Option({"kind": k}, by_kind[k]) for k in kinds],
            notes.VINGT_UN_DOUBLE,
        )

    # the dealer's draw or stand (§3.9)
    def _dealer(self, game: VingtUn, position: Position, effort: Effort, rng: Any) -> Verdict:
        kinds = [t["kind"] for t in position.legal]
        figures = simulate(game, position.seat, [{"kind": k} for k in kinds], effort.samples, rng)
        return Verdict(
            [Option({"kind": k}, f) for k, f in zip(kinds, figures, strict=True)],
            notes.VINGT_UN_DEALER,
        )

    # a player's draw, stand or split (§3.7-3.8)
    def _player(self, game: VingtUn, position: Position, effort: Effort, rng: Any) -> Verdict:
        seat = position.seat
        solver, is_exact = solver_for(player_spot(game, seat), effort.quick)
        if solver is None:
            return self._player_estimated(game, position, effort, rng)
        options: list[Option] = []
        for template in position.legal:
            kind = template["kind"]
            if kind in ("stand", "draw"):
                value = solver.stand() if kind == "stand" else solver.draw()
                figures = exact(value[1], value[2], value[3], value[0])
                if not is_exact:
                    figures = replace(figures, exact=False)
                options.append(Option({"kind": kind}, figures))
        split = _template(position.legal, "split")
        if split is not None:
            amounts = _amounts(split, position.chosen)
            chosen = position.chosen
            first = int(chosen["amount"]) if chosen and chosen["kind"] == "split" else amounts[0]
            order = [first] + [a for a in amounts if a != first]
            estimates = simulate(
                game,
                seat,
                [{"kind": "split", "amount": a} for a in order],
                effort.samples,
                rng,
                _split_scaling(game, seat),
            )
            by_amount = dict(zip(order, estimates, strict=True))
            options.extend(Option({"kind": "split", "amount": a}, by_amount[a]) for a in amounts)
        note = {
            (True, False): notes.VINGT_UN_PLAYER_EXACT,
            (True, True): notes.VINGT_UN_PLAYER_EXACT_SPLIT,
            (False, False): notes.VINGT_UN_PLAYER_REMOVAL,
            (False, True): notes.VINGT_UN_PLAYER_REMOVAL_SPLIT,
        }[is_exact, split is not None]
        return Verdict(options, note)

    def _player_estimated(
        self, game: VingtUn, position: Position, effort: Effort, rng: Any
    ) -> Verdict:
        """Several hands left to play (after a split) whose draws together are too many to
        enumerate: every option estimated, the hands played on by the steady rule."""
        actions: list[Action] = []
        for template in position.legal:
            if "amount" in template["params"]:
                amounts = _amounts(template, position.chosen)
                actions.extend({"kind": template["kind"], "amount": a} for a in amounts)
            else:
                actions.append({"kind": template["kind"]})
        figures = simulate(game, position.seat, actions, effort.samples, rng)
        return Verdict(
            [Option(a, f) for a, f in zip(actions, figures, strict=True)],
            notes.VINGT_UN_PLAYER_ESTIMATED,
        )


ANALYSER = VingtUnAnalyser()
