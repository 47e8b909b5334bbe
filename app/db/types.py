"""The database's types that code outside :mod:`app.db` names in its signatures: a session
(what a route is injected with and hands to the store's functions), and the engine and the
session maker the services hold. Only :mod:`app.db` imports SQLAlchemy itself."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

__all__ = ["AsyncEngine", "AsyncSession", "async_sessionmaker"]
