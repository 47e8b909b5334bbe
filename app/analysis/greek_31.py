"""Greek 31's analysis (docs/analysis.md, Greek 31; the rules: docs/rules.md §2).

The decisions, and how each is figured:

* **a player's draw or stand** (§2.7) against the dealer's stood hand, a 14 shown or the shown
  cards with one concealed (§2.6): **exact**, by enumeration over the unseen cards, the
  player's own later draws played to the most chips (each time, the better of standing and
  drawing once more). The concealed card is any unseen card that leaves the dealer's hand an
  ordinary stand (neither over 31, nor 31, nor 14: those would have been shown, §2.6), each
  physical card alike; the dealer's choice of *which* card to conceal is not modelled.
* **a player's stake** (§2.5): the minimum, the maximum and the amount chosen; **estimated**
  by simulation, with the ``steady`` bot (:mod:`app.games.greek_31.bot`) playing the dealer
  and the seat's own later draws. A stake does not change the cards: the seat's result, one
  chip won or lost for each staked, is the same for every amount, so one simulation of a
  one-chip stake gives every amount's figures (``Figures.scaled``). The later players, who
  stake after the seat and draw after it, change nothing of its cards and are left out (a
  hand made void by an empty deck, which needs every card of the deck in play at once, is
  neglected).
* **the dealer's draw or stand, and which card to conceal** (§2.6): **estimated** by
  simulation, the ``steady`` bot playing the dealer's later draws and every player's draws.
  Concealing cards of equal points shows the players the same hand, so one card of each
  point value is analysed (always the one concealed).

What the seat knows (§2.9, §0.8): the deck is not shuffled between deals; used cards go under
it, told as a set, and are shuffled only once every card of the last shuffle has been dealt.
So the cards that can come next are those of the last shuffle not dealt yet (the engine's
``fresh`` top of the deck): the seat counts them from the last shuffle's cards less every card
it has seen dealt since. The *unseen pool* is those cards, and for a player the dealer's
face-down cards too (the dealer sees its own). After them, the used cards under the deck (a
set the seat knows) come in a fresh random order. Simulations deal the pool afresh
(:func:`resample`); the enumeration depends on its composition only. A deck a test set up
without a shuffle (``fresh`` None) is read as wholly unseen.

Units: ``ev`` is the chips the seat gains in the hand (the dealer: over every player's
stake); win, tie and lose by its sign (Greek 31 has no tie: an equal hand loses, §2.8; a void
hand is a tie).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from app.analysis import notes
from app.analysis.figures import Figures, Option, Tally, exact
from app.analysis.position import Effort, Position, Verdict
from app.games.core.actions import Action, action_fits
from app.games.core.game import Game
from app.games.greek_31.bot import dealer_draws, player_draws
from app.games.greek_31.engine import Greek31
from app.games.greek_31.scoring import (
    BUST,
    FOURTEEN,
    PAIR_OF_TWOS,
    THIRTY_ONE,
    card_points,
    hand_rank,
    highest_card,
)
from app.games.greek_31.state import HandInPlay

RANKS = "A23456789TJQK"
_INDEX = {r: i for i, r in enumerate(RANKS)}
SHOWN_RANKS = (THIRTY_ONE, FOURTEEN, PAIR_OF_TWOS)
"""A dealer who stands on these shows every card (§2.6)."""


Counts = tuple[int, ...]
Result = tuple[float, float, float, float]
"""Chances to win, tie, lose, and the expected chips, for one chip staked."""
WIN: Result = (1.0, 0.0, 0.0, 1.0)
LOSE: Result = (0.0, 0.0, 1.0, -1.0)
VOID: Result = (0.0, 1.0, 0.0, 0.0)


# --------------------------------------------------------------------------- the seat's knowledge


@dataclass(frozen=True)
class Unseen:
    """What ``seat`` cannot see of the cards: the unseen pool (sorted) and the used cards
    under the deck (sorted: the seat knows them as a set)."""

    pool: list[str]
    """The last shuffle's cards not yet dealt, and for a player the dealer's face-down
    cards (docs/rules.md §2.9)."""
    used: list[str]
    hidden: list[int]
    """The indices of the dealer's cards ``seat`` cannot see."""


def _hand(engine: Game) -> HandInPlay:
    hand = cast(Greek31, engine).hand
    assert hand is not None
    return hand


def unseen(engine: Game, seat: int) -> Unseen:
    """The cards of ``engine`` that ``seat`` cannot see, as the seat can know them."""
    game = cast(Greek31, engine)
    cards = game.stock.cards
    fresh = len(cards) if game.fresh is None else game.fresh
    hand = game.hand
    hidden: list[int] = []
    if hand is not None and game.in_hand and seat != hand.dealer:
        hidden = [i for i in range(len(hand.dealer_cards)) if not hand.dealer_card_up(i)]
    pool = list(cards[:fresh])
    if hand is not None:
        pool += [hand.dealer_cards[i] for i in hidden]
    return Unseen(sorted(pool), sorted(cards[fresh:]), hidden)


def _rank(cards: Sequence[str], ace_rule: str, heath: bool) -> int:
    return _rank_of("".join(sorted(card[0] for card in cards)), ace_rule, heath)


@functools.lru_cache(maxsize=1 << 17)
def _rank_of(ranks: str, ace_rule: str, heath: bool) -> int:
    return hand_rank([r + "S" for r in ranks], ace_rule, heath)


def consistent(shown: Sequence[str], card: str, ace_rule: str, heath: bool) -> bool:
    """Could ``card`` be the dealer's concealed card, with ``shown`` face up? Only if the
    whole hand is an ordinary stand: not over 31, not 31, not 14 (§2.6)."""
    return 0 <= _rank([*shown, card], ace_rule, heath) < FOURTEEN


def resample(engine: Game, seat: int, rng: random.Random) -> Game:
    """``engine`` (a detached copy) with every card ``seat`` cannot see dealt afresh: the
    unseen pool into the not-yet-dealt top of the deck and the dealer's face-down cards (a
    concealed card among those consistent with the stand; a dealer still drawing a hand that
    is not over 31), the used cards under it in a fresh order (they are shuffled before
    they are dealt, §2.9)."""
    game = cast(Greek31, engine)
    known = unseen(game, seat)
    pool = list(known.pool)
    hand = game.hand
    if known.hidden and hand is not None:
        if hand.concealed is not None and not hand.revealed:
            shown = hand.shown_dealer_cards()
            fits = [c for c in pool if consistent(shown, c, game.ace_rule, game.heath)] or pool
            card = rng.choice(fits)
            pool.remove(card)
            hand.dealer_cards[known.hidden[0]] = card
            rng.shuffle(pool)
        else:
            rng.shuffle(pool)
            for _ in range(100):
                dealt = pool[: len(known.hidden)]
                visible = [c for i, c in enumerate(hand.dealer_cards) if i not in known.hidden]
                if _rank([*visible, *dealt], game.ace_rule, game.heath) != BUST:
                    break
                rng.shuffle(pool)
            for i, index in enumerate(known.hidden):
                hand.dealer_cards[index] = pool[i]
            pool = pool[len(known.hidden) :]
    else:
        rng.shuffle(pool)
    used = list(known.used)
    rng.shuffle(used)
    game.stock.cards = pool + used
    if game.fresh is not None:
        game.fresh = len(pool)
    return game


# --------------------------------------------------------------------------- exact: draw or stand


SHIFT = 5
"""Bits for one rank's count in a packed pool (two decks hold at most 8 of a rank)."""
UNIT = [1 << (SHIFT * i) for i in range(len(RANKS))]


def pack(counts: Counts) -> int:
    """Counts by rank packed in one number (:data:`SHIFT` bits a rank)."""
    return sum(c << (SHIFT * i) for i, c in enumerate(counts))


def unpack(packed: int) -> list[int]:
    return [(packed >> (SHIFT * i)) & 31 for i in range(len(RANKS))]


class Enumeration:
    """A player's figures against a stood dealer, by enumeration over the unseen cards.

    ``pool`` holds the unseen cards (the concealed one among them, when there is one) by
    rank, ``used`` the used cards under the deck; the player draws from the pool's
    not-yet-dealt cards, then (when they are all dealt) from the used cards shuffled.

    The concealed card is uniform over the pool's cards consistent with the dealer's stand;
    once some cards are drawn it is uniform over those left (a card drawn was not the
    concealed one), so the next card is rank ``r`` with chance
    ``(n_r·W − w_r) / (W·(n − 1))``, where ``n_r`` counts rank ``r`` in the pool, ``n`` the
    pool, ``w_r`` is ``n_r`` when ``r`` could be the concealed card (else 0) and ``W`` the sum
    of the ``w``. The states are remembered: (the player's ranks, the pool, the used cards).
    """

    def __init__(
        self, ace_rule: str, heath: bool, shown: Sequence[str], dealer_rank: int | None
    ) -> None:
        self.ace_rule = ace_rule
        self.heath = heath
        self.fixed = dealer_rank
        self.dealer = [_rank([*shown, r + "S"], ace_rule, heath) for r in RANKS]
        self.fits = [0 <= d < FOURTEEN for d in self.dealer]
        self.fit_index = [i for i, ok in enumerate(self.fits) if ok]
        self.memo: dict[tuple[str, int, int], Result] = {}
        self.beaten: dict[int, list[int]] = {}

    def stand(self, hand: str, pool: Counts) -> Result:
        """Standing on ``hand`` (its ranks, sorted): paid when it ranks above the dealer's,
        else lost (§2.8)."""
        return self._stand(_rank_of(hand, self.ace_rule, self.heath), list(pool))

    def draw(self, hand: str, pool: Counts, used: Counts) -> Result:
        """Drawing one card, then the better of standing and drawing, card after card."""
        return self._draw(hand, pack(pool), list(pool), pack(used))

    def _stand(self, mine: int, counts: list[int]) -> Result:
        if self.fixed is not None:
            return WIN if mine > self.fixed else LOSE
        beaten = self.beaten.get(mine)
        if beaten is None:
            beaten = self.beaten[mine] = [i for i in self.fit_index if mine > self.dealer[i]]
        total = sum(counts[i] for i in self.fit_index)
        if total == 0:  # no unseen card fits the stand: not a real position
            total = len(self.fit_index) or 1
            win = len(beaten) / total
        else:
            win = sum(counts[i] for i in beaten) / total
        return (win, 0.0, 1.0 - win, 2.0 * win - 1.0)

    def _draw(self, hand: str, pool: int, counts: list[int], used: int) -> Result:
        n = sum(counts)
        total = 0 if self.fixed is not None else sum(counts[i] for i in self.fit_index)
        chances: list[float]
        if n - (1 if total else 0) > 0:
            from_pool = True
            if total:
                fits = self.fits
                scale = 1.0 / (total * (n - 1))
                chances = [
                    (c * total - (c if fits[i] else 0)) * scale for i, c in enumerate(counts)
                ]
            else:
                chances = [c / n for c in counts]
        else:
            left = unpack(used)
            m = sum(left)
            if m == 0:
                return VOID  # the deck is empty: the hand is void (§2.9)
            from_pool = False
            chances = [c / m for c in left]
        win = tie = lose = ev = 0.0
        children = _children(hand, self.ace_rule, self.heath)
        for index, chance in enumerate(chances):
            if chance <= 0:
                continue
            made, rank = children[index]
            if rank == BUST:
                lose += chance
                ev -= chance
                continue
            if rank == THIRTY_ONE:  # paid at once (§2.7)
                win += chance
                ev += chance
                continue
            if from_pool:
                result = self._best(made, rank, pool - UNIT[index], used)
            else:
                result = self._best(made, rank, pool, used - UNIT[index])
            win += chance * result[0]
            tie += chance * result[1]
            lose += chance * result[2]
            ev += chance * result[3]
        return (win, tie, lose, ev)

    def _best(self, hand: str, rank: int, pool: int, used: int) -> Result:
        """The better of standing and drawing (standing when they are worth the same, and
        without looking further when standing is sure to win)."""
        key = (hand, pool, used)
        found = self.memo.get(key)
        if found is None:
            counts = unpack(pool)
            stand = self._stand(rank, counts)
            if stand[0] >= 1.0:
                found = stand
            else:
                draw = self._draw(hand, pool, counts, used)
                found = draw if draw[3] > stand[3] + 1e-12 else stand
            self.memo[key] = found
        return found


@functools.lru_cache(maxsize=1 << 15)
def _children(hand: str, ace_rule: str, heath: bool) -> list[tuple[str, int]]:
    """Each rank's card added to ``hand`` (ranks as ``A23456789TJQK``): the hand it makes
    (its ranks sorted) and its rank key."""
    out = []
    for r in RANKS:
        made = "".join(sorted(hand + r))
        out.append((made, _rank_of(made, ace_rule, heath)))
    return out


def counts(cards: Sequence[str]) -> Counts:
    """Cards by rank (``A23456789TJQK``)."""
    out = [0] * len(RANKS)
    for card in cards:
        out[_INDEX[card[0]]] += 1
    return tuple(out)


MEMO_LIMIT = 200_000
"""An enumeration kept for later decisions forgets its states beyond this many."""


@functools.lru_cache(maxsize=16)
def enumeration(ace_rule: str, heath: bool, shown: str, dealer_rank: int | None) -> Enumeration:
    """The enumeration against one dealer's hand (the shown cards' ranks, sorted; or the
    rank of a hand shown whole), kept for the next decisions against it: its figures are
    by state, whatever the deck was before."""
    return Enumeration(ace_rule, heath, [r + "S" for r in shown], dealer_rank)


def player_results(engine: Game, seat: int) -> dict[str, Result]:
    """For one chip: the figures of standing and of drawing (then playing on at best) for
    the player in ``seat``, against the dealer's stood hand."""
    game = cast(Greek31, engine)
    hand = _hand(game)
    known = unseen(game, seat)
    if hand.revealed:
        enum = enumeration(game.ace_rule, game.heath, "", game.rank(hand.dealer_cards))
    else:
        shown = "".join(sorted(card[0] for card in hand.shown_dealer_cards()))
        enum = enumeration(game.ace_rule, game.heath, shown, None)
    if len(enum.memo) > MEMO_LIMIT:
        enum.memo.clear()
    mine = "".join(sorted(card[0] for card in hand.cards[seat]))
    pool, used = counts(known.pool), counts(known.used)
    return {"stand": enum.stand(mine, pool), "draw": enum.draw(mine, pool, used)}


def _figures(result: Result, stake: int) -> Figures:
    win, tie, lose, ev = result
    return exact(win, tie, lose, ev * stake)


# --------------------------------------------------------------------------- simulation


@functools.lru_cache(maxsize=65536)
def _player_draws(mine: str, shown: str, dealer_rank: int | None, rule: str, heath: bool) -> bool:
    return player_draws([r + "S" for r in mine], [r + "S" for r in shown], dealer_rank, rule, heath)


@dataclass
class Sim:
    """A hand played on from a decision by the ``steady`` bot, on plain lists: the same rules
    as the engine (docs/rules.md §2.6 to §2.9), fast enough for thousands of hands."""

    rule: str
    heath: bool
    order: list[int]
    cards: dict[int, list[str]]
    stakes: dict[int, int]
    results: dict[int, str]
    dealer_cards: list[str]
    fresh: list[str]
    """The not-yet-dealt cards, the next one last."""
    used: list[str]
    seed: int = 0
    rng: random.Random | None = None

    def copy(self) -> Sim:
        return Sim(
            self.rule,
            self.heath,
            self.order,
            {seat: list(cards) for seat, cards in self.cards.items()},
            self.stakes,
            dict(self.results),
            list(self.dealer_cards),
            list(self.fresh),
            list(self.used),
            self.seed,
        )

    def rank(self, cards: Sequence[str]) -> int:
        return _rank(cards, self.rule, self.heath)

    def draw(self) -> str | None:
        """The next card; once the last shuffle's cards are dealt, the used cards shuffled
        (§2.9); None when there is none (the hand is void)."""
        if not self.fresh:
            if not self.used:
                return None
            if self.rng is None:
                self.rng = random.Random(self.seed)
            self.fresh, self.used = self.used, []
            self.rng.shuffle(self.fresh)
        return self.fresh.pop()

    def dealer_plays(self, draws_first: bool = False) -> dict[int, int] | None:
        """The dealer draws by the steady rule, then stands (§2.6); ``draws_first``: one card
        is drawn first whatever the rule says (the dealer's first card once the stakes are
        in, or the dealer's own ``draw``)."""
        while draws_first or dealer_draws(self.dealer_cards, self.rule, self.heath):
            draws_first = False
            card = self.draw()
            if card is None:
                return None
            self.dealer_cards.append(card)
            if self.rank(self.dealer_cards) == BUST:
                return {seat: stake for seat, stake in self.stakes.items()}
        rank = self.rank(self.dealer_cards)
        conceal = None if rank in SHOWN_RANKS else highest_card(self.dealer_cards)
        return self.stand(conceal)

    def stand(self, conceal: int | None) -> dict[int, int] | None:
        """The dealer stands; the players draw by the steady rule; the showdown (§2.6-§2.8)."""
        dealer = self.rank(self.dealer_cards)
        if dealer == THIRTY_ONE:
            return {seat: -stake for seat, stake in self.stakes.items()}
        revealed = dealer in SHOWN_RANKS
        shown = "".join(
            sorted(c[0] for i, c in enumerate(self.dealer_cards) if revealed or i != conceal)
        )
        out: dict[int, int] = {}
        for seat in self.order:
            stake = self.stakes.get(seat)
            if stake is None or seat in self.results:
                continue
            cards = self.cards[seat]
            while True:
                mine = "".join(sorted(c[0] for c in cards))
                if not _player_draws(
                    mine, shown, dealer if revealed else None, self.rule, self.heath
                ):
                    out[seat] = stake if self.rank(cards) > dealer else -stake
                    break
                card = self.draw()
                if card is None:
                    return None
                cards.append(card)
                rank = self.rank(cards)
                if rank == BUST:
                    out[seat] = -stake
                    self.used.extend(cards)  # under the deck at once (§2.7)
                    break
                if rank == THIRTY_ONE:
                    out[seat] = stake
                    break
        return out


def sim_from(engine: Game, seat: int, stakes: dict[int, int]) -> Sim:
    """The hand as ``seat`` knows it, with ``stakes``; the unseen pool still to be dealt."""
    game = cast(Greek31, engine)
    hand = _hand(game)
    known = unseen(game, seat)
    return Sim(
        game.ace_rule,
        game.heath,
        list(hand.order),
        {s: list(cards) for s, cards in hand.cards.items()},
        stakes,
        dict(hand.results),
        list(hand.dealer_cards),
        list(known.pool),
        list(known.used),
    )


def simulate(
    base: Sim,
    seat: int,
    plays: list[Action],
    samples: int,
    rng: random.Random,
) -> list[Tally]:
    """Each of ``plays`` (a dealer's draw or stand; ``{"kind": "stake"}`` for the hand from
    the dealer's first card) in ``samples`` deals of the unseen pool, the same deals for
    every play; the seat's chips in each."""
    tallies = [Tally() for _ in plays]
    for _ in range(samples):
        world = base.copy()
        rng.shuffle(world.fresh)
        rng.shuffle(world.used)
        world.seed = rng.getrandbits(64)
        for play, tally in zip(plays, tallies, strict=True):
            sim = world.copy()
            net = _play(sim, play)
            if net is None:
                tally.add(0.0)
            elif seat in net:
                tally.add(float(net[seat]))
            else:
                tally.add(float(-sum(net.values())))
    return tallies


def _play(sim: Sim, play: Action) -> dict[int, int] | None:
    """Every staked player's chips (+ won, - lost), None for a void hand."""
    kind = play["kind"]
    if kind in ("stake", "draw"):
        # a stake: the dealer's first card is drawn at once (§2.6); a draw: the dealer's own
        return sim.dealer_plays(draws_first=True)
    return sim.stand(play.get("conceal"))


# --------------------------------------------------------------------------- the analyser


class Greek31Analyser:
    """The analysis of a Greek 31 decision (docs/analysis.md, Greek 31)."""

    def decides(self, position: Position) -> bool:
        """Every draw or stand is a choice; a stake when more than one amount is allowed."""
        legal = position.legal
        if not legal:
            return False
        if position.chosen is not None and not action_fits(position.chosen, legal):
            return False
        if legal[0]["kind"] == "stake":
            spec = legal[0]["params"]["amount"]
            return bool(spec["min"] < spec["max"])
        return len(legal) >= 2

    def analyse(self, position: Position, effort: Effort, rng: Any) -> Verdict:
        engine = position.engine
        hand = _hand(engine)
        if hand.phase == "staking":
            return self._stake(position, effort, rng)
        if hand.phase == "dealer":
            return self._dealer(position, effort, rng)
        return self._player(position)

    def _player(self, position: Position) -> Verdict:
        hand = _hand(position.engine)
        results = player_results(position.engine, position.seat)
        stake = hand.stakes[position.seat]
        options = [
            Option({"kind": kind}, _figures(results[kind], stake)) for kind in ("draw", "stand")
        ]
        return Verdict(_with_chosen(options, position.chosen), notes.GREEK_31_EXACT)

    def _stake(self, position: Position, effort: Effort, rng: random.Random) -> Verdict:
        engine, seat = position.engine, position.seat
        hand = _hand(engine)
        spec = position.legal[0]["params"]["amount"]
        amounts = {int(spec["min"]), int(spec["max"])}
        if position.chosen is not None:
            amounts.add(int(position.chosen["amount"]))
        # The players before the seat have staked; the later ones draw after it (left out).
        earlier = hand.order[: hand.order.index(seat)]
        stakes = {s: hand.stakes[s] for s in earlier if s in hand.stakes}
        stakes[seat] = 1
        base = sim_from(engine, seat, stakes)
        (tally,) = simulate(base, seat, [{"kind": "stake"}], effort.samples, rng)
        one = tally.figures()
        options = [
            Option({"kind": "stake", "amount": amount}, one.scaled(amount))
            for amount in sorted(amounts)
        ]
        return Verdict(_with_chosen(options, position.chosen), notes.GREEK_31_STAKE)

    def _dealer(self, position: Position, effort: Effort, rng: random.Random) -> Verdict:
        engine, seat = position.engine, position.seat
        hand = _hand(engine)
        plays: list[Action] = [{"kind": "draw"}]
        stand = next(t for t in position.legal if t["kind"] == "stand")
        if "conceal" in stand["params"]:
            chosen = position.chosen
            chosen_points = (
                card_points(hand.dealer_cards[chosen["conceal"]])
                if chosen is not None and chosen["kind"] == "stand"
                else None
            )
            seen: set[int] = set()
            for index in stand["params"]["conceal"]["one_of"]:
                points = card_points(hand.dealer_cards[index])
                if points in seen:
                    continue
                seen.add(points)
                if points == chosen_points and chosen is not None:
                    index = chosen["conceal"]
                plays.append({"kind": "stand", "conceal": index})
        else:
            plays.append({"kind": "stand"})
        base = sim_from(engine, seat, dict(hand.stakes))
        tallies = simulate(base, seat, plays, effort.samples, rng)
        options = [Option(p, t.figures()) for p, t in zip(plays, tallies, strict=True)]
        return Verdict(_with_chosen(options, position.chosen), notes.GREEK_31_DEALER)


def _with_chosen(options: list[Option], chosen: Action | None) -> list[Option]:
    """The options, the chosen one as the very dict chosen."""
    if chosen is None:
        return options
    return [Option(dict(chosen), o.figures) if o.action == chosen else o for o in options]


ANALYSER = Greek31Analyser()

__all__ = [
    "ANALYSER",
    "Enumeration",
    "Greek31Analyser",
    "Sim",
    "Unseen",
    "consistent",
    "counts",
    "player_results",
    "resample",
    "sim_from",
    "simulate",
    "unseen",
]
