"""Table options: each game's list of specs, checked when a table is created (docs/rules.md lists
them per game)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, get_args, get_origin

from annotated_types import Ge, Le
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from app.games.core.actions import same
from app.games.core.phrases import Phrase


@dataclass(frozen=True)
class OptionSpec:
    """One table option of a game (docs/rules.md lists them per game)."""

    name: str
    type: str  # "int", "bool" or "choice"
    default: Any
    description: str
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] = ()
    nullable: bool = False  # an int option that may be null (no limit)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": self.description,
        }
        if self.type == "int":
            out["min"] = self.min
            out["max"] = self.max
            out["nullable"] = self.nullable
        if self.type == "choice":
            out["choices"] = list(self.choices)
        return out


class OptionError(ValueError):
    """A table option is unknown or out of range; ``field`` names it."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


def int_option(
    name: str,
    default: int | None,
    low: int,
    high: int,
    description: str,
    *,
    nullable: bool = False,
) -> OptionSpec:
    return OptionSpec(name, "int", default, description, min=low, max=high, nullable=nullable)


def bool_option(name: str, default: bool, description: str) -> OptionSpec:
    return OptionSpec(name, "bool", default, description)


def choice_option(
    name: str, default: Any, choices: tuple[Any, ...], description: str
) -> OptionSpec:
    return OptionSpec(name, "choice", default, description, choices=choices)


TURN_SECONDS = int_option(
    "turn_seconds", 30, 1, 600, "Seconds for each decision (docs/rules.md §0)."
)
BET_SECONDS = int_option(
    "bet_seconds", 20, 1, 600, "Seconds of the simultaneous betting window (docs/rules.md §0)."
)


def parse_options(specs: list[OptionSpec], raw: dict[str, Any] | None) -> dict[str, Any]:
    """Check ``raw`` against ``specs`` and return every option's value in force.

    Unknown names and out-of-range values raise :class:`OptionError` naming the field.
    """
    raw = dict(raw or {})
    by_name = {spec.name: spec for spec in specs}
    for name in raw:
        if name not in by_name:
            raise OptionError(name, f"unknown option {name!r}")
    out: dict[str, Any] = {}
    for spec in specs:
        value = raw.get(spec.name, spec.default)
        if spec.type == "int":
            if value is None and spec.nullable:
                out[spec.name] = None
                continue
            if type(value) is not int:
                raise OptionError(spec.name, f"{spec.name} must be a whole number")
            assert spec.min is not None and spec.max is not None
            if not spec.min <= value <= spec.max:
                raise OptionError(spec.name, f"{spec.name} must be from {spec.min} to {spec.max}")
        elif spec.type == "bool":
            if type(value) is not bool:
                raise OptionError(spec.name, f"{spec.name} must be true or false")
        elif not any(same(value, c) for c in spec.choices):
            allowed = ", ".join(str(c) for c in spec.choices)
            raise OptionError(spec.name, f"{spec.name} must be one of: {allowed}")
        out[spec.name] = value
    return out


# --------------------------------------------------------------------------- the models


Start = Literal["when_ready", "auto"]
"""The ``start`` option every table has (docs/rules.md §0, "Ready to deal"): the runtime reads
it, no engine does. ``auto`` is the API's default (bots, scripts and tests); the lobby page
opens a table ``when_ready`` unless told otherwise."""


@dataclass(frozen=True)
class Bound:
    """Two options in order: ``low`` may not exceed ``high`` (a null ``high``: no limit).
    The error names ``field``, one of the two."""

    low: str
    high: str
    field: str

    def message(self) -> str:
        if self.field == self.high:
            return f"{self.high} must be at least {self.low}"
        return f"{self.low} must not exceed {self.high}"


class TableOptions(BaseModel):
    """A game's table options as a pydantic model: each field's type, range, default and
    description is written here once; the listing of ``GET /api/games`` (:meth:`specs`) and
    its JSON Schema (:meth:`model_json_schema`) are read from it, and :meth:`check` is how an
    engine checks the options it is given.

    >>> from typing import Annotated
    >>> class Limits(TableOptions):
    ...     BOUNDS = (Bound("min_bet", "max_bet", "max_bet"),)
    ...     min_bet: Annotated[int, Field(ge=1, le=100, description="Smallest stake.")] = 10
    ...     max_bet: Annotated[int | None, Field(ge=1, le=100, description="Largest.")] = None
    >>> Limits.check({"max_bet": 50})
    {'start': 'auto', 'approval': False, 'min_bet': 10, 'max_bet': 50}
    >>> try:
    ...     Limits.check({"max_bet": 5})
    ... except OptionError as err:
    ...     print(err.field, "-", err.message)
    max_bet - max_bet must be at least min_bet
    >>> [spec.public()["name"] for spec in Limits.specs()]
    ['start', 'approval', 'min_bet', 'max_bet']
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    _schema: ClassVar[dict[str, Any]]
    start: Annotated[
        Start,
        Field(
            description=(
                "When the table deals its first hand: when_ready (everyone seated presses "
                "Ready, or the opener presses Deal; players may sit out) or auto (as soon as "
                "the game's minimum is seated). Common to every game (docs/rules.md §0)."
            )
        ),
    ] = "auto"
    approval: Annotated[
        bool,
        Field(
            description=(
                "Seats by approval: a newcomer's request to sit waits for the table's host, "
                "who lets them in or not (on by default at a private table). Common to every "
                "game (docs/rules.md §0.12)."
            )
        ),
    ] = False
    BOUNDS: ClassVar[tuple[Bound, ...]] = ()
    """Options that must come in order (``max_bet`` at least ``min_bet``), checked once here."""
    WORDS: ClassVar[tuple[Phrase, ...]] = ()
    """The game's options in words (:mod:`app.games.core.phrases`: sentences' codes and values,
    worded by app/rulebook/option_sentences.py), each option told by one
    phrase; what a game leaves out is told by the common phrases (:data:`COMMON`) or, failing
    those, by its description."""

    @model_validator(mode="after")
    def _in_order(self) -> TableOptions:
        for bound in self.BOUNDS:
            low, high = getattr(self, bound.low), getattr(self, bound.high)
            if high is not None and low > high:
                raise PydanticCustomError("option_order", bound.message(), {"field": bound.field})
        return self

    @classmethod
    def specs(cls) -> list[OptionSpec]:
        """Each option as listed by ``GET /api/games``, in the model's order."""
        return [_spec(name, info) for name, info in cls.model_fields.items()]

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The options' JSON Schema, served by ``GET /api/games`` (built once per game)."""
        if "_schema" not in cls.__dict__:
            cls._schema = cls.model_json_schema()
        return copy.deepcopy(cls._schema)

    @classmethod
    def check(cls, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Every option's value in force, or :class:`OptionError` naming the field, with the
        words of :func:`parse_options` (unknown name, type, range) or of a :class:`Bound`."""
        values = parse_options(cls.specs(), raw)
        try:
            return cls.model_validate(values).model_dump()
        except ValidationError as err:
            first = err.errors()[0]
            field = (first.get("ctx") or {}).get("field") or ".".join(map(str, first["loc"]))
            raise OptionError(str(field), first["msg"]) from None


def _spec(name: str, info: FieldInfo) -> OptionSpec:
    """The listing entry of one model field (an int, an int or null, a bool, a Literal)."""
    annotation = info.annotation
    description = info.description or ""
    low = next((m.ge for m in info.metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, Le)), None)
    if annotation is bool:
        return bool_option(name, info.default, description)
    if get_origin(annotation) is Literal:
        return choice_option(name, info.default, get_args(annotation), description)
    nullable = annotation is not int
    assert annotation in (int, int | None), f"{name}: no option type for {annotation!r}"
    assert isinstance(low, int) and isinstance(high, int), f"{name}: an int option needs ge and le"
    return int_option(name, info.default, low, high, description, nullable=nullable)


TurnSeconds = Annotated[
    int, Field(ge=1, le=600, description="Seconds for each decision (docs/rules.md §0).")
]
BetSeconds = Annotated[
    int,
    Field(
        ge=1, le=600, description="Seconds of the simultaneous betting window (docs/rules.md §0)."
    ),
]
TimeBankSeconds = Annotated[
    int,
    Field(
        ge=0,
        le=600,
        description=(
            "Extra seconds each player may add to their decisions over the table's life, "
            "in presses of More time (0: no time bank; docs/rules.md §0.7)."
        ),
    ),
]
"""The ``time_bank_seconds`` option of every game with decision clocks: the runtime reads
it (app/runtime/time_bank.py), no engine does."""
