"""One English word, two meanings, two msgids (docs/i18n.md, ``tc``): a button says "Bet",
"Stake", "Draw" as a verb (static/js/controls.js ``KIND_LABELS``), a hand's status "Bet" says
that someone has bet, a phase "Draw" names a part of the hand, and the name of an amount
"Stake" is a noun (static/js/words.js ``CODE_WORDS``, controls.js ``PARAM_WORDS``). Languages
word these apart (Greek's «Πόνταρε» is no status, Italian's «Punta» no amount), so a word
shared with a button is given a context of its own, which the catalogs carry."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from app.i18n.catalogs import LOCALE_DIR

STATIC = Path(__file__).resolve().parents[2] / "static" / "js"
ENTRY = re.compile(r'(\w+|"[^"]+"): (t|tc)\((?:"([^"]+)", )?"([^"]+)"\)')
ACTIONS_THEMSELVES = frozenset({"stand", "fold"})
"""Codes that are an action's own name where they show (its verb fits)."""


def _table(path: Path, name: str) -> dict[str, tuple[str | None, str]]:
    """A module's ``const NAME = {...}``: each key's (context, msgid)."""
    source = path.read_text(encoding="utf-8")
    body = re.search(rf"const {name} = \{{(.*?)\n\}};", source, re.DOTALL)
    assert body is not None, f"{name} in {path.name}"
    return {
        key.strip('"'): (context or None, msgid)
        for key, _call, context, msgid in ENTRY.findall(body.group(1))
    }


def test_a_word_a_button_says_is_worded_apart_elsewhere() -> None:
    buttons = _table(STATIC / "controls.js", "KIND_LABELS")
    codes = _table(STATIC / "words.js", "CODE_WORDS")
    params = _table(STATIC / "controls.js", "PARAM_WORDS")
    assert buttons["bet"] == (None, "Bet") and buttons["stake"] == (None, "Stake")
    said_by_buttons = {msgid for context, msgid in buttons.values() if context is None}
    shared = {
        key: msgid
        for table in (codes, params)
        for key, (context, msgid) in table.items()
        if context is None and msgid in said_by_buttons and key not in ACTIONS_THEMSELVES
    }
    assert not shared, f"worded as a button's verb too, give them a context (tc): {shared}"
    assert codes["bet"] == ("hand status", "Bet") and params["stake"] == ("noun", "Stake")


def test_the_catalogs_carry_the_contexts() -> None:
    with (LOCALE_DIR / "js.pot").open("rb") as source:
        template = {(m.context, m.id) for m in read_po(source) if m.id}
    for wanted in (("hand status", "Bet"), ("noun", "Stake"), ("phase", "Draw"), (None, "Bet")):
        assert wanted in template, wanted
