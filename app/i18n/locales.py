"""The languages the server speaks: each one's code (a BCP 47 primary language subtag, as
gettext's catalogs are named) and its name in its own language, for the language switch.

English is the source: every msgid is English, and a message a catalog lacks is shown in
English. ``qps`` is the pseudo-locale (docs/i18n.md): every text accented, longer and wrapped
in ``⟦ ⟧``, so that a test sees at once a string that bypasses the catalogs or a box its text
overflows. It is never offered to people; a server serves it only when its settings allow
(``PSEUDO_LOCALE=true``, as the tests set it).
"""

from __future__ import annotations

DEFAULT = "en"
"""The source language, and the language of a reader nothing else decides for."""

PSEUDO = "qps"
"""The pseudo-locale's code (a private-use code in the spirit of Windows' qps-ploc)."""

NAMES: dict[str, str] = {
    "en": "English",
    "el": "Ελληνικά",
    "da": "Dansk",
    "fr": "Français",
    "it": "Italiano",
}
"""Every language offered to people, in the switch's order, each named in its own language."""

SUPPORTED: tuple[str, ...] = tuple(NAMES)
"""The codes people may choose (the pseudo-locale is not among them)."""

CATALOGS: tuple[str, ...] = (*SUPPORTED, PSEUDO)
"""Every language that has catalogs under app/i18n/locale (the source, English, included)."""


def offered(code: str, *, pseudo: bool = False) -> bool:
    """Whether ``code`` is a language this server serves: one of :data:`SUPPORTED`, or the
    pseudo-locale when ``pseudo`` (the setting that allows it) is on."""
    return code in NAMES or (pseudo and code == PSEUDO)


def formatting_locale(code: str) -> str:
    """The CLDR locale that writes numbers, dates and plural categories for ``code``: the
    pseudo-locale writes them as English does (its words alone are pseudo)."""
    return DEFAULT if code == PSEUDO else code


def own_name(code: str) -> str:
    """``code``'s language named in its own words as a sentence of it would write it
    (``français``, ``ελληνικά``: CLDR's, lower case where the language writes it so); a
    code CLDR does not know (the pseudo-locale) as :data:`NAMES` has it, or itself."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_language_name(code)
    except (UnknownLocaleError, ValueError, TypeError):
        name = None
    return name or NAMES.get(code, code)
