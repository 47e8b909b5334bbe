"""Every option of every game is told in words (app/rulebook/option_words.py, from each game's
``WORDS`` beside its options in app/games/<game>/options.py): at its default,
at its limits, and at every value of a choice or a true/false option; each option by exactly
one phrase of the game's own (never the stand-in for an option without words), and no phrase
shows a raw key, a snake_case choice or JSON's null/true/false."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.games.core.options import OptionSpec
from app.games.core.phrases import Phrase
from app.games.core.registry import GAME_IDS, game_class
from app.rulebook.option_sentences import SENTENCES, sentence
from app.rulebook.option_words import (
    COMMON,
    buy_in_said,
    option_words,
    own_phrases,
    phrases,
    table_option_words,
)

RAW = re.compile(r"_|\b(?:null|None|true|false|True|False)\b")


def variants(spec: OptionSpec) -> list[Any]:
    """The values worth telling: every choice, both truths, the limits, no limit."""
    if spec.type == "bool":
        return [True, False]
    if spec.type == "choice":
        return list(spec.choices)
    out: list[Any] = [spec.min, spec.max]
    if spec.nullable:
        out.append(None)
    return out


def tables(game: str) -> list[dict[str, Any]]:
    """The default table, then one table per value worth telling of each option (with its
    partners set so that the options stay in order), and one per pair of options in order
    (a smallest and a largest bet) at the same value."""
    cls = game_class(game)
    base = cls.OPTIONS_MODEL.check({})
    out = [base]
    for spec in cls.OPTIONS:
        for value in variants(spec):
            options = {**base, spec.name: value}
            out.append(options)
    for bound in cls.OPTIONS_MODEL.BOUNDS:  # two options in order, the same value
        out.append({**base, bound.high: base[bound.low]})
    return out


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_option_of_every_game_has_words_of_its_own(game: str) -> None:
    specs = game_class(game).OPTIONS
    names = {spec.name for spec in specs}
    own = {name for phrase in phrases(game) for name in phrase.names}
    assert names <= own, f"{game}: options without words: {sorted(names - own)}"
    for options in tables(game):
        words = option_words(game, specs, options, buy_in=(10, 1000), locale="en")
        told = [name for w in words for name in w.names]
        assert sorted(told) == sorted(names), (game, options)
        for w in words:
            assert w.text and not RAW.search(w.text), (game, options, w.text)
            assert w.text == w.text.strip() and not w.text.endswith("."), w.text


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_words_follow_the_values(game: str) -> None:
    """A phrase changes with its option's value (each value is told differently)."""
    specs = game_class(game).OPTIONS
    base = game_class(game).OPTIONS_MODEL.check({})
    default_words = {w.text for w in option_words(game, specs, base, locale="en")}
    for spec in specs:
        for value in variants(spec):
            if value == spec.default and type(value) is type(spec.default):
                continue
            changed = {
                w.text for w in option_words(game, specs, {**base, spec.name: value}, locale="en")
            }
            assert changed != default_words, (game, spec.name, value)


def test_examples_read_as_people_speak() -> None:
    greek = table_option_words(
        "greek-31",
        {**game_class("greek-31").OPTIONS_MODEL.check({}), "stakes": "table_stakes"},
        locale="en",
    )
    texts = [w["text"] for w in greek]
    assert "Stakes 10 to 100 chips" in texts
    assert any(
        t.startswith("Table stakes: no top-ups, you can only lose what is in front of you")
        for t in texts
    )
    assert "30 seconds to act" in texts
    trianta = [w["text"] for w in table_option_words("trianta-ena", locale="en")]
    assert trianta[0] == "Buy-in 100 chips; the first banker brings 3 buy-ins (300 chips)"
    assert "Bets from 1 chip, up to your whole stack" in trianta
    vingt = [w["text"] for w in table_option_words("vingt-un", locale="en")]
    assert vingt[0] == "Buy-in 40 to 100,000 chips"
    one = table_option_words(
        "vingt-un",
        {**game_class("vingt-un").OPTIONS_MODEL.check({}), "max_split_hands": 1, "turn_seconds": 1},
        locale="en",
    )
    assert {"No splitting", "1 second to act"} <= {w["text"] for w in one}


def test_heaths_version_makes_the_aces_alternate() -> None:
    options = {**game_class("greek-31").OPTIONS_MODEL.check({}), "heath": True}
    texts = [w["text"] for w in table_option_words("greek-31", options, locale="en")]
    assert any("1, 11, 1, 11" in t for t in texts)


def test_an_option_without_words_is_told_by_its_description_never_its_key() -> None:
    spec = OptionSpec("sit_out_minutes", "int", 5, "Minutes away before a seat stands up.", 1, 60)
    words = option_words("vingt-un", [spec], {"sit_out_minutes": 5}, locale="en")
    assert [w.text for w in words] == ["Minutes away before a seat stands up: 5"]


def test_every_phrase_belongs_to_a_game_or_to_all() -> None:
    assert {game for game in GAME_IDS if own_phrases(game)} == set(GAME_IDS)
    assert {"turn_seconds", "bet_seconds", "ace_rule"} <= set(COMMON)


def told(game: str, options: dict[str, Any]) -> list[Phrase]:
    """The game's phrases that tell options this table has (a common phrase may tell an
    option the game lacks)."""
    return [p for p in phrases(game) if all(name in options for name in p.names)]


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_sentence_a_game_says_has_words(game: str) -> None:
    """Each code a game's phrases say, at every value worth telling, is a sentence of
    app/rulebook/option_sentences.py with the values it says (never the stand-in)."""
    said = set()
    for options in tables(game):
        for phrase in told(game, options):
            says = phrase.say(options)
            assert sentence(says.code, says.values) is not None, (game, says)
            said.add(says.code)
    assert said <= set(SENTENCES)


def test_every_sentence_is_said_by_some_game() -> None:
    """No sentence is left without a game to say it (the buy-in's are said here)."""
    said = {buy_in_said(*limits).code for limits in ((1, 5), (5, 5), (5, 10**9))}
    for game in GAME_IDS:
        for options in tables(game):
            said |= {phrase.say(options).code for phrase in told(game, options)}
    assert set(SENTENCES) == said


def test_the_games_say_codes_and_values_never_words() -> None:
    """The engines word nothing: a phrase says a code and whole numbers."""
    for game in GAME_IDS:
        options = game_class(game).OPTIONS_MODEL.check({})
        for phrase in told(game, options):
            says = phrase.say(options)
            assert " " not in says.code
            assert all(type(value) is int for value in says.values.values()), says
