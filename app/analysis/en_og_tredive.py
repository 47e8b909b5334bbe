"""En og tredive's analysis (docs/analysis.md, En og tredive; the rules: docs/rules.md §5).

The decisions (§5.6, §5.8): at the start of a turn, to take the stock's top card, to take the
top discard, or to knock; after taking, which cards to discard. A 31 and a coup d'état are
not choices (the table shows them as soon as a hand holds one, §5.7), nor are the bets (one
a player who pays, §5.7 and §5.8). The cut and the dealing pattern (§5.5) are not decisions
either: the deck is a uniform shuffle the cutter and the dealer know nothing of, so every cut
and every pattern deals each player the same chances.

Every figure is **estimated** by simulation: the cards the seat cannot see are dealt afresh
(:func:`resample`), the option taken, and the round played to its end by the ``steady`` bot
(:mod:`app.games.en_og_tredive.bot`) for every later decision, the seat's own included. The
same deals serve every option of a decision (common random numbers), so the options'
differences are sharper than their intervals suggest.

What the seat knows (§0.8, §5.6): its own hand, every hand's size, the discard pile, and
every card it saw go by: a card an opponent took from the pile is in that opponent's hand
until it is discarded again. When the stock ran out and the pile was shuffled into a new
stock (§5.10), the seat knows which cards went into it: an opponent's card drawn from it
since is one of those. So the unseen cards fall into *groups* (the cards unseen since the
deal, and those of each new stock), and each face-down place (an opponent's card, a place in
the stock) takes a card of its own group: the resample shuffles each group and deals it back
to its places. Nothing else is inferred from the opponents' play.

Units (§5.7 to §5.11): ``ev`` is the chips the seat gains in the *round* (the hand the table
records): minus a bet (``bet_unit``) for each bet it pays into the pot, plus the pot when it
wins the match in this round (and, with a coup d'état, every bet still in front of the
others). *Lose* is a round that costs the seat chips (it pays a bet), *win* one that brings it
chips (it wins the match), *tie* a round it ends having paid nothing (most rounds it does not
lose). The later rounds of the match are not counted: a bet paid now is a bet less to lose
later, which the figures do not weigh.

Speed: a round has many decisions, each played out many times, so each option is played in
``effort.samples // SAMPLE_DIVISOR`` deals (200 for a finished hand's analysis), and the
interval says what that leaves uncertain.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from app.analysis.figures import Option, Tally
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
"""Each option is played in ``effort.samples // SAMPLE_DIVISOR`` deals (at least
:data:`MIN_SAMPLES`): a round has dozens of decisions."""
MIN_SAMPLES = 30
MAX_TURNS = 2_000
"""A simulated round longer than this is a bug in a model, not a round."""

NOTE = (
    "Estimated by simulation: the cards you could not see dealt afresh (a card you saw an "
    "opponent take stays with them), then the round played out by the steady bot for "
    "everyone, you included; ev in chips for the round."
)


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


def score(cards: Sequence[str]) -> int:
    """:func:`~app.games.en_og_tredive.bot.bot_score`, remembered (the score does not
    depend on the order)."""
    return _score_of(mask(cards))


def _without(cards: Sequence[str], gone: str) -> list[str]:
    return [card for card in cards if card != gone]


@functools.lru_cache(maxsize=1 << 18)
def _keep_keys(bits: int) -> tuple[dict[str, tuple[int, int]], tuple[int, int]]:
    """For each card of a hand: how the bot likes the hand without it, then how little it
    likes the card; and the best of these."""
    keys = {card: (_score_of(bits & ~BIT[card]), -keep_worth(card)) for card in _cards(bits)}
    return keys, max(keys.values())


def best_keep(cards: Sequence[str]) -> list[str]:
    """:func:`app.games.en_og_tredive.bot.best_keep`, remembered: the same choice, the first
    card in hand order whose discard leaves the best-liked hand."""
    if len(cards) < 4:
        return list(cards)
    keys, top = _keep_keys(mask(cards))
    gone = next(card for card in cards if keys[card] == top)
    return _without(cards, gone)


@functools.lru_cache(maxsize=1 << 18)
def _idle(bits: int) -> frozenset[str]:
    """The cards of a kept hand whose loss the bot would not mind."""
    kept = _score_of(bits)
    return frozenset(card for card in _cards(bits) if _score_of(bits & ~BIT[card]) == kept)


def wants_top_discard(hand: Sequence[str], top: str | None) -> bool:
    """:func:`app.games.en_og_tredive.bot.wants_top_discard`, with the cached score."""
    if top is None:
        return False
    keep = best_keep([*hand, top])
    return top in keep and score(keep) - score(hand) >= 4


def choose_discards(hand: Sequence[str], next_must_discard: bool) -> list[str]:
    """:func:`app.games.en_og_tredive.bot.choose_discards`, with the cached score."""
    if len(hand) < 4:
        return []
    keep = best_keep(hand)
    (gone,) = [card for card in hand if card not in keep]
    if not next_must_discard:
        return [gone]
    idle_cards = _idle(mask(keep))
    idle = [card for card in keep if card in idle_cards]
    if gone[0] in DANGEROUS or card_points(gone) == 10:
        covers = [card for card in idle if card[0] not in DANGEROUS and card_points(card) < 10]
        return [gone, min(covers, key=keep_worth)] if covers else [gone]
    dead_tens = [card for card in idle if card[0] in "TJQK"]
    return [dead_tens[0], gone] if dead_tens else [gone]


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
        hand = self.hands[seat]
        if is_coup_d_etat(hand):
            self.coup_d_etat(seat)
            return True
        if value(hand) == 31:
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
        self.over = True

    def _gain(self, seat: int, chips: int) -> None:
        self.net[seat] = self.net.get(seat, 0) + chips


def sim_base(engine: Game) -> Sim:
    """The round as a :class:`Sim`, whose actor is the seat to decide."""
    sim = Sim.from_engine(engine)
    actor = _round(engine).actor
    sim.actor = -1 if actor is None else actor
    return sim


def simulate(
    engine: Game,
    seat: int,
    plays: list[Action],
    samples: int,
    rng: random.Random,
) -> list[Tally]:
    """Each of ``plays`` by ``seat`` in ``samples`` deals of what the seat cannot see (the
    same deals for every play), the round played out by the steady bot: the seat's chips."""
    known = knowledge(engine, seat)
    base = sim_base(engine)
    tallies = [Tally() for _ in plays]
    for _ in range(samples):
        hands, stock = known.deal(rng)
        world = base.copy()
        world.hands.update(hands)
        world.stock = stock[::-1]
        world.seed = rng.getrandbits(64)
        for play, tally in zip(plays, tallies, strict=True):
            sim = world.copy()
            sim.play(seat, play)
            tally.add(float(sim.net.get(seat, 0)))
    return tallies


# --------------------------------------------------------------------------- the analyser


def options(position: Position) -> list[Action]:
    """The options worth telling apart: every draw and the knock; every single card to
    discard (and keeping every card, when allowed), and always the chosen action."""
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
    chosen = position.chosen
    if chosen is not None:
        out = [dict(chosen) if o == chosen else o for o in out]
        if chosen not in out:
            out.append(dict(chosen))
    return out


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
        samples = max(MIN_SAMPLES, effort.samples // SAMPLE_DIVISOR)
        tallies = simulate(position.engine, position.seat, plays, samples, rng)
        return Verdict(
            [Option(play, tally.figures()) for play, tally in zip(plays, tallies, strict=True)],
            NOTE,
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
