"""Which language a reader gets (app/i18n/negotiate.py): the player's choice, then the
cookie, then the browser's ``Accept-Language`` by its quality values, then English."""

from __future__ import annotations

import pytest

from app.i18n.negotiate import accept_language, negotiate


def test_accept_language_is_read_by_quality_then_order() -> None:
    header = "en;q=0.5, fr-CA;q=0.9, da, it;q=0.9, el;q=0"
    assert accept_language(header) == ["da", "fr", "it", "en"]


def test_region_subtags_are_read_as_their_language() -> None:
    assert negotiate(header="da-DK") == "da"
    assert negotiate(header="el-GR,el;q=0.9") == "el"
    assert negotiate(header="fr_FR") == "fr"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE, ja;q=0.9, it;q=0.2", "it"),  # the first the server speaks
        ("de, ja", "en"),  # none it speaks: English
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("fr;q=0, it;q=0.1", "it"),  # q=0: "not this one"
        ("fr;q=abc, da;q=0.5", "da"),  # an unreadable quality refuses its language
        ("fr;q=1.5, da;q=0.5", "da"),  # so does one out of range
        ("  IT ;Q=0.8 ", "it"),
    ],
)
def test_the_browsers_first_language_the_server_speaks(header: str | None, expected: str) -> None:
    assert negotiate(header=header) == expected


def test_a_choice_beats_the_cookie_which_beats_the_browser() -> None:
    assert negotiate(chosen="el", cookie="da", header="fr") == "el"
    assert negotiate(chosen=None, cookie="da", header="fr") == "da"
    assert negotiate(chosen="xx", cookie="zz", header="fr") == "fr"  # unknown ones passed over
    assert negotiate(cookie="FR") == "fr"


def test_the_pseudo_locale_only_where_allowed_and_never_from_a_browser() -> None:
    assert negotiate(cookie="qps") == "en"
    assert negotiate(cookie="qps", pseudo=True) == "qps"
    assert negotiate(header="qps", pseudo=True) == "en"
