"""The rule book in the app (app/rulebook/book.py): every game of the registry has its section
of docs/rules.md, found relative to the project root, as the Docker image lays it out; the
Markdown is rendered with raw HTML off and unsafe links refused; citations become links."""

from __future__ import annotations

from pathlib import Path

from app.games.core.registry import GAME_IDS
from app.rulebook import book
from app.rulebook.book import _Renderer, described_games, game_rules

ROOT = Path(__file__).resolve().parents[2]


def test_the_book_is_read_from_the_project_root_and_the_image_copies_it() -> None:
    assert book.BOOK == ROOT / "docs" / "rules.md"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY docs ./docs" in dockerfile
    assert "WORKDIR /app" in dockerfile and "COPY app ./app" in dockerfile


def test_every_game_has_its_section_in_the_registrys_order() -> None:
    assert described_games() == list(GAME_IDS)
    for number, game in enumerate(GAME_IDS, start=1):
        rules = game_rules(game)
        assert rules is not None and rules.number == str(number)
        numbers = [h.number for h in rules.rules.headings]
        assert numbers == [f"{number}.{i}" for i in range(1, len(numbers) + 1)]
        assert f"{number}.2" in numbers  # the table options
        assert all(h.number.startswith("0.") for h in rules.common.headings)
    assert game_rules("blackjack") is None


def test_raw_html_is_text_and_unsafe_links_are_not_links() -> None:
    renderer = _Renderer("1", {"1": "trianta-ena", "2": "greek-31"}, {"1.1"})
    hostile = (
        "### 1.1 A <b>bold</b> title\n\n"
        "<script>alert(1)</script>\n\n"
        'Text <img src=x onerror="alert(1)"> and [a link](javascript:alert(1)).\n'
    )
    part = renderer.render(hostile)
    assert "<script" not in part.html and "<img" not in part.html and "<b>" not in part.html
    assert "&lt;script&gt;" in part.html and "&lt;img" in part.html
    assert 'href="javascript' not in part.html
    assert part.headings[0].title == "A <b>bold</b> title"  # the template escapes it


def test_citations_become_links_to_the_page_or_another_games_page() -> None:
    renderer = _Renderer("1", {"1": "trianta-ena", "2": "greek-31"}, {"1.1", "0.4"})
    html = renderer.render("See §1.1, §0.4, §2.3, §1, §9.1 and §2.\n").html
    assert '<a href="#s1-1">§1.1</a>' in html
    assert '<a href="#s0-4">§0.4</a>' in html
    assert '<a href="/games/greek-31/rules#s2-3">§2.3</a>' in html
    assert '<a href="#rules">§1</a>' in html  # the game's own section: the page's rules
    assert "§9.1" in html and 'href="#s9-1"' not in html  # nowhere to go: left as text
    assert '<a href="/games/greek-31/rules">§2</a>' in html


def test_wide_tables_scroll_in_their_own_box() -> None:
    rules = game_rules("vingt-un")
    assert rules is not None
    assert '<div class="table-scroll">\n<table>' in rules.rules.html


def test_the_appendix_ends_the_last_games_section_and_is_no_games() -> None:
    """Appendix A follows the games without a game's number, so a new game takes the next
    number; the last game's page stops where the appendix begins."""
    last = game_rules(GAME_IDS[-1])
    assert last is not None
    assert "beyond its sources" not in last.rules.html
    assert "Appendix" not in last.rules.html
