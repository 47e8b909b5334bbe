"""Rule tests for Vingt-un (docs/rules.md §3), on stacked packs.

The deal order with the dealer in seat 0 and players in seats 1 and 2 is: a first card to
seat 1, seat 2, the dealer; then (after the stakes and the double call) a second card to seat
1, seat 2, the dealer; then the cards drawn, in the order they are asked for.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.core.actions import action_fits
from app.games.core.cards import deck, fixed_seeds
from app.games.core.options import OptionError
from app.games.vingt_un.engine import VingtUn
from app.games.vingt_un.scoring import is_soft, outcome, points

# ----------------------------------------------------------------------------- helpers


def table(stacks: dict[int, int], cards: list[str], **options: Any) -> VingtUn:
    """A table with these stacks and the pack stacked with ``cards`` (top first)."""
    game = VingtUn(options, seeds=fixed_seeds())
    for seat, stack in stacks.items():
        game.sit(seat, stack)
    game.stock.cards = list(cards)
    return game


def act(game: VingtUn, seat: int, kind: str, **params: Any) -> None:
    """Apply an action, checking first that it fits ``legal`` as the runtime does."""
    action = {"kind": kind, **params}
    assert action_fits(action, game.legal_actions(seat)), (action, game.legal_actions(seat))
    game.apply(seat, action)


def kinds(game: VingtUn, seat: int) -> set[str]:
    return {template["kind"] for template in game.legal_actions(seat)}


def total_chips(game: VingtUn) -> int:
    return sum(game.balances.values())


def visible_codes(view: Any) -> set[str]:
    """Every card code a view shows, wherever it is."""
    found: set[str] = set()
    if isinstance(view, dict):
        if "card" in view and isinstance(view["card"], str):
            found.add(view["card"])
        for value in view.values():
            found |= visible_codes(value)
    elif isinstance(view, list):
        for value in view:
            found |= visible_codes(value)
    return found


def transfers(game: VingtUn) -> list[tuple[str, str, int, str]]:
    done = game.take_completed()
    source = done.transfers if done is not None else game.transfers
    return [(t.source, t.target, t.amount, t.reason) for t in source]


def two_players(cards: list[str], **options: Any) -> VingtUn:
    """Dealer in seat 0 (1000 chips), players in seats 1 and 2 (1000 each), hand started."""
    game = table({0: 1000, 1: 1000, 2: 1000}, cards, **options)
    game.start_hand()
    return game


# ----------------------------------------------------------------------------- values


def test_points_count_aces_one_or_eleven() -> None:
    assert points(["AS", "KD"]) == 21
    assert points(["AS", "AD", "9C"]) == 21
    assert points(["AS", "AD", "9C", "TH"]) == 21
    assert points(["AS", "AD"]) == 12
    assert points(["KS", "QD", "5C"]) == 25
    assert points(["7S", "7D", "7C"]) == 21
    assert is_soft(["AS", "6D"]) and not is_soft(["AS", "6D", "KC"])


@pytest.mark.parametrize(
    ("dealer", "player", "times"),
    [
        (22, 21, 2),  # dealer over: a vingt-un is paid twice
        (22, 15, 1),  # dealer over: a standing hand is paid its stake
        (21, 21, -1),  # dealer's vingt-un against a vingt-un: one stake
        (21, 20, -2),  # dealer's vingt-un against anything else: twice
        (20, 21, 2),  # player's vingt-un against a dealer below 21: twice
        (18, 18, -1),  # equal: the dealer collects
        (19, 18, -1),
        (17, 18, 1),
    ],
)
def test_settlement_table(dealer: int, player: int, times: int) -> None:
    assert outcome(dealer, player)[0] == times


# ----------------------------------------------------------------------------- options


def test_options_and_defaults() -> None:
    game = VingtUn({})
    assert game.options == {
        "start": "auto",  # the table's, common to every game
        "approval": False,  # the table's too (seats by approval)
        "min_bet": 10,
        "max_bet": 100,
        "natural_takes_deal": True,
        "natural_paid_by_all": False,
        "max_split_hands": 4,
        "turn_seconds": 30,
        "time_bank_seconds": 30,
    }
    assert game.max_seats == 9
    assert game.buy_in_limits() == (40, 100_000)
    with pytest.raises(OptionError) as error:
        VingtUn({"min_bet": 50, "max_bet": 20})
    assert error.value.field == "max_bet"
    with pytest.raises(OptionError):
        VingtUn({"max_split_hands": 5})
    with pytest.raises(OptionError):
        VingtUn({"double_down": True})


# ----------------------------------------------------------------------------- the deal


def test_first_dealer_is_lowest_seat_and_play_goes_to_the_left() -> None:
    game = table({2: 1000, 5: 1000, 7: 1000}, [])
    assert game.can_start()
    assert game.next_dealer() == 2
    assert game.left_of(2) == [5, 7]
    assert game.left_of(5) == [7, 2]
    game.start_hand()
    assert game.hand_dealer == 2 and game.players == [5, 7]
    assert game.to_act() == {5}
    assert game.view(None)["seats"][0]["role"] == "dealer"


def test_first_cards_face_down_then_the_dealers() -> None:
    game = two_players(["2S", "3S", "4S", "5S", "6S", "7S"])
    assert [h.cards for h in game.hands[1]] == [["2S"]]
    assert game.hands[2][0].cards == ["3S"]
    assert game.dealer_hand is not None and game.dealer_hand.cards == ["4S"]
    # each sees their own card only
    assert visible_codes(game.view(1)) == {"2S"}
    assert visible_codes(game.view(0)) == {"4S"}
    assert visible_codes(game.view(None)) == set()
    deals = [e for e in game.take_log() if e["kind"] == "deal"]
    assert [(e["seat"], e["card"], e["private_to"]) for e in deals] == [
        (1, "2S", [1]),
        (2, "3S", [2]),
        (0, "4S", [0]),
    ]


def test_not_enough_players() -> None:
    game = table({0: 1000}, [])
    assert not game.can_start()
    game.sit(1, 39)  # cannot cover the minimum four times over
    assert not game.can_start()
    game.add_chips(1, 1)
    assert game.can_start()


# ----------------------------------------------------------------------------- staking


def test_stake_limits_and_timeout_default() -> None:
    game = table({0: 1000, 1: 200, 2: 1000}, ["2S", "3S", "4S"] + ["5S"] * 3)
    game.start_hand()
    assert game.legal_actions(1) == [
        {"kind": "stake", "params": {"amount": {"min": 10, "max": 50}}}
    ]
    assert game.legal_actions(2) == [] and game.legal_actions(0) == []
    assert game.default_action(1) == {"kind": "stake", "amount": 10}
    for seat, action in game.timeout_actions():
        game.apply(seat, action)
    assert game.hands[1][0].stake == 10
    assert game.legal_actions(2)[0]["params"]["amount"] == {"min": 10, "max": 100}
    assert not action_fits({"kind": "stake", "amount": 101}, game.legal_actions(2))
    assert not action_fits({"kind": "stake", "amount": 9}, game.legal_actions(2))


def test_bank_covers_four_times_the_stakes_cut_and_sit_out() -> None:
    """Dealer with 100 chips: 20 staked (80 covered), the next stake cut to 5, then nothing."""
    game = table({0: 100, 1: 1000, 2: 1000, 3: 1000}, ["2S", "3S", "4S", "5S"])
    game.start_hand()
    assert game.view(1)["cover"] == 25
    act(game, 1, "stake", amount=20)
    assert game.view(2)["cover"] == 5
    act(game, 2, "stake", amount=20)
    assert game.hands[2][0].stake == 5
    assert "Seat 2's stake is cut to 5: the bank covers no more" in game.view(2)["calls"]
    assert any(e["kind"] == "stake_cut" and e["stake"] == 5 for e in game.take_log())
    # nothing left to cover: seat 3 sits this hand out, its card on the pile
    assert game.sitting_out == [3] and 3 not in game.hands
    assert game.legal_actions(3) == []
    assert game.pile == ["4S"]
    assert game.to_act() == {0} and game.phase == "double"
    assert game.can_leave(3) and not game.can_leave(1) and not game.can_leave(0)


def test_dealer_natural_after_a_double_collects_four_stakes() -> None:
    """The 4× cover holds: a doubled stake paid twice is exactly what the bank covered."""
    cards = ["5C", "7C", "AS", "9D", "8D", "KH"]
    game = table({0: 100, 1: 1000, 2: 1000}, cards)
    chips = total_chips(game)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 2, "stake", amount=15)
    assert kinds(game, 0) == {"double", "no_double"}
    assert game.default_action(0) == {"kind": "no_double"}
    act(game, 0, "double")
    assert not game.in_hand
    assert game.stack(1) == 1000 - 40 and game.stack(2) == 1000 - 60
    assert game.stack(0) == 200
    assert transfers(game) == [
        ("seat:1", "seat:0", 40, "dealer's natural"),
        ("seat:2", "seat:0", 60, "dealer's natural"),
    ]
    assert total_chips(game) == chips
    # the dealer's natural is shown; the players' cards are not
    assert {"AS", "KH"} <= visible_codes(game.view(None))
    assert not {"5C", "9D", "7C", "8D"} & visible_codes(game.view(None))
    assert game.dealer == 0  # a dealer's natural keeps the deal


def test_bank_cover_holds_when_a_doubled_natural_is_paid() -> None:
    """Dealer with 100: stakes 20 and 5 (cut), doubled to 40 and 10, both naturals: pays 100."""
    cards = ["AS", "AH", "9C", "KS", "QH", "7C"]
    game = table({0: 100, 1: 1000, 2: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=20)
    act(game, 2, "stake", amount=20)
    act(game, 0, "double")
    assert [h.stake for h in (game.hands[1][0], game.hands[2][0])] == [40, 10]
    assert not game.in_hand
    assert game.stack(0) == 0
    assert game.stack(1) == 1080 and game.stack(2) == 1020


def test_natural_against_natural_neither_pays() -> None:
    cards = ["AD", "9S", "AS", "TD", "9H", "KH"]
    game = two_players(cards)
    act(game, 1, "stake", amount=30)
    act(game, 2, "stake", amount=10)
    act(game, 0, "no_double")
    assert transfers(game) == [("seat:2", "seat:0", 20, "dealer's natural")]
    assert game.view(2)["seats"][1]["hands"][0] == {
        "cards": [{"card": "AD", "up": True}, {"card": "TD", "up": True}],
        "stake": 30,
        "state": "natural",
        "total": 21,
        "result": 0,
    }


# ----------------------------------------------------------------------------- naturals


def test_player_natural_paid_twice_and_the_deal_passes() -> None:
    cards = ["AD", "9S", "5S", "TD", "9H", "KH"]
    game = two_players(cards)
    act(game, 1, "stake", amount=30)
    act(game, 2, "stake", amount=10)
    act(game, 0, "no_double")
    assert game.stack(1) == 1060 and game.stack(0) == 940
    assert "Seat 1 has a natural vingt-un" in game.calls
    assert {"AD", "TD"} <= visible_codes(game.view(2))  # shown
    assert game.to_act() == {2}  # seat 1's hand is done
    act(game, 2, "stand")
    assert game.phase == "dealer"
    act(game, 0, "stand")  # 15 against 18: the dealer pays
    assert not game.in_hand
    assert game.stack(2) == 1010
    assert game.dealer == 1 and game.next_dealer() == 1
    assert game.take_completed() is not None


def test_natural_does_not_take_the_deal_when_the_option_is_off() -> None:
    cards = ["AD", "9S", "5S", "TD", "9H", "KH"]
    game = two_players(cards, natural_takes_deal=False)
    act(game, 1, "stake", amount=30)
    act(game, 2, "stake", amount=10)
    act(game, 0, "no_double")
    act(game, 2, "stand")
    act(game, 0, "stand")
    assert game.dealer == 0


def test_natural_paid_by_all() -> None:
    cards = ["AD", "9S", "5S", "TD", "9H", "KH"]
    game = two_players(cards, natural_paid_by_all=True)
    act(game, 1, "stake", amount=30)
    act(game, 2, "stake", amount=10)
    act(game, 0, "double")
    assert transfers(game) == [
        ("seat:0", "seat:1", 120, "natural paid twice"),
        ("seat:2", "seat:1", 20, "natural paid by all"),
    ]


def test_natural_paid_by_all_only_as_far_as_the_stack_allows() -> None:
    """Seat 2 (40 chips) stakes 10, doubled to 20; its hand may still cost 40: it pays 0."""
    cards = ["AD", "9S", "5S", "TD", "9H", "KH", "KC"]
    game = table({0: 1000, 1: 1000, 2: 40}, cards, natural_paid_by_all=True)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 2, "stake", amount=10)
    act(game, 0, "double")
    assert "Seat 2 can pay seat 1 only 0" in game.calls
    assert game.stack(2) == 40
    act(game, 2, "draw")  # 18 + K: over, pays 20
    assert game.stack(2) == 20


# ----------------------------------------------------------------------------- splits


def test_split_to_four_hands() -> None:
    cards = [
        "8S",  # seat 1
        "5C",  # dealer
        "8H",  # seat 1
        "6D",  # dealer: 11
        "8D",  # split 1: hand 0 [8S 8D]
        "8C",  # split 1: hand 1 [8H 8C]
        "2C",  # split 2: hand 0 [8S 2C]
        "3C",  # split 2: hand 2 [8D 3C]
        "TC",  # hand 0 draws: 20
        "4C",  # split 3: hand 1 [8H 4C]
        "5H",  # split 3: hand 3 [8C 5H]
        "9H",  # dealer draws: 20
    ]
    game = table({0: 1000, 1: 1000}, cards)
    chips = total_chips(game)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    assert kinds(game, 1) == {"draw", "stand", "split"}
    split = next(t for t in game.legal_actions(1) if t["kind"] == "split")
    assert split["params"]["amount"] == {"min": 10, "max": 100}
    act(game, 1, "split", amount=20)
    assert [h.cards for h in game.hands[1]] == [["8S", "8D"], ["8H", "8C"]]
    act(game, 1, "split", amount=30)
    assert game.turn_hand == 0 and "split" not in kinds(game, 1)
    act(game, 1, "draw")
    act(game, 1, "stand")
    assert game.turn_hand == 1
    act(game, 1, "split", amount=40)
    assert len(game.hands[1]) == 4
    assert "split" not in kinds(game, 1)
    for _ in range(3):
        act(game, 1, "stand")
    assert game.phase == "dealer"
    act(game, 0, "draw")
    act(game, 0, "stand")
    view = game.view(None)["seats"][1]["hands"]
    assert [h["stake"] for h in view] == [10, 20, 30, 40]
    assert [h["result"] for h in view] == [-10, -20, -30, -40]
    assert total_chips(game) == chips
    assert game.stack(1) == 900
    assert game.take_completed().summary["splits"] == 3  # type: ignore[union-attr]


def test_split_hands_keep_their_first_two_cards_face_down() -> None:
    cards = ["8S", "5C", "8H", "6D", "2D", "KC", "KH"]
    game = table({0: 1000, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    act(game, 1, "split", amount=10)
    assert visible_codes(game.view(0)) == {"5C", "6D"}
    assert visible_codes(game.view(1)) == {"8S", "8H", "2D", "KC"}
    log = game.take_log()
    split = next(e for e in log if e["kind"] == "split")
    assert split["private_to"] == [1] and split["card"] == "8H"


@pytest.mark.parametrize(("limit", "splits"), [(1, 0), (2, 1), (3, 2)])
def test_max_split_hands(limit: int, splits: int) -> None:
    cards = ["8S", "5C", "8H", "6D", "8D", "8C", "2C", "3C"]
    game = table({0: 1000, 1: 1000}, cards, max_split_hands=limit)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    for _ in range(splits):
        act(game, 1, "split", amount=10)
    assert len(game.hands[1]) == splits + 1
    while game.to_act() == {1}:
        assert "split" not in kinds(game, 1)
        act(game, 1, "stand")
    assert game.phase == "dealer"


def test_split_stake_is_doubled_and_covered() -> None:
    """After a double, the split stake doubles too; both stacks must cover twice it."""
    cards = ["8S", "5C", "8H", "6D", "2D", "3D"]
    game = table({0: 1000, 1: 200}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=50)  # stake 50 of 200, doubled to 100: may cost 200
    act(game, 0, "double")
    assert "split" not in kinds(game, 1)  # nothing left to cover a second hand
    game = table({0: 1000, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "double")
    act(game, 1, "split", amount=15)
    assert [h.stake for h in game.hands[1]] == [20, 30]


def test_split_stake_cut_to_the_bank_cover() -> None:
    cards = ["8S", "5C", "8H", "6D", "2D", "3D"]
    game = table({0: 60, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")  # the hand may cost the bank 20 of its 60: 40 free
    act(game, 1, "split", amount=50)
    assert game.hands[1][1].stake == 20
    assert "Seat 1's split stake is cut to 20: the bank covers no more" in game.calls


def test_ace_and_ten_on_a_split_hand_is_a_drawn_vingt_un() -> None:
    """Against the dealer's drawn 21 it pays one stake; a 20 pays two."""
    cards = ["AS", "9S", "AH", "7D", "KD", "9C", "5H"]
    game = table({0: 1000, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    act(game, 1, "split", amount=10)
    assert [h.cards for h in game.hands[1]] == [["AS", "KD"], ["AH", "9C"]]
    assert not game.hands[1][0].is_natural
    assert game.to_act() == {1} and game.turn_hand == 0  # no payment, still to play
    act(game, 1, "stand")
    act(game, 1, "stand")
    act(game, 0, "draw")  # 16 + 5 = 21: the dealer stands on vingt-un
    assert not game.in_hand
    assert transfers(game) == [
        ("seat:1", "seat:0", 10, "dealer's vingt-un against a vingt-un"),
        ("seat:1", "seat:0", 20, "dealer's vingt-un"),
    ]


# ----------------------------------------------------------------------------- play


def play_out(
    player: list[str], dealer: list[str], draws: int, dealer_draws: int, stake: int = 10
) -> VingtUn:
    """Seat 1 against the dealer (seat 0): ``player`` and ``dealer`` are the two-card hands
    followed by the cards each will draw; seat 1 draws ``draws`` times, the dealer
    ``dealer_draws`` times; both then stand if the hand is still going."""
    cards = [player[0], dealer[0], player[1], dealer[1], *player[2:], *dealer[2:]]
    game = table({0: 1000, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=stake)
    act(game, 0, "no_double")
    for _ in range(draws):
        act(game, 1, "draw")
    if game.to_act() == {1}:
        act(game, 1, "stand")
    for _ in range(dealer_draws):
        act(game, 0, "draw")
    if game.in_hand:
        act(game, 0, "stand")
    assert not game.in_hand
    return game


@pytest.mark.parametrize(
    ("player", "dealer", "draws", "dealer_draws", "result", "reason"),
    [
        (["7S", "7D", "7C"], ["TS", "9D"], 1, 0, 20, "vingt-un paid twice"),
        (["TS", "QD"], ["7S", "7D", "7C"], 0, 1, -20, "dealer's vingt-un"),
        (["7S", "7D", "7C"], ["5S", "6D", "TC"], 1, 1, -10, "dealer's vingt-un against a vingt-un"),
        (["7S", "7D", "7C"], ["TS", "6D", "9C"], 1, 1, 20, "dealer over 21, vingt-un paid twice"),
        (["TS", "8D"], ["TC", "6D", "9C"], 0, 1, 10, "dealer over 21"),
        (["TS", "8D"], ["9S", "9D"], 0, 0, -10, "dealer equal or higher"),
        (["TS", "8D"], ["9S", "TD"], 0, 0, -10, "dealer equal or higher"),
        (["TS", "9D"], ["9S", "8D"], 0, 0, 10, "higher than the dealer"),
    ],
)
def test_settlement_against_the_dealer(
    player: list[str],
    dealer: list[str],
    draws: int,
    dealer_draws: int,
    result: int,
    reason: str,
) -> None:
    game = play_out(player, dealer, draws, dealer_draws)
    assert game.hands[1][0].result == result
    assert transfers(game)[-1][2:] == (abs(result), reason)
    assert game.stack(1) == 1000 + result and game.stack(0) == 1000 - result


def test_over_21_pays_at_once_and_its_first_two_cards_are_never_shown() -> None:
    cards = ["KS", "9C", "8D", "5H", "9S", "2H", "2C", "TD"]
    game = two_players(cards)
    act(game, 1, "stake", amount=10)
    act(game, 2, "stake", amount=20)
    act(game, 0, "no_double")
    act(game, 1, "draw")  # 15 + 2 = 17
    act(game, 1, "draw")  # 27: over
    assert game.hands[1][0].over
    assert game.stack(1) == 990 and game.stack(0) == 1010
    assert game.pile == ["KS", "5H", "2C", "TD"]
    for viewer in (0, 2, None):
        seat1 = game.view(viewer)["seats"][1]["hands"][0]
        assert seat1["cards"] == [{"card": None, "up": False}] * 4
        assert "total" not in seat1 and seat1["state"] == "over"
    own = game.view(1)["seats"][1]["hands"][0]["cards"]
    assert own == [{"card": c, "up": False} for c in ["KS", "5H", "2C", "TD"]]
    act(game, 2, "stand")
    act(game, 0, "stand")
    done = game.take_completed()
    assert done is not None
    for event in done.log:
        shown = {event.get("card")} | set(event.get("cards", []))
        if {"KS", "5H"} & shown:
            assert event.get("private_to") == [1], event
    for viewer in (0, 2, None):
        assert not {"KS", "5H"} & visible_codes(game.view(viewer))


def test_dealer_shows_both_cards_and_draws_below_17_on_timeout() -> None:
    cards = ["TS", "9C", "8H", "7D", "5D", "KD"]
    game = table({0: 1000, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    assert game.default_action(1) == {"kind": "stand"}
    for seat, action in game.timeout_actions():
        game.apply(seat, action)
    assert game.phase == "dealer"
    assert {"9C", "7D"} <= visible_codes(game.view(None))
    assert game.default_action(0) == {"kind": "draw"}  # 16
    for seat, action in game.timeout_actions():
        game.apply(seat, action)
    assert game.dealer_hand is not None and game.dealer_hand.cards == ["9C", "7D", "5D"]
    assert not game.in_hand  # 21: the dealer stands at once


def test_dealer_does_not_play_when_no_hand_stands() -> None:
    cards = ["TS", "9C", "8H", "7D", "KD"]
    game = table({0: 1000, 1: 1000}, cards)
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    act(game, 1, "draw")
    assert not game.in_hand
    assert not {"9C", "7D"} & visible_codes(game.view(None))


def test_timer_key_changes_with_each_decision() -> None:
    game = two_players(["2S", "3S", "4S", "5S", "6S", "7S", "8S"])
    first = game.timer()
    assert first is not None and first.seconds == 30
    assert game.timer() == first
    act(game, 1, "stake", amount=10)
    second = game.timer()
    assert second is not None and second.key != first.key
    act(game, 2, "stake", amount=10)
    act(game, 0, "no_double")
    assert game.to_act() == {1}
    assert game.timer() is not None
    quick = table({0: 1000, 1: 1000}, [], turn_seconds=5)
    assert quick.timer() is None  # between hands nobody is waited for
    quick.start_hand()
    timer = quick.timer()
    assert timer is not None and timer.seconds == 5


def test_pack_runs_out_mid_hand_the_pile_is_shuffled() -> None:
    game = table({0: 1000, 1: 1000}, ["TS", "9C", "2H", "7D"])
    game.pile = ["3C", "4C", "5C"]
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    assert game.cards_left() == 3
    game.take_log()
    act(game, 1, "draw")
    log = game.take_log()
    assert log[0]["kind"] == "shuffle" and log[0]["cards"] == 3
    assert game.hands[1][0].cards[2] in {"3C", "4C", "5C"}
    assert game.pile == [] and len(game.stock) == 2
    assert "The pile is shuffled into a new pack" in game.calls


def test_no_card_left_hands_can_only_stand() -> None:
    game = table({0: 1000, 1: 1000}, ["2S", "9C", "2H", "7D"])
    game.start_hand()
    act(game, 1, "stake", amount=10)
    act(game, 0, "no_double")
    assert game.cards_left() == 0
    assert kinds(game, 1) == {"stand"}  # the pair cannot be split either
    act(game, 1, "stand")
    assert kinds(game, 0) == {"stand"}
    assert game.default_action(0) == {"kind": "stand"}


def test_first_shuffle_is_a_full_pack() -> None:
    game = table({0: 1000, 1: 1000}, [])
    game.start_hand()
    assert game.cards_left() == 50
    assert game.stock.shuffle is not None and len(game.stock.shuffle.source) == 52


# ----------------------------------------------------------------------------- the deal


def test_dealer_who_runs_out_of_chips_passes_the_deal() -> None:
    cards = ["AD", "9S", "TD", "KC", "5H"]
    game = table({0: 8, 1: 1000, 2: 1000}, cards, natural_takes_deal=False)
    game.start_hand()
    act(game, 1, "stake", amount=10)  # cut to 2
    assert game.hands[1][0].stake == 2
    assert game.sitting_out == [2]
    act(game, 0, "double")
    assert game.stack(0) == 0
    assert not game.in_hand
    assert game.dealer == 1
    assert game.take_completed().summary["deal_passed"]  # type: ignore[union-attr]


def test_dealer_who_leaves_passes_the_deal_to_the_left() -> None:
    game = table({0: 1000, 1: 1000, 2: 1000}, [])
    assert game.next_dealer() == 0
    game.start_hand()
    assert not game.can_leave(0)
    while game.in_hand:
        seat = min(game.to_act())
        game.apply(seat, game.default_action(seat))
    game.dealer = 2
    game.leave(2)
    assert game.dealer == 0
    game.sit(2, 1000)  # a newcomer in the old dealer's seat does not take the deal
    assert game.next_dealer() == 0


def test_snapshot_and_restore_continue_the_table() -> None:
    first = table({0: 1000, 1: 1000, 2: 1000}, [])
    first.start_hand()
    while first.in_hand:
        seat = min(first.to_act())
        first.apply(seat, first.default_action(seat))
    data = json.loads(json.dumps(first.snapshot()))
    second = VingtUn({}, seeds=fixed_seeds())
    for seat in first.seated:
        second.sit(seat, first.stack(seat))
    second.restore(data)
    assert second.snapshot() == first.snapshot()
    for game in (first, second):
        game.take_log()
        game.start_hand()
        while game.in_hand:
            seat = min(game.to_act())
            game.apply(seat, game.default_action(seat))
    assert first.snapshot() == second.snapshot()
    assert first.balances == second.balances


def test_on_void_reshuffles_the_whole_pack() -> None:
    game = table({0: 1000, 1: 1000}, [])
    data = game.snapshot()
    game.start_hand()
    before = game.stock.shuffle
    while game.in_hand:
        seat = min(game.to_act())
        game.apply(seat, game.default_action(seat))
    game.restore(data)
    game.on_void()
    assert game.pile == [] and len(game.stock) == 52
    assert game.stock.shuffle is not None and game.stock.shuffle is not before
    assert sorted(game.stock.cards) == sorted(deck())
