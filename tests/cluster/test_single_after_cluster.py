"""A single server started on a database a cluster used (docs/scaling.md): the cluster's
leases would fence every write the single server makes, so it clears them at start, and it
refuses to start while a node still serves the database."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.core.config import Settings
from app.db.session import make_engine, make_sessionmaker
from app.db.store import leases
from app.db.store.leases import ClusterStillServing
from app.services import Services


async def _leave_a_cluster_behind(url: str, *, node_alive: bool) -> None:
    """A table served by node n1, its lease left in the database (n1 alive or long gone)."""
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session, session.begin():
            await session.execute(
                text(
                    "INSERT INTO tables (id, name, game, options, status, created_at,"
                    " hands_played, private) VALUES ('t1', 'T', 'greek-31', '{}', 'open',"
                    " now(), 0, false)"
                )
            )
            await leases.register_node(session, "n1", "127.0.0.1:1", 10.0)
            await leases.assign(session, "t1", "n1")
            assert await leases.adopt(session, "t1", "n1") == 1
            if not node_alive:
                await session.execute(
                    text("UPDATE cluster_nodes SET expires_at = now() - interval '1 minute'")
                )
    finally:
        await engine.dispose()


async def _count(url: str, table: str) -> int:
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session:
            return int(await session.scalar(text(f"SELECT count(*) FROM {table}")) or 0)
    finally:
        await engine.dispose()


def _single(url: str) -> Services:
    settings = Settings(database_url=url, database_writer="thread", environment="test")
    assert not settings.cluster
    return Services.build(settings)


async def test_a_single_server_clears_a_gone_clusters_leases(cluster_database: str) -> None:
    await _leave_a_cluster_behind(cluster_database, node_alive=False)
    services = _single(cluster_database)
    await services.start()
    try:
        assert await _count(cluster_database, "table_leases") == 0
        assert await _count(cluster_database, "cluster_nodes") == 0
        # the table it recovered is its own to write: a seat is taken without a fence
        assert services.lobby.get("t1") is not None
    finally:
        await services.stop()


async def test_a_single_server_will_not_start_beside_a_live_node(cluster_database: str) -> None:
    await _leave_a_cluster_behind(cluster_database, node_alive=True)
    services = _single(cluster_database)
    with pytest.raises(ClusterStillServing, match="still serve"):
        await services.start()
    await services.writer.close()
    await services.engine.dispose()
    assert await _count(cluster_database, "table_leases") == 1
