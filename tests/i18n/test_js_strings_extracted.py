"""Every string the browser client words through ``t()``/``tn()`` is in the ``js`` catalog's
template, so no text of the client bypasses the catalogs (docs/i18n.md): Babel's JavaScript
extractor misses a call nested in another call's arguments and one inside a template literal's
``${}``, and such a string would show in English in every language. The client's calls are
read here by their own pattern, and each msgid must be in app/i18n/locale/js.pot; a msgid is a
plain double-quoted literal (a backquoted one is refused: the extractor cannot read it)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from app.i18n.catalogs import LOCALE_DIR

STATIC = Path(__file__).resolve().parents[2] / "static" / "js"
LITERAL = r'"((?:[^"\\\n]|\\.)*)"'
CALL = re.compile(r"(?<![\w.$])(t|tn|tc)\(\s*" + LITERAL + r"(?:\s*,\s*" + LITERAL + r")?")
UNREADABLE = re.compile(r"(?<![\w.$])(?:t|tn|tc)\(\s*[`']")


COMMENTS = re.compile(r"/\*.*?\*/|^\s*//[^\n]*", re.DOTALL | re.MULTILINE)


def _code(path: Path) -> str:
    """The module's source with its comments blanked (their lines kept, for the line numbers):
    a comment's example call is no string a person reads."""
    source = path.read_text(encoding="utf-8")
    return COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), source)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _calls() -> dict[str, list[str]]:
    """Each msgid a client module words, with where (file:line)."""
    found: dict[str, list[str]] = {}
    for path in sorted(STATIC.rglob("*.js")):
        source = _code(path)
        for match in CALL.finditer(source):
            line = source.count("\n", 0, match.start()) + 1
            kind, first, second = match.groups()
            msgid = _unescape(first)
            if kind == "tc":  # tc(context, msgid): keyed as gettext keys it, context\x04msgid
                msgid = f"{msgid}\x04{_unescape(second or '')}"
            found.setdefault(msgid, []).append(f"{path.relative_to(STATIC)}:{line}")
    return found


def _template_ids() -> set[str]:
    with (LOCALE_DIR / "js.pot").open("rb") as source:
        return {
            (f"{m.context}\x04" if m.context else "") + (m.id if isinstance(m.id, str) else m.id[0])
            for m in read_po(source)
            if m.id
        }


def test_the_client_words_something_through_the_catalog() -> None:
    assert len(_calls()) > 20  # the pattern reads the client's calls at all


def test_every_msgid_of_the_client_is_in_the_template() -> None:
    known = _template_ids()
    missing = {msgid: where for msgid, where in _calls().items() if msgid not in known}
    assert not missing, (
        f"not in js.pot (a call nested in another's arguments or inside ${{}}: hoist it into a"
        f" variable; then make extract): {missing}"
    )


def test_no_msgid_is_a_template_literal_or_single_quoted() -> None:
    bad = [
        f"{path.relative_to(STATIC)}:{source.count(chr(10), 0, m.start()) + 1}"
        for path in sorted(STATIC.rglob("*.js"))
        for source in [_code(path)]
        for m in UNREADABLE.finditer(source)
    ]
    assert not bad, f"a msgid must be a double-quoted literal: {bad}"
