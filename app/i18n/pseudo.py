"""The pseudo-locale ``qps``, made from a catalog template (``.pot``): every message's
translation is its msgid with each letter accented, about 40% longer, wrapped in ``⟦ ⟧``::

    "Open tables"            →  "⟦Öƥéñ ţàƀļéš ļöŕé⟧"
    "Join {name}"            →  "⟦Ĵöîñ {name} ļöŕ⟧"

Values (``{name}``, ``%(count)s``, ``%s``), markup (``<code>``, ``&nbsp;``) are left as they
are. A page rendered in it shows at once a string that bypasses the catalogs (plain ASCII
letters outside ``⟦ ⟧``), a string cut short (a missing ``⟧``) and a box too small for longer
words (tests/browser/test_pseudo_locale_browser.py). ``make compile`` writes
``app/i18n/locale/qps/LC_MESSAGES/<domain>.po`` from each template and compiles it; the
``.po`` is a build product like the ``.mo``.

Usage: ``python -m app.i18n.pseudo TEMPLATE.pot OUT.po``
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from app.i18n.locales import PSEUDO

ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçďéƒĝĥîĵķļɱñöƥǫŕšţûṽŵẋýžÀƁÇĎÉƑĜĤÎĴĶĻṀÑÖƤǪŔŠŢÛṼŴẊÝŽ",
)
"""Each ASCII letter to its accented twin (no ASCII letter is left in a pseudo text)."""

KEPT = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sdif]|%[sdif%]|<[^<>]*>|&#?\w+;")
"""What a message's translation must keep as it is: values and markup."""

FILLER = "ļöŕéɱ îƥšûɱ ďöļöŕ šîţ àɱéţ çöñšéçţéţûŕ àďîƥîšçîñĝ éļîţ šéď ďö éîûšɱöď ţéɱƥöŕ"
"""Accented words that lengthen a text by about 40%."""

OPEN, CLOSE = "⟦", "⟧"


def accent(text: str) -> str:
    """``text`` with each letter accented, its values and markup kept."""
    out, last = [], 0
    for kept in KEPT.finditer(text):
        out.append(text[last : kept.start()].translate(ACCENTED))
        out.append(kept.group())
        last = kept.end()
    out.append(text[last:].translate(ACCENTED))
    return "".join(out)


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: accented, ~40% longer (counting its words, not its
    values and markup), wrapped in ``⟦ ⟧``; an empty text stays empty."""
    if not text:
        return text
    words = len(KEPT.sub("", text))
    extra = math.ceil(words * 0.4)
    filler = (FILLER * (extra // len(FILLER) + 1))[:extra].strip()
    return f"{OPEN}{accent(text)}{' ' + filler if filler else ''}{CLOSE}"


def pseudo_catalog(template: Catalog) -> Catalog:
    """A catalog of every message of ``template`` translated into the pseudo-locale (plural
    forms as English's)."""
    catalog = Catalog(locale=Locale("en"), domain=template.domain, fuzzy=False)
    catalog.locale = None  # the pseudo-locale is no CLDR locale: English's plural rule
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            translated: str | tuple[str, ...] = tuple(pseudo(str(form)) for form in message.id)
        else:
            translated = pseudo(message.id)
        catalog.add(
            message.id,
            translated,
            locations=message.locations,
            flags=message.flags,
            context=message.context,  # a word in context (tc, pgettext) is a message of its own
        )
    return catalog


def write(template_path: Path, out_path: Path) -> None:
    """Write the pseudo-locale's ``.po`` of the template at ``template_path``."""
    with template_path.open("rb") as source:
        template = read_po(source)
    catalog = pseudo_catalog(template)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with out_path.open("wb") as out:
        write_po(out, catalog, width=0, omit_header=False)
    header = out_path.read_text(encoding="utf-8")
    out_path.write_text(
        header.replace('"Language: \\n"', f'"Language: {PSEUDO}\\n"', 1), encoding="utf-8"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    write(Path(argv[0]), Path(argv[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
