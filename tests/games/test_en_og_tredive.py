"""En og tredive rules (docs/rules.md §5) on stacked decks.

Three players sit in seats 0, 1 and 2 unless a test says otherwise; seat 0 deals the first
round, so seat 2 (the dealer's right) cuts and seat 1 (the dealer's left) plays first.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.core.actions import action_fits
from app.games.core.cards import fixed_seeds
from app.games.core.options import OptionError
from app.games.en_og_tredive.engine import EnOgTredive
from app.games.en_og_tredive.scoring import FULL_DECK
from app.simulate import simulate
from tests.games.test_en_og_tredive_helpers import (
    act,
    all_cards,
    assert_no_leak,
    bets_of,
    deal,
    stack,
    start,
    table,
    turn,
)

JUNK = ["2S", "3S", "7H", "8C", "8S", "7S", "6D", "4C", "6H", "8D"]
"""Stock cards that the tests draw and throw straight back."""


def kinds(game: EnOgTredive) -> list[str]:
    return [event["kind"] for event in game.take_log()]


def stir(game: EnOgTredive, *seats: int) -> None:
    """Each seat in turn draws from the stock and discards the card it drew."""
    for seat in seats:
        act(game, seat, {"kind": "draw", "source": "stock"})
        assert game.round is not None
        act(game, seat, {"kind": "discard", "cards": [game.round.hands[seat][-1]]})


# ----------------------------------------------------------------- options and the match


def test_options_and_defaults() -> None:
    game = table()
    assert game.options == {
        "start": "auto",  # the table's, common to every game
        "approval": False,  # the table's too (seats by approval)
        "bet_unit": 10,
        "bets": 3,
        "knock_min": 21,
        "knock_penalty": "lowest",
        "turn_seconds": 30,
        "time_bank_seconds": 30,
    }
    assert game.max_seats == 8 and game.MIN_PLAYERS == 2
    assert game.buy_in_limits() == (30, 3000)
    with pytest.raises(OptionError):
        EnOgTredive({"knock_penalty": "highest"})
    with pytest.raises(OptionError):
        EnOgTredive({"bets": 0})


def test_a_match_starts_with_each_players_bets_in_front_of_them() -> None:
    game = table(players=3, bet_unit=5, bets=4)
    game.sit(3, 19)  # cannot put up 4 × 5
    start(game)
    assert game.match.seats == [0, 1, 2]
    assert bets_of(game) == {0: 4, 1: 4, 2: 4, 3: 0}
    assert [game.stack(seat) for seat in range(4)] == [980, 980, 980, 19]
    assert {t.reason for t in game.transfers} == {"bets put up"}
    assert game.balances.get("pot", 0) == 0
    assert game.view(None)["seats"][3]["role"] == "waiting"
    assert game.round is not None and 3 not in game.round.hands


def test_a_match_needs_two_players_who_can_put_up_their_bets() -> None:
    game = table(players=1)
    assert not game.can_start()
    game.sit(5, 29)
    assert not game.can_start()
    game.add_chips(5, 1)
    assert game.can_start()


# ----------------------------------------------------------------- the cut for the first deal


def test_highest_cut_deals_and_the_joker_is_high() -> None:
    game = table()
    stack(game, ["5C", "XX", "AS"])
    game.start_hand()
    assert game.match.dealer == 1
    assert game.view(None)["cut"] == {
        "draws": [
            {"seat": 0, "cards": ["5C"]},
            {"seat": 1, "cards": ["XX"]},
            {"seat": 2, "cards": ["AS"]},
        ],
        "dealer": 1,
    }
    log = game.take_log()
    cuts = [(e["seat"], e["card"]) for e in log if e["kind"] == "cut_for_deal"]
    assert cuts == [(0, "5C"), (1, "XX"), (2, "AS")]
    # the cut's cards are gathered and the dealer shuffles the whole deck for the round
    assert [e["kind"] for e in log].count("shuffle") == 1
    assert sorted(game.stock.cards) == sorted(FULL_DECK)


def test_tied_highest_cut_again() -> None:
    game = table()
    stack(game, ["KH", "2C", "KD", "3S", "9D"])
    game.start_hand()
    assert game.match.dealer == 2
    log = game.take_log()
    assert [e["seats"] for e in log if e["kind"] == "cut_tie"] == [[0, 2]]
    assert [e["seat"] for e in log if e["kind"] == "cut_for_deal"] == [0, 1, 2, 0, 2]
    assert game.match.cut is not None and game.match.cut["draws"][2]["cards"] == ["KD", "9D"]


# ----------------------------------------------------------------- the cut, the deal, the turn-up


def test_the_player_to_the_dealers_right_cuts_or_knocks() -> None:
    game = table()
    start(game, dealer=0)
    assert game.to_act() == {2}
    assert game.legal_actions(2) == [
        {"kind": "cut", "params": {"position": {"min": 1, "max": 52}}},
        {"kind": "knock_deck", "params": {}},
    ]
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []
    assert game.view(None)["cutter"] == 2 and game.view(None)["phase"] == "cut"


def test_a_cut_moves_the_top_cards_under_and_the_dealer_chooses_the_pattern() -> None:
    game = table()
    start(game)
    stack(game, [])  # canonical order: AS 2S 3S ...
    act(game, 2, {"kind": "cut", "position": 10})
    assert game.stock.cards[0] == "JS" and game.stock.cards[-1] == "TS"
    assert game.to_act() == {0}
    assert game.legal_actions(0) == [
        {"kind": "deal", "params": {"pattern": {"one_of": ["1-1-1", "2-1", "1-2"]}}}
    ]
    act(game, 0, {"kind": "deal", "pattern": "1-1-1"})
    assert game.round is not None and game.round.hands[1][0] == "JS"


@pytest.mark.parametrize(
    ("pattern", "hands"),
    [
        ("1-1-1", {1: ["AS", "4S", "7S"], 2: ["2S", "5S", "8S"], 0: ["3S", "6S", "9S"]}),
        ("2-1", {1: ["AS", "2S", "7S"], 2: ["3S", "4S", "8S"], 0: ["5S", "6S", "9S"]}),
        ("1-2", {1: ["AS", "4S", "5S"], 2: ["2S", "6S", "7S"], 0: ["3S", "8S", "9S"]}),
    ],
)
def test_dealing_one_or_two_at_a_time_from_the_dealers_left(
    pattern: str, hands: dict[int, list[str]]
) -> None:
    game = table()
    start(game)
    act(game, 2, {"kind": "cut", "position": 1})
    stack(game, [])
    act(game, 0, {"kind": "deal", "pattern": pattern})
    r = game.round
    assert r is not None
    assert r.hands == hands
    assert r.pile == ["TS"]  # the next card turned up starts the discard pile
    assert game.to_act() == {1}  # play starts at the dealer's left


def test_three_at_a_time_after_a_knock_on_the_deck() -> None:
    game = table()
    start(game)
    stack(game, [])
    act(game, 2, {"kind": "knock_deck"})
    r = game.round
    assert r is not None
    assert r.hands == {1: ["AS", "2S", "3S"], 2: ["4S", "5S", "6S"], 0: ["7S", "8S", "9S"]}
    assert r.pile == ["TS"] and r.pattern == "3" and r.deck_cut is None
    assert game.to_act() == {1}
    log = kinds(game)
    assert "knock_deck" in log and "cut" not in log


def test_the_deal_moves_to_the_left() -> None:
    game = table()
    start(game, dealer=1)
    deal(game, {2: ["AS", "KS", "5H"], 0: JUNK[:3], 1: JUNK[3:6]}, "9C", ["QS"])
    assert game.round is not None and game.round.cutter == 0
    turn(game, 2, "stock", ["5H"])  # 31
    start(game)
    assert game.match.dealer == 2 and game.to_act() == {1}
    deal(game, {0: ["AS", "KS", "5H"], 1: JUNK[:3], 2: JUNK[3:6]}, "9C", ["QS"])
    turn(game, 0, "stock", ["5H"])
    start(game)
    assert game.match.dealer == 0


# ----------------------------------------------------------------- a turn


def test_draw_from_the_stock_or_the_top_discard_then_discard() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C")
    assert game.legal_actions(1) == [
        {"kind": "draw", "params": {"source": {"one_of": ["stock", "discard"]}}}
    ]
    act(game, 1, {"kind": "draw", "source": "discard"})
    r = game.round
    assert r is not None and r.hands[1] == ["KS", "QS", "5H", "9C"] and r.pile == []
    # holding four: at least one card, at most all four, in a chosen order
    assert game.legal_actions(1) == [
        {
            "kind": "discard",
            "params": {"cards": {"subset_of": ["KS", "QS", "5H", "9C"], "min": 1, "max": 4}},
        }
    ]
    assert not action_fits({"kind": "discard", "cards": []}, game.legal_actions(1))
    act(game, 1, {"kind": "discard", "cards": ["9C"]})  # the card just taken may go back
    assert r.pile == ["9C"] and game.to_act() == {2}


def test_hidden_discards_are_seen_by_all_but_only_the_top_can_be_taken() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C")
    turn(game, 1, "discard", ["9C", "5H"])  # 9C hidden under 5H
    view = game.view(0)
    assert [c["card"] for c in view["discard"]] == ["9C", "5H"]
    assert all(c["up"] for c in view["discard"])
    assert view["seats"][1]["hands"][0]["size"] == 2  # hand sizes are public
    act(game, 2, {"kind": "draw", "source": "discard"})
    r = game.round
    assert r is not None and r.hands[2][-1] == "5H" and r.pile == ["9C"]


def test_a_player_holding_fewer_than_four_need_not_discard() -> None:
    game = table()
    start(game)
    hands = {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}
    deal(game, hands, "9C", ["AD", *JUNK])
    turn(game, 1, "stock", ["AD", "5H"])  # holds KS QS
    stir(game, 2, 0)
    act(game, 1, {"kind": "draw", "source": "stock"})
    legal = game.legal_actions(1)
    assert legal[0]["params"]["cards"]["min"] == 0 and legal[0]["params"]["cards"]["max"] == 3
    act(game, 1, {"kind": "discard", "cards": []})
    r = game.round
    assert r is not None and len(r.hands[1]) == 3


def test_a_player_may_discard_every_card() -> None:
    game = table()
    start(game)
    hands = {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}
    deal(game, hands, "9C", ["AD"])
    turn(game, 1, "stock", ["AD", "KS", "QS", "5H"])
    r = game.round
    assert r is not None and r.hands[1] == [] and r.pile[-1] == "5H"
    assert game.view(0)["seats"][1]["hands"][0]["cards"] == []


# ----------------------------------------------------------------- 31 and the coup d'état


def test_31_after_discarding_ends_the_round_and_the_others_pay_one_bet() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C", ["AS"])
    game.take_log()
    turn(game, 1, "stock", ["5H"])
    assert not game.in_hand
    assert bets_of(game) == {0: 2, 1: 3, 2: 2} and game.balances["pot"] == 20
    done = game.take_completed()
    assert done is not None
    assert done.summary["ending"] == "31" and done.summary["winner"] == 1
    assert done.summary["owed"] == [0, 2] and done.summary["match_winner"] is None
    assert [(t.source, t.target, t.amount) for t in done.transfers if t.reason == "bet paid"] == [
        ("bets:0", "pot", 10),
        ("bets:2", "pot", 10),
    ]
    shows = [e for e in done.log if e["kind"] == "show"]
    assert shows == [{"kind": "show", "seat": 1, "cards": ["KS", "QS", "AS"], "value": 31}]
    # the 31 is shown to everyone; the other hands stay hidden
    spectator = game.view(None)
    assert [c["card"] for c in spectator["seats"][1]["hands"][0]["cards"]] == ["KS", "QS", "AS"]
    assert [c["card"] for c in spectator["seats"][2]["hands"][0]["cards"]] == [None] * 3
    assert spectator["phase"] == "between_rounds"
    assert "Seat 1 shows 31" in spectator["status"]


def test_joker_makes_31() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C", ["XX"])
    turn(game, 1, "stock", ["5H"])
    done = game.take_completed()
    assert done is not None and done.summary["ending"] == "31"


def test_a_coup_d_etat_wins_the_pot_and_every_bet() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C", ["AS"])
    turn(game, 1, "stock", ["5H"])  # 31: seats 0 and 2 pay
    start(game)  # dealer 1; seat 2 plays first
    deal(game, {2: ["AS", "AH", "5C"], 0: JUNK[:3], 1: JUNK[3:6]}, "9C", ["XX"])
    turn(game, 2, "stock", ["5C"])
    done = game.take_completed()
    assert done is not None and done.summary["ending"] == "coup_d_etat"
    assert done.summary["match_winner"] == 2 and done.summary["out"] == [0, 1]
    assert game.stack(2) == 970 + 20 + 20 + 30 + 20  # pot, seat 0's, seat 1's and own bets
    assert game.stack(0) == 970 and game.stack(1) == 970
    assert game.balances["pot"] == 0 and bets_of(game) == {0: 0, 1: 0, 2: 0}
    assert sum(game.balances.values()) == 3000
    assert game.match.seats == [] and game.view(None)["phase"] == "between_matches"
    assert game.can_leave(0) and game.can_start()
    # the next hand starts a new match, with a new cut for the deal
    game.start_hand()
    assert game.match.number == 2 and bets_of(game) == {0: 3, 1: 3, 2: 3}


def test_three_aces_is_a_coup_d_etat() -> None:
    game = table()
    start(game)
    deal(game, {1: ["AS", "AH", "5C"], 2: JUNK[:3], 0: JUNK[3:6]}, "9C", ["AD"])
    turn(game, 1, "stock", ["5C"])
    done = game.take_completed()
    assert done is not None and done.summary["ending"] == "coup_d_etat"
    assert game.stack(1) == 1060


def test_a_dealt_31_is_shown_at_the_holders_first_turn_instead_of_drawing() -> None:
    game = table()
    start(game)
    deal(game, {1: JUNK[:3], 2: ["AS", "KS", "QS"], 0: JUNK[3:6]}, "9C")
    game.take_log()
    assert game.in_hand and game.to_act() == {1}  # not yet: seat 2 has not had a turn
    stir(game, 1)
    assert not game.in_hand
    done = game.take_completed()
    assert done is not None
    assert done.summary["winner"] == 2 and done.summary["dealt"] is True
    assert not any(e["kind"] == "draw" and e.get("seat") == 2 for e in done.log)
    assert bets_of(game) == {0: 2, 1: 2, 2: 3}


def test_a_dealt_coup_d_etat_wins_at_once_when_its_holder_plays_first() -> None:
    game = table()
    start(game)
    deal(game, {1: ["AS", "XX", "AD"], 2: JUNK[:3], 0: JUNK[3:6]}, "9C")
    done = game.take_completed()
    assert done is not None and done.summary["ending"] == "coup_d_etat"
    assert done.summary["dealt"] is True and game.stack(1) == 1060


# ----------------------------------------------------------------- knocking


def knock_table(**options: Any) -> EnOgTredive:
    """Seat 1 holds 29, seat 2 holds 4, seat 0 holds 13; the stock is junk."""
    game = table(**options)
    start(game)
    hands = {1: ["KS", "QS", "9S"], 2: ["2C", "3D", "4H"], 0: ["6C", "7C", "8H"]}
    deal(game, hands, "5D", JUNK)
    return game


def test_no_knock_until_everyone_has_had_a_turn() -> None:
    game = knock_table()
    assert [a["kind"] for a in game.legal_actions(1)] == ["draw"]
    stir(game, 1, 2)
    assert [a["kind"] for a in game.legal_actions(0)] == ["draw"]  # 13 is under 21
    stir(game, 0)
    assert [a["kind"] for a in game.legal_actions(1)] == ["draw", "knock"]
    assert game.view(None)["match"]["knocking"] is True


def test_knock_min_is_the_least_to_knock_on() -> None:
    game = knock_table(knock_min=30)
    stir(game, 1, 2, 0)
    assert [a["kind"] for a in game.legal_actions(1)] == ["draw"]


def test_after_a_knock_every_other_player_has_one_more_turn_then_the_lowest_pays() -> None:
    game = knock_table()
    stir(game, 1, 2, 0)
    game.take_log()
    act(game, 1, {"kind": "knock"})
    assert game.to_act() == {2} and game.view(None)["knocker"] == 1
    assert "knocked" in game.view(None)["status"]
    stir(game, 2)
    assert [a["kind"] for a in game.legal_actions(0)] == ["draw"]  # nobody knocks twice
    stir(game, 0)
    assert not game.in_hand
    done = game.take_completed()
    assert done is not None and done.summary["ending"] == "knock"
    assert done.summary["knocker"] == 1 and done.summary["owed"] == [2]
    assert bets_of(game) == {0: 3, 1: 3, 2: 2}
    # every hand is shown at a knock's end
    assert sorted(e["seat"] for e in done.log if e["kind"] == "show") == [0, 1, 2]
    assert all(c["up"] for seat in game.view(None)["seats"] for c in seat["hands"][0]["cards"])


def test_a_knocker_with_the_lowest_hand_pays_two() -> None:
    game = table(knock_min=15)
    start(game)
    hands = {1: ["6S", "5S", "4S"], 2: ["KD", "QD", "9D"], 0: ["AH", "KH", "9H"]}
    deal(game, hands, "5D", JUNK)
    stir(game, 1, 2, 0)
    act(game, 1, {"kind": "knock"})
    stir(game, 2, 0)
    assert bets_of(game) == {0: 3, 1: 1, 2: 3} and game.balances["pot"] == 20


def test_tied_lowest_hands_all_pay() -> None:
    game = table()
    start(game)
    hands = {1: ["KS", "QS", "9S"], 2: ["2C", "3C", "4H"], 0: ["2H", "3H", "4D"]}
    deal(game, hands, "5D", JUNK)
    stir(game, 1, 2, 0)
    act(game, 1, {"kind": "knock"})
    stir(game, 2, 0)
    assert bets_of(game) == {0: 2, 1: 3, 2: 2}


def test_under_knock_min_every_hand_below_it_pays_one() -> None:
    game = knock_table(knock_penalty="under_knock_min", knock_min=14)
    stir(game, 1, 2, 0)
    act(game, 1, {"kind": "knock"})
    stir(game, 2, 0)
    assert bets_of(game) == {0: 2, 1: 3, 2: 2}  # 13 and 4 are under 14


def test_under_knock_min_nobody_pays_when_every_hand_reaches_it() -> None:
    game = knock_table(knock_penalty="under_knock_min", knock_min=4)
    stir(game, 1, 2, 0)
    act(game, 1, {"kind": "knock"})
    stir(game, 2, 0)
    assert bets_of(game) == {0: 3, 1: 3, 2: 3} and not game.in_hand


def test_a_31_after_a_knock_ends_the_round_at_once_and_the_knocker_pays() -> None:
    game = table()
    start(game)
    hands = {1: ["KS", "QS", "9S"], 2: ["AD", "KD", "4H"], 0: ["6C", "7C", "8H"]}
    deal(game, hands, "5D", [*JUNK[:3], "QD", *JUNK[3:]])
    stir(game, 1, 2, 0)
    act(game, 1, {"kind": "knock"})
    turn(game, 2, "stock", ["4H"])  # AD KD QD
    assert not game.in_hand
    done = game.take_completed()
    assert done is not None and done.summary["ending"] == "31" and done.summary["owed"] == [0, 1]
    assert bets_of(game) == {0: 2, 1: 2, 2: 3}


# ----------------------------------------------------------------- elimination, the match's end


def one_bet_31(game: EnOgTredive, winner: int) -> None:
    """A round in which ``winner`` (first to play) draws to 31."""
    assert game.round is not None
    others = [s for s in game.round.seats if s != winner]
    hands = {winner: ["KS", "QS", "5H"]} | {
        s: JUNK[3 * i : 3 * i + 3] for i, s in enumerate(others)
    }
    deal(game, hands, "9C", ["AS"])
    turn(game, winner, "stock", ["5H"])


def test_a_player_who_must_pay_with_no_bets_left_is_out_and_the_last_one_wins() -> None:
    game = table(bets=1)
    start(game, dealer=0)
    one_bet_31(game, 1)
    assert bets_of(game) == {0: 0, 1: 1, 2: 0} and game.match.seats == [0, 1, 2]
    start(game)  # dealer 1: seat 2 plays first
    one_bet_31(game, 2)
    done = game.take_completed()
    # seat 0 had no bet left: out; seat 1 paid its last and stays in
    assert done is not None and done.summary["out"] == [0] and done.summary["owed"] == [0, 1]
    assert game.match.seats == [1, 2] and game.match.out == [0]
    assert game.view(None)["seats"][0]["role"] == "out"
    assert game.can_leave(0) and game.can_leave(1)  # between rounds (docs/rules.md §5.12)
    assert game.leave_cost(0) is None and game.leave_cost(1) is None  # no bet left
    start(game)  # dealer 2: seat 1 plays first
    assert game.round is not None and 0 not in game.round.hands
    one_bet_31(game, 1)
    done = game.take_completed()
    assert done is not None and done.summary["match_winner"] == 1
    # seat 1, the last one in, wins the pot: three bets
    assert [game.stack(seat) for seat in range(3)] == [990, 1020, 990]
    assert game.match.seats == [] and game.can_start() and game.can_leave(1)


def test_a_knocker_with_one_bet_owing_two_pays_it_and_is_out() -> None:
    game = table(players=2, bets=1, knock_min=15)
    start(game, dealer=0)  # seat 1 plays first
    deal(game, {1: ["6S", "5S", "4S"], 0: ["KD", "QD", "9D"]}, "5D", JUNK)
    stir(game, 1, 0)
    act(game, 1, {"kind": "knock"})  # seat 1: 15 against 29
    stir(game, 0)
    done = game.take_completed()
    assert done is not None and done.summary["owed"] == [1] and done.summary["out"] == [1]
    assert done.summary["match_winner"] == 0
    assert [t.reason for t in done.transfers if t.source == "bets:1"] == ["bet paid"]
    assert game.stack(0) == 1010 and game.stack(1) == 990


def test_with_no_bets_left_anywhere_nobody_knocks_and_the_next_31_wins() -> None:
    game = table(bets=1)
    start(game, dealer=0)
    one_bet_31(game, 1)  # seats 0 and 2 pay their only bet
    start(game)  # dealer 1: seat 2 plays first; seat 2 knocks and seat 1 is lowest
    hands = {2: ["KS", "QS", "9S"], 0: ["KH", "QH", "2H"], 1: ["2C", "3D", "4H"]}
    deal(game, hands, "5D", JUNK)
    stir(game, 2, 0, 1)
    act(game, 2, {"kind": "knock"})  # seat 2 has no bet, but seat 1 has
    stir(game, 0, 1)
    assert bets_of(game) == {0: 0, 1: 0, 2: 0} and game.match.seats == [0, 1, 2]
    start(game)  # dealer 2: seat 0 plays first
    assert game.view(None)["match"]["knocking"] is False
    hands = {0: ["KS", "QS", "9S"], 1: ["KH", "QH", "2H"], 2: ["2C", "3D", "4H"]}
    deal(game, hands, "5D", [*JUNK[:6], "AS"])
    stir(game, 0, 1, 2)
    assert [a["kind"] for a in game.legal_actions(0)] == ["draw"]  # 29, but no knocking
    stir(game, 0, 1, 2)
    turn(game, 0, "stock", ["9S"])  # KS QS AS
    done = game.take_completed()
    assert done is not None and done.summary["match_winner"] == 0
    assert done.summary["no_bets"] is True and done.summary["out"] == [1, 2]
    assert [game.stack(seat) for seat in range(3)] == [1020, 990, 990]


def test_when_every_player_would_go_out_nobody_does() -> None:
    game = table(players=2, bets=1)
    start(game, dealer=0)  # seat 1 plays first
    one_bet_31(game, 1)
    assert bets_of(game) == {0: 0, 1: 1}
    start(game)  # dealer 1: seat 0 plays first; seat 1 knocks, both hold 29
    deal(game, {0: ["KS", "QS", "9S"], 1: ["KH", "QH", "9H"]}, "5D", JUNK)
    stir(game, 0, 1, 0)
    act(game, 1, {"kind": "knock"})
    stir(game, 0)
    # both lowest: seat 1 owes two and has one, seat 0 owes one and has none; putting both
    # out would leave nobody, so nobody goes out
    done = game.take_completed()
    assert done is not None and done.summary["out"] == [] and done.summary["owed"] == [0, 1]
    assert bets_of(game) == {0: 0, 1: 0} and game.match.seats == [0, 1]
    start(game)  # dealer 0: seat 1 plays first
    deal(game, {1: ["KS", "QS", "5H"], 0: JUNK[:3]}, "9C", [*JUNK[3:7], "AS"])
    stir(game, 1, 0, 1)
    assert [a["kind"] for a in game.legal_actions(0)] == ["draw"]
    stir(game, 0)
    turn(game, 1, "stock", ["5H"])
    done = game.take_completed()
    assert done is not None and done.summary["match_winner"] == 1
    assert done.summary["out"] == [0]
    assert game.stack(1) == 1010 and game.stack(0) == 990


def test_the_round_end_says_what_was_paid_not_what_was_owed() -> None:
    """A player short of bets pays what they have: the status shown at the round's end says
    so (a knocker owing two with one bet pays one; a player with none pays nothing)."""
    game = table(players=2, bets=1)
    start(game, dealer=0)  # seat 1 plays first
    one_bet_31(game, 1)
    assert game.view(None)["status"] == "Seat 1 shows 31; seat 0 pays 1"
    start(game)  # dealer 1: seat 0 plays first; seat 1 knocks, both hold 29
    deal(game, {0: ["KS", "QS", "9S"], 1: ["KH", "QH", "9H"]}, "5D", JUNK)
    stir(game, 0, 1, 0)
    act(game, 1, {"kind": "knock"})
    stir(game, 0)
    # nobody goes out (both would): seat 1 pays its one bet of two, seat 0 has none to pay
    status = game.view(None)["status"]
    assert status == "Seat 1 knocked; seat 1 pays 1; seat 0 has no bet left; seat 1 has no bet left"

    game = table(bets=1)
    start(game, dealer=0)
    one_bet_31(game, 1)  # seats 0 and 2 pay their only bet
    start(game)  # dealer 1: seat 2 plays first
    one_bet_31(game, 2)
    # seat 0 owed one with none left: out, having paid nothing; seat 1 paid its last
    assert game.view(None)["status"] == "Seat 2 shows 31; seat 1 pays 1; seat 0 is out"


# ----------------------------------------------------------------- the stock running out


def test_the_discard_pile_but_its_top_card_becomes_the_new_stock() -> None:
    game = table(players=2)
    start(game, dealer=0)
    deal(game, {1: ["KS", "QS", "5H"], 0: ["2C", "3D", "4H"]}, "9C")
    r = game.round
    assert r is not None and len(game.stock) == 46
    for seat in [1, 0] * 22 + [1]:
        stir(game, seat)
    assert len(game.stock) == 1 and len(r.pile) == 46 and r.restocks == 0
    last = game.stock.cards[0]
    old_pile = [*r.pile, last]
    stir(game, 0)
    # the stock ran out on the 46th turn: the next turn began with a new stock
    assert r.restocks == 1 and r.pile == [last]
    assert sorted(game.stock.cards) == sorted(old_pile[:-1])
    log = game.take_log()
    restock = [e for e in log if e["kind"] in ("shuffle", "restock")]
    assert [e["kind"] for e in restock][-2:] == ["shuffle", "restock"]
    assert all_cards(game) == sorted(FULL_DECK)
    assert game.to_act() == {1}
    stir(game, 1)
    assert len(game.stock) == 45


def test_after_a_restock_the_lone_top_card_may_be_taken_leaving_no_discard_pile() -> None:
    game = table(players=2)
    start(game, dealer=0)
    deal(game, {1: ["KS", "QS", "5H"], 0: ["2C", "3D", "4H"]}, "9C", ["AD", "XX"])
    turn(game, 1, "stock", ["AD", "5H"])  # seat 1 holds two cards
    for seat in [0, 1] * 22 + [0]:
        stir(game, seat)
    r = game.round
    assert r is not None and r.restocks == 1 and len(r.pile) == 1
    act(game, 1, {"kind": "draw", "source": "discard"})
    act(game, 1, {"kind": "discard", "cards": []})
    assert r.pile == [] and game.view(None)["discard"] == []
    assert game.legal_actions(0) == [{"kind": "draw", "params": {"source": {"one_of": ["stock"]}}}]
    assert not action_fits({"kind": "draw", "source": "discard"}, game.legal_actions(0))
    stir(game, 0)
    assert all_cards(game) == sorted(FULL_DECK)


# ----------------------------------------------------------------- timers and defaults


def test_timeouts_knock_on_the_deck_and_play_a_whole_turn() -> None:
    game = table()
    start(game)
    key = game.timer()
    assert key is not None and key.seconds == 30
    assert game.timeout_actions() == [(2, {"kind": "knock_deck"})]
    stack(game, ["KS", "QS", "5H", "3C", "3D", "4H", "6C", "7D", "8H", "2C", "JS"])
    for seat, action in game.timeout_actions():
        act(game, seat, action)
    assert game.timer() is not None and game.timer() != key
    # take from the stock (JS) and discard the card that leaves the best hand (5H)
    actions = game.timeout_actions()
    assert actions == [
        (1, {"kind": "draw", "source": "stock"}),
        (1, {"kind": "discard", "cards": ["5H"]}),
    ]
    for seat, action in actions:
        act(game, seat, action)
    r = game.round
    assert r is not None and r.hands[1] == ["KS", "QS", "JS"]


def test_the_dealers_default_is_one_at_a_time() -> None:
    game = table()
    start(game)
    act(game, 2, {"kind": "cut", "position": 26})
    assert game.timeout_actions() == [(0, {"kind": "deal", "pattern": "1-1-1"})]


# ----------------------------------------------------------------- roster and views


def test_a_player_who_sits_down_during_a_match_waits_for_the_next() -> None:
    game = table()
    start(game)
    one_bet_31(game, 1)
    game.sit(3, 500)
    start(game)
    assert game.round is not None and 3 not in game.round.hands
    assert game.view(3)["seats"][3] == {
        "seat": 3,
        "stack": 500,
        "role": "waiting",
        "bets": 0,
        "knocked": False,
        "hands": [],
    }
    assert game.can_leave(3) and not game.can_leave(0)
    assert game.legal_actions(3) == []


def test_a_player_leaves_a_match_between_rounds_their_bets_going_to_the_pot() -> None:
    """docs/rules.md §5.12 (Decision): between rounds a player may leave; the bets still in
    front of them go to the pot, their stack home, and the match goes on without them; when
    one player is left, they win the match as the last player in (§5.11)."""
    game = table(players=3)  # seats 0-2, 30 each in front
    start(game, dealer=0)  # seat 1 plays first
    assert not game.can_leave(2)  # not during a round
    assert game.leave_cost(2) == (
        "Leaving puts your 3 remaining bets (30 chips) in the pot: you stand up when this "
        "round ends."
    )
    one_bet_31(game, 1)  # seats 0 and 2 pay a bet each: pot 20
    total = sum(game.balances.values())
    assert game.can_leave(2)
    assert game.leave_cost(2) == "Leaving now puts your 2 remaining bets (20 chips) in the pot."
    game.take_log()
    home = game.leave(2)
    assert home == 970
    assert [(t.source, t.target, t.amount) for t in game.transfers] == [("bets:2", "pot", 20)]
    assert game.balances["pot"] == 40 and "bets:2" not in game.balances
    assert game.match.seats == [0, 1]
    assert sum(game.balances.values()) == total - home  # chips conserved
    assert [e["kind"] for e in game.take_log()] == ["left_match"]
    game.transfers = []

    # the match goes on without seat 2
    start(game)  # the deal moves left of seat 0: to seat 1; seat 0 plays first
    assert game.round is not None and game.round.seats == [0, 1]
    one_bet_31(game, 0)  # seat 1 pays a bet: pot 50
    assert bets_of(game) == {0: 2, 1: 2} and game.balances["pot"] == 50
    # seat 0 leaves: seat 1 is the last player in and wins the pot and its own bets
    assert game.leave(0) == 970
    assert [(t.source, t.target, t.amount) for t in game.transfers] == [
        ("bets:0", "pot", 20),
        ("pot", "seat:1", 70),
        ("bets:1", "seat:1", 20),
    ]
    assert game.match.seats == [] and game.stack(1) == 1060
    assert game.balances.get("pot", 0) == 0
    assert sum(game.balances.values()) == 1060  # 3000 = 970 + 970 + 1060
    assert game.leave_cost(1) is None and not game.can_start()


def test_a_table_closed_during_a_match_gives_each_player_back_what_they_put_up() -> None:
    """Closing for good undoes the match: the bets in front of each player and what each paid
    into the pot go back to them; a player who sat down during the match gets none of it;
    what a player who has since left paid in goes to those still in the match."""
    game = table(players=4, chips=1000)  # seats 0-3, 30 each in front
    start(game, dealer=0)  # seat 1 plays first
    one_bet_31(game, 1)  # seats 0, 2 and 3 pay a bet each: pot 30
    game.sit(5, 500)  # waits for the next match
    game.release_all()
    assert game.balances.get("pot", 0) == 0
    assert [game.stack(seat) for seat in (0, 1, 2, 3, 5)] == [1000, 1000, 1000, 1000, 500]

    game = table(players=3, bets=1)  # seats 0-2, 10 each in front
    start(game, dealer=0)
    one_bet_31(game, 1)  # seats 0 and 2 pay their only bet: pot 20
    start(game)  # dealer 1: seat 2 plays first
    one_bet_31(game, 2)  # seat 0, with no bet left, is out; seat 1 pays: pot 30
    game.leave(0)  # out of the match, seat 0 leaves with 990
    game.release_all()
    # seat 2 gets back its 10 and seat 1 its 10; seat 0's 10 goes to those still in
    assert game.balances.get("pot", 0) == 0
    assert [game.stack(1), game.stack(2)] == [1005, 1005]
    assert sum(game.balances.values()) == 2010


def test_hands_are_seen_by_their_holders_only() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C", JUNK)
    mine = game.view(1)["seats"][1]["hands"][0]
    assert [c["card"] for c in mine["cards"]] == ["KS", "QS", "5H"] and mine["value"] == 20
    theirs = game.view(2)["seats"][1]["hands"][0]
    assert theirs["cards"] == [{"card": None, "up": False}] * 3 and theirs["value"] is None
    assert game.view(None)["seats"][0]["hands"][0]["size"] == 3
    act(game, 1, {"kind": "draw", "source": "stock"})
    assert game.view(1)["seats"][1]["hands"][0]["drawn"] == "2S"
    assert game.view(0)["seats"][1]["hands"][0]["drawn"] is None
    assert_no_leak(game)


def test_the_log_keeps_stock_draws_and_dealt_cards_private() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["2C", "3D", "4H"], 0: ["6C", "7D", "8H"]}, "9C", JUNK)
    stir(game, 1)
    log = game.take_log()
    dealt = [e for e in log if e["kind"] == "dealt"]
    assert [(e["seat"], e["private_to"]) for e in dealt] == [(1, [1]), (2, [2]), (0, [0])]
    draw = next(e for e in log if e["kind"] == "draw")
    assert draw["private_to"] == [1] and draw["card"] == "2S"
    assert next(e for e in log if e["kind"] == "turn_up")["card"] == "9C"


def test_snapshot_and_restore_continue_the_match() -> None:
    game = table(bets=2)
    start(game)
    one_bet_31(game, 1)
    data = json.loads(json.dumps(game.snapshot()))
    copy = EnOgTredive(game.options)
    for seat in game.seated:
        copy.sit(seat, 0)
    copy.balances = dict(game.balances)
    copy.restore(data)
    assert copy.snapshot() == data
    for each in (game, copy):
        each.seeds = fixed_seeds()
        each.start_hand()
    assert copy.match == game.match and copy.stock.cards == game.stock.cards
    for viewer in [0, 1, 2, None]:
        assert copy.view(viewer) == game.view(viewer)
    assert copy.match.dealer == 1 and copy.to_act() == {0}


def test_after_a_void_round_the_next_round_shuffles_afresh() -> None:
    game = table()
    start(game)
    one_bet_31(game, 1)
    saved, balances = game.snapshot(), dict(game.balances)
    start(game)
    deal(game, {2: JUNK[:3], 0: JUNK[3:6], 1: ["2C", "3D", "4H"]}, "9C")
    game.in_hand = False  # the runtime voids the round and restores the table
    game.balances = balances
    game.restore(saved)
    game.on_void()
    assert game.stock.cards == [] and game.round is None
    game.take_log()
    game.start_hand()
    assert "shuffle" in kinds(game) and game.match.dealer == 1
    assert sorted(game.stock.cards) == sorted(FULL_DECK)


# ----------------------------------------------------------------- the simulation


def test_simulation_counts_matches_rounds_and_endings() -> None:
    report = simulate("en-og-tredive", hands=600, seed=3)
    assert report["hands"] == report["rounds"] == 600
    assert sum(report["round_endings"].values()) == 600
    assert set(report["round_endings"]) == {"31", "knock", "coup_d_etat"}
    assert report["matches"] > 20 and 2 < report["rounds_per_match"] < 30
    assert report["round_endings"]["knock"] > report["round_endings"]["coup_d_etat"]
