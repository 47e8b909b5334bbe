"""En og tredive: what a hand dealt already winning does (docs/rules.md §5.7).

A coup d'état dealt wins the match at the deal, before anyone acts (seed 004: "the one rule
that supersedes all others"); a 31 dealt waits for its holder's turn, like any 31, which the
source ties to a turn ("If, after discarding, you have 31").

Three players in seats 0, 1 and 2; seat 0 deals, seat 2 cuts, seat 1 plays first, seat 2 last.
"""

from __future__ import annotations

import pytest

from tests.games.test_en_og_tredive_helpers import bets_of, deal, start, table, turn

JUNK = ["2S", "3S", "7H", "8C", "8S", "7S", "6D", "4C", "6H", "8D"]


@pytest.mark.parametrize("coup", [["AS", "AH", "AD"], ["AC", "XX", "AH"]])
@pytest.mark.parametrize("pattern", ["3", "1-1-1", "2-1"])
def test_a_coup_d_etat_dealt_to_the_last_player_wins_before_anyone_acts(
    coup: list[str], pattern: str
) -> None:
    game = table()
    start(game)
    # Seat 1, first to play, could make 31 with the top card of the stock.
    deal(
        game,
        {1: ["KS", "QS", "5H"], 2: coup, 0: JUNK[:3]},
        "9C",
        ["AS" if "AS" not in coup else "XX"],
        pattern,
    )
    assert not game.in_hand and game.to_act() == set()
    done = game.take_completed()
    assert done is not None
    assert done.summary["ending"] == "coup_d_etat" and done.summary["dealt"] is True
    assert done.summary["match_winner"] == 2 and done.summary["out"] == [0, 1]
    assert not any(e["kind"] in ("draw", "discard") for e in done.log)
    # the holder takes every bet: the others' and their own back
    assert game.stack(2) == 970 + 30 + 30 + 30
    assert game.stack(0) == game.stack(1) == 970
    assert bets_of(game) == {0: 0, 1: 0, 2: 0} and game.balances.get("pot", 0) == 0
    shows = [e for e in done.log if e["kind"] == "show"]
    assert [e["seat"] for e in shows] == [2]


def test_a_coup_d_etat_dealt_takes_the_pot_as_well() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: JUNK[:3], 0: JUNK[3:6]}, "9C", ["AS"])
    turn(game, 1, "stock", ["5H"])  # 31: seats 0 and 2 pay a bet each into the pot
    start(game)  # seat 1 deals; seat 2 plays first, seat 1 last
    deal(game, {2: ["KH", "QH", "2C"], 0: JUNK[:3], 1: ["AD", "AC", "AH"]}, "9C", ["AS"])
    done = game.take_completed()
    assert done is not None and done.summary["winner"] == 1
    assert done.summary["ending"] == "coup_d_etat"
    assert game.stack(1) == 970 + 20 + 20 + 20 + 30  # pot, seat 0's, seat 2's and own bets


def test_a_31_dealt_waits_for_its_holders_turn_and_an_earlier_31_ends_the_round_first() -> None:
    game = table()
    start(game)
    deal(game, {1: ["KS", "QS", "5H"], 2: ["AD", "KD", "QD"], 0: JUNK[:3]}, "9C", ["AS"])
    assert game.in_hand and game.to_act() == {1}
    turn(game, 1, "stock", ["5H"])  # seat 1 makes 31 first
    done = game.take_completed()
    assert done is not None and done.summary["winner"] == 1 and done.summary["dealt"] is False
    assert bets_of(game) == {0: 2, 1: 3, 2: 2}  # the dealt 31 pays like any other hand
