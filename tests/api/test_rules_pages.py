"""The "How to play" pages through the real app (app/api/routes/rules_pages.py): every game's
page is its section of the rule book (docs/rules.md) with its headings, a contents, the way
back, and a table at this server's options in words; an unknown game is the site's own 404
page, never JSON; a page opened from a table links back to it only for a reader who may enter
it. The table page shows its options in words and links to its game's page."""

from __future__ import annotations

import json
import re
from html import unescape

import httpx

from app.games.core.registry import GAME_IDS, game_class
from app.rulebook.book import BOOK
from tests.client import Player
from tests.conftest import LiveServer

SECTION = re.compile(r"^## (\d+)\. (.+)$", re.MULTILINE)
SUBSECTION = re.compile(r"^### (\d+\.\d+) (.+)$", re.MULTILINE)


def book_headings(game: str) -> tuple[str, list[tuple[str, str]]]:
    """The game's section title and its subsections' numbers and titles, read from the book
    here (not through the module under test)."""
    text = BOOK.read_text(encoding="utf-8")
    tops = list(SECTION.finditer(text))
    for i, top in enumerate(tops):
        end = tops[i + 1].start() if i + 1 < len(tops) else len(text)
        body = text[top.end() : end]
        if f"Game id `{game}`" in body:
            return top.group(2), SUBSECTION.findall(body)
    raise AssertionError(f"the book has no section for {game}")


def raw(text: str) -> list[str]:
    """What in ``text`` reads as a raw option rather than words: a key or a choice written in
    snake_case (``min_bet``, ``table_stakes``), or JSON's ``null``, ``true`` and ``false``.
    (Keys that are words, like decks or seats, may well be said.)"""
    found = [k for k in option_keys() | choice_values() if "_" in k and k in text]
    found += re.findall(r"\b(?:null|None|true|false|True|False)\b", text)
    if "_" in text:
        found.append("_")
    return found


def option_keys() -> set[str]:
    return {spec.name for gid in GAME_IDS for spec in game_class(gid).OPTIONS}


def choice_values() -> set[str]:
    return {str(c) for gid in GAME_IDS for spec in game_class(gid).OPTIONS for c in spec.choices}


def visible_text(html: str) -> str:
    """The page's text as a reader sees it: no tags, no scripts' JSON."""
    html = re.sub(r"<script\b.*?</script>", "", html, flags=re.DOTALL)
    return unescape(re.sub(r"<[^>]+>", " ", html))


async def test_every_game_has_its_page_with_its_sections_headings(live: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        for game in GAME_IDS:
            page = await http.get(f"/games/{game}/rules")
            assert page.status_code == 200, game
            assert page.headers["content-type"].startswith("text/html")
            html = page.text
            title, headings = book_headings(game)
            assert len(headings) >= 8, game
            assert f'<h1 id="rules-title">{title}</h1>' in html
            for number, heading in headings:
                anchor = "s" + number.replace(".", "-")
                assert f'<h2 id="{anchor}">{number} {heading}</h2>' in unescape(html), (
                    game,
                    number,
                )
                assert f'href="#{anchor}"' in html, (game, number)  # in the contents
            # the options table of the section, as a table
            assert "<table>" in html and "<th>Option</th>" in html
            # the way back, and a table at this server in words
            assert 'href="/" id="back-to-lobby"' in html
            assert 'id="at-this-server"' in html
            defaults = re.search(
                r'<ul class="option-words" id="default-options">(.*?)</ul>', html, re.S
            )
            assert defaults is not None
            said = visible_text(defaults.group(1))
            assert "seconds to" in said
            assert raw(said) == [], game


async def test_citations_link_to_the_page_or_to_another_games_page(live: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        greek = (await http.get("/games/greek-31/rules")).text
    assert '<a href="#s2-11">§2.11</a>' in greek  # its own subsection
    assert '<a href="#s0-4">§0.4</a>' in greek  # the common ground it cites, on the page
    assert 'id="s0-4"' in greek and 'id="common"' in greek


async def test_the_book_is_rendered_with_raw_html_off(live: LiveServer) -> None:
    """Nothing of the book's text reaches the page as markup: only the tags markdown-it makes."""
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        html = (await http.get("/games/trianta-ena/rules")).text
    article = html[html.index('<article class="rules-book"') : html.index("</article>")]
    tags = set(re.findall(r"</?([a-z0-9]+)", article))
    assert tags <= {
        "article",
        "section",
        "p",
        "h2",
        "h3",
        "ul",
        "ol",
        "li",
        "a",
        "code",
        "strong",
        "em",
        "div",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "br",
    }


async def test_an_unknown_game_is_the_sites_own_404_page(live: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        for path in ("/games/blackjack/rules", "/games/%3Cscript%3E/rules", "/games/app/rules"):
            page = await http.get(path)
            assert page.status_code == 404, path
            assert page.headers["content-type"].startswith("text/html"), path
            assert "There is no such game here" in page.text
            assert 'href="/"' in page.text
            assert "<script>" not in page.text


async def test_a_page_opened_from_a_table_links_back_to_it(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    public = await ada.open_table("vingt-un")
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as stranger:
        page = (await stranger.get(f"/games/vingt-un/rules?table={public}")).text
        assert 'id="back-to-table"' in page and f'href="/tables/{public}"' in page
        # a table that does not exist: no link back, no word of it
        page = (await stranger.get("/games/vingt-un/rules?table=000000000000")).text
        assert "back-to-table" not in page and "at-this-table" not in page


async def test_a_private_tables_way_back_needs_its_invite(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    # a name no rule book page holds ("Hidden" is in §0.8's heading, which §2 cites)
    created = await ada.http.post(
        "/api/tables", json={"game": "greek-31", "name": "Hideaway", "private": True}
    )
    table_id = created.json()["table_id"]
    invite = created.json()["invite_path"].split("invite=")[1]
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as stranger:
        without = (await stranger.get(f"/games/greek-31/rules?table={table_id}")).text
        assert "back-to-table" not in without and "Hideaway" not in without
        assert "at-this-table" not in without
        invited = (
            await stranger.get(f"/games/greek-31/rules?table={table_id}&invite={invite}")
        ).text
        assert f'href="/tables/{table_id}?invite={invite}"' in invited and "Hideaway" in invited
        assert 'id="at-this-table"' in invited and "Stakes 10 to 100 chips" in invited
    # the opener is let back without the invite, as at the table itself
    opener = (await ada.http.get(f"/games/greek-31/rules?table={table_id}")).text
    assert "back-to-table" in opener


async def test_the_table_page_tells_its_options_in_words_and_links_to_the_rules(
    live: LiveServer,
) -> None:
    ada = await Player.join(live, "Ada")
    for game in GAME_IDS:
        table_id = await ada.open_table(game)
        page = await ada.http.get(f"/tables/{table_id}")
        assert page.status_code == 200
        assert f'href="/games/{game}/how-to-play?table={table_id}"' in page.text
        data = re.search(
            r'<script type="application/json" id="table-data">(.*?)</script>', page.text, re.S
        )
        assert data is not None
        summary = json.loads(data.group(1))
        words = summary["option_words"]
        told = {name for w in words for name in w["names"]}
        assert told == set(summary["options"]), game
        for w in words:
            assert raw(w["text"]) == [], (game, w["text"])


async def test_the_lobby_tells_each_game_in_its_own_sentence(live: LiveServer) -> None:
    """The lobby's sentence about a game is the game's own (its class's ``BLURB``), beside
    the link to its rules: a new game brings its sentence with it."""
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        html = unescape((await http.get("/")).text)
    for game in GAME_IDS:
        cls = game_class(game)
        assert cls.BLURB and cls.BLURB.endswith("."), game
        assert f"<strong>{cls.title}</strong> — {cls.BLURB}" in html, game


async def test_the_review_pages_name_every_game_from_the_games(live: LiveServer) -> None:
    """The hand lists and a player's page name games by the titles the server gives them (read
    from the games), which static/js/review-api.js reads: no list of titles in the scripts."""
    ada = await Player.join(live, "Ada")
    titles = {game: game_class(game).title for game in GAME_IDS}
    page = (await ada.http.get(f"/players/{ada.player_id}")).text
    found = re.search(r'<script type="application/json" id="game-titles">(.*?)</script>', page)
    assert found is not None
    assert json.loads(unescape(found.group(1))) == titles
