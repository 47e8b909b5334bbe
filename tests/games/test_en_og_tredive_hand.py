"""En og tredive hand values, the coup d'état, the cut's ranks and the default discard
(docs/rules.md §5.3; the source's examples)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest

from app.games.en_og_tredive.bot import (
    best_keep,
    choose_discards,
    default_discard,
    knock_threshold,
    wants_top_discard,
)
from app.games.en_og_tredive.scoring import (
    FULL_DECK,
    card_points,
    cut_rank,
    hand_value,
    is_coup_d_etat,
    suit_value,
)


def test_the_deck_is_52_cards_and_a_joker() -> None:
    assert len(FULL_DECK) == 53 and len(set(FULL_DECK)) == 53
    assert FULL_DECK.count("XX") == 1


@pytest.mark.parametrize(
    ("card", "points"),
    [("AS", 11), ("KH", 10), ("QD", 10), ("JC", 10), ("TS", 10), ("9H", 9), ("2C", 2)],
)
def test_card_points(card: str, points: int) -> None:
    assert card_points(card) == points


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        # the source's examples
        (["AH", "XX", "9H"], 30),  # the joker cannot be a second ace of hearts
        (["KS", "QS", "XX"], 31),  # the joker is the ace
        (["XX", "AS", "KD"], 21),  # either suit makes 21
        # only one suit counts, the best one
        (["AS", "KS", "QS"], 31),
        (["AS", "KS", "9S"], 30),
        (["AS", "KD", "QC"], 11),
        (["7H", "8H", "KD"], 15),
        (["2C", "3D", "4H"], 4),
        (["TS", "JS"], 20),
        (["9D"], 9),
        ([], 0),
    ],
)
def test_hand_values(cards: list[str], value: int) -> None:
    assert hand_value(cards) == value


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        # the joker as every card it may stand for
        (["XX"], 11),  # alone: an ace of any suit
        (["XX", "2H"], 13),  # an ace with the two
        (["XX", "AH"], 21),  # a ten-card: the ace is held
        (["XX", "KH"], 21),  # the ace
        (["XX", "AH", "KH"], 31),  # queen, jack or ten
        (["XX", "KH", "QH"], 31),  # the ace
        (["XX", "TH", "JH"], 31),  # the ace
        (["XX", "AH", "2H"], 23),  # a ten-card beside the ace
        (["XX", "5H", "6H"], 22),  # the ace
        (["XX", "AH", "9D"], 21),  # hearts: ace and a ten-card
        (["XX", "9D", "8D"], 28),  # diamonds: the ace
        (["XX", "KD", "5C"], 21),  # diamonds 21 beats clubs 16
        (["XX", "AS", "AD"], 21),  # the coup d'état counts 21 as a value
    ],
)
def test_joker_values(cards: list[str], value: int) -> None:
    assert hand_value(cards) == value


def brute_value(cards: Sequence[str]) -> int:
    """The rule read literally: the joker becomes each card the hand does not hold in turn,
    and the hand counts its best suit."""
    plain = [card for card in cards if card != "XX"]
    if len(plain) == len(cards):
        return max((sum(card_points(c) for c in plain if c[1] == s) for s in "SHDC"), default=0)
    stand_ins = [card for card in FULL_DECK if card != "XX" and card not in plain]
    return max(brute_value([*plain, card]) for card in stand_ins)


def test_every_hand_with_the_joker_against_the_rule_read_literally() -> None:
    plain = [card for card in FULL_DECK if card != "XX"]
    hands = [[*others, "XX"] for size in range(3) for others in combinations(plain, size)]
    assert len(hands) == 1 + 52 + 1326
    for hand in hands:
        assert hand_value(hand) == brute_value(hand), hand


def test_every_hand_without_the_joker_counts_its_best_suit() -> None:
    plain = [card for card in FULL_DECK if card != "XX"]
    for hand in combinations(plain, 3):
        assert hand_value(hand) == brute_value(hand), hand


def test_suit_value_counts_one_suit() -> None:
    assert suit_value(["AH", "XX", "9H"], "H") == 30
    assert suit_value(["AH", "XX", "9H"], "S") == 11  # the joker alone in spades
    assert suit_value(["AH", "9H"], "S") == 0


@pytest.mark.parametrize(
    ("cards", "coup"),
    [
        (["AS", "AH", "AD"], True),
        (["AC", "AH", "XX"], True),
        (["XX", "AD", "AS"], True),
        (["AS", "AH", "KS"], False),
        (["AS", "XX", "KS"], False),
        (["AS", "AH"], False),
        (["AS", "AH", "AD", "AC"], False),  # never held: four cards are never kept
    ],
)
def test_coup_d_etat(cards: list[str], coup: bool) -> None:
    assert is_coup_d_etat(cards) is coup


def test_cut_ranks_joker_high_then_ace_king_down_to_two() -> None:
    order = ["XX", "AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C", "6S", "5H", "4D", "3C", "2S"]
    ranks = [cut_rank(card) for card in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert cut_rank("KS") == cut_rank("KD")  # suits do not count


def test_default_discard_leaves_the_best_hand() -> None:
    assert default_discard(["KS", "QS", "5H", "AS"]) == ["5H"]  # leaves 31
    assert default_discard(["AS", "AH", "KS", "AD"]) == ["KS"]  # leaves three aces
    assert default_discard(["9S", "4D", "3C", "2H"]) == ["2H"]  # any leaves 9; the least
    assert default_discard(["KS", "QS", "5H"]) == []  # fewer than four: keep them all


def test_bot_goes_for_three_aces() -> None:
    # two aces and a ten of one of their suits: keep them over a better value
    assert sorted(best_keep(["AS", "AH", "KS", "9D"])) == ["AH", "AS", "KS"]
    assert sorted(best_keep(["AS", "AH", "AD", "KS"])) == ["AD", "AH", "AS"]


def test_bot_hides_a_dangerous_discard() -> None:
    # the jack of diamonds no longer counts: it goes under the junk (the source's example)
    assert choose_discards(["KS", "QS", "JD", "4H"], next_must_discard=True) == ["JD", "4H"]
    # when the next player need not discard, the hidden card would soon be the top
    assert choose_discards(["KS", "QS", "JD", "4H"], next_must_discard=False) == ["4H"]
    # nothing to hide it under: the ace goes alone
    assert choose_discards(["KS", "QS", "9S", "AD"], next_must_discard=True) == ["AD"]
    # holding fewer than four after drawing: keep everything
    assert choose_discards(["KS", "QS", "9S"], next_must_discard=True) == []


def test_bot_takes_a_helpful_discard_only() -> None:
    assert wants_top_discard(["KS", "QS", "5H"], "AS")
    assert not wants_top_discard(["KS", "QS", "5H"], "4D")
    assert not wants_top_discard(["KS", "QS", "5H"], None)


def test_knock_threshold() -> None:
    assert knock_threshold(21, "lowest", 0) == 27
    assert knock_threshold(21, "lowest", 4) == 23
    assert knock_threshold(21, "lowest", 20) == 21
    assert knock_threshold(25, "under_knock_min", 0) == 25
