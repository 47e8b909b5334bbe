"""An adversary at every table: nothing a viewer may see tells a hidden card or the stock's
order (docs/rules.md §0.8).

The rule: no public event, view or error may let anyone reconstruct a card they may not see,
or the order of the stock. This suite plays many hands of every game of the registry, with every
choice of every shuffle option the game has, with bots, and watches them as ONE seat and as a
spectator would: the engine's ``view(viewer)`` after every step, and the hand's log filtered
for that viewer as the history and the live story filter it
(:func:`app.review.history.filter_event`). From that alone a :class:`Predictor` names

* (a) every card it cannot see in the view (dealt face down to another seat, drawn in secret,
  the banker's hole card), at the last step before it is shown;
* (b) the next cards of the stock, before each step, each scored against the card the step
  really drew.

It keeps a model of the deck: the shoe's make-up, the cards it has seen, the stock as a list of
slots (a ``shuffle`` event makes them all unknown; a card dealt takes the top slot; cards an
event says went under the stock fill slots at the bottom in the order the event lists them),
and what the public story implies of a hand's total (a stand the server made for a player on 31,
a ``natural`` flag, a total shown while a card is hidden). It names a card it has located, the
card a total implies, or else the commonest card of what it has not located.

Chance, for each prediction, is worked out from the truth (which the predictor never reads):
the best a blind guess can do among the cards whose place nothing public fixes, the cards the
stock still holds in the order of its last shuffle and the cards hidden from the viewer (a card
drawn from outside that order, from cards gathered under the stock, counts against the whole
stock). The suite fails when the predictor's hits exceed chance's expectation by more than a
few standard deviations, per game and per kind of prediction.
"""

from __future__ import annotations

import importlib
import math
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.games.core.cards import Stock, canonical_shoe
from app.games.core.game import Game
from app.games.core.registry import GAME_IDS, GAME_MODULES, game_class
from app.review.fairness import continuity
from app.review.history import filter_event
from app.simulate import seed_stream, settle_between_hands

HANDS = {
    "trianta-ena": 220,
    "greek-31": 90,
    "vingt-un": 50,
    "trente-et-quarante": 25,
    "en-og-tredive": 30,
}
"""Hands played per table variant (enough predictions, and the whole suite stays quick)."""
STEPS = 400
"""Steps a hand may take with bots before the clock decides."""
SIGMAS = 4.0
SLACK = 3.0
"""Hits may exceed chance's expectation by SIGMAS standard deviations and SLACK hits."""
STOCK_COUNTS = ("deck", "stock", "pack")
"""The view's count of cards in the stock, under its game's name, where a game shows it."""


# ----------------------------------------------------------------------------- the variants


def variants(game_id: str) -> list[dict[str, Any]]:
    """The table's options, once per choice of each shuffle option the game has."""
    cls = game_class(game_id)
    base = dict(cls.SIM_OPTIONS)
    out: list[dict[str, Any]] = []
    for spec in cls.OPTIONS:
        if "shuffle" in spec.name and spec.choices:
            out += [{**base, spec.name: choice} for choice in spec.choices]
    return out or [base]


# ----------------------------------------------------------------------------- card values


def _values(rank: str) -> tuple[int, ...]:
    if rank == "A":
        return (1, 11)
    if rank in "TJQK":
        return (10,)
    return (int(rank),) if rank.isdigit() else (0,)


def totals(cards: list[str]) -> set[int]:
    """Every total the cards can make, each ace 1 or 11."""
    out = {0}
    for card in cards:
        out = {t + v for t in out for v in _values(card[0])}
    return out


# ----------------------------------------------------------------------------- what is seen


def hands_in(view: dict[str, Any]) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(seat, hand index, hand) for every hand of every seat of a view."""
    for entry in view.get("seats") or []:
        for index, hand in enumerate(entry.get("hands") or []):
            if isinstance(hand, dict) and isinstance(hand.get("cards"), list):
                yield int(entry["seat"]), index, hand


def shown_codes(node: Any) -> Iterator[str]:
    """Every card code a view shows, anywhere in it."""
    if isinstance(node, dict):
        if set(node) == {"card", "up"}:
            if isinstance(node["card"], str):
                yield node["card"]
        else:
            for value in node.values():
                yield from shown_codes(value)
    elif isinstance(node, list):
        for value in node:
            yield from shown_codes(value)


def drawn_by(event: dict[str, Any]) -> int:
    """How many cards an event took from the stock (as a viewer can tell from it)."""
    if event.get("kind") in ("show", "stand", "gather", "discard", "bust", "reshuffle"):
        return 0
    if event.get("source") not in (None, "stock"):
        return 0
    if "card" in event:
        return 1
    cards = event.get("cards")
    if isinstance(cards, list) and event.get("kind") in ("dealt", "burn", "deal"):
        return len(cards)
    return 0


# ----------------------------------------------------------------------------- the adversary

LOCATED, IMPLIED, BLIND = "located", "implied", "blind"
"""How the predictor named a card: placed by its model of the stock, implied by a total the
story gives, or the commonest of what it has not placed. Each way is judged on its own, so
that a leak in a few predictions is not lost among many blind ones."""
Guess = tuple[str, str]
"""A card named, and how (one of :data:`LOCATED`, :data:`IMPLIED`, :data:`BLIND`)."""


@dataclass
class Predictor:
    """What one viewer can work out of the stock and of the cards hidden from it."""

    shoe: Counter[str] = field(default_factory=Counter)
    stock: list[str | None] = field(default_factory=list)
    """The stock as the viewer models it, top first: a located card, or None."""
    secret: dict[tuple[int, int, int, int], str | None] = field(default_factory=dict)
    """(hand, seat, hand index, position) of a card dealt out of sight -> the card it was
    located as when it left the stock."""
    implied: dict[tuple[int, int], int] = field(default_factory=dict)
    """(hand, seat) -> a total the public story gives that hand."""
    counts: dict[tuple[int, int, int], int] = field(default_factory=dict)
    hand: int = 0
    view: dict[str, Any] = field(default_factory=dict)

    def observe(self, hand: int, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """One step: the filtered events, then the view after it."""
        if hand != self.hand:
            self.hand, self.counts = hand, {}
        for event in events:
            self._event(event)
        self.view = view
        count = next((view[k] for k in STOCK_COUNTS if isinstance(view.get(k), int)), None)
        if count is not None:  # keep the model the size the table says the stock is
            del self.stock[: max(0, len(self.stock) - count)]
            self.stock += [None] * (count - len(self.stock))

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "shuffle" and isinstance(event.get("cards"), int):
            size = int(event["cards"])
            if size > sum(self.shoe.values()):
                self.shoe = Counter(canonical_shoe(size // 52, jokers=size % 52))
            self.stock = [None] * size
            return
        if kind == "gather":  # used cards under the stock, in the order the event gives
            listed = event.get("cards")
            under = list(listed) if isinstance(listed, list) else [None] * int(event["count"])
            self.stock += [c if isinstance(c, str) else None for c in under]
            return
        seat = event.get("seat")
        if isinstance(seat, int) and event.get("automatic") and kind == "stand":
            self.implied[(self.hand, seat)] = 31  # the server stood for a player on 31
        taken = drawn_by(event)
        for i in range(taken):
            top = self.stock.pop(0) if self.stock else None
            if not isinstance(seat, int):
                continue
            index = int(event.get("hand") or 0)
            key = (self.hand, seat, index)
            position = self.counts.get(key, 0)
            if event.get("kind") == "dealer_draw" and isinstance(event.get("count"), int):
                position = int(event["count"]) - 1 + i
            self.counts[key] = position + 1
            named = event.get("card") if "card" in event else (event.get("cards") or [None])[i]
            if not isinstance(named, str):
                self.secret[(self.hand, seat, index, position)] = top

    # -------------------------------------------------------------- guesses

    def unplaced(self) -> Counter[str]:
        """The shoe less what the viewer sees now and what it has located in the stock."""
        pool = Counter(self.shoe)
        pool.subtract(shown_codes(self.view))
        pool.subtract(c for c in self.stock if c is not None)
        return +pool

    def blind(self, pool: Counter[str], ranks: set[str] | None = None) -> str:
        """The commonest card of ``pool`` (of ``ranks``, when given)."""
        choices = [(n, c) for c, n in pool.items() if ranks is None or c[0] in ranks]
        return max(choices)[1] if choices else "AS"

    def next_cards(self, n: int) -> list[Guess]:
        """The next ``n`` cards of the stock, as well as the viewer can name them."""
        blind = (self.blind(self.unplaced()), BLIND)
        return [(c, LOCATED) if c is not None else blind for c in (self.stock + [None] * n)[:n]]

    def hidden_card(self, seat: int, index: int, position: int, hand: dict[str, Any]) -> Guess:
        """A card the view hides: implied by a total, located when dealt, or blind."""
        pool = self.unplaced()
        total = self.implied.get((self.hand, seat))
        for key in ("value", "total"):
            if isinstance(hand.get(key), int):
                total = int(hand[key])
        cards = hand["cards"]
        hidden = [c for c in cards if not isinstance(c.get("card"), str)]
        if total is not None and len(hidden) == 1:
            seen = [c["card"] for c in cards if isinstance(c.get("card"), str)]
            ranks = {r for r in "A23456789TJQK" if total in totals([*seen, r + "S"])}
            if ranks:
                return self.blind(pool, ranks), IMPLIED
        located = self.secret.get((self.hand, seat, index, position))
        return (located, LOCATED) if located is not None else (self.blind(pool), BLIND)


# ----------------------------------------------------------------------------- the referee


@dataclass
class Tally:
    """Predictions of one kind: hits, and what chance expects of them."""

    hits: int = 0
    tries: int = 0
    expected: float = 0.0
    variance: float = 0.0

    def add(self, hit: bool, chance: float) -> None:
        self.hits += hit
        self.tries += 1
        self.expected += chance
        self.variance += chance * (1 - chance)

    def merge(self, other: Tally) -> None:
        self.hits += other.hits
        self.tries += other.tries
        self.expected += other.expected
        self.variance += other.variance

    @property
    def bound(self) -> float:
        return self.expected + SIGMAS * math.sqrt(self.variance) + SLACK

    def __str__(self) -> str:
        return (
            f"{self.hits} hits of {self.tries}, chance {self.expected:.1f} "
            f"(allowed {self.bound:.1f})"
        )


def best_share(cards: list[str]) -> float:
    """What the best blind guess among ``cards`` hits: the commonest one's share."""
    return max(Counter(cards).values()) / len(cards) if cards else 0.0


def in_order(stock: Stock) -> list[str]:
    """The cards at the top of ``stock`` still in the order of its last shuffle."""
    if stock.shuffle is None:
        return list(stock.cards)
    order = stock.shuffle.order
    dealt = continuity(list(stock.cards), order, gathers=True)
    return list(order[dealt:]) if dealt is not None else []


def god_card(card: str, *, up: bool, visible: bool) -> dict[str, Any]:
    return {"card": card, "up": up}


@contextmanager
def every_card_shown(game_id: str) -> Iterator[None]:
    """The game's view module shows every card (the truth, for the referee alone)."""
    module = importlib.import_module(GAME_MODULES[game_id].rpartition(".")[0] + ".view")
    before = module.card_view
    module.card_view = god_card
    try:
        yield
    finally:
        module.card_view = before


@dataclass
class Watch:
    """One viewer, its predictor and its tallies."""

    seat: int | None
    predictor: Predictor = field(default_factory=Predictor)
    stock: dict[str, Tally] = field(default_factory=dict)
    """The next cards of the stock, by how they were named."""
    guesses: list[Guess] = field(default_factory=list)
    last: dict[tuple[int, int, int, int], tuple[str, bool, float]] = field(default_factory=dict)
    """Each hidden card's latest prediction (hand, seat, hand index, position): how it was
    named, hit, chance."""


class Table:
    """One table of bots, watched by a seat and a spectator."""

    def __init__(self, game_id: str, options: dict[str, Any], seed: int) -> None:
        cls = game_class(game_id)
        self.game_id = game_id
        self.engine: Game = cls(options, seeds=seed_stream(seed))
        self.rng = random.Random(seed)
        for seat in range(cls.SIM_PLAYERS):
            self.engine.sit(seat, self.engine.sim_stack(seat, 1000))
        seat = 1 if 1 in self.engine.seated else self.engine.seated[0]
        self.watches = [Watch(seat), Watch(None)]
        self.draws: list[tuple[str, float]] = []

    def record_draw(self, stock: Stock) -> None:
        """Called as a card leaves the stock: the card and chance of naming it blind."""
        ordered = in_order(stock)
        card = stock.cards[0]
        chance = best_share(ordered) if ordered else best_share(stock.cards)
        self.draws.append((card, chance))

    def taken_directly(
        self, stock: Stock, old: list[str], shuffle: object, ordered: list[str]
    ) -> None:
        """Cards a game took from the stock's list itself, not by ``Stock.draw`` (Trente et
        Quarante's deal): the top of the stock as it was, when nothing was shuffled."""
        if stock.shuffle is not shuffle or len(stock.cards) >= len(old):
            return
        taken = next(
            (k for k in range(1, len(old) + 1) if stock.cards[: len(old) - k] == old[k:]), 0
        )
        for i in range(taken):
            rest = ordered[i:] if i < len(ordered) else old[i:]
            self.draws.append((old[i], best_share(rest)))

    def play(self, hands: int) -> None:
        engine = self.engine
        for _ in range(hands):
            settle_between_hands(engine, self.rng)
            for seat in engine.seated:
                engine.sim_rebuy(seat, 1000)
            if not engine.can_start():
                break
            self.step(engine.start_hand)
            for step in range(STEPS):
                if not engine.in_hand:
                    break
                seat = min(engine.to_act())
                if step < STEPS // 2:
                    action = engine.bot_action(seat, self.rng)
                    self.step(lambda s=seat, a=action: engine.apply(s, a))
                else:
                    for seat, action in engine.timeout_actions():
                        self.step(lambda s=seat, a=action: engine.apply(s, a, by_clock=True))
            engine.take_completed()

    def step(self, change: Any) -> None:
        engine = self.engine
        for watch in self.watches:
            watch.guesses = watch.predictor.next_cards(12)
        self.draws = []
        stock = getattr(engine, "stock", None)
        before = (list(stock.cards), stock.shuffle, in_order(stock)) if stock else None
        change()
        if not self.draws and stock is not None and before is not None:
            self.taken_directly(stock, *before)
        events = engine.take_log()
        with every_card_shown(self.game_id):
            truth = engine.view(None)
        for watch in self.watches:
            for (card, chance), (guess, how) in zip(self.draws, watch.guesses, strict=False):
                watch.stock.setdefault(how, Tally()).add(card == guess, chance)
            view = engine.view(watch.seat)
            watch.predictor.observe(
                engine.hand_number, [filter_event(e, watch.seat) for e in events], view
            )
            self.judge_hidden(watch, view, truth)

    def judge_hidden(self, watch: Watch, view: dict[str, Any], truth: dict[str, Any]) -> None:
        """Each card the view hides: the predictor names it; chance is the commonest card's
        share of the stock's shuffled cards and of every card hidden from this viewer."""
        real = {(s, i): hand for s, i, hand in hands_in(truth)}
        targets: list[tuple[tuple[int, int, int, int], str, dict[str, Any]]] = []
        for seat, index, hand in hands_in(view):
            for position, card in enumerate(hand["cards"]):
                if isinstance(card.get("card"), str):
                    continue
                actual = real[(seat, index)]["cards"][position]["card"]
                key = (self.engine.hand_number, seat, index, position)
                targets.append((key, actual, hand))
        if not targets:
            return
        stock = self.engine.stock
        pool = (in_order(stock) or stock.cards) + [actual for _, actual, _ in targets]
        chance = best_share(pool)
        for key, actual, hand in targets:
            _, seat, index, position = key
            guess, how = watch.predictor.hidden_card(seat, index, position, hand)
            watch.last[key] = (how, guess == actual, chance)


@contextmanager
def draws_recorded(tables: list[Table]) -> Iterator[None]:
    """Every card taken from a stock is told to the table it belongs to."""
    original = Stock.draw
    owners = tables

    def draw(stock: Stock) -> str:
        for table in owners:
            if getattr(table.engine, "stock", None) is stock and stock.cards:
                table.record_draw(stock)
        return original(stock)

    Stock.draw = draw  # type: ignore[method-assign]
    try:
        yield
    finally:
        Stock.draw = original  # type: ignore[method-assign]


def watched(game_id: str) -> dict[str, Tally]:
    """Every variant of ``game_id`` played and watched: the tallies of the stock's next cards
    and of the hidden cards, by how they were named, for both viewers together."""
    out: dict[str, Tally] = {}
    for n, options in enumerate(variants(game_id)):
        table = Table(game_id, options, seed=31 + n)
        with draws_recorded([table]):
            table.play(HANDS[game_id])
        for watch in table.watches:
            for how, tally in watch.stock.items():
                out.setdefault(f"stock, {how}", Tally()).merge(tally)
            for how, hit, chance in watch.last.values():
                out.setdefault(f"hidden, {how}", Tally()).add(hit, chance)
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_viewer_predicts_hidden_cards_or_the_stock_better_than_chance(game_id: str) -> None:
    tallies = watched(game_id)
    assert sum(t.tries for k, t in tallies.items() if k.startswith("stock")), "nothing drawn"
    beaten = {k: str(t) for k, t in tallies.items() if t.hits > t.bound}
    assert not beaten, f"{game_id}: a viewer does better than chance: {beaten}"


# ----------------------------------------------------------------------------- the two leaks


def spectator_story(game: Game) -> list[dict[str, Any]]:
    """The events since the last call as a spectator reads them."""
    return [filter_event(e, None) for e in game.take_log()]


def test_greek_31_gather_names_the_cards_as_a_set() -> None:
    """docs/rules.md §2.9, Decision: the cards go under the deck, and the table is told which,
    never in which order."""
    from app.games.core.cards import fixed_seeds
    from app.games.greek_31.engine import Greek31

    game = Greek31({}, seeds=fixed_seeds())
    for seat in range(3):
        game.sit(seat, 1000)
    game.stock.cards = ["5H", "9C", "KS", "8D", "KH", "QH", "9H", "7S"]
    game.start_hand()
    for seat, amount in ((2, 10), (1, 20)):
        game.apply(seat, {"kind": "stake", "amount": amount})
    game.apply(0, {"kind": "draw"})
    game.apply(0, {"kind": "stand", "conceal": 1})
    game.take_log()
    for _ in range(3):
        game.apply(2, {"kind": "draw"})  # 5H KH QH 9H: over 31, under the deck at once
    (gather,) = [e for e in spectator_story(game) if e["kind"] == "gather"]
    assert gather["cards"] == ["5H", "9H", "KH", "QH"]


def test_greek_31_used_cards_come_round_shuffled() -> None:
    """docs/rules.md §2.9, Decision: with ``shuffle: once`` the deck is never shuffled between
    deals, but once the cards of its shuffle are all dealt, the used cards under it are
    shuffled (a new shoe, its commitment in the hand's log) before the next card is drawn."""
    from app.games.greek_31.engine import Greek31

    game = Greek31({"shuffle": "once", "decks": 1}, seeds=seed_stream(5))
    rng = random.Random(5)
    for seat in range(4):
        game.sit(seat, 1000)
    came_round = 0
    for _ in range(30):
        for seat in game.seated:
            game.sim_rebuy(seat, 1000)
        game.start_hand()
        game.take_log()
        while game.in_hand:
            under = list(game.stock.cards)  # by now: only cards gathered under the deck
            shoe, fresh = game.stock.shuffle, game.fresh
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, rng))
            events = game.take_log()
            if game.stock.shuffle is shoe:
                continue
            came_round += 1
            made = game.stock.shuffle
            assert fresh == 0 and made is not None and made.source == under
            kinds = [e["kind"] for e in events]
            at = kinds.index("shuffle")
            assert events[at] == {"kind": "shuffle", "commit": made.commit, "cards": len(under)}
            assert events[at + 1]["card"] == made.order[0]
        assert game.take_completed() is not None
    assert came_round >= 3, "the deck never came round in a hand"


def test_trianta_ena_a_31_tells_the_table_nothing_before_its_card_is_shown() -> None:
    """docs/rules.md §1.5, Decision: a player on 31 is offered only ``stand`` and sends it; the
    server does not stand for them. Two rounds that differ only in seat 1's face-down card (an
    ace making a natural with K and Q, or a two) look the same to a spectator and to seat 2
    until seat 1 has acted."""
    from app.games.core.cards import fixed_seeds
    from app.games.trianta_ena.engine import TriantaEna

    def seen(hole: str) -> list[Any]:
        game = TriantaEna({"buy_in": 100}, seeds=fixed_seeds())
        for seat in range(3):
            game.sit(seat, 300 if seat == 0 else 100)
        game.stock.cards = [hole, "9C", "5H", "KD", "QH", "2D", "3S", "6H", "8C", "9S", "TC"]
        game.start_hand()
        out: list[Any] = []
        for seat in (1, 2):
            game.apply(seat, {"kind": "bet", "amount": 10})
            out.append((game.view(None), game.view(2), spectator_story(game)))
        assert game.to_act() == {1}
        out.append(sorted(game.to_act()))
        legal = game.legal_actions(1)
        assert legal == (
            [{"kind": "stand", "params": {}}]
            if hole == "AS"
            else [{"kind": "hit", "params": {}}, {"kind": "stand", "params": {}}]
        )
        return out

    assert seen("AS") == seen("2S")
