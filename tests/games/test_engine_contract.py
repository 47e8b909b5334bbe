"""The engine contract every game keeps, shown on the two engines that once skipped it: an action
outside ``legal`` applied straight to the engine is refused (a typed rule error with its code)
and changes nothing, a timeout's default included; rule errors reach the socket with their code."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.games.core.actions import Action, action_fits
from app.games.core.cards import fixed_seeds
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.game import Game
from app.games.trente_et_quarante.engine import TrenteEtQuarante
from app.games.vingt_un.engine import VingtUn
from app.runtime.protocol import ProtocolError


def state_of(game: Game) -> tuple[Any, ...]:
    """What an action could change: the balances, the spectator's view, the hand's progress."""
    return (
        dict(game.balances),
        copy.deepcopy(game.view(None)),
        game.in_hand,
        sorted(game.to_act()),
        list(game.transfers),
    )


def refused(game: Game, seat: int, action: Action) -> RuleError:
    """Apply ``action`` and return the rule error it raised, checking nothing changed."""
    before = state_of(game)
    with pytest.raises(RuleError) as caught:
        game.apply(seat, action)
    assert state_of(game) == before
    return caught.value


def staking_vingt_un() -> tuple[VingtUn, int]:
    game = VingtUn({"min_bet": 10, "max_bet": 100}, seeds=fixed_seeds())
    for seat in range(3):
        game.sit(seat, 10_000)
    game.start_hand()
    (seat,) = game.to_act()
    assert any(t["kind"] == "stake" for t in game.legal_actions(seat))
    return game, seat


def test_a_vingt_un_stake_over_max_bet_is_refused() -> None:
    game, seat = staking_vingt_un()
    error = refused(game, seat, {"kind": "stake", "amount": 5000})
    assert error.code is ErrorCode.ILLEGAL_ACTION
    game.apply(seat, {"kind": "stake", "amount": 100})  # the largest stake still goes through


def test_a_vingt_un_action_out_of_turn_is_refused() -> None:
    game, seat = staking_vingt_un()
    other = next(s for s in game.seated if s != seat and s not in game.to_act())
    assert refused(game, other, {"kind": "stake", "amount": 10}).code is ErrorCode.NOT_YOUR_TURN


def betting_trente_et_quarante() -> TrenteEtQuarante:
    game = TrenteEtQuarante({}, seeds=fixed_seeds())
    game.sit(0, 1000)
    game.sit(1, 1000)
    game.start_hand()
    return game


def test_a_trente_et_quarante_chance_named_banana_is_refused() -> None:
    game = betting_trente_et_quarante()
    error = refused(game, 0, {"kind": "stake", "chance": "banana", "amount": 100})
    assert error.code is ErrorCode.ILLEGAL_ACTION
    game.apply(0, {"kind": "stake", "chance": "rouge", "amount": 100})


def test_an_unknown_kind_is_refused_as_unknown() -> None:
    game = betting_trente_et_quarante()
    assert refused(game, 0, {"kind": "banana"}).code is ErrorCode.UNKNOWN_ACTION


def test_the_window_close_is_the_clock_s_not_a_bettor_s() -> None:
    """``close`` is in no one's ``legal``: the engine takes it from the clock (the timeout, a
    replayed record), refuses it from a bettor while the window is open, and refuses it when
    no window is open."""
    game = betting_trente_et_quarante()
    assert not action_fits({"kind": "close"}, game.legal_actions(0))
    game.apply(0, {"kind": "stake", "chance": "rouge", "amount": 100})
    assert refused(game, 0, {"kind": "close"}).code is ErrorCode.ILLEGAL_ACTION
    assert game.in_hand  # still open: the bettor's close changed nothing
    for seat, action in game.timeout_actions():
        game.apply(seat, action, by_clock=True)
    assert not game.in_hand
    assert refused(game, 0, {"kind": "close"}).code is ErrorCode.NOT_YOUR_TURN


class CarelessVingtUn(VingtUn):
    """A game whose timeout default breaks its own rules (a defect the base must catch)."""

    def default_action(self, seat: int) -> Action:
        return {"kind": "stake", "amount": 5000}


def test_a_timeout_default_outside_legal_is_refused() -> None:
    game = CarelessVingtUn({"min_bet": 10, "max_bet": 100}, seeds=fixed_seeds())
    for seat in range(3):
        game.sit(seat, 10_000)
    game.start_hand()
    ((seat, action),) = game.timeout_actions()
    assert refused(game, seat, action).code is ErrorCode.ILLEGAL_ACTION


def test_a_rule_error_reaches_the_socket_with_its_code_and_message() -> None:
    error = RuleError(ErrorCode.SEAT_TAKEN, "that seat is taken")
    message = ProtocolError.refusing(error, "m1").to_message()
    assert message == {
        "type": "error",
        "code": "seat_taken",
        "message": "that seat is taken",
        "id": "m1",
    }
