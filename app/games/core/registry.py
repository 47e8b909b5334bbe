"""Every game the server offers, by its id (docs/rules.md: the game ids).

Each game is the module named here; it exposes its engine class as ``GAME``. Modules are
imported on first use, so a server that offers only some games imports only those.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from app.games.core.game import Game

GAME_MODULES = {
    "trianta-ena": "app.games.trianta_ena.engine",
    "greek-31": "app.games.greek_31.engine",
    "vingt-un": "app.games.vingt_un.engine",
    "trente-et-quarante": "app.games.trente_et_quarante.engine",
    "en-og-tredive": "app.games.en_og_tredive.engine",
}
GAME_IDS = tuple(GAME_MODULES)

_LOADED: dict[str, type[Game]] = {}


def game_class(game_id: str) -> type[Game]:
    """The class for ``game_id``; KeyError for an unknown game."""
    if game_id not in _LOADED:
        cls = importlib.import_module(GAME_MODULES[game_id]).GAME
        assert cls.id == game_id, f"{GAME_MODULES[game_id]}.GAME has id {cls.id!r}"
        _LOADED[game_id] = cls
    return _LOADED[game_id]


def games(only: Iterable[str] | None = None) -> dict[str, type[Game]]:
    """Game classes by id, in the order of docs/rules.md (``only``: just these ids)."""
    wanted = set(GAME_IDS if only is None else only)
    return {gid: game_class(gid) for gid in GAME_IDS if gid in wanted}
