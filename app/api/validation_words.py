"""Pydantic's validation messages (a 422's list of problems) in the reader's language.

Pydantic words each problem in English from its ``type`` and its context (``ctx``: the
bound, the pattern, the choices). The kinds our request models and query parameters can
produce are listed here once, each as a marked message with the same values, so a problem is
worded again in the reader's language: its English is exactly Pydantic's (a test holds the
two together), its ``type`` and ``loc`` never change. A kind not listed here, or a context
not as expected, keeps Pydantic's English message.

A validator's own refusal (``value_error``) is worded from the exception it raised: a
:class:`~app.i18n.messages.Text` or a marked message is worded in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from app.i18n.messages import N_, Plural, Text, localize, said

Wording = Callable[[Mapping[str, Any]], str]
"""A problem's context to its marked message (KeyError, TypeError: not as expected)."""

FIXED: dict[str, str] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
    "model_attributes_type": N_(
        "Input should be a valid dictionary or object to extract fields from"
    ),
    "json_invalid": N_("JSON decode error"),
}
"""The kinds whose message has no values."""

QUOTED = re.compile(r"'[^']*'|-?\d+")


def _one_of(ctx: Mapping[str, Any]) -> str:
    """``Input should be 'a', 'b' or 'c'``: the choices as Pydantic quotes them, joined by the
    reader's "or" (one choice: as it is)."""
    expected = str(ctx["expected"])
    choices = QUOTED.findall(expected)
    if len(choices) >= 2 and f"{', '.join(choices[:-1])} or {choices[-1]}" == expected:
        either = Text(N_("{choices} or {last}"), choices=", ".join(choices[:-1]), last=choices[-1])
        return Text(N_("Input should be {expected}"), expected=either)
    return Text(N_("Input should be {expected}"), expected=expected)


def _list_only(ctx: Mapping[str, Any]) -> Mapping[str, Any]:
    """A collection's length is said for a list only (Pydantic names the kind of collection,
    ``List``; the one our models bound)."""
    if ctx["field_type"] != "List":
        raise KeyError("field_type")
    return ctx


WITH_VALUES: dict[str, Wording] = {
    "greater_than": lambda ctx: Text(N_("Input should be greater than {gt}"), gt=ctx["gt"]),
    "greater_than_equal": lambda ctx: Text(
        N_("Input should be greater than or equal to {ge}"), ge=ctx["ge"]
    ),
    "less_than": lambda ctx: Text(N_("Input should be less than {lt}"), lt=ctx["lt"]),
    "less_than_equal": lambda ctx: Text(
        N_("Input should be less than or equal to {le}"), le=ctx["le"]
    ),
    "string_too_long": lambda ctx: Plural(
        "String should have at most {n} character",
        "String should have at most {n} characters",
        n=ctx["max_length"],
    ),
    "string_too_short": lambda ctx: Plural(
        "String should have at least {n} character",
        "String should have at least {n} characters",
        n=ctx["min_length"],
    ),
    "too_long": lambda ctx: Plural(
        "List should have at most {n} item after validation, not {actual}",
        "List should have at most {n} items after validation, not {actual}",
        n=_list_only(ctx)["max_length"],
        actual=ctx["actual_length"],
    ),
    "too_short": lambda ctx: Plural(
        "List should have at least {n} item after validation, not {actual}",
        "List should have at least {n} items after validation, not {actual}",
        n=_list_only(ctx)["min_length"],
        actual=ctx["actual_length"],
    ),
    "string_pattern_mismatch": lambda ctx: Text(
        N_("String should match pattern '{pattern}'"), pattern=ctx["pattern"]
    ),
    "literal_error": _one_of,
    "enum": _one_of,
}
"""The kinds whose message names values of the problem's context."""


def _marked(text: str) -> str:
    """A validator's own message as a :class:`Text` (a plain marked ``str`` is worded as its
    msgid; one that cannot be a msgid, with braces of its own, as it is)."""
    if isinstance(text, Text):
        return text
    try:
        return Text(text)
    except (KeyError, IndexError, ValueError):
        return text


def message(problem: Mapping[str, Any]) -> str:
    """A problem's message as a marked message (a ``str``: its English is Pydantic's), or
    Pydantic's own English when its kind is not listed here."""
    kind = str(problem.get("type", ""))
    english = str(problem.get("msg", ""))
    ctx = problem.get("ctx") or {}
    if kind in FIXED:
        worded: str = FIXED[kind]
    elif kind == "value_error" and isinstance(ctx.get("error"), BaseException):
        worded = Text(N_("Value error, {error}"), error=_marked(said(ctx["error"])))
    elif kind in WITH_VALUES:
        try:
            worded = WITH_VALUES[kind](ctx)
        except (KeyError, TypeError, ValueError):
            return english
    else:
        return english
    # Pydantic's English, word for word, or its own message (a wording that differs from it)
    return worded if str(worded) == english else english


def problem_words(problem: Mapping[str, Any], locale: str) -> str:
    """A problem's message in ``locale``."""
    return str(localize(message(problem), locale))
