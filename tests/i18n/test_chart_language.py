"""The bankroll chart (app/review/chart.py) in the reader's language: its title, the
description a screen reader reads and the figure its line ends at, worded and numbered as the
reader's language writes them; English as it always read."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from app.review.chart import bankroll_svg
from app.review.stats import Point
from tests.i18n.conftest import Entries

POINTS = [
    Point(datetime(2026, 11, 27, 20, 0, tzinfo=UTC), 1000, None),
    Point(datetime(2026, 11, 27, 23, 30, tzinfo=UTC), 1500, "h1"),
]
DESC = (
    "From {first} on {start} to {last} on {end}; highest {highest}, lowest {lowest}; {n} point.",
    "From {first} on {start} to {last} on {end}; highest {highest}, lowest {lowest}; {n} points.",
)


def test_in_english_the_chart_reads_as_it_did() -> None:
    svg = bankroll_svg(POINTS, "Ada")
    assert '<title id="t">Ada: chips over time</title>' in svg
    assert (
        '<desc id="d">From 1,000 chips on 2026-11-27 20:00 to 1,500 chips on 2026-11-27 23:30;'
        " highest 1,500, lowest 1,000; 2 points.</desc>"
    ) in svg
    assert ">1,500 chips</text>" in svg
    assert ">No hands yet</text>" in bankroll_svg([], "Ada")


def test_a_french_reader_reads_the_chart_in_french(french: Callable[[Entries], None]) -> None:
    french(
        {
            "{name}: chips over time": "{name} : les jetons au fil du temps",
            ("{n} chip", "{n} chips"): ("{n} jeton", "{n} de jetons", "{n} jetons"),
            DESC: (
                "De {first} le {start} à {last} le {end} ; au plus {highest}, au moins"
                " {lowest} ; {n} point.",
                "De {first} le {start} à {last} le {end} ; au plus {highest}, au moins"
                " {lowest} ; {n} de points.",
                "De {first} le {start} à {last} le {end} ; au plus {highest}, au moins"
                " {lowest} ; {n} points.",
            ),
            "No hands yet": "Pas encore de main",
        }
    )
    svg = bankroll_svg(POINTS, "Ada", "fr")
    assert '<title id="t">Ada : les jetons au fil du temps</title>' in svg
    assert (
        '<desc id="d">De 1\u202f000 jetons le 2026-11-27 20:00 à 1\u202f500 jetons le'
        " 2026-11-27 23:30 ; au plus 1\u202f500, au moins 1\u202f000 ; 2 points.</desc>"
    ) in svg
    assert ">1\u202f500 jetons</text>" in svg  # the figure the line ends at
    assert ">1\u202f500</text>" in svg  # the axis's highest
    assert "chips" not in svg
    assert ">Pas encore de main</text>" in bankroll_svg([], "Ada", "fr")
