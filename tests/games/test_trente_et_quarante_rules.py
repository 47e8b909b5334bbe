"""Rule tests for Trente et Quarante on stacked shoes (docs/rules.md §4; the Venice rules of its
source).

Each test deals a coup from cards set on the stock before the window opens (the engine shuffles
only an empty stock), stakes through ``legal`` and checks the chips, the rows, the calls and
the log.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.games.core.actions import action_fits
from app.games.core.cards import Shuffle, canonical_shoe, fixed_seeds
from app.games.core.money import Transfer
from app.games.core.options import OptionError
from app.games.trente_et_quarante.coup import POINTS, Coup, deal_coup
from app.games.trente_et_quarante.engine import TrenteEtQuarante
from app.games.trente_et_quarante.stakes import (
    PrisonStake,
    exposure,
    house_limit,
    house_limits,
    largest_stake,
    premium,
)

# The four example coups of the source (the source: "Winning combinations"), re-dealt with cards
# that make the totals and the first card's colour the source describes.
RED_AND_COLOUR = (["TH", "9S", "8D", "QC"], ["TS", "TD", "KC", "2H"])  # 37 / 32, first red
RED_AND_INVERSE = (["5S", "KH", "QD", "JC"], ["TC", "TD", "9H", "2S"])  # 35 / 31, first black
BLACK_AND_COLOUR = (["KS", "TH", "9C", "2D"], ["7H", "KD", "QS", "JC"])  # 31 / 37, first black
BLACK_AND_INVERSE = (["QH", "TS", "9D", "3C"], ["8S", "KD", "QC", "JH"])  # 32 / 38, first red
APRES = (["QH", "TS", "9D", "3C"], ["KS", "JD", "8C", "4H"])  # 32 / 32 (the source's "Après")
UN_APRES = (["KS", "TH", "9C", "2D"], ["QD", "JS", "9H", "2C"])  # 31 / 31 ("31 Après")
ROUGE_WINS = RED_AND_COLOUR
NOIR_WINS = BLACK_AND_INVERSE


def row_total(row: list[str]) -> int:
    return sum(POINTS[card] for card in row)


def check_row(row: list[str]) -> None:
    """A test row must pass 30 exactly at its last card."""
    assert row_total(row[:-1]) <= 30 < row_total(row), row


def coup_cards(*coups: tuple[list[str], list[str]]) -> list[str]:
    out: list[str] = []
    for noir, rouge in coups:
        check_row(noir)
        check_row(rouge)
        out += noir + rouge
    return out


def new_game(**options: Any) -> TrenteEtQuarante:
    return TrenteEtQuarante(options, seeds=fixed_seeds())


def stack(game: TrenteEtQuarante, *coups: tuple[list[str], list[str]], extra: int = 40) -> None:
    """Set the stock to these coups, then ``extra`` tens (so the shoe does not run out)."""
    game.stock.cards = coup_cards(*coups) + ["TS"] * extra


def act(game: TrenteEtQuarante, seat: int, kind: str, **params: Any) -> None:
    action = {"kind": kind, **params}
    assert action_fits(action, game.legal_actions(seat)), (action, game.legal_actions(seat))
    game.apply(seat, action)


def close(game: TrenteEtQuarante) -> None:
    """The window's timer runs out."""
    for seat, action in game.timeout_actions():
        game.apply(seat, action, by_clock=True)


def play(
    game: TrenteEtQuarante, stakes: list[tuple[int, str, int]], insure: tuple[int, ...] = ()
) -> None:
    """Open a window, place ``(seat, chance, amount)`` stakes, insure some seats, close it."""
    game.start_hand()
    for seat, chance, amount in stakes:
        act(game, seat, "stake", chance=chance, amount=amount)
    for seat in insure:
        for chance in [c for s, c, _ in stakes if s == seat]:
            act(game, seat, "insure", chance=chance)
    close(game)


def seated(*stacks: int, **options: Any) -> TrenteEtQuarante:
    game = new_game(**options)
    for seat, chips in enumerate(stacks):
        game.sit(seat, chips)
    return game


def seconds(game: TrenteEtQuarante) -> float:
    timer = game.timer()
    assert timer is not None
    return timer.seconds


def house_net(transfers: list[Transfer]) -> int:
    return sum(t.amount for t in transfers if t.target == "house") - sum(
        t.amount for t in transfers if t.source == "house"
    )


# --------------------------------------------------------------------------- the deal


def test_card_points_ace_one_faces_ten() -> None:
    assert POINTS["AS"] == 1
    assert [POINTS[r + "H"] for r in "TJQK"] == [10, 10, 10, 10]
    assert POINTS["7D"] == 7


def test_a_row_takes_cards_until_it_passes_thirty() -> None:
    # 10 + 10 + 10 = 30 does not pass 30: the row takes a fourth card.
    coup, used = deal_coup(["TS", "JH", "QD", "AC", "TS", "TS", "TS", "9S"])
    assert coup is not None and used == 8
    assert coup.noir_cards == ["TS", "JH", "QD", "AC"] and coup.noir == 31
    assert coup.rouge_cards == ["TS", "TS", "TS", "9S"] and coup.rouge == 39


def test_a_row_can_reach_forty() -> None:
    coup, _ = deal_coup(["TS", "TS", "TS", "KS", "AS", "TS", "TS", "KS"])
    assert coup is not None and coup.noir == 40 and coup.rouge == 31
    assert coup.calls()[0] == {"fr": "Quarante… Un", "en": "Forty… One"}


def test_deal_runs_out() -> None:
    assert deal_coup(["TS", "TS", "TS", "AS", "TS"]) == (None, 5)


@pytest.mark.parametrize(
    ("rows", "winner", "colour", "totals_call", "result_call"),
    [
        (RED_AND_COLOUR, "rouge", "couleur", "Sept… Deux", "Rouge gagne et couleur"),
        (RED_AND_INVERSE, "rouge", "inverse", "Cinq… Un", "Rouge gagne, la couleur perd"),
        (BLACK_AND_COLOUR, "noir", "couleur", "Un… Sept", "Rouge perd, la couleur gagne"),
        (BLACK_AND_INVERSE, "noir", "inverse", "Deux… Huit", "Rouge perd et couleur"),
    ],
)
def test_the_four_example_coups_of_the_source(
    rows: tuple[list[str], list[str]],
    winner: str,
    colour: str,
    totals_call: str,
    result_call: str,
) -> None:
    """Seed 002, "Winning combinations": one bettor on each chance, 100 each."""
    game = seated(1000, 1000, 1000, 1000)
    stack(game, rows)
    play(game, [(0, "rouge", 100), (1, "noir", 100), (2, "couleur", 100), (3, "inverse", 100)])
    hand = game.take_completed()
    assert hand is not None
    chance_of = {0: "rouge", 1: "noir", 2: "couleur", 3: "inverse"}
    for seat, chance in chance_of.items():
        expected = 1100 if chance in (winner, colour) else 900
        assert game.stack(seat) == expected, (seat, chance)
    assert house_net(hand.transfers) == 0
    view = game.view(None)
    assert [call["fr"] for call in view["calls"]] == [totals_call, result_call]
    assert view["rows"]["noir"]["total"] == row_total(rows[0])
    assert view["rows"]["rouge"]["total"] == row_total(rows[1])
    assert [c["card"] for c in view["rows"]["noir"]["cards"]] == rows[0]
    assert [c["card"] for c in view["rows"]["rouge"]["cards"]] == rows[1]
    assert view["result"] == {"winner": winner, "colour": colour, "tie": None, "void": False}
    assert hand.summary["winner"] == winner and hand.summary["colour"] == colour
    dealt = [(e["row"], e["card"], e["total"]) for e in hand.log if e["kind"] == "card"]
    assert [card for _, card, _ in dealt] == rows[0] + rows[1]
    assert dealt[len(rows[0]) - 1][2] == row_total(rows[0])
    calls = [e for e in hand.log if e["kind"] == "call"]
    assert [c["fr"] for c in calls] == [totals_call, result_call]
    assert all(c["en"] for c in calls)


def test_english_calls_name_the_winning_chances() -> None:
    coup, _ = deal_coup(coup_cards(BLACK_AND_INVERSE))
    assert coup is not None
    assert coup.calls() == [
        {"fr": "Deux… Huit", "en": "Two… Eight"},
        {"fr": "Rouge perd et couleur", "en": "Black and inverse win"},
    ]


def test_apres_nothing_moves() -> None:
    game = seated(1000, 1000)
    stack(game, APRES)
    play(game, [(0, "rouge", 100), (0, "couleur", 50), (1, "noir", 100)])
    hand = game.take_completed()
    assert hand is not None and hand.transfers == []
    assert game.stack(0) == game.stack(1) == 1000
    assert [c["fr"] for c in game.view(None)["calls"]] == ["Deux… Deux", "Après"]
    assert hand.summary["tie"] == "apres"


# --------------------------------------------------------------------------- un après


def un_apres_game(*stacks: int, **options: Any) -> TrenteEtQuarante:
    game = seated(*stacks, **options)
    stack(game, UN_APRES, ROUGE_WINS, NOIR_WINS)
    return game


def test_un_apres_calls_and_choice_phase() -> None:
    game = un_apres_game(1000, 1000)
    play(game, [(0, "rouge", 100), (0, "couleur", 60), (1, "noir", 80)])
    assert game.phase == "un_apres" and game.in_hand
    assert [c["fr"] for c in game.view(None)["calls"]] == ["Un… Un", "Un après"]
    assert game.to_act() == {0, 1}
    assert game.legal_actions(0) == [
        {"kind": "share", "params": {"chance": {"one_of": ["rouge", "couleur"]}}},
        {"kind": "prison", "params": {"chance": {"one_of": ["rouge", "couleur"]}}},
    ]
    assert seconds(game) == 30
    assert game.view(1)["un_apres"] == [
        {"seat": 0, "chance": "rouge", "amount": 100},
        {"seat": 0, "chance": "couleur", "amount": 60},
        {"seat": 1, "chance": "noir", "amount": 80},
    ]
    assert not game.can_leave(0) and not game.can_leave(1)


def test_un_apres_share_returns_half_rounded_down() -> None:
    game = un_apres_game(1000)
    play(game, [(0, "rouge", 101)])
    act(game, 0, "share", chance="rouge")
    hand = game.take_completed()
    assert hand is not None and not game.in_hand
    assert game.stack(0) == 1000 - 51  # 50 back, 51 to the house
    assert house_net(hand.transfers) == 51
    assert game.prison == []


def test_un_apres_prison_then_win_returns_the_stake_without_winnings() -> None:
    game = un_apres_game(1000)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    assert game.take_completed() is not None
    assert game.stack(0) == 900 and game.balances["prison:0"] == 100
    assert [(p.chance, p.amount, p.level) for p in game.prison] == [("rouge", 100, 1)]
    assert not game.can_leave(0)
    # Next coup: Rouge wins; the stake in prison is returned, without winnings.
    game.start_hand()
    assert game.timer() is not None  # a stake in prison starts the countdown at once
    close(game)
    assert game.stack(0) == 1000 and game.balances["prison:0"] == 0 and game.prison == []
    assert game.can_leave(0)


def test_un_apres_prison_then_loss_loses_it() -> None:
    game = seated(1000)
    stack(game, UN_APRES, NOIR_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    game.start_hand()
    close(game)
    hand = game.take_completed()
    assert hand is not None and house_net(hand.transfers) == 100
    assert game.stack(0) == 900 and game.prison == []


def test_un_apres_choices_per_stake_and_default_prison_on_timeout() -> None:
    game = un_apres_game(1000, 1000)
    play(game, [(0, "rouge", 100), (0, "couleur", 40), (1, "noir", 80)])
    act(game, 0, "share", chance="couleur")
    assert game.to_act() == {0, 1}
    assert game.default_action(1) == {"kind": "prison", "chance": "noir"}
    assert game.timeout_actions() == [
        (0, {"kind": "prison", "chance": "rouge"}),
        (1, {"kind": "prison", "chance": "noir"}),
    ]
    close(game)
    assert not game.in_hand
    assert sorted((p.owner, p.chance, p.amount) for p in game.prison) == [
        (0, "rouge", 100),
        (1, "noir", 80),
    ]
    assert game.stack(0) == 1000 - 100 - 20 and game.stack(1) == 920


def test_un_apres_insured_stake_is_untouched() -> None:
    game = un_apres_game(1000, 1000)
    play(game, [(0, "rouge", 250), (1, "noir", 100)], insure=(0,))
    assert game.to_act() == {1}  # seat 0's stake is insured: no choice to make
    act(game, 1, "share", chance="noir")
    hand = game.take_completed()
    assert hand is not None
    assert game.stack(0) == 1000 - 2  # only the premium: 1% of 250 in whole chips, rounded down
    assert game.prison == []
    assert hand.summary["stakes"][0] == {
        "seat": 0,
        "chance": "rouge",
        "amount": 250,
        "insured": True,
        "house": 2,
    }


def test_un_apres_with_only_insured_stakes_ends_the_coup_at_once() -> None:
    game = un_apres_game(1000)
    play(game, [(0, "noir", 100)], insure=(0,))
    assert not game.in_hand and game.stack(0) == 999


def test_two_and_three_consecutive_un_apres_put_the_stake_deeper() -> None:
    game = seated(1000)
    stack(game, UN_APRES, UN_APRES, UN_APRES, ROUGE_WINS, ROUGE_WINS, ROUGE_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    levels = []
    for _ in range(2):
        game.start_hand()
        close(game)
        act(game, 0, "prison", stake=game.prison[0].id)  # left in prison: a level deeper
        levels.append([p.level for p in game.prison])
    assert levels == [[2], [3]]
    hand = game.take_completed()
    assert hand is not None and [e["kind"] for e in hand.log].count("prison_deeper") == 1
    # Each win brings it up one level; the third returns it.
    for expected in ([2], [1], []):
        game.start_hand()
        close(game)
        assert [p.level for p in game.prison] == expected
    assert game.stack(0) == 1000


def test_an_un_apres_past_max_apres_shares_the_stake_in_prison() -> None:
    game = seated(1000)
    stack(game, UN_APRES, UN_APRES, UN_APRES, UN_APRES)
    play(game, [(0, "rouge", 101)])
    act(game, 0, "prison", chance="rouge")
    for _ in range(2):
        game.start_hand()
        close(game)
        act(game, 0, "prison", stake=game.prison[0].id)
    assert [p.level for p in game.prison] == [3]
    game.start_hand()
    close(game)  # the fourth un après: level 3 would pass max_apres (3)
    hand = game.take_completed()
    assert hand is not None and game.prison == []
    assert game.stack(0) == 1000 - 51 and house_net(hand.transfers) == 51
    assert any(e["kind"] == "prison_shared" for e in hand.log)


def test_max_apres_one_shares_at_the_second_un_apres() -> None:
    game = seated(1000, max_apres=1)
    stack(game, UN_APRES, UN_APRES)
    play(game, [(0, "couleur", 60)])
    act(game, 0, "prison", chance="couleur")
    game.start_hand()
    close(game)
    assert game.prison == [] and game.stack(0) == 970


def test_a_new_stake_and_a_stake_in_prison_through_one_un_apres() -> None:
    game = seated(1000)
    stack(game, UN_APRES, UN_APRES, NOIR_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    play(game, [(0, "noir", 50)])  # both the stake in prison and the new one ask
    assert [(p.chance, p.level) for p in game.prison] == [("rouge", 1)]
    act(game, 0, "prison", stake=game.prison[0].id)  # left there: level 2
    act(game, 0, "prison", chance="noir")
    assert sorted((p.chance, p.level) for p in game.prison) == [("noir", 1), ("rouge", 2)]
    game.start_hand()
    close(game)  # Noir wins: noir (level 1) is returned, rouge (level 2) is lost
    assert game.prison == [] and game.stack(0) == 900


# --------------------------------------------------------------------------- prison moves


def test_a_stake_in_prison_moves_but_cannot_be_removed() -> None:
    game = seated(1000)
    stack(game, UN_APRES, NOIR_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    game.start_hand()
    templates = game.legal_actions(0)
    stake_id = game.prison[0].id
    move = {
        "kind": "move_prison",
        "params": {
            "stake": {"one_of": [stake_id]},
            "to": {"one_of": ["noir", "couleur", "inverse"]},
        },
    }
    assert move in templates
    assert not any(t["kind"] == "remove" for t in templates)
    assert not any(t["kind"] == "insure" for t in templates)  # stakes in prison: no insurance
    act(game, 0, "move_prison", stake=stake_id, to="noir")
    assert game.view(None)["tableau"]["noir"] == {"stakes": 0, "prison": 100}
    close(game)  # Noir wins: the moved stake is returned
    assert game.stack(0) == 1000 and game.prison == []


def test_prison_and_free_stakes_may_lie_on_both_sides() -> None:
    game = seated(1000)
    stack(game, UN_APRES, NOIR_WINS)
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    game.start_hand()
    act(game, 0, "stake", chance="noir", amount=100)
    close(game)
    assert game.stack(0) == 1000  # noir paid even money; the stake in prison on rouge lost
    assert game.prison == []


# --------------------------------------------------------------------------- the window


def test_window_rests_until_a_stake_then_one_countdown_key() -> None:
    game = seated(1000, 1000)
    stack(game, ROUGE_WINS)
    game.start_hand()
    assert game.phase == "betting" and game.timer() is None
    assert game.to_act() == {0, 1}
    assert not any(t["kind"] == "done" for t in game.legal_actions(0))
    act(game, 0, "stake", chance="rouge", amount=100)
    timer = game.timer()
    assert timer is not None and timer.seconds == 20
    act(game, 1, "stake", chance="noir", amount=100)
    act(game, 0, "stake", chance="rouge", amount=300)
    act(game, 0, "remove", chance="rouge")
    assert game.timer() == timer  # the key stays for the whole window
    assert game.timeout_actions() == [(0, {"kind": "close"})]
    assert not action_fits({"kind": "close"}, game.legal_actions(0))


def test_window_closes_when_every_bettor_is_done() -> None:
    game = seated(1000, 1000, 5)  # seat 2 cannot stake: the window does not wait for it
    stack(game, ROUGE_WINS)
    game.start_hand()
    assert game.to_act() == {0, 1}
    assert game.legal_actions(2) == []
    act(game, 0, "stake", chance="rouge", amount=100)
    act(game, 0, "done")
    assert game.legal_actions(0) == [] and game.to_act() == {1}
    assert game.in_hand
    act(game, 1, "done")
    assert not game.in_hand and game.stack(0) == 1100 and game.stack(1) == 1000


def test_stakes_set_change_remove_and_the_pairs() -> None:
    game = seated(1000, 1000, min_stake=10, max_stake=500)
    stack(game, ROUGE_WINS)
    game.start_hand()
    templates = game.legal_actions(0)
    assert {
        "kind": "stake",
        "params": {"chance": {"one_of": ["noir"]}, "amount": {"min": 10, "max": 500}},
    } in templates
    assert not action_fits({"kind": "stake", "chance": "rouge", "amount": 501}, templates)
    assert not action_fits({"kind": "stake", "chance": "rouge", "amount": 9}, templates)
    act(game, 0, "stake", chance="rouge", amount=200)
    kinds = {
        (t["kind"], tuple(t["params"].get("chance", {}).get("one_of", [])))
        for t in game.legal_actions(0)
    }
    assert ("stake", ("noir",)) not in kinds  # never both sides of one pair
    assert ("stake", ("rouge",)) in kinds and ("stake", ("couleur",)) in kinds
    act(game, 0, "stake", chance="rouge", amount=400)
    assert game.view(0)["seats"][0]["stakes"] == [
        {"chance": "rouge", "amount": 400, "insured": False, "premium": 0}
    ]
    act(game, 0, "remove", chance="rouge")
    act(game, 0, "stake", chance="noir", amount=500)
    close(game)
    assert game.stack(0) == 500


def test_stakes_are_bounded_by_the_stack_and_premiums() -> None:
    game = seated(300)
    stack(game, ROUGE_WINS)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=200)
    act(game, 0, "insure", chance="rouge")
    couleur = next(
        t for t in game.legal_actions(0) if t["params"].get("chance") == {"one_of": ["couleur"]}
    )
    assert couleur["params"]["amount"]["max"] == 98  # 300 - 200 - premium 2
    rouge = next(
        t for t in game.legal_actions(0) if t["params"].get("chance") == {"one_of": ["rouge"]}
    )
    assert rouge["params"]["amount"]["max"] == 298  # 298 + 2 = 300
    act(game, 0, "stake", chance="couleur", amount=98)
    assert not any(t["kind"] == "insure" for t in game.legal_actions(0))  # no chip left for it
    close(game)
    hand = game.take_completed()
    assert hand is not None
    assert game.stack(0) == 300 - 2 + 200 + 98


def test_premium_and_largest_insured_stake() -> None:
    assert [premium(a) for a in (1, 99, 100, 101, 250)] == [0, 0, 1, 1, 2]
    for room in range(0, 2000):
        best = largest_stake(room, True)
        assert best + premium(best) <= room or best == 0
        assert (best + 1) + premium(best + 1) > room


def test_insurance_is_paid_every_coup_but_not_on_a_void_coup() -> None:
    game = seated(1000)
    stack(game, NOIR_WINS)
    play(game, [(0, "rouge", 100)], insure=(0,))
    assert game.stack(0) == 1000 - 1 - 100
    game.stock.cards = ["TS", "TS"]  # the shoe runs out mid-deal
    play(game, [(0, "rouge", 100)], insure=(0,))
    hand = game.take_completed()
    assert hand is not None and hand.summary == {"coup": 2, "void": True}
    assert hand.transfers == [] and game.stack(0) == 899


def test_insurance_option_off() -> None:
    game = seated(1000, insurance=False)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=100)
    assert not any(t["kind"] == "insure" for t in game.legal_actions(0))


def test_house_cover_refuses_a_stake_it_cannot_pay() -> None:
    game = seated(1000, 1000, 1000)
    game.house_available = 150
    stack(game, ROUGE_WINS)
    game.start_hand()
    rouge = next(
        t for t in game.legal_actions(0) if t["params"].get("chance") == {"one_of": ["rouge"]}
    )
    assert rouge["params"]["amount"]["max"] == 150
    act(game, 0, "stake", chance="rouge", amount=100)
    # Noir pays only if rouge does not: the house risks the larger side, 100.
    noir = next(
        t for t in game.legal_actions(1) if t["params"].get("chance") == {"one_of": ["noir"]}
    )
    assert noir["params"]["amount"]["max"] == 150
    act(game, 1, "stake", chance="noir", amount=150)
    # The other pair can add only 150 - 150 = 0: no stake on couleur or inverse now.
    assert not any(
        t["params"].get("chance") == {"one_of": ["couleur"]} for t in game.legal_actions(2)
    )
    rouge = next(
        t for t in game.legal_actions(2) if t["params"].get("chance") == {"one_of": ["rouge"]}
    )
    assert rouge["params"]["amount"]["max"] == 50  # rouge may grow to noir's 150
    # Lowering is always possible, raising past the cover is not.
    game.house_available = 120
    rouge = next(
        t for t in game.legal_actions(0) if t["params"].get("chance") == {"one_of": ["rouge"]}
    )
    assert rouge["params"]["amount"]["max"] == 100
    noir = next(
        t for t in game.legal_actions(1) if t["params"].get("chance") == {"one_of": ["noir"]}
    )
    assert noir["params"]["amount"]["max"] == 150
    game.house_available = 5
    for seat in (0, 1, 2):
        act(game, seat, "done")
    assert not game.in_hand
    assert not game.can_start()  # the house cannot cover a smallest stake


def test_house_limit_is_the_largest_stake_the_house_covers() -> None:
    """Brute force: the limit is the largest amount keeping :func:`exposure` within cover."""
    rng = random.Random(5)
    for _ in range(400):
        totals = {
            c: rng.choice([0, 0, 10, 40, 70]) for c in ("rouge", "noir", "couleur", "inverse")
        }
        chance = rng.choice(list(totals))
        mine = rng.randint(0, totals[chance])
        available = rng.randint(0, 200)
        fits = [
            a
            for a in range(0, 300)
            if exposure({**totals, chance: totals[chance] - mine + a}) <= available
        ]
        assert house_limit(totals, chance, mine, available) == (max(fits) if fits else -1)


def test_house_limits_is_house_limit_on_every_chance() -> None:
    rng = random.Random(6)
    for _ in range(2000):
        chances = ("rouge", "noir", "couleur", "inverse")
        totals = {c: rng.choice([0, 0, 1, 10, 40, 70, 500]) for c in chances}
        available = rng.choice([-5, 0, 1, 10, 60, 100, 150, 1000, 10**15])
        limits = house_limits(totals, available)
        assert limits == {c: house_limit(totals, c, 0, available) for c in totals}


def test_a_bettor_is_offered_the_same_stakes_however_legal_is_worked_out() -> None:
    """Before anyone stakes, ``legal`` comes from templates kept across windows and bettors
    (:func:`.opening_legal`); they equal what the general case offers a bettor in the same
    position, and changing a returned list changes nothing the table offers."""
    game = seated(1000, 1000, 150, 5, min_stake=10, max_stake=400)
    game.house_available = 300
    stack(game, ROUGE_WINS)
    game.start_hand()
    opening = {seat: game.legal_actions(seat) for seat in range(4)}
    assert opening[0] == opening[1]
    assert [t["params"]["amount"]["max"] for t in opening[0]] == [300] * 4
    assert [t["params"]["amount"]["max"] for t in opening[2]] == [150] * 4
    assert opening[3] == []
    opening[0].clear()
    assert game.legal_actions(1) == opening[1] and game.legal_actions(0) == opening[1]
    # the same bettor with a stake in prison of theirs (the general case) is offered the same
    # stakes, besides moving it
    game.prison.append(PrisonStake(99, 1, "noir", 50, 1))
    game.last = {"tie": "un_apres"}  # the window after an un après: it may move
    game._touch()
    general = game.legal_actions(1)
    assert [t for t in general if t["kind"] == "stake"] == opening[1]
    assert [t["kind"] for t in general[4:]] == ["move_prison"]
    game.prison.clear()
    game._touch()
    act(game, 0, "stake", chance="rouge", amount=100)
    # Rouge 100 down: the house (300) would pay at most 100 there, so 200 more on Rouge, 300 on
    # Noir (then Rouge loses), and on Couleur or Inverse what is left beside the 100: 200
    assert [t["params"]["amount"]["max"] for t in game.legal_actions(1)[:4]] == [200, 300, 200, 200]


def test_every_event_of_a_coup_is_a_fresh_dict_in_both_logs() -> None:
    """The coup's events are logged whole (:meth:`~TrenteEtQuarante.log_event`): each a dict
    of its own, the same object in what the runtime takes and in the hand's record, with the
    keys in the order :meth:`Game.log` gives them."""
    game = seated(1000)
    stack(game, ROUGE_WINS)
    play(game, [(0, "rouge", 100)])
    taken = game.take_log()
    hand = game.take_completed()
    assert hand is not None
    assert all(a is b for a, b in zip(taken, hand.log, strict=True))
    assert len({id(event) for event in taken}) == len(taken)
    keys = {event["kind"]: list(event) for event in taken}
    assert keys["faites_vos_jeux"] == ["kind", "coup", "fr", "en"]
    assert keys["stake"] == ["kind", "seat", "chance", "amount"]
    assert keys["rien_ne_va_plus"] == ["kind", "fr", "en", "stakes"]
    assert keys["card"] == ["kind", "row", "card", "total"]
    assert keys["call"] == ["kind", "fr", "en"]
    announced = next(e for e in taken if e["kind"] == "rien_ne_va_plus")["stakes"]
    assert announced == [{"seat": 0, "chance": "rouge", "amount": 100, "insured": False}]
    assert hand.summary["stakes"] == [{**announced[0], "house": -100}]


# --------------------------------------------------------------------------- seats


def test_standing_bettors_and_the_view() -> None:
    game = new_game(seats=7)
    assert game.max_seats == 14  # the seats, then as many standing positions free
    game.sit(2, 500)
    game.sit(7, 300)  # a standing bettor
    stack(game, ROUGE_WINS)
    game.start_hand()
    act(game, 7, "stake", chance="noir", amount=100)
    view = game.view(None)
    assert [s["seat"] for s in view["seats"]] == [2]
    assert [(b["seat"], b["role"]) for b in view["bettors"]] == [(2, "player"), (7, "standing")]
    assert view["tableau"]["noir"] == {"stakes": 100, "prison": 0}
    assert view["bettors"][1]["hands"] == [
        {"cards": [], "stake": 100, "chance": "noir", "insured": False}
    ]
    assert view["phase"] == "betting" and "Faites vos jeux" in view["status"]
    json.dumps(view)
    close(game)
    assert game.stack(7) == 200


def test_leaving_drops_free_stakes_but_not_with_a_stake_in_prison() -> None:
    game = seated(1000, 1000)
    stack(game, UN_APRES, ROUGE_WINS)
    game.start_hand()
    act(game, 1, "stake", chance="rouge", amount=100)
    assert game.can_leave(1)
    assert game.leave(1) == 1000
    assert game.view(None)["tableau"]["rouge"]["stakes"] == 0
    act(game, 0, "stake", chance="rouge", amount=100)
    close(game)
    act(game, 0, "prison", chance="rouge")
    assert not game.can_leave(0)
    game.start_hand()
    close(game)
    assert game.can_leave(0) and game.stack(0) == 1000


def test_the_timer_closes_a_window_nobody_is_left_to_act_in() -> None:
    game = seated(1000, 1000)
    stack(game, ROUGE_WINS)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=100)
    act(game, 1, "stake", chance="noir", amount=100)
    act(game, 0, "done")
    game.leave(1)
    assert game.to_act() == set() and game.in_hand and game.timer() is not None
    assert game.timeout_actions() == [(0, {"kind": "close"})]
    close(game)
    assert not game.in_hand and game.stack(0) == 1100


def test_last_bettor_leaving_stops_the_countdown() -> None:
    game = seated(1000)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=100)
    first = game.timer()
    game.leave(0)
    assert game.timer() is None and game.to_act() == set()
    game.sit(3, 500)
    act(game, 3, "stake", chance="rouge", amount=100)
    assert game.timer() is not None and game.timer() != first


def test_can_start() -> None:
    game = new_game(min_stake=20)
    assert not game.can_start()
    game.sit(0, 19)
    assert not game.can_start()
    game.add_chips(0, 1)
    assert game.can_start()
    assert game.buy_in_limits() == (20, 1_000_000_000)


def test_options_and_their_errors() -> None:
    game = new_game()
    assert {o.name: o.default for o in game.OPTIONS} == {
        "start": "auto",  # the table's, common to every game
        "approval": False,  # the table's too (seats by approval)
        "decks": 6,
        "seats": 7,
        "min_stake": 10,
        "max_stake": 2000,
        "bet_seconds": 20,
        "insurance": True,
        "venice_rule": True,
        "max_apres": 3,
        "turn_seconds": 30,
        "time_bank_seconds": 30,
    }
    with pytest.raises(OptionError) as error:
        new_game(min_stake=50, max_stake=40)
    assert error.value.field == "max_stake"


def test_timers_follow_the_options() -> None:
    game = seated(1000, bet_seconds=5, turn_seconds=7)
    stack(game, UN_APRES)
    game.start_hand()
    act(game, 0, "stake", chance="rouge", amount=100)
    assert seconds(game) == 5
    close(game)
    assert seconds(game) == 7


# --------------------------------------------------------------------------- the shoe


def test_a_new_shoe_is_shuffled_and_five_cards_burned() -> None:
    seed = bytes(range(32))
    game = TrenteEtQuarante({"decks": 2}, seeds=lambda: seed)
    game.sit(0, 1000)
    game.start_hand()
    order = Shuffle.of(canonical_shoe(2), seed).order
    assert game.stock.cards == order[5:]
    log = game.take_log()
    burn = next(e for e in log if e["kind"] == "burn")
    assert burn["cards"] == order[:5] and burn["private_to"] == []
    assert Counter(order) == Counter(canonical_shoe(2))
    assert game.view(0)["shoe"] == {"decks": 2, "cards_left": 99, "coups": 0}


def venice_game(venice: bool) -> TrenteEtQuarante:
    """A stake of 100 in prison, then a coup that runs out of cards."""
    game = seated(1000, venice_rule=venice)
    game.stock.cards = [*coup_cards(UN_APRES), "TS", "TS", "TS"]
    play(game, [(0, "rouge", 100)])
    act(game, 0, "prison", chance="rouge")
    play(game, [(0, "noir", 100)])
    hand = game.take_completed()
    assert hand is not None and hand.summary["void"] and hand.transfers == []
    assert game.stack(0) == 900 and game.stock.cards == []
    assert game.view(None)["calls"] == [{"fr": "Coup nul", "en": "Void coup: the shoe ran out"}]
    assert [e["card"] for e in hand.log if e["kind"] == "card"] == ["TS", "TS", "TS"]
    game.start_hand()  # a new shoe
    assert any(e["kind"] == "shuffle" for e in game.take_log())
    assert len(game.stock.cards) == 6 * 52 - 5
    return game


def test_shoe_end_with_the_venice_rule_returns_the_stakes_in_prison() -> None:
    game = venice_game(True)
    assert game.prison == [] and game.stack(0) == 1000 and game.balances["prison:0"] == 0
    assert game.can_leave(0)


def test_shoe_end_without_the_venice_rule_keeps_them() -> None:
    game = venice_game(False)
    assert [(p.chance, p.level) for p in game.prison] == [("rouge", 1)]
    assert game.stack(0) == 900 and game.timer() is not None


def test_on_void_reshuffles() -> None:
    game = seated(1000)
    stack(game, ROUGE_WINS)
    game.on_void()
    game.start_hand()
    assert len(game.stock.cards) == 6 * 52 - 5


# --------------------------------------------------------------------------- persistence


def test_snapshot_restores_the_prison_and_the_shoe() -> None:
    game = seated(1000, 1000)
    stack(game, UN_APRES, RED_AND_INVERSE, BLACK_AND_COLOUR)
    play(game, [(0, "rouge", 100), (1, "couleur", 50)])
    act(game, 0, "prison", chance="rouge")
    act(game, 1, "prison", chance="couleur")
    data = json.loads(json.dumps(game.snapshot()))
    copy = new_game()
    for seat in game.seated:
        copy.sit(seat, game.stack(seat))
    for account in ("prison:0", "prison:1"):
        copy.balances[account] = game.balances[account]
    copy.restore(data)
    assert copy.snapshot() == data
    for table in (game, copy):
        table.start_hand()
        close(table)
    assert copy.view(0) == game.view(0)
    assert copy.balances == game.balances
    assert copy.snapshot() == game.snapshot()


def test_simulation_reports_its_figures() -> None:
    from app.simulate import simulate

    report = simulate("trente-et-quarante", hands=2000, seed=7)
    assert report["hands"] == 2000
    assert set(report["rows"]) == {str(t) for t in range(31, 41)}
    dealt = report["hands"] - report["void"]
    assert sum(report["rows"].values()) == 2 * dealt
    assert 0 < report["ties_31"] < report["ties"] < dealt
    assert report["chips_staked"] > 0 and report["chips_staked_insured"] > 0
    assert isinstance(report["house_result_per_chip"], float)
    assert isinstance(report["house_result_per_chip_insured"], float)
    rows = report["rows"]
    assert rows["31"] > rows["35"] > rows["40"]  # about 15%, 11% and 5% of the rows


def test_coup_of_builds_the_result() -> None:
    coup = Coup.of(["AH"], ["AS"], 31, 31)
    assert coup.tie == "un_apres" and coup.winning_chances == frozenset()
