"""The pseudo-locale (app/i18n/pseudo.py): accented, about 40% longer, wrapped in ⟦ ⟧, with
its values and markup kept as they are."""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog

from app.i18n.pseudo import pseudo, pseudo_catalog


def test_every_letter_is_accented_and_the_text_wrapped() -> None:
    text = pseudo("Open tables")
    assert text.startswith("⟦") and text.endswith("⟧")
    assert not re.search(r"[A-Za-z]", text)


def test_about_forty_percent_longer() -> None:
    source = "A card room for the games of 31"
    assert len(pseudo(source)) - 2 >= 1.4 * len(source)


def test_values_and_markup_are_kept() -> None:
    text = pseudo("Join {name}: %(count)s seats, %s left, <code>?invite=</code>&nbsp;now")
    for kept in ("{name}", "%(count)s", "%s", "<code>", "</code>", "&nbsp;"):
        assert kept in text
    assert "invite" not in text and "now" not in text


def test_empty_stays_empty() -> None:
    assert pseudo("") == ""


def test_a_word_in_context_has_its_own_pseudo_translation() -> None:
    """One English text in two contexts (tc, pgettext: the status "Bet" and the button "Bet")
    is two messages: each has its translation in the pseudo-locale, so a page shows neither in
    plain English."""
    template = Catalog(domain="js")
    template.add("Bet")
    template.add("Bet", context="hand status")
    catalog = pseudo_catalog(template)
    assert catalog.get("Bet").string == pseudo("Bet")
    in_context = catalog.get("Bet", context="hand status")
    assert in_context is not None and in_context.string == pseudo("Bet")
