"""What the database said when it refused: the SQLSTATE of an error, wherever it is in the
chain SQLAlchemy and the writer's process wrap it in (asyncpg's error as a DBAPIError's
``orig``; a job's error raised ``from`` another)."""

from __future__ import annotations

from collections.abc import Iterator


def chain(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc``, then what it wraps: its ``orig`` (SQLAlchemy's driver error), else its cause
    or context; each once."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        orig = getattr(exc, "orig", None)
        exc = orig if isinstance(orig, BaseException) else (exc.__cause__ or exc.__context__)


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE ``exc`` itself carries (asyncpg's ``sqlstate``, psycopg's ``pgcode``)."""
    for name in ("sqlstate", "pgcode"):
        value = getattr(exc, name, None)
        if isinstance(value, str):
            return value
    return None


def has_sqlstate(exc: BaseException | None, states: frozenset[str]) -> bool:
    """Whether anything in ``exc``'s chain carries one of ``states``."""
    return any(sqlstate(e) in states for e in chain(exc))
