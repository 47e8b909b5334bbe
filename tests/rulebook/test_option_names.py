"""Every option of every game has a name and a help for people, and every value of a choice
its words (app/rulebook/option_names.py): the lobby's form and the host's panel never show a
key, a snake_case value or the rule book's sections."""

from __future__ import annotations

import re

import pytest

from app.api.routes.games import games_listing
from app.games.core.registry import GAME_IDS, game_class
from app.rulebook.option_names import choice_words, named, option_help, option_label

RAW = re.compile(r"_|\b(?:null|None|true|false|True|False)\b|docs/|§")


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_option_and_choice_of_every_game_has_words(game: str) -> None:
    for spec in game_class(game).OPTIONS:
        words = named(game, spec.name)
        assert words is not None, f"{game}: {spec.name} has no name for people"
        assert words.label and not RAW.search(words.label), (game, spec.name, words.label)
        assert words.help.endswith(".") and not RAW.search(words.help), (game, words.help)
        for value in spec.choices:
            said = choice_words(game, spec.name, value, "en")
            assert said and not RAW.search(said), (game, spec.name, value)


def test_a_game_names_an_option_in_its_own_words() -> None:
    assert option_label("greek-31", "min_bet", "en") == "Smallest stake"
    assert option_label("trianta-ena", "min_bet", "en") == "Smallest bet"
    assert option_label("vingt-un", "turn_seconds", "en") == "Seconds to act"  # the shared words
    assert option_label("trente-et-quarante", "turn_seconds", "en") == "Seconds to choose"
    assert option_help("greek-31", "heath", "en") == (
        "Aces alternate 1 and 11, and a pair of twos beats 14."
    )
    assert option_label("greek-31", "no_such_option", "en") is None


def test_a_choice_is_told_by_its_value_one_never_true() -> None:
    assert choice_words("greek-31", "decks", 1, "en") == "One deck"
    assert choice_words("greek-31", "decks", True, "en") is None
    assert choice_words("greek-31", "decks", "auto", "en") == (
        "Automatic (two with more than 5 players)"
    )


def test_the_listing_gives_each_option_its_words_beside_its_key() -> None:
    for game in games_listing(GAME_IDS, "en"):
        for option in game["options"]:
            assert option["label"] == option_label(game["id"], option["name"], "en")
            assert option["help"] == option_help(game["id"], option["name"], "en")
            assert option["description"]  # the API's own description stays as it was
            if option["type"] == "choice":
                assert len(option["choice_labels"]) == len(option["choices"])
            else:
                assert "choice_labels" not in option
