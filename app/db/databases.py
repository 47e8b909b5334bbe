"""A PostgreSQL database itself, for the cluster's launcher and tests: dropped, created.

Run through the server's maintenance database ``postgres``, as ``CREATE DATABASE`` cannot
run inside the database it makes."""

from __future__ import annotations

import asyncpg
from sqlalchemy.engine import make_url


async def prepare(url: str, *, drop: bool, create: bool) -> bool:
    """On the server of ``url``: drop the database ``url`` names (its connections closed,
    PostgreSQL 13+) and/or create it if it is missing. True when it was created."""
    parsed = make_url(url)
    name = str(parsed.database)
    quoted = '"' + name.replace('"', '""') + '"'
    conn = await asyncpg.connect(
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password,
        database="postgres",
        timeout=10,
    )
    try:
        if drop:
            await conn.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")
        if not create or await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            return False
        await conn.execute(f"CREATE DATABASE {quoted}")
        return True
    finally:
        await conn.close()
