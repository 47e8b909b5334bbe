"""Fixtures of the cluster's database tests: a fresh, migrated PostgreSQL database per test.

Cluster mode runs on PostgreSQL only (its leases, fence and house checks are PostgreSQL
functions and triggers), so these tests need a server: ``TEST_DATABASE_URL`` when it names
one, else ``CLUSTER_DATABASE_URL``, else ``postgres@127.0.0.1:5432``. When none answers, the
tests that ask for ``cluster_database`` are skipped, saying why.

The schema is migrated once per session into a template database (``t31_cluster_tpl_<worker>``);
each test gets a copy of it (``CREATE DATABASE … TEMPLATE``, a few tens of milliseconds),
``t31_cluster_<worker>_<n>``, dropped after the test. Its commits do not wait for the disk
(``synchronous_commit = off``: what a commit locks and when it is seen by others are the same;
only a crash of the machine could lose the last ones): a commit costs ~15 ms of fsync on the
test machine, and the races here run thousands of them.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import socket
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import URL, make_url

from tests.conftest import migrate

DEFAULT_SERVER = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
_numbers = itertools.count(1)


def _server_url() -> URL:
    for name in ("TEST_DATABASE_URL", "CLUSTER_DATABASE_URL"):
        value = os.environ.get(name, "")
        if value.startswith("postgresql"):
            return make_url(value)
    return make_url(DEFAULT_SERVER)


def _reachable(url: URL) -> bool:
    try:
        with socket.create_connection((url.host or "127.0.0.1", url.port or 5432), 2):
            return True
    except OSError:
        return False


def _render(url: URL) -> str:
    return url.render_as_string(hide_password=False)


async def _admin(url: URL, *statements: str) -> None:
    """Run statements (CREATE/DROP DATABASE) on the server's maintenance database."""
    import asyncpg

    conn = await asyncpg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        database="postgres",
    )
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.fixture(scope="session")
def cluster_template() -> Iterator[URL]:
    """The migrated template every test's database is copied from."""
    server = _server_url()
    if not _reachable(server):
        pytest.skip(
            f"PostgreSQL is not reachable at {server.host}:{server.port or 5432}: "
            "the cluster's database tests need it (set TEST_DATABASE_URL or CLUSTER_DATABASE_URL)"
        )
    name = f"t31_cluster_tpl_{_worker()}"
    asyncio.run(
        _admin(
            server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'
        )
    )
    url = server.set(database=name)
    migrate(_render(url))
    yield url
    asyncio.run(_admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def cluster_database(cluster_template: URL) -> Iterator[str]:
    """The URL of a fresh database at the schema's head, this test's alone."""
    name = f"t31_cluster_{_worker()}_{os.getpid()}_{next(_numbers)}"
    asyncio.run(
        _admin(
            cluster_template,
            f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
            f'CREATE DATABASE "{name}" TEMPLATE "{cluster_template.database}"',
            f'ALTER DATABASE "{name}" SET synchronous_commit = off',
        )
    )
    yield _render(cluster_template.set(database=name))
    asyncio.run(_admin(cluster_template, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
