"""How a table's options are told in words ("Bets 1 to 100 chips", "30 seconds to act"): the
pieces each game's options model (``app/games/<game>/options.py``) builds its ``WORDS`` from.

A :class:`Phrase` tells one or more options together (the smallest and the largest bet make one
phrase); :data:`COMMON` tells the options several games share (the timers, the aces, ``start``)
for a game whose own ``WORDS`` leave them out. app/rulebook/option_words.py puts a table's
phrases together for the pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Options = Mapping[str, Any]


@dataclass(frozen=True)
class Phrase:
    """How some options are told: ``names`` are the options, ``say`` the words for their
    values (it may read any other option of the table too)."""

    names: tuple[str, ...]
    say: Callable[[Options], str]


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 chip``, ``1,000 chips``."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def chips(n: int) -> str:
    return count(n, "chip")


def seconds(n: int) -> str:
    return count(n, "second")


def span(low: int, high: int | None, unit: Callable[[int], str] = chips) -> str:
    """``10 to 100 chips``; one value alone when both are the same."""
    if high is None:
        return f"from {unit(low)}"
    if low == high:
        return unit(low)
    return f"{low:,} to {unit(high)}"


def choice(name: str, words: Mapping[Any, str]) -> Phrase:
    """A choice or true/false option told by its value."""
    return Phrase((name,), lambda o: words[o[name]])


def bets(low: str, high: str, noun: str, tail: str = "") -> Phrase:
    """The smallest and the largest bet (the largest may be null: up to the stack)."""

    def say(o: Options) -> str:
        if o[high] is None:
            return f"{noun} from {chips(o[low])}, up to your whole stack{tail}"
        return f"{noun} {span(o[low], o[high])}{tail}"

    return Phrase((low, high), say)


ACES: dict[str, str] = {
    "at_most_one_low": "Aces count 1 or 11; of several, at most one counts 1",
    "at_least_one_high": "Aces count 1 or 11; of several, at least one counts 11",
    "alternating": "Aces count 1 or 11; several count 1, 11, 1, 11… in turn",
}

ACE_RULE = Phrase(("ace_rule",), lambda o: ACES["alternating" if o.get("heath") else o["ace_rule"]])
"""How aces count; Martin Heath's version of Greek 31 makes them alternate whatever the rule."""

COMMON: dict[str, Phrase] = {
    "turn_seconds": Phrase(("turn_seconds",), lambda o: f"{seconds(o['turn_seconds'])} to act"),
    "time_bank_seconds": Phrase(
        ("time_bank_seconds",),
        lambda o: (
            f"A time bank of {seconds(o['time_bank_seconds'])} each"
            if o["time_bank_seconds"]
            else "No time bank"
        ),
    ),
    "bet_seconds": Phrase(("bet_seconds",), lambda o: f"{seconds(o['bet_seconds'])} to bet"),
    "ace_rule": ACE_RULE,
    "start": choice(
        "start",
        {
            "when_ready": (
                "The first hand waits until everyone seated is ready, or the opener deals"
            ),
            "auto": "The first hand is dealt as soon as enough players sit",
        },
    ),
    "approval": Phrase(
        ("approval",),
        lambda o: (
            "The host lets each newcomer sit, or not"
            if o["approval"]
            else "Anyone with the link may sit"
        ),
    ),
}
"""The options several games share, told alike unless a game's ``WORDS`` tell them."""
