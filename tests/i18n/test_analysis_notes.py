"""The analyses' notes in the reader's language (app/analysis/notes.py, docs/i18n.md).

A decision's ``note`` says what its analysis assumed, in English as a kept analysis stores
it; the API adds ``note_words``, the same note worded in the reader's language from the
message it was made from, its numbers as the language writes them. Every note the analysers
write is listed (played out on bots' hands of each game), so none reaches a reader in English.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from app.analysis import notes
from app.analysis.hand import analyse_hand
from app.analysis.position import Effort
from app.api.routes.analysis import note_words
from app.games.core.registry import GAME_IDS
from app.i18n.messages import Text
from tests.i18n.conftest import Entries
from tests.review.engine_play import recorded

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("note", notes.NOTES)
def test_every_note_reads_back_as_the_message_it_was_made_from(note: str) -> None:
    values = {name: 1000 + i for i, name in enumerate(re.findall(r"\{(\w+)\}", note))}
    written = note.format(**values)
    message = notes.worded(written)
    assert isinstance(message, Text) and message.msgid == note
    assert message.values == values and str(message) == written


def test_a_note_not_listed_stays_as_it_was() -> None:
    assert (
        notes.worded("Estimated by a method of long ago.") == "Estimated by a method of long ago."
    )
    assert not isinstance(notes.worded("Estimated by a method of long ago."), Text)
    assert notes.worded(None) is None
    # a note that only begins like a listed one is not that one
    assert not isinstance(notes.worded(notes.TRIANTA_ENA_BANK + " And more."), Text)


def test_an_english_reader_reads_the_note_as_stored_its_numbers_in_english_forms() -> None:
    assert note_words(notes.GREEK_31_EXACT, "en") == notes.GREEK_31_EXACT
    note = notes.TRIANTA_ENA_BET.format(samples=1000)
    assert note_words(note, "en") == note.replace("1000", "1,000")


def test_a_french_reader_reads_the_note_in_french_its_numbers_in_french_forms(
    french: Callable[[Entries], None],
) -> None:
    french(
        {
            notes.TRIANTA_ENA_BET: "Estimé sur {samples} donnes simulées.",
            notes.TRIANTA_ENA_BANK: "Entre deux mains : rien à analyser.",
        }
    )
    note = notes.TRIANTA_ENA_BET.format(samples=1000)
    assert note_words(note, "fr") == "Estimé sur 1\u202f000 donnes simulées."
    assert note_words(notes.TRIANTA_ENA_BANK, "fr") == "Entre deux mains : rien à analyser."
    assert note_words("A note of long ago.", "fr") == "A note of long ago."


def test_the_notes_are_whole_sentences_in_one_place() -> None:
    """No analyser writes a note of its own: each passes one of notes.py's to its Verdict
    (a sentence glued from parts could not be translated whole)."""
    for path in sorted((ROOT / "app" / "analysis").glob("*.py")):
        if path.name == "notes.py":
            continue
        source = path.read_text()
        for call in re.finditer(r"Verdict\(", source):
            # the arguments of the call, to its closing parenthesis
            depth, end = 0, call.end() - 1
            for end in range(call.end() - 1, len(source)):
                depth += {"(": 1, ")": -1}.get(source[end], 0)
                if depth == 0:
                    break
            arguments = source[call.end() : end]
            assert not re.search(r"[\"'][A-Z][a-z]+[ :,(]", arguments), (path.name, arguments)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_note_the_analysers_write_is_listed(game: str) -> None:
    written = set()
    for record, _views, _shuffles in recorded(game)[:4]:
        for decision in analyse_hand(record, Effort(20, quick=True)).to_json()["decisions"]:
            written.add(decision["note"])
    assert written
    unlisted = [note for note in written if not isinstance(notes.worded(note), Text)]
    assert not unlisted, unlisted
