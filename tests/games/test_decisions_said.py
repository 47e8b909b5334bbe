"""Decisions the rule book takes, held by the engines as written (docs/rules.md §0.4, §3.6).

* §0.4: under ``at_most_one_low`` (Trianta Ena's default) A-A-A-A counts 34 and A-A-A-K 33, so
  both are bust; the other ace rules keep them under 31.
* §3.6: a Vingt-un natural passes the deal to the dealer's left, not the holder's.
"""

from __future__ import annotations

from app.games.core.values import best_total, totals
from app.games.trianta_ena.options import TriantaEnaOptions


def test_four_aces_and_three_aces_with_a_king_are_bust_under_the_default() -> None:
    assert TriantaEnaOptions().ace_rule == "at_most_one_low"
    assert min(totals(["AS", "AH", "AD", "AC"], "at_most_one_low")) == 34
    assert min(totals(["AS", "AH", "AD", "KC"], "at_most_one_low")) == 33
    assert best_total(["AS", "AH", "AD", "AC"], "at_most_one_low") is None
    assert best_total(["AS", "AH", "AD", "KC"], "at_most_one_low") is None


def test_the_other_ace_rules_keep_them_in_play() -> None:
    assert best_total(["AS", "AH", "AD", "AC"], "at_least_one_high") is not None
    assert best_total(["AS", "AH", "AD", "KC"], "alternating") == 23


def test_a_natural_passes_the_deal_to_the_dealers_left_not_the_holders() -> None:
    from tests.games.test_vingt_un import act, two_players

    # dealer 0; seat 1 is the dealer's left; seat 2 holds the natural (its left is seat 0)
    game = two_players(["9S", "AD", "5S", "9H", "TD", "KH"])
    act(game, 1, "stake", amount=10)
    act(game, 2, "stake", amount=10)
    act(game, 0, "no_double")
    assert "Seat 2 has a natural vingt-un" in game.calls
    act(game, 1, "stand")
    act(game, 0, "stand")
    assert not game.in_hand
    assert game.dealer == 1
