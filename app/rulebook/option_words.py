"""A table's options in words, for people: "Bets 1 to 100 chips", "30 seconds to act".

Every option of every game has words, written beside the option in its game's package (the
``WORDS`` of ``app/games/<game>/options.py``, built from :mod:`app.games.core.phrases`, whose
common phrases tell the options several games share); docs/rules.md lists the options in each
game's "Table options", and a test holds every option, and every value of a choice or a
true/false option, to having words. Some options are told together (the smallest and the
largest bet make one phrase); each phrase names the options it tells
(:attr:`OptionWords.names`). An option without words is still told, by its description, so a
page never shows a raw key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.core.options import OptionSpec
from app.games.core.phrases import COMMON, Options, Phrase, span
from app.games.core.registry import game_class

NO_LIMIT = 1_000_000_000
"""A largest buy-in this high is no limit worth telling."""


@dataclass(frozen=True)
class OptionWords:
    """One phrase about a table: the options it tells (none for the buy-in, which the game
    derives from them) and the words."""

    names: tuple[str, ...]
    text: str

    def public(self) -> dict[str, Any]:
        return {"names": list(self.names), "text": self.text}


def own_phrases(game: str) -> list[Phrase]:
    """The game's own phrases: its options model's ``WORDS`` (app/games/<game>/options.py)."""
    return list(game_class(game).OPTIONS_MODEL.WORDS)


def phrases(game: str) -> list[Phrase]:
    """The game's phrases, then the common ones for the options the game leaves to them."""
    own = own_phrases(game)
    told = {name for phrase in own for name in phrase.names}
    return own + [phrase for name, phrase in COMMON.items() if name not in told]


def _unknown(spec: OptionSpec, value: Any) -> str:
    """An option no phrase tells: its description and its value, never its key."""
    shown = (
        "no limit"
        if value is None
        else ("yes" if value is True else "no" if value is False else value)
    )
    return f"{spec.description.rstrip('.')}: {shown}"


def option_words(
    game: str,
    specs: list[OptionSpec],
    options: Options,
    buy_in: tuple[int, int] | None = None,
) -> list[OptionWords]:
    """The table's options in words, in the order of the game's phrases, each option once.

    ``buy_in`` (the least and most a player may bring, as the table says) opens the list for
    the games whose buy-in is not an option of its own.
    """
    values = {spec.name: options.get(spec.name, spec.default) for spec in specs}
    out: list[OptionWords] = []
    if buy_in is not None and "buy_in" not in values:
        low, high = buy_in
        out.append(OptionWords((), f"Buy-in {span(low, None if high >= NO_LIMIT else high)}"))
    told: set[str] = set()
    for phrase in phrases(game):
        if all(name in values for name in phrase.names):
            try:
                text = phrase.say(values)
            except KeyError:  # a value this module has no words for: told as unknown below
                continue
            out.append(OptionWords(phrase.names, text))
            told.update(phrase.names)
    out.extend(
        OptionWords((spec.name,), _unknown(spec, values[spec.name]))
        for spec in specs
        if spec.name not in told
    )
    return out


def table_option_words(
    game: str, options: Options | None = None, buy_in: tuple[int, int] | None = None
) -> list[dict[str, Any]]:
    """A table's options in words (``options`` None: the game's defaults, with the buy-in a
    fresh table asks), as the pages send them: ``[{"names": [...], "text": ...}]``."""
    cls = game_class(game)
    if options is None:
        options = cls.OPTIONS_MODEL.check({})
        if buy_in is None and "buy_in" not in options:
            buy_in = cls(dict(options)).buy_in_limits(None)
    return [words.public() for words in option_words(game, cls.OPTIONS, options, buy_in)]


def summary_option_words(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """An open table's options in words, from its summary (its game, options and buy-in)."""
    buy_in = summary["buy_in"]
    return table_option_words(summary["game"], summary["options"], (buy_in["min"], buy_in["max"]))
