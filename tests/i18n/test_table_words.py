"""A table's own words in each reader's language (app/runtime/table/views.py): the table
keeps them as the runtime marked them, and each watcher's state words them in its own
language, so two friends at one table read two languages. A notice, why the table is paused,
an asker's request, why a hand was void (the notice and the story's event alike), and why the
socket closes; English exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.core.registry import game_class
from app.i18n.messages import Plural
from app.runtime.connection import close_words
from app.runtime.protocol import Sit
from app.runtime.table.core import REBUILDING
from app.runtime.table.host_at_table import HOST_PAUSED
from tests.i18n.conftest import Entries
from tests.runtime.core_harness import CoreTable, Viewer

Install = Callable[[Entries], None]

ASKED = "You asked to sit; the host has not answered yet."
CHANGED = "The host changed the table's options: from the next hand."
FAULT = "the server hit an error; the hand is void and stakes returned"
FRENCH: Entries = {
    ASKED: "Vous avez demandé à vous asseoir ; l'hôte n'a pas encore répondu.",
    HOST_PAUSED: "L'hôte a mis la table en pause.",
    CHANGED: "L'hôte a changé les options de la table : dès la main suivante.",
    FAULT: "le serveur a rencontré une erreur ; la main est annulée et les mises rendues",
    REBUILDING: "Le serveur n'a pas pu enregistrer cette table ; elle est rétablie.",
}


def table_of_two_languages() -> tuple[CoreTable, Viewer, Viewer, Viewer]:
    """Ada hosts in English; Ben (asking to sit) and Cy (watching) read French."""
    table = CoreTable(
        game_class("greek-31"),
        {"approval": True},
        created_by="ada",
        next_hand_seconds=1,
    )
    ada = table.watch("ada", "Ada")
    ben = table.watch("ben", "Ben", "fr")
    cy = table.watch("cy", "Cy", "fr")
    return table, ada, ben, cy


def test_the_table_block_is_worded_for_each_reader(french: Install) -> None:
    french(FRENCH)
    table, ada, ben, cy = table_of_two_languages()
    table.step(table.core.ask_seat, ben, Sit(2, 100))
    assert ben.last_view()["table"]["seat_request_message"] == FRENCH[ASKED]
    fx, _ = table.core.host_act(ada, "h1", {"kind": "pause"})
    table.carry_out(fx)
    assert ada.last_view()["table"]["pause_reason"] == HOST_PAUSED
    assert ben.last_view()["table"]["pause_reason"] == FRENCH[HOST_PAUSED]
    assert cy.last_view()["table"]["pause_reason"] == FRENCH[HOST_PAUSED]
    table.core.notice(CHANGED)
    table.step(table.core.refresh)
    assert ada.last_view()["table"]["message"] == CHANGED
    assert cy.last_view()["table"]["message"] == FRENCH[CHANGED]
    assert table.core.message == CHANGED  # kept as marked: every reader words it anew


def test_a_void_hands_reason_is_one_line_in_each_language(french: Install) -> None:
    """The notice and the story's ``hand_void`` carry the same words (the page tells the
    notice once, beside the event), in each reader's language."""
    french(FRENCH)
    table, ada, _ben, cy = table_of_two_languages()
    for seat in (0, 1):
        table.sit(seat, f"bot{seat}", f"Bot {seat}", 500, bot=True)
    for _ in range(400):
        table.advance(0.05)
        if table.core.hand is not None:
            break
    assert table.core.hand is not None
    table.step(table.core.void_hand, FAULT)
    table.step(table.core.refresh)  # told with the next state, as the shell tells it

    def void(viewer: Viewer) -> tuple[Any, Any]:
        """The void hand's reason in the state that told it, and the notice."""
        told = [
            (event["reason"], state["view"]["table"]["message"])
            for state in viewer.states()
            for event in state.get("events", [])
            if event["kind"] == "hand_void"
        ]
        assert len(told) == 1
        return told[0]

    assert void(ada) == (FAULT, FAULT)
    assert void(cy) == (FRENCH[FAULT], FRENCH[FAULT])
    # one who connects later reads it in the story
    dee = table.watch("dee", "Dee", "fr")
    story = dee.states()[-1]["story"]
    assert [e["reason"] for e in story if e["kind"] == "hand_void"] == [FRENCH[FAULT]]


def test_a_close_frames_reason_is_worded_and_fits_the_frame(french: Install) -> None:
    french(FRENCH)
    assert close_words(REBUILDING, "en") == REBUILDING
    assert close_words(REBUILDING, "fr") == FRENCH[REBUILDING]
    minutes = Plural(
        "Nobody was at this table for {minutes} minute: it closed",
        "Nobody was at this table for {minutes} minutes: it closed",
        n=30,
        minutes="30",
    )
    assert close_words(minutes, "en") == "Nobody was at this table for 30 minutes: it closed"
    greek = (
        "Ο διακομιστής δεν μπόρεσε να αποθηκεύσει αυτό το τραπέζι· το ξαναστήνει από όσα σώθηκαν."
    )
    cut = close_words(greek, "el")
    assert len(cut.encode()) <= 120 and greek.startswith(cut) and len(cut) < len(greek)
