"""Rule tests for Trianta Ena (docs/rules.md §1) on stacked decks.

The deal order the engine documents: each dealt-in player's face-down card in seat order, the
banker's up card; after the betting window each staking player's two face-up cards in turn, then
the banker's face-down card; then hits in turn order, then the banker's draws.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.games.core.actions import action_fits
from app.games.core.cards import canonical_shoe, fixed_seeds
from app.games.core.errors import RuleError
from app.games.core.options import OptionError, parse_options
from app.games.core.registry import game_class
from app.games.trianta_ena.bot import bet_amount, folds, hit_below, takes_bank
from app.games.trianta_ena.engine import TriantaEna
from app.games.trianta_ena.scoring import is_natural, settle, value
from app.games.trianta_ena.stats import TriantaEnaStats
from app.simulate import simulate

# --------------------------------------------------------------------------- helpers


def table(players: int = 2, **options: Any) -> TriantaEna:
    """A table whose first sitter (seat 0) is the banker, then ``players`` players."""
    game = TriantaEna(options, seeds=fixed_seeds())
    for seat in range(players + 1):
        game.sit(seat, game.buy_in_limits(seat)[0])
    game.take_log()
    return game


def stack_deck(game: TriantaEna, *cards: str) -> None:
    """Put ``cards`` on top of the stock, dealt first to last (nothing under them)."""
    game.stock.cards = list(cards)


def act(game: TriantaEna, seat: int, kind: str, **params: Any) -> None:
    action = {"kind": kind, **params}
    assert action_fits(action, game.legal_actions(seat)), (action, game.legal_actions(seat))
    game.apply(seat, action)


def events(game: TriantaEna, kind: str) -> list[dict[str, Any]]:
    return [event for event in game._hand_log if event["kind"] == kind]


def hand_view(view: dict[str, Any], seat: int) -> dict[str, Any]:
    entry = next(entry for entry in view["seats"] if entry["seat"] == seat)
    hands: list[dict[str, Any]] = entry["hands"]
    return hands[0]


def codes(hand: dict[str, Any]) -> list[str | None]:
    return [card["card"] for card in hand["cards"]]


def total_chips(game: TriantaEna) -> int:
    return sum(game.balances.values())


# --------------------------------------------------------------------------- options and seats


def test_options_defaults_and_checks() -> None:
    options = parse_options(TriantaEna.OPTIONS, {})
    assert options == {
        "start": "auto",  # the table's, common to every game
        "approval": False,  # the table's too (seats by approval)
        "max_players": 7,
        "decks": 2,
        "min_bet": 1,
        "max_bet": None,
        "buy_in": 100,
        "banker_multiple": 3,
        "ace_rule": "at_most_one_low",
        "dealer_stands_on": 27,
        "natural_cards": "face",
        "turn_seconds": 30,
        "time_bank_seconds": 30,
        "bet_seconds": 20,
    }
    assert game_class("trianta-ena") is TriantaEna
    assert TriantaEna({}).max_seats == 8
    assert TriantaEna({"max_players": 9}).max_seats == 10
    with pytest.raises(OptionError) as too_big:
        TriantaEna({"min_bet": 101})
    assert too_big.value.field == "min_bet"
    with pytest.raises(OptionError) as below:
        TriantaEna({"min_bet": 10, "max_bet": 5})
    assert below.value.field == "max_bet"
    with pytest.raises(OptionError):
        TriantaEna({"natural_cards": "aces"})
    with pytest.raises(OptionError):
        TriantaEna({"max_players": 10})


def test_first_sitter_is_the_banker_and_brings_three_buy_ins() -> None:
    game = TriantaEna({"buy_in": 50}, seeds=fixed_seeds())
    assert game.buy_in_limits() == (150, 150)
    assert game.buy_in_limits(4) == (150, 150)
    game.sit(4, 150)
    assert game.banker == 4
    assert game.buy_in_limits() == (50, 50)
    game.sit(0, 50)
    assert game.banker == 4
    assert game.can_start()
    assert game.view(None)["seats"][1]["role"] == "banker"


def test_no_round_without_a_player_who_can_bet() -> None:
    game = TriantaEna({"min_bet": 10}, seeds=fixed_seeds())
    assert not game.can_start()
    game.sit(0, 300)
    assert not game.can_start()
    game.sit(1, 100)
    assert game.can_start()
    game.balances["seat:1"] = 9  # cannot make the minimum bet
    assert not game.can_start()


# --------------------------------------------------------------------------- the deal and bets


def test_deal_hides_each_players_card_from_everyone_else() -> None:
    game = table(players=2)
    stack_deck(game, "7S", "AH", "KD", "2C")
    game.start_hand()
    assert game.phase() == "betting"
    mine, theirs, spectator = game.view(1), game.view(2), game.view(None)
    assert codes(hand_view(mine, 1)) == ["7S"]
    assert codes(hand_view(theirs, 1)) == [None]
    assert codes(hand_view(spectator, 2)) == [None]
    assert codes(hand_view(theirs, 2)) == ["AH"]
    assert hand_view(mine, 1)["cards"][0]["up"] is False
    assert codes(hand_view(spectator, 0)) == ["KD"]
    assert spectator["up_card"] == {"card": "KD", "up": True}
    deals = events(game, "deal")
    assert deals[0] == {"kind": "deal", "seat": 1, "private_to": [1], "card": "7S", "up": False}
    assert deals[2] == {"kind": "deal", "seat": 0, "card": "KD", "up": True}


def test_betting_window_is_simultaneous_and_exact() -> None:
    game = table(players=3, min_bet=5, max_bet=40)
    game.start_hand()
    assert game.to_act() == {1, 2, 3}
    bet = game.legal_actions(2)[0]
    assert bet == {"kind": "bet", "params": {"amount": {"min": 5, "max": 40}}}
    assert not action_fits({"kind": "bet", "amount": 41}, game.legal_actions(2))
    assert not action_fits({"kind": "bet", "amount": 4}, game.legal_actions(2))
    assert not action_fits({"kind": "bet"}, game.legal_actions(2))
    assert not action_fits({"kind": "fold", "amount": 5}, game.legal_actions(2))
    assert not action_fits({"kind": "hit"}, game.legal_actions(2))
    assert game.legal_actions(0) == []  # the banker does not bet
    act(game, 3, "bet", amount=40)
    assert game.to_act() == {1, 2}
    assert game.legal_actions(3) == []
    key = game.timer()
    act(game, 1, "fold")
    assert game.timer() == key  # a bet inside the window does not restart its clock
    assert key is not None and key.seconds == 20
    assert game.timeout_actions() == [(2, {"kind": "fold"})]
    game.apply(2, {"kind": "fold"})
    assert game.phase() == "playing"
    assert game.balances["bets:3"] == 40
    assert game.stack(3) == 60


def test_max_bet_is_capped_by_the_stack() -> None:
    game = table(players=1, max_bet=500)
    game.start_hand()
    assert game.legal_actions(1)[0]["params"]["amount"] == {"min": 1, "max": 100}


def test_betting_times_out_to_fold_and_the_round_ends_without_cards() -> None:
    game = table(players=2)
    stack_deck(game, "7S", "AH", "KD")
    game.start_hand()
    for seat, action in game.timeout_actions():
        game.apply(seat, action)
    done = game.take_completed()
    assert done is not None and not game.in_hand
    assert done.transfers == []
    assert done.summary["stakes"] == 0
    assert sorted(game.discard) == ["7S", "AH", "KD"]
    # the folded cards are never shown
    assert codes(hand_view(game.view(2), 1)) == [None]


def test_coverage_is_allotted_in_seat_order_and_cut_bets_are_told() -> None:
    game = table(players=3, banker_multiple=1)  # the bank holds 100
    stack_deck(game, "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS")
    game.start_hand()
    act(game, 3, "bet", amount=40)
    act(game, 1, "bet", amount=70)
    act(game, 2, "bet", amount=50)
    hands = game.round.hands if game.round else {}
    assert [hands[s].stake for s in (1, 2, 3)] == [70, 30, 0]
    assert events(game, "stake_cut") == [{"kind": "stake_cut", "seat": 2, "bet": 50, "stake": 30}]
    assert events(game, "stake_refused") == [{"kind": "stake_refused", "seat": 3, "bet": 40}]
    view = game.view(None)
    assert "cut from 50 to 30" in hand_view(view, 2)["note"]
    assert hand_view(view, 3)["status"] == "refused"
    assert len(view["messages"]) == 2
    assert game.stack(2) == 70 and game.stack(3) == 100
    # seat 3 gets no more cards; 1 and 2 get two each, then the banker's face-down card
    assert codes(hand_view(game.view(3), 3)) == ["4S"]
    assert codes(hand_view(game.view(1), 1)) == ["2S", "6S", "7S"]
    assert codes(hand_view(game.view(2), 2)) == ["3S", "8S", "9S"]
    assert game.round is not None and game.round.banker_cards == ["5S", "TS"]


# --------------------------------------------------------------------------- the hole card


def test_banker_face_down_card_is_seen_by_nobody_until_turned() -> None:
    game = table(players=1)
    stack_deck(game, "9H", "KD", "TH", "5C", "QS", "8D")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    for viewer in (0, 1, None):
        banker = hand_view(game.view(viewer), 0)
        assert codes(banker) == ["KD", None]
        assert banker["value"] is None
        assert "QS" not in repr(game.view(viewer))
    hole = [e for e in events(game, "deal") if e["seat"] == 0][1]
    assert hole["private_to"] == [] and hole["card"] == "QS"
    act(game, 1, "stand")  # 24 stands; the banker turns QS: 20, draws 8D: 28
    banker = hand_view(game.view(None), 0)
    assert codes(banker) == ["KD", "QS", "8D"]
    assert banker["value"] == 28
    assert codes(hand_view(game.view(None), 1)) == ["9H", "TH", "5C"]  # shown at settlement


# --------------------------------------------------------------------------- players' turns


def test_players_act_in_seat_order_and_bust_loses_at_once() -> None:
    game = table(players=2)
    # downs 1:TS 2:9H, banker up 7C; seat 1: 8D 5S (23), seat 2: 4C 3C (16); hole 9D
    stack_deck(game, "TS", "9H", "7C", "8D", "5S", "4C", "3C", "9D", "KH", "2H", "QH", "TC", "5D")
    game.start_hand()
    act(game, 1, "bet", amount=20)
    act(game, 2, "bet", amount=30)
    assert game.to_act() == {1}
    assert game.legal_actions(2) == []
    assert not action_fits({"kind": "hit"}, game.legal_actions(2))
    first = game.timer()
    act(game, 1, "hit")  # KH: 33, bust
    assert game.stack(0) == 320  # paid at once
    assert game.balances["bets:1"] == 0
    assert hand_view(game.view(2), 1)["status"] == "bust"
    assert codes(hand_view(game.view(None), 1)) == ["TS", "8D", "5S", "KH"]
    assert game.to_act() == {2}
    assert game.timer() != first
    act(game, 2, "hit")  # 2H: 18
    timer = game.timer()
    act(game, 2, "hit")  # QH: 28
    assert game.timer() != timer  # each decision has its own clock
    assert game.default_action(2) == {"kind": "stand"}
    game.apply(2, game.default_action(2))
    # banker 7C 9D = 16, draws TC = 26 and 5D = 31: beats 28
    done = game.take_completed()
    assert done is not None
    assert [t.reason for t in done.transfers] == [
        "stake placed",
        "stake placed",
        "stake lost (bust)",
        "stake lost (lower)",
    ]
    assert (game.stack(0), game.stack(1), game.stack(2)) == (350, 80, 70)


def test_31_stands_and_natural_beats_plain_31() -> None:
    """A player on 31 stands (docs/rules.md §1.5): ``stand`` is all they are offered, and
    they send it themselves; nothing tells the table before that (§0.8)."""
    game = table(players=2)
    # 1: AS KD QH natural; 2: 9C 2D KS (21) then TD -> 31; banker 5H hole 6H draw KC: 21, 9S: 30
    stack_deck(game, "AS", "9C", "5H", "KD", "QH", "2D", "KS", "6H", "TD", "KC", "9S")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 2, "bet", amount=10)
    assert game.to_act() == {1}  # seat 1 is on its natural: its turn like anyone's
    assert game.legal_actions(1) == [{"kind": "stand", "params": {}}]
    assert hand_view(game.view(1), 1)["natural"] is True
    assert hand_view(game.view(2), 1)["natural"] is False  # its face-down card is hidden
    assert hand_view(game.view(2), 1)["status"] == hand_view(game.view(None), 2)["status"]
    act(game, 1, "stand")
    act(game, 2, "hit")  # TD: 31, and stand is all seat 2 may do
    assert game.legal_actions(2) == [{"kind": "stand", "params": {}}]
    act(game, 2, "stand")
    done = game.take_completed()
    assert done is not None
    stands = [e for e in done.log if e["kind"] == "stand"]
    assert stands == [{"kind": "stand", "seat": 1}, {"kind": "stand", "seat": 2}]
    settles = {e["seat"]: (e["result"], e["reason"]) for e in done.log if e["kind"] == "settle"}
    assert settles == {1: ("won", "natural"), 2: ("won", "higher")}
    assert "natural paid" in [t.reason for t in done.transfers]
    assert done.summary["player_naturals"] == 1


def test_banker_natural_beats_a_players_natural() -> None:
    game = table(players=1)
    # 1: AS KD QH natural; banker up AH, hole JC, draws QD: A-J-Q natural
    stack_deck(game, "AS", "AH", "KD", "QH", "JC", "QD")
    game.start_hand()
    act(game, 1, "bet", amount=25)
    act(game, 1, "stand")  # on 31, stand is all seat 1 may do
    done = game.take_completed()
    assert done is not None
    assert [e["reason"] for e in done.log if e["kind"] == "settle"] == ["banker natural"]
    assert game.stack(1) == 75 and game.stack(0) == 325
    assert done.summary["banker_natural"] is True


def test_tie_goes_to_the_banker_even_on_31() -> None:
    game = table(players=1)
    # 1: 9S 2H KC = 21, hits TS = 31 (plain); banker 8C hole KH (18) draws 3D 21, QD 31
    stack_deck(game, "9S", "8C", "2H", "KC", "KH", "TS", "3D", "QD")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 1, "hit")
    act(game, 1, "stand")
    done = game.take_completed()
    assert done is not None
    assert [e["reason"] for e in done.log if e["kind"] == "settle"] == ["tie"]
    assert game.stack(1) == 90


def test_banker_bust_pays_every_standing_player() -> None:
    game = table(players=2)
    # 1: 2S 3S 4S = 9 stands; 2: 5S 6S 7S = 18 stands; banker TH hole 9H (19) draws 5C 24, 8C 32
    stack_deck(game, "2S", "5S", "TH", "3S", "4S", "6S", "7S", "9H", "5C", "8C")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 2, "bet", amount=20)
    act(game, 1, "stand")
    act(game, 2, "stand")
    done = game.take_completed()
    assert done is not None
    assert [e["reason"] for e in done.log if e["kind"] == "settle"] == ["banker bust"] * 2
    assert (game.stack(0), game.stack(1), game.stack(2)) == (270, 110, 120)
    assert done.summary["banker_bust"] is True
    assert done.summary["bank_result"] == -30


def test_banker_draws_to_dealer_stands_on_and_lower_loses() -> None:
    game = table(players=1, dealer_stands_on=25)
    # 1: KS 9S 4S = 23; banker 8H hole 9H (17) draws 8D: 25 stands (27 would draw again)
    stack_deck(game, "KS", "8H", "9S", "4S", "9H", "8D", "2C")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 1, "stand")
    assert game.round is not None and game.round.banker_cards == ["8H", "9H", "8D"]
    assert hand_view(game.view(None), 0)["value"] == 25
    assert game.stack(1) == 90


def test_banker_does_not_draw_when_every_bettor_went_bust() -> None:
    game = table(players=1)
    stack_deck(game, "KS", "2H", "9S", "8S", "3H", "QS")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 1, "hit")  # QS: 37 bust
    done = game.take_completed()
    assert done is not None
    assert game.round is not None and game.round.banker_cards == ["2H", "3H"]
    assert hand_view(game.view(None), 0)["cards"][1] == {"card": "3H", "up": True}
    assert done.summary["banker_bust"] is False and done.summary["banker_value"] is None


# --------------------------------------------------------------------------- hand values


@pytest.mark.parametrize(
    ("cards", "ace_rule", "worth"),
    [
        (["AS", "AH"], "at_most_one_low", 22),
        (["AS", "AH", "AD"], "at_most_one_low", 23),
        (["AS", "AH", "9C"], "at_most_one_low", 31),
        (["AS", "AH", "9C", "TD"], "at_most_one_low", 31),  # A-A counts 12 here
        (["AS", "AH", "9C", "3D"], "at_least_one_high", 24),
        (["AS", "AH", "AD"], "at_least_one_high", 23),
        (["AS", "AH", "AD", "9C"], "at_least_one_high", 22),
        (["AS", "AH", "AD", "AC"], "alternating", 24),
        (["9S", "2H", "KC", "TD"], "at_most_one_low", 31),
        (["KS", "QS", "JS", "2D"], "at_most_one_low", None),
    ],
)
def test_values(cards: list[str], ace_rule: str, worth: int | None) -> None:
    assert value(cards, ace_rule) == worth


def test_natural_cards_option() -> None:
    assert is_natural(["AS", "KD", "QH"], "face")
    assert not is_natural(["AS", "TD", "QH"], "face")
    assert is_natural(["TD", "AS", "QH"], "ten")
    assert not is_natural(["AS", "KD", "QH", "2C"], "ten")
    assert not is_natural(["AS", "AD", "9H"], "ten")
    assert settle(
        ["AS", "TD", "QH"], ["9S", "2H", "KC", "QC"], "at_most_one_low", "face"
    ).reason == ("tie")
    assert settle(["AS", "TD", "QH"], ["9S", "2H", "KC", "QC"], "at_most_one_low", "ten").won


def test_ten_naturals_on_the_table() -> None:
    game = table(players=1, natural_cards="ten")
    stack_deck(game, "TS", "9C", "AS", "KH", "TH", "9D", "TC")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 1, "stand")
    done = game.take_completed()  # natural stands; banker 9 T (19), 9D 28... here 9C TH 9D 28
    assert done is not None
    assert [e["reason"] for e in done.log if e["kind"] == "settle"] == ["natural"]


# --------------------------------------------------------------------------- the stock


def test_the_discard_pile_is_reshuffled_mid_round_and_cards_in_play_stay_out() -> None:
    game = table(players=1)
    game.discard = ["2C", "3C", "4C", "5C"]
    stack_deck(game, "KS", "8H", "9S")  # runs out before the player's second card
    game.start_hand()
    act(game, 1, "bet", amount=10)
    assert len(events(game, "reshuffle")) == 1
    assert len(events(game, "shuffle")) == 1
    assert game.round is not None
    player, banker = game.round.hands[1].cards, game.round.banker_cards
    assert player[:2] == ["KS", "9S"] and banker[0] == "8H"
    from_discard = [player[2], banker[1], *game.stock.cards]
    assert Counter(from_discard) == Counter(["2C", "3C", "4C", "5C"])
    assert game.discard == []


def test_first_deal_shuffles_a_full_shoe_and_cards_are_conserved() -> None:
    game = table(players=4, decks=2)
    rng = random.Random(5)
    shoe = Counter(canonical_shoe(2))
    for _ in range(40):
        game.start_hand()
        while game.in_hand:
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, rng))
        in_stock = Counter(game.stock.cards) + Counter(game.discard)
        assert in_stock == shoe
        while game.to_act():
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, rng))
        for seat in game.seated:
            game.sim_rebuy(seat, 0)
    assert game.hand_number == 40


def test_on_void_drops_the_seen_stock() -> None:
    game = table(players=1)
    game.start_hand()
    act(game, 1, "fold")
    assert game.stock.cards and game.discard
    game.on_void()
    game.take_completed()
    game.start_hand()
    assert len(events(game, "shuffle")) == 1
    assert len(game.stock) == 104 - 2


# --------------------------------------------------------------------------- the bank


def play_round(game: TriantaEna, bets: dict[int, int], deck: list[str]) -> None:
    """Deal a round with ``deck`` on top; seats bet as given (others fold) and stand."""
    stack_deck(game, *deck)
    game.start_hand()
    for seat in sorted(game.to_act()):
        if seat in bets:
            act(game, seat, "bet", amount=bets[seat])
        else:
            act(game, seat, "fold")
    while game.in_hand:
        act(game, min(game.to_act()), "stand")


def banker_busts(dealt: int, stakers: int) -> list[str]:
    """Every staking player holds K K K (30); the banker 9C 8C (17), 9D (26), 8D: bust."""
    return ["KS"] * dealt + ["9C"] + ["KH", "KD"] * stakers + ["8C", "9D", "8D"]


def test_bank_is_offered_to_richer_players_largest_first_ties_by_seat_order() -> None:
    game = table(players=3, banker_multiple=1)
    play_round(game, {1: 40, 2: 40, 3: 30}, banker_busts(3, 3))
    # the bank covers 100: seat 3's bet is cut to 20, and the bust bank pays it all
    assert (game.stack(0), game.stack(1), game.stack(2), game.stack(3)) == (0, 140, 140, 120)
    # the bank reached 0: it ends and is offered to all by stack
    assert game.banker is None
    assert game.phase() == "bank_offer"
    assert game.to_act() == {1}
    assert not game.can_start()
    assert game.view(None)["offer"] == {"seat": 1, "vacant": True}
    act(game, 1, "decline_bank")
    assert game.to_act() == {2}
    act(game, 2, "decline_bank")
    assert game.to_act() == {3}
    timer = game.timer()
    assert game.timeout_actions() == [(3, {"kind": "decline_bank"})]
    act(game, 3, "decline_bank")
    # the table waits until someone accepts: the offers start again
    assert game.to_act() == {1}
    assert game.timer() != timer
    act(game, 1, "accept_bank")
    assert game.banker == 1 and game.to_act() == set()
    assert game.can_start()
    # nobody swapped places: the old bank had ended
    assert game.bank.places[:4] == [0, 1, 2, 3]


def test_bank_passes_and_the_old_banker_takes_the_new_bankers_place() -> None:
    game = table(players=3, banker_multiple=2)  # the bank holds 200
    play_round(game, {1: 10, 2: 100, 3: 60}, banker_busts(3, 3))
    assert (game.stack(0), game.stack(1), game.stack(2), game.stack(3)) == (30, 110, 200, 160)
    assert game.to_act() == {2}  # the largest stack first
    assert game.bank.offers == [2, 3, 1]
    act(game, 2, "decline_bank")
    act(game, 3, "accept_bank")
    assert game.banker == 3
    accepted = [e for e in game.take_log() if e["kind"] == "bank_accepted"]
    assert accepted[0]["old_banker"] == 0
    # seat 0 now sits where seat 3 sat: it plays after seats 1 and 2
    assert game.players == [1, 2, 0]
    assert game.view(None)["order"] == [1, 2, 0]
    assert [e["seat"] for e in game.view(None)["seats"]] == [0, 1, 2, 3]
    stack_deck(game, "2S", "3S", "4S", "5S")
    game.start_hand()
    downs = {e["seat"]: e["card"] for e in events(game, "deal") if not e["up"]}
    assert downs == {1: "2S", 2: "3S", 0: "4S"}
    assert game.round is not None and game.round.banker_cards == ["5S"]


def test_a_declined_bank_is_not_offered_again_until_it_changes_hands_or_someone_sits() -> None:
    """docs/rules.md §1.9 (Decision): whoever declined is not asked again after the next
    rounds, until the bank changes hands or a new player sits down."""
    game = table(players=3, banker_multiple=2)  # the bank holds 200
    play_round(game, {1: 10, 2: 100, 3: 60}, banker_busts(3, 3))
    assert game.bank.offers == [2, 3, 1]
    for seat in (2, 3, 1):
        act(game, seat, "decline_bank")
    assert game.bank.declined == [2, 3, 1]
    # the next round: all three are still richer than the bank, and nobody is asked
    play_round(game, {1: 10}, banker_busts(3, 1))
    assert game.stack(0) == 20 and game.bank.offers == [] and game.to_act() == set()
    assert game.can_start() and game.timer() is None
    # the declines survive a restart (they are in the stored state)
    again = TriantaEna.rebuild(
        game.options,
        seeds=fixed_seeds(),
        stacks=[(seat, game.stack(seat)) for seat in game.seated],
        accounts={},
        state=game.snapshot(),
        hand_number=game.hand_number,
    )
    assert again.bank.declined == [1, 2, 3]
    # a new player sits down: everyone richer is asked again after the next round
    game.sit(4, game.buy_in_limits(4)[0])
    assert game.bank.declined == []
    play_round(game, {1: 10}, banker_busts(4, 1))
    assert game.bank.offers == [2, 3, 1, 4]
    act(game, 2, "decline_bank")
    act(game, 3, "accept_bank")
    # the bank changed hands: the decline of seat 2 is forgotten
    assert game.banker == 3 and game.bank.declined == []
    play_round(game, {}, [])
    assert game.stack(3) == 160 and game.bank.offers == [2]
    assert game.to_act() == {2}


def test_no_offer_when_nobody_is_richer_and_decline_ends_offers() -> None:
    game = table(players=2)
    play_round(game, {1: 10}, banker_busts(2, 1))
    assert game.stack(0) == 290 and game.to_act() == set()
    assert game.phase() == "waiting" and game.can_start()
    assert game.timer() is None


def test_banker_who_leaves_ends_the_bank_and_offers_go_by_stack() -> None:
    game = table(players=3)
    game.balances["seat:2"] = 150
    assert game.can_leave(0)
    assert game.leave(0) == 300
    assert game.banker is None
    assert game.to_act() == {2}
    act(game, 2, "decline_bank")
    assert game.to_act() == {1}
    game.leave(1)  # the offered player leaves: the next one is asked
    assert game.to_act() == {3}
    game.leave(3)
    assert game.to_act() == {2}  # the offers start again
    act(game, 2, "accept_bank")
    assert game.banker == 2 and not game.can_start()
    game.sit(5, game.buy_in_limits(5)[0])
    assert game.stack(5) == 100 and game.can_start()


def test_everybody_gone_the_next_sitter_is_the_first_banker() -> None:
    game = table(players=1)
    game.leave(0)
    game.leave(1)
    assert game.buy_in_limits() == (300, 300)
    game.sit(3, 300)
    assert game.banker == 3 and game.to_act() == set()


# --------------------------------------------------------------------------- the roster


def test_sitting_mid_round_waits_for_the_next_round() -> None:
    game = table(players=1)
    game.start_hand()
    game.sit(4, 100)
    assert 4 not in game.to_act() and game.legal_actions(4) == []
    assert game.can_leave(4) and not game.can_leave(1) and not game.can_leave(0)
    with pytest.raises(RuleError):
        game.leave(1)
    act(game, 1, "fold")
    game.start_hand()
    assert game.to_act() == {1, 4}


def test_apply_refuses_what_does_not_fit() -> None:
    game = table(players=1)
    with pytest.raises(RuleError):
        game.apply(1, {"kind": "hit"})
    game.start_hand()
    with pytest.raises(RuleError):
        game.apply(0, {"kind": "bet", "amount": 5})
    with pytest.raises(RuleError):
        game.apply(1, {"kind": "bet", "amount": 101})
    with pytest.raises(RuleError):
        game.start_hand()


# --------------------------------------------------------------------------- persistence


def test_snapshot_and_restore_continue_the_table_exactly() -> None:
    game = table(players=2)
    rng = random.Random(1)
    for _ in range(5):
        game.start_hand()
        while game.in_hand:
            seat = min(game.to_act())
            game.apply(seat, game.bot_action(seat, rng))
        while game.to_act():
            seat = min(game.to_act())
            game.apply(seat, {"kind": "decline_bank"})
    data = game.snapshot()
    copy = TriantaEna({}, seeds=fixed_seeds())
    for seat in game.seated:
        copy.sit(seat, game.stack(seat))
    copy.restore(data)
    assert copy.snapshot() == data
    game.seeds = copy.seeds = fixed_seeds(b"\x01" * 32)
    for engine in (game, copy):
        engine.take_log()
        engine.start_hand()
        act(engine, 1, "bet", amount=5)
        act(engine, 2, "fold")
        while engine.in_hand:
            act(engine, min(engine.to_act()), "stand")
    assert game.take_log() == copy.take_log()
    assert {k: v for k, v in game.balances.items() if v} == {
        k: v for k, v in copy.balances.items() if v
    }


# --------------------------------------------------------------------------- bots and stats


def test_bot_plays_sensibly() -> None:
    game = table(players=1)
    stack_deck(game, "AS", "5C", "2D", "3D", "7H", "TC", "TD", "9S")
    game.start_hand()
    rng = random.Random(0)
    assert game.bot_action(1, rng) == {"kind": "bet", "amount": 10}  # an ace: 10% of 100
    act(game, 1, "bet", amount=10)
    assert game.bot_action(1, rng) == {"kind": "hit"}  # A 2 3: 16
    act(game, 1, "hit")
    assert game.bot_action(1, rng) == {"kind": "stand"}  # A 2 3 T: 26 against a 5
    assert folds("4C", "KD") and folds("6C", "AD") and not folds("4C", "9D")
    assert not folds("7C", "KD")
    assert bet_amount("4C", "KD", 1000, 5, 500) == 5
    assert bet_amount("AC", "KD", 1000, 5, 500) == 50
    assert bet_amount("AC", "5D", 1000, 5, 30) == 30
    assert hit_below("AD") > hit_below("6D")
    assert takes_bank(200, 100, vacant=False) and not takes_bank(199, 100, vacant=False)
    assert takes_bank(1, 100, vacant=True)


def test_simulation_reports_the_figures() -> None:
    report = simulate("trianta-ena", hands=1500, seed=7)
    assert report["hands"] == 1500
    assert set(report["naturals"]) == {"player", "banker"}
    assert report["naturals"]["player"] > 0 and report["naturals"]["banker"] > 0
    assert report["banker_busts"] > 0 and report["reshuffles"] > 0
    per_chip = report["bank_result"] / report["chips_staked"]
    assert report["bank_result_per_chip"] == round(per_chip, 4)
    assert report["bank_result_per_chip"] > 0  # ties and naturals favour the bank


def test_stats_count_what_the_rounds_say() -> None:
    game = table(players=2)
    stats = TriantaEnaStats(game.options)
    play_round(game, {1: 10, 2: 20}, banker_busts(2, 2))
    done = game.take_completed()
    assert done is not None
    stats.observe(done)
    stack_deck(game, "AS", "9C", "AH", "KD", "QH", "2D", "KS", "JC", "QD")
    game.start_hand()
    act(game, 1, "bet", amount=10)
    act(game, 2, "bet", amount=10)
    act(game, 1, "stand")  # seat 1's natural
    act(game, 2, "stand")
    done = game.take_completed()
    assert done is not None
    stats.observe(done)
    report = stats.report()
    assert report["hands"] == 2
    assert report["naturals"] == {"player": 1, "banker": 1}
    assert report["banker_busts"] == 1
    assert report["chips_staked"] == 50
    assert report["bank_result"] == -30 + 20
    assert report["bank_result_per_chip"] == round(-10 / 50, 4)
