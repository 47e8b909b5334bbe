"""The games' titles and lobby sentences are marked for translation (app/rulebook/game_words.py)
and worded in the reader's language, English unchanged."""

from __future__ import annotations

from collections.abc import Callable

from app.games.core.registry import GAME_IDS, game_class
from app.rulebook.game_words import BLURBS, TITLES, game_blurb, game_title
from tests.i18n.conftest import Entries


def test_every_games_title_and_sentence_is_listed() -> None:
    assert {game_class(game).title for game in GAME_IDS} <= TITLES
    assert {game_class(game).BLURB for game in GAME_IDS} <= BLURBS


def test_a_title_and_a_sentence_in_french(french: Callable[[Entries], None]) -> None:
    cls = game_class("greek-31")
    french({cls.title: "31 grec", cls.BLURB: "Le donneur tire en secret."})
    assert game_title("greek-31", "fr") == "31 grec"
    assert game_blurb("greek-31", "fr") == "Le donneur tire en secret."
    assert game_title("greek-31", "en") == cls.title
    assert game_blurb("greek-31", "en") == cls.BLURB
    assert game_title("no-such-game", "fr") == "no-such-game"
