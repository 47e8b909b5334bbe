"""Cards, shoes and the provably fair shuffle (docs/rules.md §0); the ace rules; legal-action specs.

The shuffle is checked three ways: against a pinned regression vector, against an independent
re-implementation written from :mod:`app.games.core.cards`' docstring alone (so the documented
algorithm is the one that runs), and by its properties (a permutation, fixed by the seed).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.core.actions import (
    action_fits,
    amount_range,
    legal,
    one_of,
    random_action,
    subset_of,
)
from app.games.core.cards import (
    JOKER,
    RANKS,
    SUITS,
    Shuffle,
    Stock,
    canonical_shoe,
    commitment,
    deck,
    fixed_seeds,
    is_red,
    is_valid_card,
    rank,
    shuffled,
    suit,
)
from app.games.core.options import (
    OptionError,
    bool_option,
    choice_option,
    int_option,
    parse_options,
)
from app.games.core.values import ace_sums, best_total, totals

SEED = bytes(range(32))
"""A fixed seed for the regression vector: 00 01 02 … 1f."""

FIRST_TEN_OF_ONE_DECK = ["KD", "3C", "AH", "7H", "8S", "7S", "QC", "5C", "4H", "4D"]
"""``shuffled(canonical_shoe(1), SEED)[:10]``, computed once and pinned: a change to the
algorithm (or to the canonical order) would make every stored hand impossible to re-deal."""


# --------------------------------------------------------------------------- card codes


def test_card_codes_rank_suit_and_colour() -> None:
    assert rank("TH") == "T" and suit("TH") == "H"
    assert rank(JOKER) == "X" and suit(JOKER) == "X"
    assert [is_red(c) for c in ("AH", "2D", "KS", "QC")] == [True, True, False, False]
    for code in ("AS", "TH", "KD", "2C", "XX"):
        assert is_valid_card(code), code
    for code in ("", "A", "1S", "AX", "as", "10H", "ASS", None, 12, ["AS"], "XJ"):
        assert not is_valid_card(code), code


def test_a_deck_is_in_canonical_order() -> None:
    cards = deck()
    assert len(cards) == 52 and len(set(cards)) == 52
    assert cards[:3] == ["AS", "2S", "3S"]
    assert cards[12:14] == ["KS", "AH"]
    assert cards[-1] == "KC"
    assert cards == [r + s for s in SUITS for r in RANKS]
    assert deck(jokers=2)[-2:] == [JOKER, JOKER] and len(deck(jokers=2)) == 54


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_a_shoe_holds_n_copies_of_each_card_and_the_jokers_last(decks: int, jokers: int) -> None:
    shoe = canonical_shoe(decks, jokers=jokers)
    assert len(shoe) == 52 * decks + jokers
    counts = Counter(shoe)
    assert all(counts[card] == decks for card in deck())
    assert counts[JOKER] == jokers
    assert shoe[: 52 * decks] == deck() * decks
    assert shoe[52 * decks :] == [JOKER] * jokers


# --------------------------------------------------------------------------- the shuffle


def documented_shuffle(cards: list[str], seed: bytes) -> list[str]:
    """The shuffle written again from the module docstring of app.games.core.cards, steps 2 to 4,
    sharing no code with it."""

    def numbers() -> Any:
        block = 0
        while True:
            digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
            for i in range(4):
                yield int.from_bytes(digest[8 * i : 8 * i + 8], "big")
            block += 1

    stream = numbers()
    out = list(cards)
    for j in range(len(out) - 1, 0, -1):
        span = j + 1
        while True:
            r = next(stream)
            if r < 2**64 - (2**64 % span):
                break
        out[j], out[r % span] = out[r % span], out[j]
    return out


def test_the_shuffle_matches_the_pinned_vector() -> None:
    assert shuffled(canonical_shoe(1), SEED)[:10] == FIRST_TEN_OF_ONE_DECK


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (2, 0), (6, 0), (1, 2), (8, 1)])
@pytest.mark.parametrize("seed_text", [b"a", b"b", b"table31"])
def test_the_shuffle_is_the_documented_algorithm(decks: int, jokers: int, seed_text: bytes) -> None:
    seed = hashlib.sha256(seed_text).digest()
    cards = canonical_shoe(decks, jokers=jokers)
    assert shuffled(cards, seed) == documented_shuffle(cards, seed)


def test_the_documented_algorithm_reproduces_the_pinned_vector() -> None:
    assert documented_shuffle(canonical_shoe(1), SEED)[:10] == FIRST_TEN_OF_ONE_DECK


@given(st.binary(min_size=32, max_size=32), st.integers(1, 8), st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_the_shuffle_is_a_deterministic_permutation(seed: bytes, decks: int, jokers: int) -> None:
    cards = canonical_shoe(decks, jokers=jokers)
    order = shuffled(cards, seed)
    assert Counter(order) == Counter(cards)
    assert order == shuffled(cards, seed)
    assert cards == canonical_shoe(decks, jokers=jokers), "the input must not be changed"


def test_different_seeds_give_different_orders() -> None:
    cards = canonical_shoe(1)
    orders = {tuple(shuffled(cards, hashlib.sha256(bytes([i])).digest())) for i in range(50)}
    assert len(orders) == 50
    assert tuple(cards) not in orders


def test_the_shuffle_is_not_biased_towards_the_start() -> None:
    """Over 400 seeds the ace of spades lands in each quarter of the deck about equally."""
    quarters = Counter(
        shuffled(canonical_shoe(1), hashlib.sha256(i.to_bytes(4, "big")).digest()).index("AS") // 13
        for i in range(400)
    )
    assert all(60 <= quarters[q] <= 140 for q in range(4)), quarters


@pytest.mark.parametrize("length", [0, 16, 31, 33, 64])
def test_a_seed_must_be_32_bytes(length: int) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        shuffled(canonical_shoe(1), b"\x01" * length)


def test_tiny_inputs_shuffle_without_drawing() -> None:
    assert shuffled([], SEED) == []
    assert shuffled(["AS"], SEED) == ["AS"]


def test_commitment_is_sha256_hex_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    shuffle = Shuffle.of(canonical_shoe(1), SEED)
    assert shuffle.commit == commitment(SEED)
    assert shuffle.order == shuffled(canonical_shoe(1), SEED)


def test_a_shuffle_round_trips_through_json() -> None:
    shuffle = Shuffle.of(canonical_shoe(2), SEED)
    data = shuffle.to_json()
    assert data == {"seed": SEED.hex(), "commit": commitment(SEED), "source": canonical_shoe(2)}
    again = Shuffle.from_json(data)
    assert again.order == shuffle.order and again.seed == SEED and again.commit == shuffle.commit


def test_fixed_seeds_give_the_seeds_then_derived_ones() -> None:
    source = fixed_seeds(SEED, b"\x02" * 32)
    first, second, third, fourth = (source() for _ in range(4))
    assert (first, second) == (SEED, b"\x02" * 32)
    assert len(third) == 32 and len(fourth) == 32 and third != fourth


# --------------------------------------------------------------------------- the stock


def test_a_stock_draws_from_the_top_and_puts_under() -> None:
    stock = Stock(cards=["AS", "2S", "3S"])
    assert stock.draw() == "AS"
    assert len(stock) == 2
    stock.put_bottom(["KD", "QD"])
    assert stock.cards == ["2S", "3S", "KD", "QD"]
    assert [stock.draw() for _ in range(4)] == ["2S", "3S", "KD", "QD"]
    with pytest.raises(IndexError):
        stock.draw()


def test_a_stock_round_trips_through_json() -> None:
    shuffle = Shuffle.of(canonical_shoe(1), SEED)
    stock = Stock(cards=list(shuffle.order), shuffle=shuffle)
    for _ in range(5):
        stock.draw()
    stock.put_bottom(["AS"])
    data = stock.to_json()
    again = Stock.from_json(data)
    assert again.cards == stock.cards
    assert again.shuffle is not None
    assert again.shuffle.commit == commitment(SEED) and again.shuffle.seed == SEED
    assert again.to_json() == data
    empty = Stock.from_json(Stock().to_json())
    assert empty.cards == [] and empty.shuffle is None


# --------------------------------------------------------------------------- ace rules (§0)


def best(cards: str, rule: str) -> int | None:
    return best_total(cards.split(), rule)


@pytest.mark.parametrize(
    ("cards", "rule", "all_totals", "best_value"),
    [
        # at_most_one_low: at most one ace counts 1
        ("AS", "at_most_one_low", [1, 11], 11),
        ("AS AD", "at_most_one_low", [12, 22], 22),
        ("AS AD AH", "at_most_one_low", [23, 33], 23),
        ("AS AD AH AC", "at_most_one_low", [34, 44], None),
        ("AS AD 9C", "at_most_one_low", [21, 31], 31),
        # at_least_one_high: one ace is 11, the others 1 or 11
        ("AS AD", "at_least_one_high", [12, 22], 22),
        ("AS AD AH", "at_least_one_high", [13, 23, 33], 23),
        ("AS AD 9C 3H", "at_least_one_high", [24, 34], 24),
        ("AS KD 7H", "at_least_one_high", [18, 28], 28),
        # alternating: 1, 11, 1, 11 in turn
        ("AS", "alternating", [1, 11], 11),
        ("AS AD", "alternating", [12], 12),
        ("AS AD AH", "alternating", [13, 23], 23),
        ("AS AD AH AC", "alternating", [24], 24),
        ("AS AD AH KC", "alternating", [23, 33], 23),
        # no aces: one total
        ("KS QH JD", "at_most_one_low", [30], 30),
        ("KS QH 2D", "alternating", [22], 22),
        ("KS QH 9D 5C", "at_least_one_high", [34], None),
    ],
)
def test_ace_rules(cards: str, rule: str, all_totals: list[int], best_value: int | None) -> None:
    assert totals(cards.split(), rule) == all_totals
    assert best(cards, rule) == best_value


def test_ace_rules_differ_where_rules_md_says() -> None:
    three = "AS AD AH"
    assert 13 not in totals(three.split(), "at_most_one_low")
    assert 13 in totals(three.split(), "at_least_one_high")
    assert 13 in totals(three.split(), "alternating")
    # with A-A-A and a ten, only the rules allowing two low aces stay under 31
    assert best("AS AD AH KC", "at_most_one_low") is None
    assert best("AS AD AH KC", "at_least_one_high") == 23
    assert best("AS AD AH KC", "alternating") == 23
    # two aces can never make 2: at least one is 11 in every rule
    for rule in ("at_most_one_low", "at_least_one_high", "alternating"):
        assert min(ace_sums(2, rule)) == 12
    assert ace_sums(0, "alternating") == {0}
    with pytest.raises(ValueError):
        ace_sums(2, "all_low")


def test_best_total_respects_the_limit() -> None:
    assert best_total(["AS", "KD"], "at_most_one_low", limit=21) == 21
    assert best_total(["AS", "AD", "5D"], "at_most_one_low", limit=21) == 17
    assert best_total(["AS", "AD", "KD"], "at_most_one_low", limit=21) is None
    assert best_total(["KS", "QD", "2C"], "at_most_one_low", limit=21) is None


# --------------------------------------------------------------------------- legal actions


BET = [legal("bet", amount=amount_range(10, 50)), legal("fold")]


@pytest.mark.parametrize(
    ("action", "fits"),
    [
        ({"kind": "bet", "amount": 10}, True),
        ({"kind": "bet", "amount": 50}, True),
        ({"kind": "bet", "amount": 9}, False),
        ({"kind": "bet", "amount": 51}, False),
        ({"kind": "bet", "amount": True}, False),
        ({"kind": "bet", "amount": 20.0}, False),
        ({"kind": "bet", "amount": "20"}, False),
        ({"kind": "bet", "amount": None}, False),
        ({"kind": "bet", "amount": [20]}, False),
        ({"kind": "bet"}, False),
        ({"kind": "bet", "amount": 20, "extra": 1}, False),
        ({"kind": "fold"}, True),
        ({"kind": "fold", "amount": 20}, False),
        ({"kind": "hit"}, False),
        ({"amount": 20}, False),
        ({}, False),
    ],
)
def test_action_fits_a_range(action: dict[str, Any], fits: bool) -> None:
    assert action_fits(action, BET) is fits


def test_a_range_of_one_and_bool_bounds() -> None:
    only = [legal("bet", amount=amount_range(5, 5))]
    assert action_fits({"kind": "bet", "amount": 5}, only)
    assert not action_fits({"kind": "bet", "amount": 4}, only)
    assert not action_fits({"kind": "bet", "amount": 6}, only)
    one = [legal("bet", amount=amount_range(0, 1))]
    assert action_fits({"kind": "bet", "amount": 1}, one)
    assert not action_fits({"kind": "bet", "amount": True}, one)
    assert not action_fits({"kind": "bet", "amount": False}, one)


def test_one_of_is_type_exact() -> None:
    ints = [legal("pick", value=one_of([1, 2]))]
    assert action_fits({"kind": "pick", "value": 1}, ints)
    assert not action_fits({"kind": "pick", "value": True}, ints)
    assert not action_fits({"kind": "pick", "value": 1.0}, ints)
    assert not action_fits({"kind": "pick", "value": "1"}, ints)
    assert not action_fits({"kind": "pick", "value": 3}, ints)
    bools = [legal("insure", yes=one_of([True]))]
    assert action_fits({"kind": "insure", "yes": True}, bools)
    assert not action_fits({"kind": "insure", "yes": 1}, bools)
    cards = [legal("keep", card=one_of(["AS", "KD"]))]
    assert action_fits({"kind": "keep", "card": "KD"}, cards)
    assert not action_fits({"kind": "keep", "card": "kd"}, cards)
    assert not action_fits({"kind": "keep", "card": ["KD"]}, cards)


DISCARD = [legal("discard", cards=subset_of(["AS", "KD", "7H", "2C"], 1, 2))]


@pytest.mark.parametrize(
    ("cards", "fits"),
    [
        (["AS"], True),
        (["7H", "AS"], True),
        (["AS", "7H"], True),
        ([], False),
        (["AS", "KD", "7H"], False),
        (["AS", "AS"], False),
        (["QS"], False),
        (["AS", "QS"], False),
        ("AS", False),
        (("AS",), False),
        ({"AS": 1}, False),
        (None, False),
        ([["AS"]], False),
    ],
)
def test_subset_of(cards: Any, fits: bool) -> None:
    assert action_fits({"kind": "discard", "cards": cards}, DISCARD) is fits


def test_subset_of_is_type_exact() -> None:
    numbers = [legal("choose", rows=subset_of([0, 1, 2], 0, 3))]
    assert action_fits({"kind": "choose", "rows": []}, numbers)
    assert action_fits({"kind": "choose", "rows": [2, 0]}, numbers)
    assert not action_fits({"kind": "choose", "rows": [False]}, numbers)
    assert not action_fits({"kind": "choose", "rows": [1, True]}, numbers)
    assert not action_fits({"kind": "choose", "rows": [1.0]}, numbers)


def test_an_action_may_fit_any_template_of_its_kind() -> None:
    templates = [
        legal("stake", chance=one_of(["rouge"]), amount=amount_range(10, 20)),
        legal("stake", chance=one_of(["noir"]), amount=amount_range(30, 40)),
    ]
    assert action_fits({"kind": "stake", "chance": "noir", "amount": 35}, templates)
    assert action_fits({"kind": "stake", "chance": "rouge", "amount": 15}, templates)
    assert not action_fits({"kind": "stake", "chance": "rouge", "amount": 35}, templates)
    assert not action_fits({"kind": "stake", "chance": "noir"}, templates)
    assert not action_fits({"kind": "stake", "amount": 15}, [])


PARAM_SPECS = st.one_of(
    st.tuples(st.integers(-5, 100), st.integers(0, 50)).map(
        lambda t: amount_range(t[0], t[0] + t[1])
    ),
    st.lists(
        st.one_of(st.integers(-3, 30), st.booleans(), st.sampled_from(["AS", "KD", "x"])),
        min_size=1,
        max_size=6,
    ).map(one_of),
    st.lists(st.sampled_from(deck()), min_size=0, max_size=8, unique=True).flatmap(
        lambda pool: st.tuples(st.integers(0, len(pool)), st.integers(0, len(pool))).map(
            lambda t: subset_of(pool, min(t), max(t))
        )
    ),
)
TEMPLATES = st.lists(
    st.builds(
        lambda kind, params: legal(kind, **params),
        st.sampled_from(["bet", "hit", "stand", "discard", "stake"]),
        st.dictionaries(st.sampled_from(["amount", "cards", "card", "chance"]), PARAM_SPECS),
    ),
    min_size=1,
    max_size=4,
)


@given(TEMPLATES, st.integers(0, 2**32))
@settings(max_examples=300, deadline=None)
def test_random_action_always_fits_its_templates(templates: list[Any], seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5):
        action = random_action(templates, rng)
        assert action_fits(action, templates), (action, templates)
        # one more key never fits (exact both ways)
        assert not action_fits({**action, "surplus": 1}, templates)


def test_random_action_needs_a_template() -> None:
    with pytest.raises(ValueError):
        random_action([], random.Random(1))


# --------------------------------------------------------------------------- options


SPECS = [
    int_option("decks", 2, 1, 8, "decks"),
    int_option("max_bet", None, 1, 100, "max", nullable=True),
    bool_option("heath", False, "heath"),
    choice_option("ace_rule", "at_most_one_low", ("at_most_one_low", "alternating"), "aces"),
]


def test_parse_options_fills_defaults() -> None:
    assert parse_options(SPECS, None) == {
        "decks": 2,
        "max_bet": None,
        "heath": False,
        "ace_rule": "at_most_one_low",
    }
    assert parse_options(SPECS, {"decks": 8, "max_bet": 100, "heath": True})["decks"] == 8


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"deck": 2}, "deck"),
        ({"decks": 0}, "decks"),
        ({"decks": 9}, "decks"),
        ({"decks": "2"}, "decks"),
        ({"decks": 2.0}, "decks"),
        ({"decks": True}, "decks"),
        ({"decks": None}, "decks"),
        ({"max_bet": 0}, "max_bet"),
        ({"max_bet": "none"}, "max_bet"),
        ({"heath": 1}, "heath"),
        ({"heath": "true"}, "heath"),
        ({"ace_rule": "ALTERNATING"}, "ace_rule"),
        ({"ace_rule": None}, "ace_rule"),
    ],
)
def test_parse_options_errors_name_the_field(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(OptionError) as caught:
        parse_options(SPECS, raw)
    assert caught.value.field == field
    assert field in caught.value.message
