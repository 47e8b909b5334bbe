"""The server's refusals worded in the reader's language (docs/i18n.md, "Marking a string"
and "The engines' words"): the socket's, the table's and an engine's, and the API's, each
the French msgstr when the catalog has one, English exactly as it was, the code unchanged."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Annotated

import pytest
from pydantic import Field

from app.games.core.errors import ErrorCode, Refused, RuleError
from app.games.core.options import Bound, OptionError, TableOptions
from app.i18n.messages import Plural, Text, localize
from app.runtime.protocol import ProtocolError, parse
from app.runtime.rule_words import worded
from app.runtime.table.host_at_table import _refused_words
from app.runtime.table.wording import explain
from tests.i18n.conftest import Entries

Install = Callable[[Entries], None]


def test_an_engines_refusal_is_worded_in_french(french: Install) -> None:
    french(
        {
            "it is not your turn": "ce n'est pas votre tour",
            "seat {seat} may not {kind} like that now": (
                "la place {seat} ne peut pas faire {kind} ainsi maintenant"
            ),
        }
    )
    turn = ProtocolError.refusing(RuleError(ErrorCode.NOT_YOUR_TURN, "it is not your turn"))
    assert turn.to_message("fr") == {
        "type": "error",
        "code": "not_your_turn",
        "message": "ce n'est pas votre tour",
    }
    assert turn.to_message("en")["message"] == "it is not your turn"
    english = "seat 3 may not 'hit' like that now"
    refused = ProtocolError.refusing(Refused(ErrorCode.ILLEGAL_ACTION, english), "a1")
    assert refused.to_message("fr") == {
        "type": "error",
        "code": "illegal_action",
        "message": "la place 3 ne peut pas faire 'hit' ainsi maintenant",
        "id": "a1",
    }
    assert refused.to_message("en")["message"] == english
    assert refused.to_message("da")["message"] == english  # no Danish yet: English


def test_a_text_the_engines_do_not_list_is_sent_as_it_was() -> None:
    assert worded("something new") == "something new"
    assert not isinstance(worded("something new"), Text)
    # a pattern's English must come back exactly, or the text is left alone
    assert str(worded("seat 3 may not 'hit' like that now")) == (
        "seat 3 may not 'hit' like that now"
    )


def test_an_options_refusal_is_worded_with_its_values(french: Install) -> None:
    french({"{high} must be at least {low}": "{high} doit valoir au moins {low}"})

    class Limits(TableOptions):
        BOUNDS = (Bound("min_bet", "max_bet", "max_bet"),)
        min_bet: Annotated[int, Field(ge=1, le=100)] = 10
        max_bet: Annotated[int | None, Field(ge=1, le=100)] = None

    with pytest.raises(OptionError) as caught:
        Limits.check({"max_bet": 5})
    error = ProtocolError(ErrorCode.BAD_OPTIONS, caught.value.message)
    assert error.to_message("en")["message"] == "max_bet must be at least min_bet"
    assert error.to_message("fr")["message"] == "max_bet doit valoir au moins min_bet"


def test_a_socket_refusal_is_worded_in_french(french: Install) -> None:
    french(
        {
            "a message must be one JSON object": "un message est un seul objet JSON",
            "a message may be at most {most} bytes": "un message fait au plus {most} octets",
        }
    )
    with pytest.raises(ProtocolError) as caught:
        parse("[1]", max_bytes=100)
    assert caught.value.to_message("fr")["message"] == "un message est un seul objet JSON"
    assert caught.value.to_message("en")["message"] == "a message must be one JSON object"
    with pytest.raises(ProtocolError) as caught:
        parse("x" * 200, max_bytes=100)
    assert caught.value.code == ErrorCode.TOO_LARGE
    assert caught.value.to_message("fr")["message"] == "un message fait au plus 100 octets"
    assert caught.value.to_message("en")["message"] == "a message may be at most 100 bytes"


def test_a_tables_explanation_is_worded_in_french(french: Install) -> None:
    french({"{kind} needs {name}": "{kind} demande {name}"})
    templates = [{"kind": "bet", "params": {"amount": {"min": 1, "max": 10}}}]
    words = explain({"kind": "bet"}, templates)
    assert words == "bet needs amount"
    assert localize(words, "fr") == "bet demande amount"


def test_a_count_takes_the_readers_plural_form(french: Install) -> None:
    singular = "The host did not let you sit at this table. You may ask again in {n} minute."
    plural = "The host did not let you sit at this table. You may ask again in {n} minutes."
    french(
        {
            (singular, plural): (
                "L'hôte ne vous a pas laissé vous asseoir. Redemandez dans {n} minute.",
                "L'hôte ne vous a pas laissé vous asseoir. Redemandez dans {n} de minutes.",
                "L'hôte ne vous a pas laissé vous asseoir. Redemandez dans {n} minutes.",
            )
        }
    )
    assert _refused_words(60) == singular.format(n=1)
    assert _refused_words(300) == plural.format(n=5)
    assert localize(_refused_words(60), "fr").endswith("dans 1 minute.")
    assert localize(_refused_words(300), "fr").endswith("dans 5 minutes.")
    assert localize(_refused_words(300), "en") == plural.format(n=5)


def test_a_value_that_is_itself_a_message_is_worded_too(french: Install) -> None:
    french(
        {
            "options.{field}: {why}": "options.{field} : {why}",
            "{name} must be true or false": "{name} vaut true ou false",
        }
    )
    message = Text(
        "options.{field}: {why}", field="approval", why=worded("approval must be true or false")
    )
    assert message == "options.approval: approval must be true or false"
    assert localize(message, "fr") == "options.approval : approval vaut true ou false"


def test_a_message_survives_pickling_whole() -> None:
    """A cluster forwards a refusal between processes: it must stay translatable."""
    for message in (
        Text("seat {seat} is taken", seat=2),
        Plural("in {n} second", "in {n} seconds", n=3),
    ):
        again = pickle.loads(pickle.dumps(message))
        assert again == message and type(again) is type(message)
        assert again.values == message.values
