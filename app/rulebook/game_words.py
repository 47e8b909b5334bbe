"""The games' titles and lobby sentences (each game's ``title`` and ``BLURB``), marked for
translation here (docs/i18n.md, "The engines' words"): the games in app/games import nothing
of ``app`` outside it, so their words are English there and listed here once with ``N_``
(tests/i18n/test_game_words.py holds this list to the games). The pages word them in the
reader's language with :func:`game_title` and :func:`game_blurb` (a text the catalog lacks,
or a game this list misses, is shown in English).
"""

from __future__ import annotations

from app.games.core.registry import GAME_MODULES, game_class
from app.i18n.messages import N_, localize

TITLES: frozenset[str] = frozenset(
    {
        N_("En og tredive"),
        N_("Greek 31"),
        N_("Trente et Quarante"),
        N_("Trianta Ena"),
        N_("Vingt-un"),
    }
)
"""Every game's title (``Game.title``)."""

BLURBS: frozenset[str] = frozenset(
    {
        N_(
            "A Danish draw-and-discard match: build 31 in one suit, knock, pay bets into the "
            "pot, and be the last one in."
        ),
        N_(
            "The dealer draws in secret and hides a card; players draw to outrank the "
            "dealer, where 31 is best and 14 beats 30."
        ),
        N_(
            "The casino classic against the house: two rows, Noir and Rouge, dealt past 30; "
            "bet on the lower row and on couleur or inverse."
        ),
        N_(
            "Beat a rotating banker: get closer to 31 than the bank without going over; "
            "richer players may take the bank."
        ),
        N_(
            "The old ancestor of blackjack: stake on one card, draw to 21, naturals pay "
            "double and take the deal."
        ),
    }
)
"""Every game's sentence for the lobby (``Game.BLURB``)."""


def game_title(game: str, locale: str) -> str:
    """The game's title in ``locale``; a game this server does not know, as its id."""
    if game not in GAME_MODULES:
        return game
    return str(localize(game_class(game).title, locale))


def game_blurb(game: str, locale: str) -> str:
    """The game's sentence for the lobby in ``locale``."""
    return str(localize(game_class(game).BLURB, locale))
