"""The replay's step labels (app/review/steps.py): each action in words, its parameters named
by what they mean ("Cleo: stand, concealing the first card", not "Cleo: stand 0")."""

from __future__ import annotations

import re

import pytest

from app.games.core.registry import GAME_IDS
from app.review.replay import Step
from app.review.steps import action_text, describe, replay_for
from tests.review.engine_play import recorded


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"kind": "bet", "amount": 20}, "bet 20"),
        ({"kind": "fold"}, "fold"),
        ({"kind": "accept_bank"}, "accept bank"),
        ({"kind": "stand", "conceal": 0}, "stand, concealing the first card"),
        ({"kind": "stand", "conceal": 2}, "stand, concealing the third card"),
        ({"kind": "stand"}, "stand"),
        ({"kind": "split", "amount": 40}, "split 40"),
        ({"kind": "stake", "chance": "rouge", "amount": 20}, "stake 20 on rouge"),
        ({"kind": "insure", "chance": "couleur"}, "insure the stake on couleur"),
        ({"kind": "move_prison", "to": "noir", "stake": 3}, "move prison stake 3 to noir"),
        ({"kind": "cut", "position": 17}, "cut at 17"),
        ({"kind": "deal", "pattern": "2-1"}, "deal 2-1"),
        ({"kind": "draw", "source": "stock"}, "draw from the stock"),
        ({"kind": "draw", "source": "discard"}, "draw from the discard pile"),
        ({"kind": "discard", "cards": ["6D", "2S"]}, "discard 6D, 2S"),
        ({"kind": "vote", "for_game": "x", "ok": True}, "vote for game x ok yes"),  # unknown
    ],
)
def test_an_action_reads_as_words(action: dict[str, object], words: str) -> None:
    assert action_text(action) == words


def test_a_step_says_who_and_how() -> None:
    names = {0: "Cleo", 1: "Ada (bot)"}
    dealer = {"seat": 0, "action": {"kind": "stand", "conceal": 0}}
    assert describe(Step(3, dealer, []), names) == "Cleo: stand, concealing the first card"
    timer = {"seat": 0, "action": {"kind": "stand"}, "by": "timeout"}
    assert describe(Step(4, timer, []), names) == "Cleo (timer): stand"
    bot = {"seat": 1, "action": {"kind": "bet", "amount": 20}, "by": "bot"}
    assert describe(Step(5, bot, []), names) == "Ada (bot): bet 20"
    sit = {"seat": 2, "roster": "sit", "amount": 300}
    assert describe(Step(6, sit, []), names) == "Seat 2 sits down with 300 chips"
    assert describe(Step(0, None, []), names) == "The deal"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_label_ends_in_a_bare_number_but_an_amount(game_id: str) -> None:
    """Every step of real hands of each game: a number at the end of an action's label is its
    amount, a cut's position or a card's code, never a parameter without its name."""
    labels = 0
    for record, _views, _shuffles in recorded(game_id)[:6]:
        for step in replay_for(record, None)["steps"]:
            action = step["action"]
            if not action:
                continue
            labels += 1
            trailing = re.search(r" (\d+)$", step["label"])
            if trailing:
                assert int(trailing.group(1)) in (action.get("amount"), action.get("position")), (
                    step["label"],
                    action,
                )
    assert labels


def test_the_greek_31_dealer_stand_names_the_concealed_card() -> None:
    stands = [
        step["label"]
        for record, _views, _shuffles in recorded("greek-31")
        for step in replay_for(record, None)["steps"]
        if step["action"] and "conceal" in step["action"]
    ]
    assert stands, "no dealer stood concealing a card in these hands"
    assert all(re.search(r": stand, concealing the \w+ card$", label) for label in stands), stands


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_step_carries_what_a_page_words_it_from(game_id: str) -> None:
    """Each step's ``seat``, ``by``, ``action``, ``roster`` and a change of the roster's
    ``amount`` (the chips it brought): a page words the step in its reader's language from
    them (static/js/step-words.js), not from the English ``label``."""
    sat = 0
    for record, _views, _shuffles in recorded(game_id):
        entries = [None, *(record.get("actions") or [])]
        for step in replay_for(record, None)["steps"]:
            entry = entries[step["index"]]
            if entry is None:
                assert step["seat"] is None and step["amount"] is None  # the deal
                continue
            assert step["seat"] == entry["seat"] and step["action"] == entry.get("action")
            assert step["roster"] == entry.get("roster") and step["by"] == entry.get("by")
            if entry.get("roster") in ("sit", "top_up"):
                sat += 1
                assert step["amount"] == entry["amount"] > 0, (step["label"], entry)
                assert str(entry["amount"]) in step["label"]
            else:
                assert step["amount"] is None
    if game_id != "trente-et-quarante":  # its bettors stand behind the seats between coups
        assert sat, "no one sat down during a hand: no step to check the amount of"
