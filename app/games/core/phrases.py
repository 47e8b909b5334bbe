"""How a table's options are told in words ("Bets 1 to 100 chips", "30 seconds to act"): the
pieces each game's options model (``app/games/<game>/options.py``) builds its ``WORDS`` from.

The games word nothing here: a phrase says which sentence tells its options and with which
values (:class:`Said`: the code ``"bets.range"`` with ``low=1, high=100``), and
app/rulebook/option_sentences.py words each code as one whole sentence in the reader's
language, its counts in their plural forms. A :class:`Phrase` tells one or more options together
(the smallest and the largest bet make one phrase); :data:`COMMON` tells the options several
games share (the timers, the aces, ``start``) for a game whose own ``WORDS`` leave them out.
app/rulebook/option_words.py puts a table's phrases together for the pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Options = Mapping[str, Any]


@dataclass(frozen=True)
class Said:
    """One sentence about a table: ``code`` names it (``"bets.range"``), ``values`` are its
    whole numbers by name (``n`` is the count its plural form follows)."""

    code: str
    values: Mapping[str, int] = field(default_factory=dict)


def said(code: str, **values: int) -> Said:
    return Said(code, values)


@dataclass(frozen=True)
class Phrase:
    """How some options are told: ``names`` are the options, ``say`` the sentence for their
    values (it may read any other option of the table too)."""

    names: tuple[str, ...]
    say: Callable[[Options], Said]


def counted(name: str, code: str) -> Phrase:
    """An option told by one sentence whose count ``n`` is the option's value."""
    return Phrase((name,), lambda o: said(code, n=o[name]))


def choice(name: str, codes: Mapping[Any, str]) -> Phrase:
    """A choice or true/false option told by its value: ``codes`` gives each value's sentence
    (a value it lacks raises KeyError: the option is then told by its description)."""
    return Phrase((name,), lambda o: said(codes[o[name]]))


def bets(low: str, high: str, kind: str) -> Phrase:
    """The smallest and the largest bet, told by the sentences ``<kind>.range`` (``low`` to
    ``high``), ``<kind>.one`` (both the same, ``n``) and ``<kind>.from`` (the largest null: from
    ``n`` up to the stack)."""

    def say(o: Options) -> Said:
        if o[high] is None:
            return said(f"{kind}.from", n=o[low])
        if o[low] == o[high]:
            return said(f"{kind}.one", n=o[low])
        return said(f"{kind}.range", low=o[low], high=o[high])

    return Phrase((low, high), say)


ACE_RULE = Phrase(
    ("ace_rule",), lambda o: said("aces." + ("alternating" if o.get("heath") else o["ace_rule"]))
)
"""How aces count (``aces.at_most_one_low``, ``aces.at_least_one_high``,
``aces.alternating``); Martin Heath's version of Greek 31 makes them alternate whatever the
rule."""

COMMON: dict[str, Phrase] = {
    "turn_seconds": counted("turn_seconds", "turn_seconds"),
    "time_bank_seconds": Phrase(
        ("time_bank_seconds",),
        lambda o: (
            said("time_bank", n=o["time_bank_seconds"])
            if o["time_bank_seconds"]
            else said("time_bank.none")
        ),
    ),
    "bet_seconds": counted("bet_seconds", "bet_seconds"),
    "ace_rule": ACE_RULE,
    "start": choice("start", {"when_ready": "start.when_ready", "auto": "start.auto"}),
    "approval": choice("approval", {True: "approval.on", False: "approval.off"}),
}
"""The options several games share, told alike unless a game's ``WORDS`` tell them."""
