"""A game's section of the rule book (docs/rules.md) as HTML, for its "How to play" page.

The book is read from the project's root (the Docker image copies ``docs/`` beside ``app/``).
Its top-level sections are ``## N. Title`` (an appendix, ``## Appendix A. Title``, ends the
section before it and is no game's); a game's section is the one that names its id
("Game id `greek-31`"). Its subsections (``### N.M Title``) become the page's headings, each
with an anchor (``s2-4``) and an entry in the table of contents. The subsections of the common
ground (§0) that the game's section cites, and those they cite in turn, follow it, so that a
page is whole without the rest of the book.

References in the text (``§2.4``, ``§0.7``) become links: to a heading on the page, or to
another game's page. The Markdown is rendered by markdown-it-py (CommonMark and tables) with
raw HTML off: the book is ours, but nothing in it reaches the page unescaped, and links keep
markdown-it's check (no ``javascript:`` and the like).

**In the reader's language** (docs/i18n.md, "The rules pages"): the book of language ``xx`` is
``docs/rules/xx.md``, a translation of docs/rules.md that keeps its numbering (``## N.``,
``### N.M``, ``§N.M``): a game's section is found by its number in the English book, where
its id is named, so a translation may word the "Game id" line as it likes. A language without
its book, or whose book lacks the game's section, is served the English section
(:attr:`GameRules.lang` says which the page is written in; the page says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from app.i18n.locales import DEFAULT

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "docs" / "rules.md"
TRANSLATED = ROOT / "docs" / "rules"
"""Where each language's book is: ``<lang>.md``."""

TOP = re.compile(r"^## (?:(\d+)\. )?(.+)$", re.MULTILINE)
"""A top-level heading: a numbered section's (its number, its title) or an appendix's."""
SUB = re.compile(r"^### (\d+)\.(\d+) (.+)$", re.MULTILINE)
GAME_ID = re.compile(r"Game id `([a-z0-9-]+)`")
CITE = re.compile(r"§(\d+)(?:\.(\d+))?")
COMMON = "0"


@dataclass(frozen=True)
class Heading:
    """A subsection: its number (``2.4``), its title, and its anchor on the page."""

    number: str
    title: str

    @property
    def anchor(self) -> str:
        return "s" + self.number.replace(".", "-")


@dataclass(frozen=True)
class Part:
    """Some subsections of the book, rendered: their headings and their HTML."""

    headings: tuple[Heading, ...]
    html: str


@dataclass(frozen=True)
class GameRules:
    """A game's section of the book (``number``, ``title``) and the common ground it cites."""

    game: str
    number: str
    title: str
    rules: Part
    common: Part
    lang: str = DEFAULT
    """The language the section is written in: the reader's, or English when the book has
    not been written in theirs yet."""


@dataclass(frozen=True)
class _Section:
    number: str
    title: str
    body: str  # the Markdown below the ``##`` heading
    subsections: dict[str, str]  # "2.4" -> its Markdown, heading included


def _sections(text: str) -> dict[str, _Section]:
    """The book's top-level sections by number."""
    tops = list(TOP.finditer(text))
    out: dict[str, _Section] = {}
    for i, top in enumerate(tops):
        end = tops[i + 1].start() if i + 1 < len(tops) else len(text)
        body = text[top.end() : end]
        subs = list(SUB.finditer(body))
        subsections = {
            f"{m.group(1)}.{m.group(2)}": body[
                m.start() : subs[j + 1].start() if j + 1 < len(subs) else len(body)
            ]
            for j, m in enumerate(subs)
        }
        if top.group(1) is None:  # an appendix: no game's section
            continue
        out[top.group(1)] = _Section(top.group(1), top.group(2).strip(), body, subsections)
    return out


def _cited(markdown: str) -> set[str]:
    """The subsections ``markdown`` cites (``§0.7``)."""
    return {f"{m.group(1)}.{m.group(2)}" for m in CITE.finditer(markdown) if m.group(2)}


class _Renderer:
    """Renders parts of the book for one game's page: headings one level up (``###`` is the
    page's ``h2``), with anchors, and citations as links."""

    def __init__(self, own: str, pages: dict[str, str], on_page: set[str]) -> None:
        self.own = own  # the game's section number
        self.pages = pages  # section number -> the game id of its page
        self.on_page = on_page  # the subsection numbers the page shows
        self.md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def render(self, markdown: str, level: int = 2) -> Part:
        """``markdown``'s HTML, its ``###`` subsections as headings of ``level``."""
        tokens = self.md.parse(markdown)
        headings: list[Heading] = []
        out: list[Token] = []
        for i, token in enumerate(tokens):
            if token.type in ("heading_open", "heading_close"):
                token.tag = f"h{int(token.tag[1]) - 3 + level}"
                if token.type == "heading_open" and token.tag == f"h{level}":
                    content = tokens[i + 1].content
                    number, _, title = content.partition(" ")
                    heading = Heading(number, title)
                    headings.append(heading)
                    token.attrSet("id", heading.anchor)
            if token.type == "inline" and token.children:
                token.children = self._linked(token.children)
            if token.type == "table_open":  # a wide table scrolls in its own box on a phone
                out.append(_box_open())
            out.append(token)
            if token.type == "table_close":
                out.append(_box_close())
        html = self.md.renderer.render(out, self.md.options, {})
        return Part(tuple(headings), html)

    def href(self, section: str, sub: str | None) -> str | None:
        """Where a citation of §section(.sub) points, if anywhere this site shows it."""
        number = f"{section}.{sub}" if sub else section
        if number in self.on_page:
            return "#s" + number.replace(".", "-")
        if section == self.own:
            return "#rules"
        if section in self.pages:
            anchor = f"#s{section}-{sub}" if sub else ""
            return f"/games/{self.pages[section]}/rules{anchor}"
        return None

    def _linked(self, children: list[Token]) -> list[Token]:
        """The inline tokens with each citation in a text token made a link."""
        out: list[Token] = []
        for child in children:
            if child.type != "text" or "§" not in child.content:
                out.append(child)
                continue
            text, at = child.content, 0
            for m in CITE.finditer(text):
                href = self.href(m.group(1), m.group(2))
                if href is None:
                    continue
                if m.start() > at:
                    out.append(_text(text[at : m.start()]))
                link = Token("link_open", "a", 1)
                link.attrSet("href", href)
                out += [link, _text(m.group(0)), Token("link_close", "a", -1)]
                at = m.end()
            if at < len(text):
                out.append(_text(text[at:]))
        return out


def _box_open() -> Token:
    token = Token("div_open", "div", 1, block=True)
    token.attrSet("class", "table-scroll")
    return token


def _box_close() -> Token:
    return Token("div_close", "div", -1, block=True)


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _games(sections: dict[str, _Section]) -> dict[str, str]:
    """Section number -> the game id it names."""
    out = {}
    for number, section in sections.items():
        found = GAME_ID.search(section.body)
        if found and number != COMMON:
            out[number] = found.group(1)
    return out


def _common_cited(sections: dict[str, _Section], own: _Section) -> list[str]:
    """The common ground's subsections the game's section cites, and those they cite, in
    the book's order."""
    common = sections[COMMON].subsections
    wanted: set[str] = set()
    todo = [n for n in _cited(own.body) if n in common]
    while todo:
        number = todo.pop()
        if number not in wanted:
            wanted.add(number)
            todo += [n for n in _cited(common[number]) if n in common]
    return [n for n in common if n in wanted]


@cache
def _book(lang: str = DEFAULT) -> str | None:
    """The book in ``lang`` (the English one for English), None when not written yet."""
    if lang == DEFAULT:
        return BOOK.read_text(encoding="utf-8")
    path = TRANSLATED / f"{lang}.md"
    if not lang.isalpha() or not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


@cache
def game_rules(game: str, lang: str = DEFAULT) -> GameRules | None:
    """The game's section of the book in ``lang`` (English when the book in ``lang`` lacks
    it) and the common ground it cites; None for a game the book does not describe."""
    sections = _sections(_book() or "")
    pages = _games(sections)
    own = next((n for n, g in pages.items() if g == game), None)
    if own is None:
        return None
    translated = _book(lang) if lang != DEFAULT else None
    if translated is not None:
        theirs = _sections(translated)
        if own in theirs and COMMON in theirs:
            sections = theirs
        else:
            lang = DEFAULT
    else:
        lang = DEFAULT
    section = sections[own]
    common = _common_cited(sections, section)
    on_page = set(section.subsections) | set(common)
    renderer = _Renderer(own, pages, on_page)
    return GameRules(
        game=game,
        number=own,
        title=section.title,
        rules=renderer.render(section.body),
        common=renderer.render("".join(sections[COMMON].subsections[n] for n in common), level=3),
        lang=lang,
    )


def described_games() -> list[str]:
    """The game ids the book has a section for, in its order."""
    return list(_games(_sections(_book() or "")).values())
