"""A table's options in words, for people, in the reader's language: "Bets 1 to 100 chips",
"30 seconds to act".

Every option of every game is told by a phrase written beside the option in its game's package
(the ``WORDS`` of ``app/games/<game>/options.py``, built from :mod:`app.games.core.phrases`,
whose common phrases tell the options several games share): a phrase says a sentence's code and
values, and :mod:`app.rulebook.option_sentences` words it in the reader's language. docs/rules.md
lists the options in each game's "Table options", and a test holds every option, and every value
of a choice or a true/false option, to having words. Some options are told together (the
smallest and the largest bet make one phrase); each phrase names the options it tells
(:attr:`OptionWords.names`). An option without words is still told, by its name for people
(app/rulebook/option_names.py) or its description, so a page never shows a raw key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.core.options import OptionSpec
from app.games.core.phrases import COMMON, Options, Phrase, Said, said
from app.games.core.registry import game_class
from app.i18n.messages import N_, Text, localize
from app.rulebook.option_names import option_label
from app.rulebook.option_sentences import sentence, worded

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


def buy_in_said(low: int, high: int) -> Said:
    """The buy-in's sentence: from ``low`` to ``high`` chips (a ``high`` of :data:`NO_LIMIT`
    or more: from ``low``)."""
    if high >= NO_LIMIT:
        return said("buy_in.from", n=low)
    if low == high:
        return said("buy_in.one", n=low)
    return said("buy_in.range", low=low, high=high)


def _unknown(game: str, spec: OptionSpec, value: Any, locale: str) -> str:
    """An option no sentence tells, in ``locale``: its name for people (else its
    description) and its value, never its key."""
    shown: Any = value
    if value is None:
        shown = Text(N_("no limit"))
    elif isinstance(value, bool):
        shown = Text(N_("yes") if value else N_("no"))
    option = option_label(game, spec.name, locale) or spec.description.rstrip(".")
    return str(localize(Text(N_("{option}: {value}"), option=option, value=shown), locale))


def option_words(
    game: str,
    specs: list[OptionSpec],
    options: Options,
    buy_in: tuple[int, int] | None = None,
    *,
    locale: str,
) -> list[OptionWords]:
    """The table's options in words in ``locale``, in the order of the game's phrases, each
    option once.

    ``buy_in`` (the least and most a player may bring, as the table says) opens the list for
    the games whose buy-in is not an option of its own.
    """
    values = {spec.name: options.get(spec.name, spec.default) for spec in specs}
    out: list[OptionWords] = []
    if buy_in is not None and "buy_in" not in values:
        told_buy_in = buy_in_said(*buy_in)
        text = sentence(told_buy_in.code, told_buy_in.values)
        if text is not None:
            out.append(OptionWords((), worded(text, locale)))
    told: set[str] = set()
    for phrase in phrases(game):
        if all(name in values for name in phrase.names):
            try:
                says = phrase.say(values)
            except KeyError:  # a value the game has no sentence for: told as unknown below
                continue
            text = sentence(says.code, says.values)
            if text is None:  # a code without words here: told as unknown below
                continue
            out.append(OptionWords(phrase.names, worded(text, locale)))
            told.update(phrase.names)
    out.extend(
        OptionWords((spec.name,), _unknown(game, spec, values[spec.name], locale))
        for spec in specs
        if spec.name not in told
    )
    return out


def table_option_words(
    game: str,
    options: Options | None = None,
    buy_in: tuple[int, int] | None = None,
    *,
    locale: str,
) -> list[dict[str, Any]]:
    """A table's options in words in ``locale`` (``options`` None: the game's defaults, with
    the buy-in a fresh table asks), as the pages send them: ``[{"names": [...], "text": ...}]``."""
    cls = game_class(game)
    if options is None:
        options = cls.OPTIONS_MODEL.check({})
        if buy_in is None and "buy_in" not in options:
            buy_in = cls(dict(options)).buy_in_limits(None)
    return [
        words.public() for words in option_words(game, cls.OPTIONS, options, buy_in, locale=locale)
    ]


def summary_option_words(summary: Mapping[str, Any], locale: str) -> list[dict[str, Any]]:
    """An open table's options in words in ``locale``, from its summary (its game, options
    and buy-in)."""
    buy_in = summary["buy_in"]
    return table_option_words(
        summary["game"], summary["options"], (buy_in["min"], buy_in["max"]), locale=locale
    )


def table_words(summary: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """What a table's page adds to its summary, in ``locale``: its options in words
    (``option_words``, static/js/table-info.js) and each option's name for people
    (``option_labels``, by key: the host's panel, static/js/host-panel.js)."""
    game = summary["game"]
    labels = {name: option_label(game, name, locale) for name in summary["options"]}
    return {
        "option_words": summary_option_words(summary, locale),
        "option_labels": {name: label for name, label in labels.items() if label is not None},
    }
