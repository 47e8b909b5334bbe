"""A game's "How to play" page for players: docs/how-to-play/<game id>.md as HTML.

The rule book (docs/rules.md, :mod:`app.rulebook.book`) is the specification; these pages are
what a newcomer reads in five minutes: the aim, how a deal goes, one worked hand with pictures
of cards, what each button does. Each page's Markdown is rendered like the book's (markdown-it,
CommonMark and tables, raw HTML off), with one addition: a paragraph that starts with cards in
double brackets, ``[[KS QS AS]] Finn's hand: 31 in spades``, becomes a row of cards drawn as the
table page draws them (static/js/cards.js: the same classes, names and symbols), with the rest
of the line as its caption. ``??`` is a face-down card.

The text says nothing of option ids, seeds or decisions: the page links to the full rule book
for those.

**In the reader's language**: ``docs/how-to-play/<lang>/<game id>.md``; a language without
its page is served the English one, and :attr:`HowToPlay.lang` says so (the page tells the
reader it is not yet written in their language).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from app.games.core.registry import GAME_MODULES, game_class
from app.i18n.locales import DEFAULT
from app.rulebook.option_words import table_option_words

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "how-to-play"

CARD_ROW = re.compile(r"<p>\[\[((?:(?:[2-9TJQKA][SHDC]|XX|\?\?)\s*)+)\]\]\s*(.*?)</p>", re.S)
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}


@dataclass(frozen=True)
class HowToPlay:
    """One game's player page: its title, its HTML, and the options a lobby table starts with."""

    game: str
    title: str
    html: str
    lang: str = DEFAULT
    """The language the page is written in: the reader's, or English until it is written in
    theirs."""


def card_html(code: str) -> str:
    """One card as the table page draws it (static/js/cards.js ``cardEl``)."""
    if code == "??":
        return (
            '<span class="card card-back" role="img" aria-label="face-down card" '
            'title="Face-down card"></span>'
        )
    if code == "XX":
        rank, suit, name, colour = "★", "", "joker", "card-black card-joker"
        pip = "JOKER"
    else:
        r, s = code[0], code[1]
        rank = "10" if r == "T" else r
        suit = SUITS[s]
        name = f"{RANK_NAMES.get(r, r)} of {SUIT_NAMES[s]}"
        colour = "card-red" if s in "HD" else "card-black"
        pip = suit
    return (
        f'<span class="card {colour}" role="img" aria-label="{name}" title="{name}" '
        f'data-card="{code}"><span class="card-corner" aria-hidden="true">'
        f'<span class="card-rank">{rank}</span><span class="card-suit">{suit}</span></span>'
        f'<span class="card-pip" aria-hidden="true">{pip}</span></span>'
    )


def _card_row(match: re.Match[str]) -> str:
    cards = "".join(card_html(code) for code in match.group(1).split())
    caption = match.group(2).strip()
    figure = f'<figure class="howto-hand"><div class="card-row">{cards}</div>'
    if caption:
        figure += f"<figcaption>{caption}</figcaption>"
    return figure + "</figure>"


def render(markdown: str) -> str:
    """The page's Markdown as HTML, card rows drawn (the caption keeps its inline Markdown,
    already escaped by markdown-it)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return CARD_ROW.sub(_card_row, md.render(markdown))


@cache
def how_to_play(game: str, lang: str = DEFAULT) -> HowToPlay | None:
    """The game's player page in ``lang`` (in English until it is written in ``lang``); None
    for a game without one."""
    if game not in GAME_MODULES:
        return None
    path = PAGES / lang / f"{game}.md"
    if lang == DEFAULT or not lang.isalpha() or not path.is_file():
        path, lang = PAGES / f"{game}.md", DEFAULT
    if not path.is_file():
        return None
    html = render(path.read_text("utf-8"))
    return HowToPlay(game=game, title=game_class(game).title, html=html, lang=lang)


def lobby_table_words(game: str, locale: str) -> list[dict[str, object]]:
    """The options a table opened from the lobby starts with, in words in ``locale``: the
    game's defaults, but the lobby's tables wait for everyone's Ready (docs/rules.md §0.11)."""
    cls = game_class(game)
    options = cls.OPTIONS_MODEL.check({"start": "when_ready"})
    buy_in = None if "buy_in" in options else cls(dict(options)).buy_in_limits(None)
    return table_option_words(game, options, buy_in, locale=locale)
