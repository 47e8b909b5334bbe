"""The engines' refusals in words, marked for translation here (docs/i18n.md, "The
engines' words").

The rules in app/games are pure: they import nothing of ``app`` outside app/games
(tests/project/test_package_layers.py), so an engine's :class:`~app.games.core.errors.RuleError`
and a game's :class:`~app.games.core.options.OptionError` say why in English. Their texts
are a small, fixed set, and each is listed here once with ``N_`` (so ``make extract`` finds
it): a text without values as it is, a text with values as a pattern whose groups are the
values. :func:`worded` turns an engine's English text into the message the socket and the
API send, a :class:`~app.i18n.messages.Text` that :func:`~app.i18n.messages.localize`
words in the reader's language; its English is the text itself, unchanged. A text that is
not listed is sent as it was (English): tests/i18n/test_rule_words.py holds this list to
the engines' raises.
"""

from __future__ import annotations

import re

from app.i18n.messages import N_, Text

FIXED: frozenset[str] = frozenset(
    {
        # app/games/core/game.py
        N_("a hand is already being played"),
        N_("it is not your turn"),
        # app/games/core/seats.py, app/games/trente_et_quarante/table.py
        N_("that seat is taken"),
        N_("no such seat"),
        N_("you cannot leave in the middle of a hand"),
        # app/games/greek_31/table.py
        N_("the table is over"),
        N_(
            "table stakes: the session plays only with the chips on the table at its start;"
            " sit down when it ends"
        ),
        N_("no hand is being played"),
        # app/games/trianta_ena/engine.py
        N_("there is no banker"),
        N_("no round is being played"),
        N_("nothing to decide"),
        # app/games/vingt_un/engine.py, table.py
        N_("nobody can deal"),
        N_("nobody can stake"),
        N_("every card is in play"),
    }
)
"""The engines' refusals that hold no value."""

_QUOTED = r"(?:'[^']*'|\"[^\"]*\")"  # a value written with !r (a string's repr)

PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # app/games/core/game.py
    (
        re.compile(rf"(?P<title>.+) has no action (?P<kind>{_QUOTED})"),
        N_("{title} has no action {kind}"),
    ),
    (
        re.compile(rf"seat (?P<seat>\d+) may not (?P<kind>{_QUOTED}) like that now"),
        N_("seat {seat} may not {kind} like that now"),
    ),
    # app/games/greek_31/table.py (its table_over)
    (
        re.compile(r"Seat (?P<seat>\d+) holds every chip: the table is over"),
        N_("Seat {seat} holds every chip: the table is over"),
    ),
    # app/games/core/options.py: parse_options and Bound
    (re.compile(rf"unknown option (?P<name>{_QUOTED})"), N_("unknown option {name}")),
    (re.compile(r"(?P<name>\w+) must be a whole number"), N_("{name} must be a whole number")),
    (
        re.compile(r"(?P<name>\w+) must be from (?P<min>-?\d+) to (?P<max>-?\d+)"),
        N_("{name} must be from {min} to {max}"),
    ),
    (re.compile(r"(?P<name>\w+) must be true or false"), N_("{name} must be true or false")),
    (
        re.compile(r"(?P<name>\w+) must be one of: (?P<allowed>.*)"),
        N_("{name} must be one of: {allowed}"),
    ),
    (
        re.compile(r"(?P<high>\w+) must be at least (?P<low>\w+)"),
        N_("{high} must be at least {low}"),
    ),
    (
        re.compile(r"(?P<low>\w+) must not exceed (?P<high>\w+)"),
        N_("{low} must not exceed {high}"),
    ),
)
"""The engines' refusals that hold values: the English text's pattern, and its msgid (the
same text, each value a ``{name}``)."""


def worded(message: str) -> str:
    """An engine's refusal as a message to send: a listed text as a :class:`Text` (its
    ``str`` is ``message`` itself), anything else (already a :class:`Text`, or a text this
    module does not list) as it is."""
    if isinstance(message, Text):
        return message
    if message in FIXED:
        return Text(message)
    for pattern, msgid in PATTERNS:
        found = pattern.fullmatch(message)
        if found is not None:
            made = Text(msgid, **found.groupdict())
            return made if made == message else message
    return message
