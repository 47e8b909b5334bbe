"""The analysis of every decision (docs/analysis.md): for each option ``legal`` offered, the
deciding seat's chances to win, tie and lose and the chips it expects, exact where the game
allows an enumeration and estimated by simulation where it does not.

Pure like the engines: no I/O. The parts:

* :mod:`.figures`: what is said of an option and of a decision, and the summaries;
* :mod:`.position`: a decision as the analysis meets it, and the :class:`~.position.Analyser`
  every game implements;
* :mod:`.rollout`: estimating an option by dealing the unseen cards afresh and playing out;
* :mod:`.hand`: a finished hand's analysis, and who may read which of its decisions;
* :mod:`.bots`: the bots' three levels (``random``, ``steady``, ``best``);
* one module a game, named like its engine package (``trianta_ena``...), exporting
  ``ANALYSER``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.analysis.position import Analyser

MODULES = {
    "trianta-ena": "app.analysis.trianta_ena",
    "greek-31": "app.analysis.greek_31",
    "vingt-un": "app.analysis.vingt_un",
    "trente-et-quarante": "app.analysis.trente_et_quarante",
    "en-og-tredive": "app.analysis.en_og_tredive",
}
"""Each game's analyser module, by game id."""


def analyser_for(game: str) -> Analyser:
    """The analyser of ``game`` (KeyError for a game without one)."""
    module = importlib.import_module(MODULES[game])
    analyser: Analyser = module.ANALYSER
    return analyser
