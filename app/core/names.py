"""Player names: what a name may be, and when two names are the same name.

A name is what the other players see at a table, so two rules matter beyond "no markup":

* **Nothing invisible or misleading.** A name is NFKC-normalised (fullwidth letters, ligatures
  and styled mathematical letters become plain ones), its whitespace collapsed, and then refused
  if it holds a control, format (bidirectional overrides, zero-width joiners), private-use or
  unassigned character, a blank letter (U+3164 HANGUL FILLER and its kin, U+2800 BRAILLE
  BLANK), more than :data:`MAX_MARKS` combining marks on one letter, anything but letters,
  the digits 0-9, spaces and ``. ' - _``, or letters of scripts that are not written together
  (Unicode TR39's "highly restrictive" level: one script, or Latin with the Chinese, Japanese
  or Korean scripts). So ``Аda`` (a Cyrillic А then Latin) is refused outright.
* **One name, one person.** Two names are the same when their :func:`name_key` (a *skeleton*
  in TR39's sense) is: case folded, and every letter that looks like a Latin letter replaced
  by it (Cyrillic ``а`` by ``a``, Greek ``Ο`` by ``o``, the digit ``0`` by ``o``; ``I``, ``l``,
  ``i`` and ``1`` all by ``l``; ``rn`` by ``m``). An all-Cyrillic ``Аԁа`` is a name of its own
  script, but its key is ``ada``, so it cannot join a server where Ada plays.

The key is TR39's skeleton and more (``ᎪᏧᎪ``, ``Adɐ``, ``Ada`` with a combining
mark, ``Ada.`` and ``Ada_`` all passed next to Ada): the name is decomposed (NFKD), every
character that Unicode's confusables.txt maps is replaced by its prototype (the whole table,
shipped as app/core/confusables.tsv; Cherokee ``Ꮷ`` is ``d``), case is folded and the table
applied again, then the curated tables below (the Latin and digit pairs people really
mistake, and look-alikes confusables.txt lacks, such as ``ɐ``), and finally every combining
mark, space and punctuation mark is dropped: ``Ada.``, ``A.da``, ``Ada_`` and ``Adá`` are all
``ada``. Keys are stored (``players.name_key``); changing them needs a migration that
computes them again (migrations/versions/0008_name_keys_again.py did, for this one).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

from app.i18n.messages import N_, Text

MAX_LENGTH = 24
"""Characters (code points, after normalisation) in a name."""
MAX_MARKS = 2
"""Combining marks on one letter (after composition): Thai and Devanagari need 2; piles of
them are noise that spills over the next lines."""
BOT_MARK = "(bot)"
"""The end of every bot's name (app/runtime/lobby.py): a person's name may not end so."""
PUNCTUATION = frozenset(" .'-_")
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
"""Typographic apostrophes (O’Neil) are taken as the plain one."""

BLANKS = frozenset(
    (0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFEFF, 0xFFA0)
).union(
    range(0x180B, 0x1810),
    range(0x200B, 0x2010),
    range(0x202A, 0x202F),
    range(0x2060, 0x2070),
    range(0xFE00, 0xFE10),
    range(0xFFF0, 0xFFF9),
    range(0x1BCA0, 0x1BCA4),
    range(0x1D173, 0x1D17B),
    range(0xE0000, 0xE1000),
)
"""Characters that show nothing: Unicode's default-ignorable code points (zero-width spaces
and joiners, bidirectional marks and overrides, invisible operators, variation selectors,
tags, the Hangul fillers) and the braille blank. Most are also refused by their category; the
Hangul fillers are letters, so this list is what refuses them."""
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format, surrogate, private use, unassigned, line and paragraph separators."""

SCRIPT_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "KATAKANA-HIRAGANA": "KATAKANA"}
"""A letter's script is the first word of its Unicode name (``LATIN SMALL LETTER A``), but
for these words."""
SCRIPTS_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""TR39's "highly restrictive" sets: Japanese, Chinese (with Bopomofo) and Korean names may
mix their scripts with Latin; every other name uses one script."""

# The confusables. UPPER is read before case folding, so that a capital is taken by its own
# look (Greek Η looks like H, its small η like n); LOWER after it (and UPPER again, for
# letters that case folding leaves as capitals, such as Cherokee).
UPPER = {
    # Latin: the capital I looks like a small l
    "I": "l",
    # Cyrillic
    "А": "a", "В": "b", "Е": "e", "З": "3", "Ѕ": "s", "І": "l", "Ј": "j", "К": "k", "М": "m",
    "Н": "h", "О": "o", "Р": "p", "С": "c", "Т": "t", "У": "y", "Х": "x", "Ү": "y", "Һ": "h",
    "Ԛ": "q", "Ԝ": "w", "Ӏ": "l", "Ь": "b", "Ԁ": "d",
    # Greek
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "l", "Κ": "k", "Μ": "m", "Ν": "n",
    "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x", "Ϲ": "c", "Ϳ": "j",
    # Armenian
    "Օ": "o", "Ս": "u", "Տ": "s",
    # Cherokee (capitals are the usual forms; case folding keeps them)
    "Ꭺ": "a", "Ᏼ": "b", "Ꮯ": "c", "Ꭼ": "e", "Ꮋ": "h", "Ꮖ": "l", "Ꭻ": "j", "Ꮶ": "k",
    "Ꮇ": "m", "Ꮑ": "n", "Ꮻ": "o", "Ꮲ": "p", "Ꮪ": "s", "Ꭲ": "t", "Ꮃ": "w", "Ꮓ": "z",
    "Ꮩ": "v", "Ꮤ": "w", "Ꮮ": "l",
}  # fmt: skip
LOWER = {
    # Latin and digits: i, l, 1 (and I, above) are one letter; 0 is o
    "i": "l", "ı": "l", "1": "l", "ɩ": "l", "0": "o", "ɑ": "a", "ɡ": "g", "ʋ": "u",
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "з": "3", "ѕ": "s", "і": "l", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ү": "y", "һ": "h",
    "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b", "ԁ": "d", "г": "r", "п": "n", "ɜ": "3",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "n", "ι": "l", "κ": "k", "μ": "u", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ϳ": "j",
    "σ": "o",
    # Armenian
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "զ": "q",
    # Latin look-alikes confusables.txt lacks: turned a, turned alpha, schwa
    "ɐ": "a", "ɒ": "a", "ə": "e",
}  # fmt: skip
AFTER_FOLDING = {ord(k): v for k, v in {**UPPER, **LOWER}.items()}
BEFORE_FOLDING = {ord(k): v for k, v in UPPER.items()}
PAIRS = (("rn", "m"), ("vv", "w"))
"""Two letters that read as one."""

_BOT_END = re.compile(r"\(\s*bot\s*\)\s*$")


KEY_LENGTH = 200
"""The stored key's length at most (``players.name_key``): a name of 24 characters makes
a key of fewer than 100, even decomposed; longer keys (old names, bots) are cut."""


CONFUSABLES = Path(__file__).with_name("confusables.tsv")
"""Unicode's confusables.txt (UTS #39), its single-character mappings: character, prototype."""


@cache
def prototypes() -> dict[int, str]:
    """Each confusable character (by code point) -> the prototype it is taken for."""
    table: dict[int, str] = {}
    for line in CONFUSABLES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split("\t")
            table[int(source, 16)] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def _visible_key_char(char: str) -> bool:
    """A character that stays in a key: a letter or a digit (no mark, space or punctuation)."""
    return unicodedata.category(char)[0] in "LN"


def name_key(name: str) -> str:
    """The name's skeleton: equal keys, same-looking names. Total: any string has one.

    NFKD, Unicode's confusables (TR39's skeleton), case folded, the confusables again and the
    curated tables, then only letters and digits kept (marks, spaces, punctuation dropped)."""
    table = prototypes()
    text = unicodedata.normalize("NFKD", name).translate(BEFORE_FOLDING)
    for _ in range(2):  # twice: what folding or one table makes, the other maps in turn
        text = unicodedata.normalize("NFD", text.translate(table)).casefold()
        text = unicodedata.normalize("NFD", text.translate(table).translate(AFTER_FOLDING))
    text = "".join(char for char in text if _visible_key_char(char))
    for pair, one in PAIRS:
        text = text.replace(pair, one)
    return text[:KEY_LENGTH]


def script_of(letter: str) -> str:
    """The script of a letter, as the first word of its Unicode name (see SCRIPT_ALIASES)."""
    first = unicodedata.name(letter, "UNKNOWN").split(" ", 1)[0]
    return SCRIPT_ALIASES.get(first, first)


def refuse_invisible(typed: str, normalised: str, what: str = N_("name")) -> None:
    """ValueError if ``typed`` or its ``normalised`` form holds an invisible, control, format,
    private-use or unassigned character (a Hangul filler, a bidi override, a zero-width
    joiner...); whitespace is allowed, since names collapse it."""
    for char in typed + normalised:  # as typed (U+FFA0), and as normalised (U+3164 is U+1160)
        if ord(char) in BLANKS or unicodedata.category(char) in REFUSED_CATEGORIES:
            if char.isspace():
                continue
            raise ValueError(
                Text(
                    N_(
                        "{what} must not hold invisible, control or unassigned characters "
                        "(here U+{code})"
                    ),
                    what=Text(what),
                    code=f"{ord(char):04X}",
                )
            )


def clean_player_name(value: str) -> str:
    """The name as it will be stored and shown, or ValueError saying what is wrong with it."""
    name = " ".join(unicodedata.normalize("NFKC", value).translate(APOSTROPHES).split())
    if not name:
        raise ValueError(N_("name must not be empty"))
    refuse_invisible(value, name)
    if _BOT_END.search(name.casefold()):
        raise ValueError(
            Text(N_('a name ending in "{mark}" is kept for the server\'s bots'), mark=BOT_MARK)
        )
    scripts: set[str] = set()
    marks = 0
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if category.startswith("M"):
            marks += 1
            if index == 0 or name[index - 1] in PUNCTUATION or name[index - 1].isdigit():
                raise ValueError(N_("an accent or mark must follow a letter"))
            if marks > MAX_MARKS:
                raise ValueError(N_("name piles up accents or marks on one letter"))
            continue
        marks = 0
        if category.startswith("L"):
            scripts.add(script_of(char))
        elif not ("0" <= char <= "9" or char in PUNCTUATION):
            raise ValueError(N_("name may use letters, digits (0-9), spaces and . ' - _ only"))
    if len(name) > MAX_LENGTH:
        raise ValueError(Text(N_("name may be at most {most} characters"), most=MAX_LENGTH))
    if not (unicodedata.category(name[0]).startswith("L") or name[0].isdigit()):
        raise ValueError(N_("name must start with a letter or a digit"))
    if len(scripts) > 1 and not any(scripts <= ok for ok in SCRIPTS_WRITTEN_TOGETHER):
        shown = " and ".join(sorted(s.title() for s in scripts))
        raise ValueError(
            Text(
                N_("name mixes letters of different alphabets ({shown}): write it in one alphabet"),
                shown=shown,
            )
        )
    return name
