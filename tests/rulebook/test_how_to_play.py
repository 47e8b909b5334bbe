"""The players' "How to play" pages (app/rulebook/how_to_play.py, docs/how-to-play/): every
game has one, written in words (no option ids, no seeds, no decisions), with a worked hand drawn
as cards, and what a table opened from the lobby starts with (everyone's Ready first)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from app.games.core.registry import GAME_IDS, game_class
from app.rulebook.how_to_play import card_html, how_to_play, lobby_table_words, render

SPEC_WORDS = re.compile(r"seed \d|Decision\.|This server\.|Beyond the sources|§\d|docs/")


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_a_page_in_words_with_cards(game: str) -> None:
    page = how_to_play(game)
    assert page is not None and page.title == game_class(game).title
    text = text_of(page.html)
    assert not SPEC_WORDS.search(text), SPEC_WORDS.search(text)
    ids = {spec.name for spec in game_class(game).OPTIONS if "_" in spec.name}
    assert not [name for name in ids if name in text]
    assert "_" not in text
    for heading in ("The aim", "A worked", "The buttons"):
        assert heading in text
    assert page.html.count('class="howto-hand"') >= 2
    assert page.html.count('class="card ') >= 5


def test_cards_are_drawn_as_the_table_draws_them() -> None:
    assert card_html("TH") == (
        '<span class="card card-red" role="img" aria-label="ten of hearts" '
        'title="ten of hearts" data-card="TH"><span class="card-corner" aria-hidden="true">'
        '<span class="card-rank">10</span><span class="card-suit">♥</span></span>'
        '<span class="card-pip" aria-hidden="true">♥</span></span>'
    )
    assert "card-back" in card_html("??") and "joker" in card_html("XX")
    html = render("[[KS QS AS]] Finn's hand: *31*\n\nA [[KS]] in a sentence stays text.\n")
    assert '<figure class="howto-hand">' in html and "<em>31</em></figcaption>" in html
    assert "[[KS]]" in html


def test_raw_html_stays_text() -> None:
    assert "<script>" not in render("<script>alert(1)</script>\n\n[[KS]] <b>x</b>\n")


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_lobby_table_waits_for_ready(game: str) -> None:
    words = [w["text"] for w in lobby_table_words(game, "en")]
    assert any("ready" in text for text in words)


def test_an_unknown_game_has_no_page() -> None:
    assert how_to_play("poker") is None
