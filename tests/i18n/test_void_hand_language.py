"""A void hand's page says why it is void in the reader's language where the reason is a
marked message (the server's own, docs/i18n.md), and a host's reason as the host typed it."""

from __future__ import annotations

from collections.abc import Callable

from app.api.routes.review_pages import void_hand
from app.db.store.recovery import RESTARTED
from tests.i18n.conftest import Entries

FRENCH = "Le serveur a redémarré : la main en cours est annulée, mises rendues."
RECORD = {"seats_before": [{"seat": 1, "name": "Ben"}, {"seat": 0, "name": "Ada"}]}


def test_a_marked_reason_reads_in_the_readers_language(french: Callable[[Entries], None]) -> None:
    french({RESTARTED: FRENCH})
    shown = void_hand({**RECORD, "void": RESTARTED}, "fr")
    assert shown["reason"] == FRENCH
    assert [p["name"] for p in shown["players"]] == ["Ada", "Ben"]
    assert void_hand({**RECORD, "void": RESTARTED})["reason"] == RESTARTED  # English


def test_a_hosts_reason_and_no_reason(french: Callable[[Entries], None]) -> None:
    french({RESTARTED: "Le serveur a redémarré."})
    assert void_hand({**RECORD, "void": "good night, 50% off"}, "fr")["reason"] == (
        "good night, 50% off"
    )
    assert void_hand(RECORD, "fr")["reason"] is None  # the page says it in its own words
