"""Trente et Quarante held to its source (docs/rules.md §4.7, §4.8, §4.11).

* Insurance costs 1% of a stake in whole chips and never more: a chip for every whole 100, so a
  stake under 100 cannot be insured (seed 002: "by paying the bank 1% of their value").
* "At every 31 Après players can either share their stake with the bank, leave it where it is,
  or move it": a stake already in prison is offered the share too; moving a stake in prison is
  for the window after an après, not any window.
* "There is no limit to those standing up": standing positions never run out.
"""

from __future__ import annotations

import pytest

from app.games.core.actions import action_fits
from app.games.trente_et_quarante.stakes import premium
from tests.games.test_trente_et_quarante_rules import (
    APRES,
    NOIR_WINS,
    ROUGE_WINS,
    UN_APRES,
    act,
    close,
    house_net,
    new_game,
    play,
    seated,
    stack,
)

# --------------------------------------------------------------------------- insurance


def test_the_premium_is_never_more_than_one_percent() -> None:
    for amount in range(1, 5000):
        assert premium(amount) * 100 <= amount
        assert premium(amount) == amount // 100
    assert premium(99) == 0 and premium(100) == 1


@pytest.mark.parametrize("amount", [10, 50, 99])
def test_a_stake_whose_one_percent_is_under_a_chip_cannot_be_insured(amount: int) -> None:
    game = seated(1000)
    stack(game, ROUGE_WINS)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=amount)
    assert not any(t["kind"] == "insure" for t in game.legal_actions(0))
    assert not action_fits({"kind": "insure", "chance": "rouge"}, game.legal_actions(0))


@pytest.mark.parametrize(("amount", "charged"), [(100, 1), (199, 1), (250, 2), (2000, 20)])
def test_insurance_charges_a_chip_per_whole_hundred(amount: int, charged: int) -> None:
    game = seated(5000)
    stack(game, ROUGE_WINS)
    play(game, [(0, "rouge", amount)], insure=(0,))
    hand = game.take_completed()
    assert hand is not None
    assert game.stack(0) == 5000 + amount - charged
    assert hand.summary["stakes"][0]["house"] == charged - amount


def test_an_insured_stake_stays_at_least_a_hundred() -> None:
    game = seated(1000)
    stack(game, ROUGE_WINS)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=300)
    act(game, 0, "insure", chance="rouge")
    rouge = next(
        t
        for t in game.legal_actions(0)
        if t["kind"] == "stake" and t["params"]["chance"] == {"one_of": ["rouge"]}
    )
    assert rouge["params"]["amount"]["min"] == 100
    assert not action_fits(
        {"kind": "stake", "chance": "rouge", "amount": 50}, game.legal_actions(0)
    )


def test_the_view_says_which_stakes_can_be_insured() -> None:
    game = seated(1000)
    limits = game.view(None)["limits"]
    assert limits["insure_from"] == 100
    assert "100 chips or more" in limits["insurance_words"]
    assert "cannot be insured" in limits["insurance_words"]
    off = new_game(insurance=False)
    assert off.view(None)["limits"]["insure_from"] is None


# --------------------------------------------------------------------------- après


def test_a_stake_in_prison_is_offered_the_share_at_the_next_un_apres() -> None:
    game = seated(1000)
    stack(game, UN_APRES, UN_APRES, ROUGE_WINS)
    play(game, [(0, "rouge", 101)])
    act(game, 0, "prison", chance="rouge")
    held = game.prison[0].id
    play(game, [])  # a second un après: the stake in prison waits for its owner's choice
    assert game.phase == "un_apres" and game.to_act() == {0}
    assert {"kind": "share", "params": {"stake": {"one_of": [held]}}} in game.legal_actions(0)
    view = game.view(None)
    assert view["un_apres"] == [{"seat": 0, "chance": "rouge", "amount": 101, "stake": held}]
    act(game, 0, "share", stake=held)
    hand = game.take_completed()
    assert hand is not None and not game.in_hand
    assert game.prison == [] and game.stack(0) == 1000 - 101 + 50
    assert house_net(hand.transfers) == 51


def test_a_stake_in_prison_left_there_sinks_a_level_and_prison_is_the_default() -> None:
    game = seated(1000)
    stack(game, UN_APRES, UN_APRES, ROUGE_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    play(game, [])
    assert game.default_action(0) == {"kind": "prison", "stake": game.prison[0].id}
    close(game)  # the clock runs out: left in prison
    assert [(p.chance, p.level) for p in game.prison] == [("rouge", 2)]
    assert not game.in_hand


def test_a_stake_in_prison_moves_only_in_the_window_after_an_apres() -> None:
    game = seated(1000)
    stack(game, UN_APRES, UN_APRES, ROUGE_WINS, APRES, NOIR_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    game.start_hand()  # after the un après: it may move
    assert any(t["kind"] == "move_prison" for t in game.legal_actions(0))
    close(game)
    act(game, 0, "prison", stake=game.prison[0].id)  # level 2
    game.start_hand()
    close(game)  # Rouge wins: level 2 -> 1, still in prison
    assert [p.level for p in game.prison] == [1]
    game.start_hand()  # after a decided coup: it stays where it is
    assert not any(t["kind"] == "move_prison" for t in game.legal_actions(0))
    assert game.to_act() == {0}  # chips for a new stake, so the window still waits for them
    close(game)  # an après
    game.start_hand()  # after an après: "Customers can then … shift … their stakes"
    assert any(t["kind"] == "move_prison" for t in game.legal_actions(0))
    act(game, 0, "move_prison", stake=game.prison[0].id, to="noir")
    close(game)  # Noir wins: level 1 is freed
    assert game.prison == [] and game.stack(0) == 1000


def test_a_prison_owner_with_nothing_to_do_does_not_hold_the_window() -> None:
    game = seated(100, 1000)
    stack(game, UN_APRES, UN_APRES, ROUGE_WINS, NOIR_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    game.start_hand()
    close(game)
    act(game, 0, "prison", stake=game.prison[0].id)
    game.start_hand()
    close(game)  # Rouge wins: level 1 now
    game.start_hand()  # seat 0 has no chips and may not move the stake: nothing to do
    assert game.legal_actions(0) == [] and game.to_act() == {1}
    act(game, 1, "done")
    assert game.phase != "betting"


# --------------------------------------------------------------------------- standing


def test_standing_places_never_run_out() -> None:
    game = new_game(seats=7)
    assert game.table_seats == 7
    for _ in range(200):  # as the runtime seats a newcomer: the lowest free position
        seat = next(s for s in range(game.max_seats) if s not in game.seated)
        game.sit(seat, 100)
    assert len(game.seated) == 200 and game.seated[-1] == 199
    assert game.max_seats > 200 and game.table_seats == 7


def test_a_standing_position_far_beyond_the_others_is_restored() -> None:
    game = new_game(seats=7)
    game.sit(300, 100)  # as a restart seats a bettor whose neighbours had left
    assert game.seated == [300] and game.max_seats > 300
    assert game.view(None)["bettors"][0]["role"] == "standing"
