"""En og tredive's analysis (app/analysis/en_og_tredive.py; docs/analysis.md, En og tredive).

Every figure is an estimate (the opponents decide), so the checks are:

* what the seat knows: a card it saw an opponent take stays with that opponent; after the
  stock is remade from the pile, the unseen cards fall into groups (worked by hand below);
* a position whose outcome is certain (a discard that makes 31 and ends the match) comes
  out exact, with no spread;
* the analysis's own fast replay of a round against the engine, deal for deal, and its
  copies of the bot's rules against the bot's;
* the model of the match's later rounds against an independent enumeration of it;
* the estimates against an independent Monte Carlo playing the real engine, within 4 sigma;
* random rounds, every decision analysed; positions that differ only in unseen cards get
  identical figures.

Seats are numbered clockwise; play goes to the left (the next higher seat), starting at the
dealer's left.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest

from app.analysis.en_og_tredive import (
    ANALYSER,
    Sim,
    best_keep,
    choose_discards,
    knowledge,
    resample,
    wants_top_discard,
)
from app.analysis.figures import Z95, Figures
from app.analysis.position import Effort, Position
from app.games.core.accounts import bets_account, seat_account
from app.games.core.actions import random_action
from app.games.core.cards import seeded_source
from app.games.en_og_tredive import bot
from app.games.en_og_tredive.engine import EnOgTredive
from app.games.en_og_tredive.scoring import FULL_DECK
from tests.games.test_en_og_tredive_helpers import deal, start, table, turn


def new_table(players: int, seed: str, **options: Any) -> EnOgTredive:
    game = EnOgTredive(options, seeds=seeded_source(seed.encode().ljust(32, b".")[:32]))
    for seat in range(players):
        game.sit(seat, 1000)
    return game


def chips(game: EnOgTredive, seat: int) -> int:
    """What the seat owns: its stack and the bets in front of it."""
    return game.balances.get(seat_account(seat), 0) + game.balances.get(bets_account(seat), 0)


def position(game: EnOgTredive, chosen: dict[str, Any] | None = None) -> Position:
    (seat,) = game.to_act()
    return Position(game, seat, game.legal_actions(seat), chosen)


def analysed(game: EnOgTredive, effort: int, seed: int = 0) -> dict[str, Figures]:
    verdict = ANALYSER.analyse(position(game), Effort(effort), random.Random(seed))
    return {_name(o.action): o.figures for o in verdict.options}


def _name(action: dict[str, Any]) -> str:
    if action["kind"] == "draw":
        return str(action["source"])
    if action["kind"] == "discard":
        return "discard " + " ".join(action["cards"])
    return str(action["kind"])


def bot_turns(game: EnOgTredive, rng: random.Random, count: int) -> None:
    """Up to ``count`` decisions by the bot (fewer when the round ends)."""
    for _ in range(count):
        if not game.in_hand:
            return
        (seat,) = game.to_act()
        game.apply(seat, game.bot_action(seat, rng))


def cut_and_deal(game: EnOgTredive, rng: random.Random) -> None:
    """The bot cuts (or knocks on the deck) and deals."""
    while game.in_hand and game.round is not None and game.round.phase in ("cut", "deal"):
        bot_turns(game, rng, 1)


# --------------------------------------------------------------------------- what the seat knows


def two_rounds(bets: int = 1) -> EnOgTredive:
    """Round 1 (seat 0 deals): seat 1 takes the turned-up AH to K-Q of hearts and discards
    the 5C: 31, and seat 0 pays its only bet. Round 2 (seat 1 deals, seat 0 plays first):
    seat 0 draws the 8C from the stock and throws it; seat 1 is to draw, holding K-Q of
    spades and the 4D, the AS on top of the stock."""
    game = table(2, bets=bets)
    start(game, dealer=0)
    deal(game, {1: ["KH", "QH", "5C"], 0: ["2S", "3D", "7C"]}, "AH")
    turn(game, 1, "discard", ["5C"])
    assert not game.in_hand and game.bets_left(0) == bets - 1
    game.take_completed()
    game.start_hand()
    deal(game, {0: ["2S", "3D", "7C"], 1: ["KS", "QS", "4D"]}, "9H", ["8C", "AS"])
    turn(game, 0, "stock", ["8C"])
    return game


def test_a_discard_that_wins_the_match_is_certain() -> None:
    """Seat 1 draws the AS: discarding the 4D makes 31 (§5.7); seat 0, with no bet left to
    pay, is out (§5.9) and seat 1, the last player in, wins the match: the pot (the 10 chips
    seat 0 paid in round 1) and its own bet back. The match's chips are 20, seat 1 has 10 in
    front of it: ev 20 - 10 = 10, won in every simulated deal, no spread."""
    game = two_rounds()
    game.apply(1, {"kind": "draw", "source": "stock"})
    found = analysed(game, 100)
    assert set(found) == {"discard KS", "discard QS", "discard 4D", "discard AS"}
    certain = found["discard 4D"]
    assert (certain.win, certain.tie, certain.lose, certain.ev) == (1.0, 0.0, 0.0, 10.0)
    assert certain.half_width == 0.0
    for name, f in found.items():
        assert f.tie == 0.0 and -10 <= f.ev <= 10, name


def test_a_card_taken_from_the_pile_stays_with_the_opponent() -> None:
    """In round 2 seat 0 takes the turned-up 9H instead and throws the 7C: seat 1 knows
    seat 0 holds the 9H, and every resample leaves it there; seat 0's two other cards are
    any of the cards seat 1 has not seen."""
    game = table(2)
    start(game, dealer=1)
    deal(game, {0: ["2S", "3D", "7C"], 1: ["KS", "QS", "4D"]}, "9H", ["8C", "AS"])
    turn(game, 0, "discard", ["7C"])
    known = knowledge(game, 1)
    assert known.consistent
    assert known.known == {0: ["9H"]} and known.slots == {0: [0, 0]}
    unseen = sorted(set(FULL_DECK) - {"KS", "QS", "4D", "7C", "9H"})
    assert known.groups == {0: unseen} and known.stock_size == len(unseen) - 2
    rng = random.Random(1)
    for _ in range(20):
        twin = resample(copy.deepcopy(game), 1, rng)
        hand = twin.round.hands[0] if twin.round else []
        assert hand[0] == "9H" and len(hand) == 3
        assert sorted(hand[1:] + twin.stock.cards) == unseen


def test_after_the_stock_is_remade_the_unseen_cards_fall_into_groups() -> None:
    """Two players throw every card they draw: after 46 turns the stock is empty and the
    pile but its top becomes the new stock (§5.10). Seat 1 then takes its first card and
    keeps it, throwing its 9H.

    Seat 0 has seen every card but seat 1's dealt 2C and 5D and the new stock: so group 0
    (unseen since the deal) is exactly the 2C and the 5D, both in seat 1's hand, and group 1
    (the new stock) fills the stock and seat 1's third card."""
    game = table(2)
    start(game, dealer=0)
    deal(game, {1: ["2C", "5D", "9H"], 0: ["3S", "7C", "JD"]}, "4H")
    for index in range(46):
        seat = 1 if index % 2 == 0 else 0
        game.apply(seat, {"kind": "draw", "source": "stock"})
        r = game.round
        assert r is not None and r.drawn is not None
        game.apply(seat, {"kind": "discard", "cards": [r.drawn]})
    r = game.round
    assert r is not None and r.restocks == 1 and r.actor == 1
    game.apply(1, {"kind": "draw", "source": "stock"})
    game.apply(1, {"kind": "discard", "cards": ["9H"]})
    known = knowledge(game, 0)
    assert known.consistent
    assert known.slots == {1: [0, 0, 1]} and known.stock_group == 1
    assert known.groups[0] == ["2C", "5D"]
    assert len(known.groups[1]) == len(game.stock.cards) + 1
    rng = random.Random(2)
    for _ in range(20):
        twin = resample(copy.deepcopy(game), 0, rng)
        hand = twin.round.hands[1] if twin.round else []
        assert sorted(hand[:2]) == ["2C", "5D"] and hand[2] in known.groups[1]
    # the figures do not depend on which card seat 1 drew
    (seat,) = game.to_act()
    assert seat == 0
    twin = resample(copy.deepcopy(game), 0, random.Random(3))
    mine = ANALYSER.analyse(position(game), Effort(50), random.Random(4))
    theirs = ANALYSER.analyse(position(twin), Effort(50), random.Random(4))
    assert mine.options == theirs.options


def test_the_cut_and_the_dealing_pattern_are_not_decisions() -> None:
    game = new_table(3, "cut")
    game.start_hand()
    r = game.round
    assert r is not None and r.phase == "cut"
    assert not ANALYSER.decides(position(game))
    game.apply(r.cutter, {"kind": "cut", "position": 10})
    assert not ANALYSER.decides(position(game))


# --------------------------------------------------------------------------- the bot, copied


def test_the_cached_bot_rules_choose_as_the_bot_does() -> None:
    rng = random.Random(5)
    deck = list(FULL_DECK)
    for _ in range(4000):
        cards = rng.sample(deck, rng.randint(1, 5))
        hand, top = cards[:-1], cards[-1]
        assert wants_top_discard(hand, top) == bot.wants_top_discard(hand, top)
        if len(hand) == 4 or len(cards) == 4:
            four = cards[:4]
            assert best_keep(four) == bot.best_keep(four)
            for must in (False, True):
                assert choose_discards(four, must) == bot.choose_discards(four, must)


def test_the_fast_replay_plays_the_round_as_the_engine_does() -> None:
    """The analysis replays rounds on plain lists (:class:`Sim`): from the same cards it
    must end every round as the engine does with its bot, chip for chip (rounds in which
    the stock was remade are left out: the two shuffle the pile differently)."""
    rng = random.Random(6)
    compared = 0
    for index in range(16):
        game = new_table(rng.randint(2, 5), f"replay {index}", bets=rng.randint(1, 3))
        game.start_hand()
        cut_and_deal(game, rng)
        bot_turns(game, rng, rng.randint(0, 12))
        if not game.in_hand:
            continue
        spot = position(game)
        for option in ANALYSER.analyse(spot, Effort(1), rng).options:
            for _ in range(3):
                twin = resample(copy.deepcopy(game), spot.seat, rng)
                sim = Sim.from_engine(twin)
                sim.actor = spot.seat
                before = {s: chips(twin, s) for s in twin.seated}
                twin.apply(spot.seat, dict(option.action))
                while twin.in_hand:
                    (who,) = twin.to_act()
                    twin.apply(who, twin.bot_action(who, rng))
                done = twin.take_completed()
                assert done is not None
                sim.play(spot.seat, option.action)
                if done.summary["restocks"] or sim.restocks:
                    continue
                for seat in twin.seated:
                    assert chips(twin, seat) - before[seat] == sim.net.get(seat, 0)
                compared += 1
    assert compared >= 80


# --------------------------------------------------------------------------- estimates


def model_chance(bets: list[int]) -> float:
    """The chance player 0 wins the match with ``bets`` left (player 0's first), in the model
    of later rounds the analysis uses, enumerated here afresh: each round a coup d'état
    (6%: its maker wins), a 31 (18%: every other player pays a bet) or a knock (one player
    pays a bet), by any player alike; paying with no bet left puts a player out; with no
    bet left anywhere the next 31 wins."""
    players = list(enumerate(bets))

    def chance(state: tuple[tuple[int, int], ...]) -> float:
        alive = dict(state)
        if 0 not in alive:
            return 0.0
        if len(alive) == 1:
            return 1.0
        if not any(alive.values()):
            return 1 / len(alive)
        total = 0.0
        for maker in alive:
            total += 0.06 * (1.0 if maker == 0 else 0.0)
            after = {p: b for p, b in alive.items()}
            for payer in [p for p in alive if p != maker]:
                if after[payer]:
                    after[payer] -= 1
                else:
                    del after[payer]
            total += 0.18 * remember(tuple(sorted(after.items())))
            after = dict(alive)
            if after[maker]:
                after[maker] -= 1
            else:
                del after[maker]
            total += 0.76 * remember(tuple(sorted(after.items())))
        return total / len(alive)

    memo: dict[tuple[tuple[int, int], ...], float] = {}

    def remember(state: tuple[tuple[int, int], ...]) -> float:
        if state not in memo:
            memo[state] = chance(state)
        return memo[state]

    return remember(tuple(players))


def test_the_later_rounds_model_against_an_enumeration() -> None:
    from app.analysis.en_og_tredive import _played_chance, match_chance

    for mine in range(4):
        for others in [(0,), (2,), (3,), (0, 1), (1, 3), (2, 2), (3, 3), (0, 2, 3), (1, 1, 1)]:
            expected = model_chance([mine, *others])
            assert match_chance(mine, others) == pytest.approx(expected, abs=1e-9)
    # many players with many bets: the model's matches played out
    for mine, others in [(3, (1, 1)), (1, (2, 3)), (2, (2, 2, 2))]:
        expected = model_chance([mine, *others])
        assert abs(_played_chance(mine, others) - expected) <= 4 * math.sqrt(0.25 / 4000)


def monte_carlo(
    game: EnOgTredive, seat: int, action: dict[str, Any], samples: int, rng: random.Random
) -> tuple[float, float, float]:
    """The seat's chips from the match with ``action``, by the real engine (a round whose
    stock was never remade): the cards the seat saw another take from the pile (and not
    throw since) stay with them; every other card it cannot see (not in its hand, not in the
    pile) is shuffled into the others' hands and the stock; the round is played by the bot
    for everyone, the rest of the match by :func:`model_chance`. The mean, its standard
    error, and the chance to win the match."""
    r = game.round
    assert r is not None and not r.restocks
    taken: dict[int, list[str]] = {other: [] for other in r.hands if other != seat}
    for event in game._hand_log:
        who = event.get("seat")
        if who not in taken:
            continue
        if event["kind"] == "draw" and event["source"] == "discard":
            taken[who].append(event["card"])
        elif event["kind"] == "discard":
            taken[who] = [c for c in taken[who] if c not in event["cards"]]
    seen = {*r.hands[seat], *r.pile, *(c for cards in taken.values() for c in cards)}
    unseen = sorted(c for c in FULL_DECK if c not in seen)
    pot = sum(v for k, v in game.balances.items() if k == "pot" or k.startswith("bets:"))
    own = game.balances.get(bets_account(seat), 0)
    total = squares = wins = 0.0
    for _ in range(samples):
        twin = copy.deepcopy(game)
        twin.seeds = seeded_source(rng.randbytes(32))
        cards = list(unseen)
        rng.shuffle(cards)
        assert twin.round is not None
        for other, known in taken.items():
            twin.round.hands[other] = known + [cards.pop() for _ in r.hands[other][len(known) :]]
        twin.stock.cards = cards
        twin.apply(seat, dict(action))
        while twin.in_hand:
            (who,) = twin.to_act()
            twin.apply(who, twin.bot_action(who, rng))
        done = twin.take_completed()
        assert done is not None
        if done.summary["match_winner"] is not None:
            chance = 1.0 if done.summary["match_winner"] == seat else 0.0
        elif seat not in twin.match.seats:
            chance = 0.0
        else:
            order = [seat, *(s for s in twin.match.seats if s != seat)]
            chance = model_chance([twin.bets_left(s) for s in order])
        value = pot * chance - own
        total += value
        squares += value * value
        wins += chance
    mean = total / samples
    error = math.sqrt(max(squares / samples - mean * mean, 0.0) / samples)
    return mean, error, wins / samples


@pytest.mark.parametrize(("players", "turns"), [(3, 0), (4, 5)])
def test_estimates_against_the_engine(players: int, turns: int) -> None:
    """A player's draw, then its discard, after ``turns`` decisions of the round (0: the
    first turn, the seat knowing only its hand and the turned-up card), against the engine
    played out from the cards the seat cannot see."""
    game = new_table(players, f"estimates {players}", bets=2)
    rng = random.Random(players)
    game.start_hand()
    cut_and_deal(game, rng)
    bot_turns(game, rng, turns)
    while game.round is not None and game.round.phase != "draw":
        bot_turns(game, rng, 1)
    assert game.in_hand
    for step in range(2):
        if step:
            (first,) = game.to_act()
            game.apply(first, {"kind": "draw", "source": "stock"})
        spot = position(game)
        chosen = game.bot_action(spot.seat, rng)
        verdict = ANALYSER.analyse(position(game, chosen), Effort(1000), random.Random(7))
        for option in verdict.options:
            f = option.figures
            mean, error, win = monte_carlo(game, spot.seat, option.action, 200, rng)
            sigma = math.hypot(f.half_width / Z95, error)
            assert abs(f.ev - mean) <= 4 * sigma + 1e-9, (option, mean, error)
            spread = math.sqrt(0.25 * (1 / (f.samples or 1) + 1 / 200))
            assert abs(f.win - win) <= 4 * spread + 1e-9, (option, win)


def test_a_bot_asking_spends_its_deals_on_the_better_plays() -> None:
    """With no action chosen (a bot asking for its best play) the deals go by halves to the
    better options: every option is told, the best ones with the most deals."""
    game = new_table(4, "narrow", bets=3)
    rng = random.Random(10)
    game.start_hand()
    cut_and_deal(game, rng)
    game.apply(position(game).seat, {"kind": "draw", "source": "stock"})
    verdict = ANALYSER.analyse(position(game), Effort(60), random.Random(1))
    counts = sorted((o.figures.samples or 0) for o in verdict.options)
    assert len(counts) >= 4 and counts[0] == 20 and counts[-1] > 60
    assert sum(counts) <= 60 * len(counts)
    best = max(verdict.options, key=lambda o: o.figures.ev)
    assert best.figures.samples == counts[-1]


# --------------------------------------------------------------------------- random rounds


def test_random_rounds_analysed() -> None:
    """Rounds played by the bot, by random choices, and by a bot that never knocks (long
    rounds, the stock remade), 2 to 6 players, both knock penalties: every decision
    analysed, the seat's knowledge adding up, the chances summing to 1, the chosen action
    among the options."""
    rng = random.Random(8)
    decisions = restocked = 0
    for index in range(20):
        style = ("bot", "random", "patient", "patient")[index % 4]
        game = new_table(
            rng.randint(2, 6),
            f"random {index}",
            bets=rng.randint(1, 3),
            knock_penalty=rng.choice(["lowest", "under_knock_min"]),
            knock_min=rng.choice([21, 25, 28]),
        )
        for _ in range(2):
            if not game.can_start():
                break
            game.start_hand()
            while game.in_hand:
                (seat,) = game.to_act()
                legal = game.legal_actions(seat)
                if style == "random" and rng.random() < 0.3:
                    action = random_action(legal, rng)
                else:
                    action = game.bot_action(seat, rng)
                    if style == "patient" and action["kind"] == "knock":
                        action = {"kind": "draw", "source": "stock"}
                spot = Position(game, seat, legal, action)
                if ANALYSER.decides(spot):
                    assert knowledge(game, seat).consistent
                    verdict = ANALYSER.analyse(spot, Effort(4), rng)
                    assert sum(1 for o in verdict.options if o.action == action) == 1
                    for option in verdict.options:
                        f = option.figures
                        assert f.win + f.tie + f.lose == pytest.approx(1.0) and f.tie == 0
                        assert not f.exact and f.samples == 4
                    decisions += 1
                    restocked += bool(game.round and game.round.restocks)
                game.apply(seat, action)
            game.take_completed()
    assert decisions > 800 and restocked > 30, (decisions, restocked)


def test_positions_differing_only_in_unseen_cards_get_the_same_figures() -> None:
    """The opponents' hands and the stock dealt afresh: the same figures, with the same
    random numbers."""
    rng = random.Random(9)
    checked = 0
    for index in range(8):
        game = new_table(rng.randint(2, 5), f"hidden {index}")
        game.start_hand()
        while game.in_hand:
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            action = game.bot_action(seat, rng)
            spot = Position(game, seat, legal, action)
            if ANALYSER.decides(spot) and rng.random() < 0.3:
                other = resample(copy.deepcopy(game), seat, random.Random(index))
                assert knowledge(other, seat) == knowledge(game, seat)
                mine = ANALYSER.analyse(spot, Effort(20), random.Random(3))
                theirs = ANALYSER.analyse(
                    Position(other, seat, legal, action), Effort(20), random.Random(3)
                )
                assert mine.options == theirs.options
                checked += 1
            game.apply(seat, action)
    assert checked >= 20
