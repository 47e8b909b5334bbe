"""Which language a reader gets: their explicit choice remembered for the player, else the
language cookie a visitor who is not signed in chose, else the first language of the
browser's ``Accept-Language`` the server speaks, else English (:data:`~app.i18n.locales.DEFAULT`).

``Accept-Language`` is read as RFC 9110 says: ranges with quality values (``q=0`` is "not
this one"), the highest first, ties kept in the order given. A range names a language with
optional subtags; ``da-DK`` and ``fr-CA`` are read as their language, ``da`` and ``fr``,
since the catalogs are per language; ``*`` and unknown languages are passed over.
"""

from __future__ import annotations

from app.i18n.locales import DEFAULT, offered

LANG_COOKIE = "t31_lang"
"""The cookie holding a reader's chosen language (set by the language switch)."""


def accept_language(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first, lower case, each
    reduced to its primary subtag (``da-DK`` → ``da``), refused ones (``q=0``) and ``*``
    left out, each language once."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        fields = [field.strip() for field in part.split(";")]
        tag = fields[0].lower()
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in fields[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if not 0.0 < quality <= 1.0:
            continue
        ranked.append((-quality, index, tag.replace("_", "-").split("-")[0]))
    out: list[str] = []
    for _, _, language in sorted(ranked):
        if language not in out:
            out.append(language)
    return out


def negotiate(
    *,
    chosen: str | None = None,
    cookie: str | None = None,
    header: str | None = None,
    pseudo: bool = False,
) -> str:
    """The reader's language: ``chosen`` (the player's stored choice), then ``cookie``, then
    the browser's ``header`` (``Accept-Language``), the first the server serves; English when
    none is. ``pseudo``: the pseudo-locale may be chosen (by cookie or choice, never by a
    browser), as the tests allow it."""
    for candidate in (chosen, cookie):
        if candidate and offered(candidate.lower(), pseudo=pseudo):
            return candidate.lower()
    for language in accept_language(header):
        if offered(language):
            return language
    return DEFAULT
