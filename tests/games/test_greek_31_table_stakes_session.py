"""Greek 31 with table stakes: a session bets only the money on the table at its start
(docs/rules.md §2.11; seed 001: "players can only bet using the money or tokens that was on the
table at the start of the session").

A session runs from the first hand dealt until the table is over or everyone has stood up.
"""

from __future__ import annotations

import pytest

from app.games.core.cards import fixed_seeds
from app.games.core.errors import RuleError
from app.games.greek_31.engine import Greek31
from tests.games.test_greek_31 import bust_dealer_hand, table


def test_anyone_may_sit_before_the_first_hand() -> None:
    game = table(2, stakes="table_stakes")
    game.sit(2, 500)
    assert game.seated == [0, 1, 2]


def test_a_newcomer_cannot_sit_down_with_fresh_chips_mid_session() -> None:
    game = table(2, stakes="table_stakes")
    bust_dealer_hand(game)
    with pytest.raises(RuleError, match="table stakes"):
        game.sit(2, 500)
    assert game.seated == [0, 1]


def test_a_newcomer_cannot_sit_down_during_the_first_hand() -> None:
    game = table(2, stakes="table_stakes")
    game.stock.cards = ["5H", "9C", "KS", "QD", "5C", "9D"]
    game.start_hand()
    with pytest.raises(RuleError):
        game.sit(5, 100)


def test_a_player_who_stepped_away_comes_back_with_their_own_chips_only() -> None:
    game = table(3, stakes="table_stakes")
    bust_dealer_hand(game)
    chips = game.stack(2)
    assert game.leave(2) == chips  # sitting out takes the seat out of the engine, stack kept
    with pytest.raises(RuleError):
        game.sit(2, chips + 1)
    game.sit(2, chips)
    assert game.stack(2) == chips


def test_the_session_ends_when_everyone_has_stood_up() -> None:
    game = table(2, stakes="table_stakes")
    bust_dealer_hand(game)
    game.leave(0)
    game.leave(1)
    game.sit(0, 700)  # a new session
    game.sit(1, 300)
    assert game.seated == [0, 1]


def test_the_session_survives_a_restart() -> None:
    game = table(2, stakes="table_stakes")
    bust_dealer_hand(game)
    stacks = [(seat, game.stack(seat)) for seat in game.seated]
    again = Greek31.rebuild(
        game.options,
        seeds=fixed_seeds(),
        stacks=stacks,
        accounts={},
        state=game.snapshot(),
        hand_number=game.hand_number,
    )
    with pytest.raises(RuleError):
        again.sit(4, 100)


def test_buy_in_tables_take_newcomers_at_any_time() -> None:
    game = table(2)
    bust_dealer_hand(game)
    game.sit(2, 500)
    assert game.seated == [0, 1, 2]
