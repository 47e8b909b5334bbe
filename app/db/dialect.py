"""What the queries do differently on SQLite and on PostgreSQL: which of the two a session
speaks to, and how a moment is compared with a date-time column there.

SQLite keeps a date-time without its zone (the models write UTC), so a moment compared with
such a column must be naive UTC too; PostgreSQL keeps ``timestamptz`` and compares aware
moments. Every query of :mod:`app.db` that bounds a date-time column goes through
:func:`stored_moment`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession


def is_sqlite(session: AsyncSession) -> bool:
    """True when the session speaks to SQLite (else PostgreSQL)."""
    return session.bind is not None and session.bind.dialect.name == "sqlite"


def stored_moment(moment: datetime, *, sqlite: bool) -> datetime:
    """``moment`` as a date-time column is compared with: on SQLite naive UTC (as it stores
    it); elsewhere aware. A naive ``moment`` is taken as UTC already."""
    if sqlite:
        return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def session_moment(session: AsyncSession, moment: datetime) -> datetime:
    """:func:`stored_moment` for the database the session speaks to."""
    return stored_moment(moment, sqlite=is_sqlite(session))
