"""En og tredive's analysis (docs/analysis.md, En og tredive; the rules: docs/rules.md §5).

The decisions (§5.6, §5.8): at the start of a turn, to take the stock's top card, to take the
top discard, or to knock; after taking, which cards to discard. A 31 and a coup d'état are
not choices (the table shows them as soon as a hand holds one, §5.7), nor are the bets (one
for each player who pays, §5.7 and §5.8). The cut and the dealing pattern (§5.5) are not
decisions either: the deck is a uniform shuffle the cutter and the dealer know nothing of, so
every cut and every pattern deals each player the same chances.

The unit is the **match** (§5.1): the chips in play are the pot and the bets in front of the
players, and at the match's end the winner takes them all (the pot, and back its own bets;
with a coup d'état the others' bets too, §5.7, §5.11), the others nothing. So what a seat can
expect from a match is its chance to win it times those chips, and a round matters by how it
moves that chance: a bet the seat pays lowers it, a bet another pays raises it, a 31 that
makes everyone else pay raises it most. *Win* is the chance to win the match, *lose* the
rest (no tie); ``ev`` the chips the seat can expect from the match from now on: its chance
times the match's chips, less the bets in front of it now. (The round alone, a bet paid or
not, would value another's payment at nothing: a bot playing by it loses to the steady one.)

Every figure is **estimated** by simulation: the cards the seat cannot see are dealt afresh
(:func:`resample`), the option taken, and the round played to its end by the ``steady`` bot
(:mod:`app.games.en_og_tredive.bot`) for every later decision, the seat's own included. The
round's end gives the seat's chance: 1 or 0 when the match ended in it, else the chance the
bets left give in a model of the later rounds (:func:`match_chance`: each round a coup d'état,
a 31 or a knock that costs one player one bet, made by any player alike, at rates measured
from the steady bot's rounds). The same deals serve every option of a decision (common random
numbers), so the options' differences are sharper than their intervals suggest.

What the seat knows (§0.8, §5.6): its own hand, every hand's size, the discard pile, and
every card it saw go by: a card an opponent took from the pile is in that opponent's hand
until it is discarded again. When the stock ran out and the pile was shuffled into a new
stock (§5.10), the seat knows which cards went into it: an opponent's card drawn from it
since is one of those. So the unseen cards fall into *groups* (the cards unseen since the
deal, and those of each new stock), and each face-down place (an opponent's card, a place in
the stock) takes a card of its own group: the resample shuffles each group and deals it back
to its places. Nothing else is inferred from the opponents' play.

Speed: a round has dozens of decisions, each with two to five options, so each option is
played in as many deals as the effort asks up to :data:`FULL_UP_TO`, a fifth of them beyond
(200 for a finished round's analysis); the interval says what that leaves uncertain. A bot
asking for its best play (no action chosen) spends the deals by halves on the better options
(:func:`simulate`).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from app.analysis import notes
from app.analysis.figures import Z95, Figures, Option
from app.analysis.position import Effort, Position, Verdict
from app.games.core.accounts import POT, AccountKind, parse_account
from app.games.core.actions import Action, action_fits
from app.games.core.game import Game
from app.games.core.seating import left_of, leftward
from app.games.en_og_tredive.bot import DANGEROUS, bot_score, keep_worth, knock_threshold
from app.games.en_og_tredive.engine import EnOgTredive
from app.games.en_og_tredive.scoring import (
    FULL_DECK,
    card_points,
    hand_value,
    is_coup_d_etat,
)
from app.games.en_og_tredive.state import Round

SAMPLE_DIVISOR = 5
FULL_UP_TO = 150
LONG_ROUND = 24
FEWEST = 50


def samples_for(effort: Effort, decision: int = 0) -> int:
    """The deals each option is played in: as many as the effort asks up to
    :data:`FULL_UP_TO` (a ``best`` bot's decision), a fifth of them beyond, at least
    :data:`FULL_UP_TO` (a finished round's analysis: 200). A round has dozens of decisions,
    each with two to five options: past the round's :data:`LONG_ROUND`-th action
    (``decision``, the cut and the deal counted), the deals shrink by the square of
    :data:`LONG_ROUND` over it, to no fewer than :data:`FEWEST`."""
    asked = max(1, effort.samples)
    samples = min(asked, max(FULL_UP_TO, asked // SAMPLE_DIVISOR))
    if decision > LONG_ROUND:
        samples = max(min(samples, FEWEST), samples * LONG_ROUND**2 // decision**2)
    return samples


MAX_TURNS = 2_000
"""A simulated round longer than this is a bug in a model, not a round."""


# --------------------------------------------------------------------------- cached scoring


BIT = {card: 1 << index for index, card in enumerate(FULL_DECK)}
"""Each card's bit: a hand is remembered by the sum of its cards' bits (its order aside)."""


def mask(cards: Sequence[str]) -> int:
    """The hand as a set of bits."""
    out = 0
    for card in cards:
        out |= BIT[card]
    return out


_CARD = {bit: card for card, bit in BIT.items()}


def _cards(bits: int) -> list[str]:
    out = []
    while bits:
        low = bits & -bits
        out.append(_CARD[low])
        bits ^= low
    return out


@functools.lru_cache(maxsize=1 << 18)
def _value_of(bits: int) -> int:
    return hand_value(_cards(bits))


def value(cards: Sequence[str]) -> int:
    """:func:`~app.games.en_og_tredive.scoring.hand_value`, remembered."""
    return _value_of(mask(cards))


@functools.lru_cache(maxsize=1 << 18)
def _score_of(bits: int) -> int:
    return bot_score(_cards(bits))


def _without(cards: Sequence[str], gone: str) -> list[str]:
    return [card for card in cards if card != gone]


@functools.lru_cache(maxsize=1 << 17)
def _droppable(bits: int) -> tuple[str, ...]:
    """The cards of a hand whose discard leaves the hand the bot likes best, and among those
    the ones it least minds losing (:func:`app.games.en_og_tredive.bot.best_keep`'s key)."""
    keys = {card: (_score_of(bits & ~BIT[card]), -keep_worth(card)) for card in _cards(bits)}
    top = max(keys.values())
    return tuple(card for card, key in keys.items() if key == top)


def _gone(cards: Sequence[str], bits: int) -> str:
    """The card :func:`best_keep` drops from ``cards`` (whose bits are ``bits``): the first,
    in hand order, of the droppable ones."""
    droppable = _droppable(bits)
    for card in cards:
        if card in droppable:
            return card
    raise AssertionError("no card to drop")


def best_keep(cards: Sequence[str]) -> list[str]:
    """:func:`app.games.en_og_tredive.bot.best_keep`, remembered: the same choice, the first
    card in hand order whose discard leaves the best-liked hand."""
    if len(cards) < 4:
        return list(cards)
    return _without(cards, _gone(cards, mask(cards)))


@functools.lru_cache(maxsize=1 << 18)
def _idle(bits: int) -> frozenset[str]:
    """The cards of a kept hand whose loss the bot would not mind."""
    kept = _score_of(bits)
    return frozenset(card for card in _cards(bits) if _score_of(bits & ~BIT[card]) == kept)


def wants_top_discard(hand: Sequence[str], top: str | None) -> bool:
    """:func:`app.games.en_og_tredive.bot.wants_top_discard`, with the cached score: the top
    discard is kept among the best three and adds 4 to the bot's liking."""
    if top is None:
        return False
    bits = mask(hand)
    both = bits | BIT[top]
    if len(hand) < 3:
        return _score_of(both) - _score_of(bits) >= 4
    gone = _gone([*hand, top], both)
    return gone != top and _score_of(both & ~BIT[gone]) - _score_of(bits) >= 4


def choose_discards(hand: Sequence[str], next_must_discard: bool) -> list[str]:
    """:func:`app.games.en_og_tredive.bot.choose_discards`, with the cached score."""
    if len(hand) < 4:
        return []
    bits = mask(hand)
    gone = _gone(hand, bits)
    if not next_must_discard:
        return [gone]
    idle_cards = _idle(bits & ~BIT[gone])
    idle = [card for card in hand if card != gone and card in idle_cards]
    if gone[0] in DANGEROUS or card_points(gone) == 10:
        covers = [card for card in idle if card[0] not in DANGEROUS and card_points(card) < 10]
        return [gone, min(covers, key=keep_worth)] if covers else [gone]
    dead_tens = [card for card in idle if card[0] in "TJQK"]
    return [dead_tens[0], gone] if dead_tens else [gone]


@functools.lru_cache(maxsize=1 << 18)
def _ending(bits: int) -> int:
    """2 for a coup d'état, 1 for a 31, else 0 (§5.7)."""
    cards = _cards(bits)
    if is_coup_d_etat(cards):
        return 2
    return 1 if hand_value(cards) == 31 else 0


# --------------------------------------------------------------------------- what the seat knows


@dataclass
class Knowledge:
    """The cards as ``seat`` knows them at a decision (docs/rules.md §0.8, §5.6)."""

    seat: int
    known: dict[int, list[str]]
    """Cards the seat saw an opponent take from the pile and not discard since (sorted)."""
    slots: dict[int, list[int]]
    """Each opponent's face-down cards, as the group each is dealt from (sorted)."""
    stock_group: int
    stock_size: int
    groups: dict[int, list[str]]
    """The unseen cards of each group (sorted): 0, those unseen since the deal; k, those
    of the k-th stock made from the pile."""
    consistent: bool = True
    """False when the record did not add up and every unseen card was put in one group."""

    def deal(self, rng: random.Random) -> tuple[dict[int, list[str]], list[str]]:
        """Every opponent's hand and the stock (top first), the unseen cards of each group
        shuffled and dealt to that group's places."""
        shuffled: dict[int, list[str]] = {}
        for group, cards in self.groups.items():
            mixed = list(cards)
            rng.shuffle(mixed)
            shuffled[group] = mixed
        hands = {}
        for opponent in sorted(self.slots):
            hand = list(self.known.get(opponent, []))
            hand += [shuffled[group].pop() for group in self.slots[opponent]]
            hands[opponent] = hand
        stock = [shuffled[self.stock_group].pop() for _ in range(self.stock_size)]
        return hands, stock


def _round(engine: Game) -> Round:
    r = cast(EnOgTredive, engine).round
    assert r is not None
    return r


def knowledge(engine: Game, seat: int) -> Knowledge:
    """What ``seat`` knows of the cards, from its view and the round's events it saw: the
    public ones and its own private ones (never another seat's private cards)."""
    game = cast(EnOgTredive, engine)
    r = _round(game)
    found = _walk(game, seat)
    if found is not None:
        return found
    # The events do not add up (a round set up by hand): one group, nothing known.
    own = set(r.hands[seat])
    hidden = [c for c in FULL_DECK if c not in own and c not in r.pile]
    opponents = [s for s in r.seats if s != seat]
    return Knowledge(
        seat,
        {},
        {o: [0] * len(r.hands[o]) for o in opponents},
        0,
        len(game.stock),
        {0: sorted(hidden)},
        consistent=False,
    )


def _walk(game: EnOgTredive, seat: int) -> Knowledge | None:
    r = _round(game)
    opponents = [s for s in r.seats if s != seat]
    known: dict[int, list[str]] = {o: [] for o in opponents}
    slots: dict[int, list[int]] = {o: [] for o in opponents}
    group_of: dict[str, int] = {}
    pile: list[str] = []
    stock_group = 0
    dealt = False
    for event in game._hand_log:
        kind = event.get("kind")
        who = event.get("seat")
        if kind == "deal":
            dealt = True
        elif not dealt:
            continue
        elif kind == "dealt":
            if who in slots:
                slots[who] += [0] * len(event.get("cards") or [])
        elif kind == "turn_up":
            pile.append(event["card"])
        elif kind == "draw":
            if event.get("source") == "discard":
                card = event["card"]
                if not pile or pile.pop() != card:
                    return None
                if who in known:
                    known[who].append(card)
            elif who in slots:
                slots[who].append(stock_group)
        elif kind == "discard":
            for card in event.get("cards") or []:
                if who in known:
                    if card in known[who]:
                        known[who].remove(card)
                    else:
                        group = group_of.get(card, 0)
                        if group not in slots[who]:
                            return None
                        slots[who].remove(group)
                pile.append(card)
        elif kind == "restock":
            stock_group += 1
            top = pile.pop() if pile else None
            for card in pile:
                group_of[card] = stock_group
            pile = [top] if top is not None else []
    if not dealt or pile != list(r.pile):
        return None
    own = set(r.hands[seat])
    seen = own | set(r.pile) | {card for cards in known.values() for card in cards}
    groups: dict[int, list[str]] = {}
    for card in FULL_DECK:
        if card not in seen:
            groups.setdefault(group_of.get(card, 0), []).append(card)
    places: dict[int, int] = {}
    for opponent in opponents:
        if len(known[opponent]) + len(slots[opponent]) != len(r.hands[opponent]):
            return None
        for group in slots[opponent]:
            places[group] = places.get(group, 0) + 1
    if len(game.stock):
        places[stock_group] = places.get(stock_group, 0) + len(game.stock)
    if places != {g: len(cards) for g, cards in groups.items() if cards}:
        return None
    return Knowledge(
        seat,
        {o: sorted(cards) for o, cards in known.items()},
        {o: sorted(groups_) for o, groups_ in slots.items()},
        stock_group,
        len(game.stock),
        {g: sorted(cards) for g, cards in groups.items()},
    )


def resample(engine: Game, seat: int, rng: random.Random) -> Game:
    """``engine`` (a detached copy) with every card ``seat`` cannot see dealt afresh: each
    opponent's face-down cards and the stock, from the unseen cards of their groups (an
    opponent's hand put in a canonical order: the cards the seat knows, then the rest)."""
    game = cast(EnOgTredive, engine)
    r = _round(game)
    hands, stock = knowledge(game, seat).deal(rng)
    for opponent, hand in hands.items():
        r.hands[opponent] = hand
    game.stock.cards = stock
    return game


# --------------------------------------------------------------------------- the simulation


@dataclass
class Sim:
    """A round played on by the ``steady`` bot, on plain lists: the engine's rules
    (docs/rules.md §5.6 to §5.11) and the engine's bot (:meth:`EnOgTredive.bot_action`),
    fast enough for thousands of rounds. ``net`` is what each seat gains."""

    seats: list[int]
    match_seats: list[int]
    hands: dict[int, list[str]]
    pile: list[str]
    stock: list[str]
    """The stock, its top card last."""
    had_turn: set[int]
    knocker: int | None
    final_turns: list[int]
    turns: int
    no_bets: bool
    bets: dict[int, int]
    """Chips in front of each player (every ``bets:N`` account)."""
    pot: int
    unit: int
    knock_min: int
    penalty: str
    actor: int = -1
    """The seat whose turn it is."""
    left: dict[int, int] = field(default_factory=dict)
    """Each seat's left-hand neighbour (shared by copies)."""
    seed: int = 0
    rng: random.Random | None = None
    net: dict[int, int] = field(default_factory=dict)
    over: bool = False
    winner: int | None = None
    """Who won the match in this round, if anyone did."""
    restocks: int = 0

    @classmethod
    def from_engine(cls, engine: Game) -> Sim:
        """The round of ``engine`` as it stands (every card as the engine has it)."""
        game = cast(EnOgTredive, engine)
        r = _round(game)
        bets = {
            owner: amount
            for account, amount in game.balances.items()
            if (parsed := parse_account(account))[0] is AccountKind.BETS
            and (owner := parsed[1]) is not None
        }
        return cls(
            seats=list(r.seats),
            match_seats=list(game.match.seats),
            hands={s: list(h) for s, h in r.hands.items()},
            pile=list(r.pile),
            stock=list(reversed(game.stock.cards)),
            had_turn=set(r.had_turn),
            knocker=r.knocker,
            final_turns=list(r.final_turns),
            turns=r.turns,
            no_bets=r.no_bets,
            bets=bets,
            pot=game.balances.get(POT, 0),
            unit=game.bet_unit,
            knock_min=int(game.options["knock_min"]),
            penalty=str(game.options["knock_penalty"]),
            left={s: left_of(r.seats, s) for s in r.seats},
        )

    def copy(self) -> Sim:
        return Sim(
            self.seats,
            list(self.match_seats),
            {s: list(h) for s, h in self.hands.items()},
            list(self.pile),
            list(self.stock),
            set(self.had_turn),
            self.knocker,
            list(self.final_turns),
            self.turns,
            self.no_bets,
            dict(self.bets),
            self.pot,
            self.unit,
            self.knock_min,
            self.penalty,
            self.actor,
            self.left,
            self.seed,
        )

    # ---- the round's rules, as the engine plays them

    def play(self, seat: int, action: Action) -> None:
        """``seat`` takes ``action`` (a draw, a knock or a discard), then the bot plays on."""
        kind = action["kind"]
        if kind == "draw":
            self.draw(seat, action["source"])
            self.discard(seat, self.bot_discards(seat))
        elif kind == "knock":
            self.knock(seat)
        else:
            self.discard(seat, list(action["cards"]))
        self.play_out()

    def play_out(self) -> None:
        for _ in range(MAX_TURNS):
            if self.over:
                return
            seat = self.actor
            hand = self.hands[seat]
            orbits = self.turns // len(self.seats)
            threshold = knock_threshold(self.knock_min, self.penalty, orbits)
            if self.may_knock(seat) and value(hand) >= threshold:
                self.knock(seat)
                continue
            top = self.pile[-1] if self.pile else None
            self.draw(seat, "discard" if wants_top_discard(hand, top) else "stock")
            self.discard(seat, self.bot_discards(seat))
        raise RuntimeError("a simulated round did not end")

    def bot_discards(self, seat: int) -> list[str]:
        following = self.following(seat)
        must = following is not None and len(self.hands[following]) >= 3
        return choose_discards(self.hands[seat], must)

    def following(self, seat: int) -> int | None:
        if self.knocker is None:
            return self.left[seat]
        return self.final_turns[0] if self.final_turns else None

    def may_knock(self, seat: int) -> bool:
        return (
            self.knocker is None
            and len(self.had_turn) >= len(self.seats)
            and value(self.hands[seat]) >= self.knock_min
            and not self.no_bets
        )

    def draw(self, seat: int, source: str) -> None:
        card = self.stock.pop() if source == "stock" else self.pile.pop()
        self.hands[seat].append(card)

    def discard(self, seat: int, cards: list[str]) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.pile.extend(cards)
        self.turns += 1
        if not self.wins_with(seat):
            self.had_turn.add(seat)
            self.next_turn(seat)

    def knock(self, seat: int) -> None:
        self.knocker = seat
        self.had_turn.add(seat)
        self.final_turns = [s for s in leftward(self.seats, seat) if s != seat]
        self.next_turn(seat)

    def next_turn(self, seat: int) -> None:
        if self.knocker is None:
            self.begin_turn(self.left[seat])
        elif self.final_turns:
            self.begin_turn(self.final_turns.pop(0))
        else:
            self.settle_knock()

    def begin_turn(self, seat: int) -> None:
        """A 31 dealt shows at the holder's first turn; an empty stock is remade (§5.7,
        §5.10)."""
        self.actor = seat
        if seat not in self.had_turn and self.wins_with(seat):
            return
        if not self.stock:
            top = self.pile.pop()
            if self.rng is None:
                self.rng = random.Random(self.seed)
            self.stock = self.pile
            self.rng.shuffle(self.stock)
            self.pile = [top]
            self.restocks += 1

    def wins_with(self, seat: int) -> bool:
        ending = _ending(mask(self.hands[seat]))
        if ending == 2:
            self.coup_d_etat(seat)
            return True
        if ending == 1:
            self.settle({s: 1 for s in self.seats if s != seat})
            return True
        return False

    def coup_d_etat(self, seat: int) -> None:
        """The pot and every bet in front of anyone go to the holder (§5.7)."""
        gained = self.pot
        for owner, chips in self.bets.items():
            if owner != seat:
                gained += chips
                self._gain(owner, -chips)
        self._gain(seat, gained)
        self.winner = seat
        self.over = True

    def settle_knock(self) -> None:
        values = {s: value(self.hands[s]) for s in self.seats}
        if self.penalty == "lowest":
            low = min(values.values())
            owed = {s: 2 if s == self.knocker else 1 for s, v in values.items() if v == low}
        else:
            owed = {s: 1 for s, v in values.items() if v < self.knock_min}
        self.settle(owed)

    def settle(self, owed: dict[int, int]) -> None:
        """Bets paid; a player short of them is out unless everyone would be; the last
        player in wins the pot (§5.9, §5.11)."""
        left = {s: self.bets.get(s, 0) // self.unit for s in owed}
        short = [s for s, bets in owed.items() if left[s] < bets]
        spare = len(short) == len(self.match_seats)
        for s, bets in owed.items():
            paid = min(bets, left[s]) * self.unit
            if paid:
                self.bets[s] -= paid
                self.pot += paid
                self._gain(s, -paid)
        if not spare:
            for s in short:
                self.match_seats.remove(s)
        if len(self.match_seats) == 1:
            (winner,) = self.match_seats
            self._gain(winner, self.pot)
            self.pot = 0
            self.winner = winner
        self.over = True

    def _gain(self, seat: int, chips: int) -> None:
        self.net[seat] = self.net.get(seat, 0) + chips


def sim_base(engine: Game) -> Sim:
    """The round as a :class:`Sim`, whose actor is the seat to decide."""
    sim = Sim.from_engine(engine)
    actor = _round(engine).actor
    sim.actor = -1 if actor is None else actor
    return sim


class Equity:
    """The seat's chance to win the match and its chips, over simulated rounds: each round
    adds the chance the seat then has (1 if it won the match in the round, 0 if it went
    out, else :func:`match_chance` of the bets left)."""

    def __init__(self, total: int, own: int) -> None:
        self.total = total
        """Every chip of the match: the pot and every bet in front of anyone."""
        self.own = own
        """The chips in front of the seat now."""
        self.n = 0
        self.chances = 0.0
        self.squares = 0.0

    def add(self, chance: float) -> None:
        self.n += 1
        self.chances += chance
        self.squares += chance * chance

    def figures(self) -> Figures:
        """Win: the chance to win the match; lose: the rest; ev: the match's chips then, less
        those in front of the seat now; the 95% interval on ev."""
        if self.n == 0:
            raise ValueError("no sample")
        win = self.chances / self.n
        variance = max(0.0, self.squares / self.n - win * win) * self.n / max(1, self.n - 1)
        half = Z95 * self.total * math.sqrt(variance / self.n)
        ev = self.total * win - self.own
        return Figures(win, 0.0, 1.0 - win, ev, False, self.n, ev - half, ev + half)


def chance_after(sim: Sim, seat: int) -> float:
    """The seat's chance to win the match once the simulated round is over."""
    if sim.winner is not None:
        return 1.0 if sim.winner == seat else 0.0
    if seat not in sim.match_seats:
        return 0.0
    others = sorted(sim.bets.get(s, 0) // sim.unit for s in sim.match_seats if s != seat)
    return match_chance(sim.bets.get(seat, 0) // sim.unit, tuple(others))


def simulate(
    engine: Game,
    seat: int,
    plays: list[Action],
    samples: int,
    rng: random.Random,
    *,
    narrow: bool = False,
) -> list[Equity]:
    """Each of ``plays`` by ``seat`` in ``samples`` deals of what the seat cannot see (the
    same deals for every play), the round played out by the steady bot, the rest of the
    match by :func:`match_chance`.

    With ``narrow`` (a bot looking for the best play) the same number of deals is spent by
    halves: a third of each play's share first, then the better half of the plays share
    what is left, and the last two the rest; the plays dropped early are told with fewer
    deals (and a wider interval)."""
    known = knowledge(engine, seat)
    base = sim_base(engine)
    total = base.pot + sum(base.bets.values())
    tallies = [Equity(total, base.bets.get(seat, 0)) for _ in plays]

    def deal(indices: list[int], count: int) -> None:
        for _ in range(count):
            hands, stock = known.deal(rng)
            world = base.copy()
            world.hands.update(hands)
            world.stock = stock[::-1]
            world.seed = rng.getrandbits(64)
            for index in indices:
                sim = world.copy()
                sim.play(seat, plays[index])
                tallies[index].add(chance_after(sim, seat))

    alive = list(range(len(plays)))
    if not narrow or len(plays) <= 2:
        deal(alive, samples)
        return tallies
    budget = samples * len(plays)
    first = max(1, samples // 3)
    deal(alive, first)
    budget -= first * len(alive)
    while len(alive) > 2:
        alive.sort(key=lambda i: -tallies[i].chances / tallies[i].n)
        alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        share = budget // (2 * len(alive)) if len(alive) > 2 else budget // len(alive)
        deal(alive, max(1, share))
        budget -= max(1, share) * len(alive)
    if budget >= len(alive):
        deal(alive, budget // len(alive))
    return tallies


# --------------------------------------------------------------------------- the later rounds

COUP_CHANCE = 0.06
"""In the model of the match's later rounds: the chance a round ends in a coup d'état."""
THIRTY_ONE_CHANCE = 0.18
"""... that it ends in a 31 (every other player pays a bet); otherwise one player pays one.
Both measured over rounds the steady bot plays (2 to 6 players, 600 rounds each: 4 to 7%
coups, 15 to 20% 31s, most knocks costing one player one bet)."""
EXACT_STATES = 200_000
"""Beyond this many states (many players with many bets) :func:`match_chance` plays the
model's matches out instead of enumerating them."""


@functools.lru_cache(maxsize=1 << 16)
def match_chance(mine: int, others: tuple[int, ...]) -> float:
    """The chance to win the match of a player with ``mine`` bets left, the others in the
    match holding ``others`` (sorted), between rounds, in a model of the rounds to come:
    each ends in a coup d'état (:data:`COUP_CHANCE`: its maker wins the match), a 31
    (:data:`THIRTY_ONE_CHANCE`: every other player pays a bet) or a knock (one player pays
    a bet), made or paid by any player in alike; a player who must pay with no bet left is
    out, the last one in wins (§5.7 to §5.11). With no bet left anywhere, the next 31 wins
    (§5.9): a chance of one in the number of players.

    >>> round(match_chance(3, (1, 1)), 3), round(match_chance(1, (3, 3)), 3)
    (0.632, 0.134)
    """
    bound = (mine + 1) * math.comb(max(others, default=0) + len(others), len(others))
    if bound > EXACT_STATES:
        return _played_chance(mine, others)
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    return _chance(mine, others, memo)


def _chance(
    mine: int, others: tuple[int, ...], memo: dict[tuple[int, tuple[int, ...]], float]
) -> float:
    key = (mine, others)
    found = memo.get(key)
    if found is not None:
        return found
    players = len(others) + 1
    if not others:
        found = 1.0
    elif mine == 0 and not any(others):
        found = 1.0 / players
    else:
        coup = COUP_CHANCE  # the seat's own coup; another's is a loss
        rest = tuple(o - 1 for o in others if o > 0)
        thirty_one = _chance(mine, rest, memo) if rest else 1.0
        knock = _chance(mine - 1, others, memo) if mine else 0.0
        for j, bets in enumerate(others):
            if mine:
                paid = [o - 1 for i, o in enumerate(others) if i != j and o > 0]
                thirty_one += _chance(mine - 1, tuple(sorted([*paid, bets])), memo)
            after = [o for i, o in enumerate(others) if i != j]
            if bets:
                after.append(bets - 1)
            knock += _chance(mine, tuple(sorted(after)), memo) if after else 1.0
        found = (
            coup + THIRTY_ONE_CHANCE * thirty_one + (1 - COUP_CHANCE - THIRTY_ONE_CHANCE) * knock
        ) / players
    memo[key] = found
    return found


def _played_chance(mine: int, others: tuple[int, ...], matches: int = 4000) -> float:
    """:func:`match_chance` by playing the model's matches out (the same ones for the same
    state: the random numbers are seeded by it)."""
    rng = random.Random(repr((mine, others)))
    won = 0.0
    for _ in range(matches):
        bets = [mine, *others]
        alive = list(range(len(bets)))
        while 0 in alive:
            if len(alive) == 1:
                won += 1.0
                break
            if not any(bets[i] for i in alive):
                won += 1.0 / len(alive)
                break
            maker = rng.choice(alive)
            draw = rng.random()
            if draw < COUP_CHANCE:
                won += 1.0 if maker == 0 else 0.0
                break
            thirty_one = draw < COUP_CHANCE + THIRTY_ONE_CHANCE
            for i in [i for i in alive if i != maker] if thirty_one else [maker]:
                if bets[i]:
                    bets[i] -= 1
                else:
                    alive.remove(i)
    return won / matches


# --------------------------------------------------------------------------- the analyser


def options(position: Position) -> list[Action]:
    """The options worth telling apart: every draw and the knock; every single card to
    discard (and keeping every card, when allowed), the steady bot's discard (which may
    hide a card under another, §5.6), and always the chosen action."""
    out: list[Action] = []
    for template in position.legal:
        kind = template["kind"]
        params = template["params"]
        if kind == "draw":
            out += [{"kind": "draw", "source": s} for s in params["source"]["one_of"]]
        elif kind == "knock":
            out.append({"kind": "knock"})
        elif kind == "discard":
            spec = params["cards"]
            if spec["min"] == 0:
                out.append({"kind": "discard", "cards": []})
            if spec["max"] >= 1:
                out += [{"kind": "discard", "cards": [card]} for card in spec["subset_of"]]
            steady = steady_discard(position.engine, position.seat)
            if steady not in out:
                out.append(steady)
    chosen = position.chosen
    if chosen is not None:
        out = [dict(chosen) if o == chosen else o for o in out]
        if chosen not in out:
            out.append(dict(chosen))
    return out


def steady_discard(engine: Game, seat: int) -> Action:
    """The steady bot's discard (:meth:`EnOgTredive.bot_action`, which reads the seat's hand
    and the next player's hand size only)."""
    sim = sim_base(engine)
    return {"kind": "discard", "cards": sim.bot_discards(seat)}


class EnOgTrediveAnalyser:
    """The analysis of an En og tredive decision (docs/analysis.md, En og tredive)."""

    def decides(self, position: Position) -> bool:
        """A turn's draw (when there is more than one way) and a discard; not the cut or the
        dealing pattern (every one deals the same chances)."""
        if not position.legal:
            return False
        if position.chosen is not None and not action_fits(position.chosen, position.legal):
            return False
        kinds = {t["kind"] for t in position.legal}
        if not kinds & {"draw", "knock", "discard"}:
            return False
        return len(options(Position(position.engine, position.seat, position.legal))) >= 2

    def analyse(self, position: Position, effort: Effort, rng: Any) -> Verdict:
        plays = options(position)
        samples = samples_for(effort, _round(position.engine).decision)
        narrow = position.chosen is None
        tallies = simulate(position.engine, position.seat, plays, samples, rng, narrow=narrow)
        return Verdict(
            [Option(play, tally.figures()) for play, tally in zip(plays, tallies, strict=True)],
            notes.EN_OG_TREDIVE,
        )


ANALYSER = EnOgTrediveAnalyser()

__all__ = [
    "ANALYSER",
    "EnOgTrediveAnalyser",
    "Knowledge",
    "Sim",
    "best_keep",
    "choose_discards",
    "knowledge",
    "options",
    "resample",
    "simulate",
    "wants_top_discard",
]
