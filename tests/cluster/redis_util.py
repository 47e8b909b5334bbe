"""Helper C's tests' Redis: db 3 of the local server, a prefix of each test's own; skipped
with a visible reason when no Redis answers."""

from __future__ import annotations

import os
import secrets
import socket

import pytest

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/3")


def redis_reachable(url: str = REDIS_URL) -> bool:
    from redis.connection import parse_url

    parts = parse_url(url)
    try:
        with socket.create_connection((parts.get("host", "127.0.0.1"), parts.get("port", 6379)), 2):
            return True
    except OSError:
        return False


def need_redis() -> str:
    """The test Redis's URL, or a skip naming why."""
    if not redis_reachable():
        pytest.skip(f"NOTICE: no Redis at {REDIS_URL} (set TEST_REDIS_URL): cluster tests skipped")
    return REDIS_URL


def fresh_prefix() -> str:
    """A key prefix no other test (or helper) uses."""
    return f"t31c{secrets.token_hex(3)}:"


async def drop_prefix(url: str, prefix: str) -> None:
    """Delete this test's keys (never FLUSHDB: the db is shared)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(url)
    try:
        keys = [k async for k in client.scan_iter(match=prefix + "*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()
