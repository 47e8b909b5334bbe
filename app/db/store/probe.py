"""The storage guard's probe: a real write, to learn whether the database stores again
(app/runtime/storage.py)."""

from __future__ import annotations

import secrets

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ServerSetting

PROBE_KEY = "storage_probe"
PROBE_BYTES = 16384
"""What the probe writes and flushes before it shrinks its row again: room for a hand's
record, so a disk (or SQLite file) too full for one fails the probe too."""


async def storage_probe(session: AsyncSession) -> None:
    """Write a row large enough for a hand, flush it, then leave a small one: committed only
    if the database can store now."""
    row = await session.get(ServerSetting, PROBE_KEY)
    if row is None:
        row = ServerSetting(key=PROBE_KEY, value="")
        session.add(row)
    row.value = secrets.token_hex(PROBE_BYTES // 2)
    await session.flush()
    row.value = secrets.token_hex(8)
