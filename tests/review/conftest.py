"""What the review tests share: a session on the test's migrated database."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import make_engine, make_sessionmaker


@pytest.fixture
async def session(database_url: str) -> AsyncIterator[AsyncSession]:
    engine = make_engine(database_url)
    async with make_sessionmaker(engine)() as s:
        yield s
    await engine.dispose()
