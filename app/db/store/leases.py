"""Which node owns each table: the nodes and the leases in PostgreSQL (docs/scaling.md), for
cluster mode (app/cluster/: node.py heartbeats, adopts and releases; forward.py places a new
table; hosting.py ends a cluster's leftovers when a single server starts).

Every function is a database job (``writer.run(leases.adopt, table_id, node_id)``): it takes
the session first and plain data, and returns plain data (the writer process pickles both).

The rules the cluster's safety rests on:

* Time is the DATABASE's clock (``now()``), never a node's: nodes' clocks may differ, the
  database's is one.
* A lease is (owner, epoch) in ``table_leases``; it lives as long as its owner's node row
  (``cluster_nodes.expires_at``), which the owner pushes on with each heartbeat in one
  statement that never waits on a table's writes.
* A lease changes hands only by ``epoch = epoch + 1`` (:func:`adopt`), so epochs only grow,
  and only when it is free: released (owner null), its owner's node expired or unknown, or
  already its own. Two nodes racing for a table queue on its row; the second finds it taken.
* Every write for a leased table is fenced with its epoch (app/cluster/fence.py): the adopt's
  ``UPDATE`` waits for the old owner's transaction in flight, and the old owner's next one is
  refused by the database.

PostgreSQL only (cluster mode refuses SQLite at start): the statements are PostgreSQL's own
(``now()``, ``make_interval``, ``ON CONFLICT``, ``SET LOCAL``), with no SQLite branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession


@dataclass(frozen=True)
class Heartbeat:
    """What a node learns at its heartbeat.

    ``owned``: table id -> epoch of every lease it owns now (a table it serves that is missing
    here, or at another epoch, is lost: drop it without writing). ``live_nodes``: the nodes
    alive now, itself included (for a fair share of the orphans). ``renewed``: False when the
    node had no row (never registered, or removed): register again. ``was_expired``: its row
    had expired before this heartbeat (its leases were open to others meanwhile)."""

    owned: dict[str, int] = field(default_factory=dict)
    live_nodes: int = 0
    renewed: bool = True
    was_expired: bool = False


@dataclass(frozen=True)
class NodeRow:
    """A live node, with the number of leases it owns."""

    id: str
    address: str
    leases: int


class Lease(NamedTuple):
    """A table's lease: its owner (None: released), epoch, and whether the owner is alive."""

    owner: str | None
    epoch: int
    live: bool


async def register_node(
    session: AsyncSession, node_id: str, address: str, lease_seconds: float
) -> None:
    """Make (or renew) this node's row: alive until now + ``lease_seconds``, not draining.
    Its leases from an earlier run stay its own (it adopts them again, with new epochs)."""
    await session.execute(
        text(
            "INSERT INTO cluster_nodes (id, address, started_at, expires_at, draining, tables,"
            " sockets) VALUES (:n, :a, now(), now() + make_interval(secs => :s), false, 0, 0)"
            " ON CONFLICT (id) DO UPDATE SET address = excluded.address,"
            " started_at = excluded.started_at, expires_at = excluded.expires_at,"
            " draining = false, tables = 0, sockets = 0"
        ),
        {"n": node_id, "a": address, "s": float(lease_seconds)},
    )


async def heartbeat(
    session: AsyncSession, node_id: str, lease_seconds: float, tables: int, sockets: int
) -> Heartbeat:
    """Renew this node's row (and so all its leases) until now + ``lease_seconds``, note what
    it serves, and read the leases it owns and the number of live nodes."""
    row = (
        await session.execute(
            text(
                "WITH old AS (SELECT id, expires_at <= now() AS expired FROM cluster_nodes"
                " WHERE id = :n FOR UPDATE)"
                " UPDATE cluster_nodes c SET expires_at = now() + make_interval(secs => :s),"
                " tables = :t, sockets = :k FROM old WHERE c.id = old.id RETURNING old.expired"
            ),
            {"n": node_id, "s": float(lease_seconds), "t": tables, "k": sockets},
        )
    ).first()
    owned = {
        str(t): int(e)
        for t, e in await session.execute(
            text("SELECT table_id, epoch FROM table_leases WHERE owner = :n"), {"n": node_id}
        )
    }
    live = await session.scalar(text("SELECT count(*) FROM cluster_nodes WHERE expires_at > now()"))
    return Heartbeat(
        owned=owned,
        live_nodes=int(live or 0),
        renewed=row is not None,
        was_expired=bool(row[0]) if row is not None else False,
    )


async def least_loaded_node(session: AsyncSession) -> NodeRow | None:
    """The live node, not draining, that owns the fewest leases (ties: the lowest id): where
    a new table opens."""
    row = (
        await session.execute(
            text(
                "SELECT c.id, c.address, (SELECT count(*) FROM table_leases l"
                " WHERE l.owner = c.id) AS leases FROM cluster_nodes c"
                " WHERE c.expires_at > now() AND NOT c.draining ORDER BY leases, c.id LIMIT 1"
            )
        )
    ).first()
    return None if row is None else NodeRow(str(row[0]), str(row[1]), int(row[2]))


async def assign(session: AsyncSession, table_id: str, node_id: str) -> None:
    """A new table's lease, owned by ``node_id`` at epoch 0, in the transaction that makes
    the table (its owner then :func:`adopt`s it: epoch 1, and writes fenced with that)."""
    await session.execute(
        text("INSERT INTO table_leases (table_id, owner, epoch) VALUES (:t, :n, 0)"),
        {"t": table_id, "n": node_id},
    )


async def adopt(session: AsyncSession, table_id: str, node_id: str) -> int | None:
    """Take ``table_id`` for ``node_id`` if it is free: released, owned by a node whose row has
    expired (or is gone), or ``node_id``'s own (assigned, or left from its earlier run). A table
    with no lease row (opened before cluster mode) gets one. Returns the new epoch (one more
    than before), or None when another live node holds it (or there is no such table).

    The ``UPDATE`` waits for the transactions fenced with the old epoch still in flight; once
    it commits, every write fenced with an older epoch is refused by the database. Like a
    fenced write, the transaction may not stay idle over 2 s: a node cut off in the middle of
    an adoption leaves the lease row to the others."""
    await session.execute(text("SET LOCAL idle_in_transaction_session_timeout = 2000"))
    await session.execute(
        text(
            "INSERT INTO table_leases (table_id, owner, epoch)"
            " SELECT id, NULL, 0 FROM tables WHERE id = :t ON CONFLICT (table_id) DO NOTHING"
        ),
        {"t": table_id},
    )
    epoch = await session.scalar(
        text(
            "UPDATE table_leases l SET owner = :n, epoch = l.epoch + 1 WHERE l.table_id = :t"
            " AND (l.owner IS NULL OR l.owner = :n OR NOT EXISTS (SELECT 1 FROM cluster_nodes c"
            " WHERE c.id = l.owner AND c.expires_at > now())) RETURNING l.epoch"
        ),
        {"t": table_id, "n": node_id},
    )
    return None if epoch is None else int(epoch)


async def orphans(session: AsyncSession, limit: int) -> list[str]:
    """Open tables no live node owns, oldest first: released, owned by an expired or unknown
    node, or with no lease row at all (from before cluster mode)."""
    rows = await session.execute(
        text(
            "SELECT t.id FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id"
            " WHERE t.status <> 'closed' AND (l.table_id IS NULL OR l.owner IS NULL"
            " OR NOT EXISTS (SELECT 1 FROM cluster_nodes c WHERE c.id = l.owner"
            " AND c.expires_at > now())) ORDER BY t.created_at, t.id LIMIT :k"
        ),
        {"k": limit},
    )
    return [str(r[0]) for r in rows]


async def release(session: AsyncSession, table_id: str, node_id: str, epoch: int) -> bool:
    """Hand a table over (its owner stops serving it): owner null, the epoch kept, so any
    node may adopt it at once. False if the lease was not (``node_id``, ``epoch``) any more."""
    result = await session.execute(
        text(
            "UPDATE table_leases SET owner = NULL WHERE table_id = :t AND owner = :n AND epoch = :e"
        ),
        {"t": table_id, "n": node_id, "e": epoch},
    )
    return bool(getattr(result, "rowcount", 0))


async def drop_node(session: AsyncSession, node_id: str) -> None:
    """A node leaving (the end of its SIGTERM): its row expires now, draining, so whatever it
    still owns is an orphan at once."""
    await session.execute(
        text("UPDATE cluster_nodes SET expires_at = now(), draining = true WHERE id = :n"),
        {"n": node_id},
    )


async def set_draining(session: AsyncSession, node_id: str) -> None:
    """A node handing its tables over: no new table is placed on it (it stays alive)."""
    await session.execute(
        text("UPDATE cluster_nodes SET draining = true WHERE id = :n"), {"n": node_id}
    )


async def route(session: AsyncSession, table_id: str) -> str | None:
    """The address of the live node that owns ``table_id``, or None (no owner alive)."""
    value = await session.scalar(
        text(
            "SELECT c.address FROM table_leases l JOIN cluster_nodes c ON c.id = l.owner"
            " WHERE l.table_id = :t AND c.expires_at > now()"
        ),
        {"t": table_id},
    )
    return None if value is None else str(value)


async def lease_of(session: AsyncSession, table_id: str) -> Lease | None:
    """``table_id``'s lease (owner, epoch, owner alive), or None when it has none."""
    row = (
        await session.execute(
            text(
                "SELECT l.owner, l.epoch, coalesce(c.expires_at > now(), false)"
                " FROM table_leases l LEFT JOIN cluster_nodes c ON c.id = l.owner"
                " WHERE l.table_id = :t"
            ),
            {"t": table_id},
        )
    ).first()
    if row is None:
        return None
    return Lease(None if row[0] is None else str(row[0]), int(row[1]), bool(row[2]))


async def release_closed(session: AsyncSession, table_id: str) -> None:
    """A table closed for good: its lease goes (run it last in the close's fenced
    transaction; the table is nobody's to adopt any more, and :func:`orphans` skips it)."""
    await session.execute(text("DELETE FROM table_leases WHERE table_id = :t"), {"t": table_id})


class ClusterStillServing(RuntimeError):
    """A single server was started on a database a live cluster serves."""


async def end_cluster(session: AsyncSession) -> int:
    """A SINGLE server starting on a database a cluster used: the leases, the house's
    reservations and the node rows go, since a lease left behind would fence every write for
    its table (the server does not fence) and a reservation would stand in the way of the
    house's payouts. Refused (:class:`ClusterStillServing`) while any node is alive. Returns
    the number of leases there were."""
    live = await session.scalar(text("SELECT count(*) FROM cluster_nodes WHERE expires_at > now()"))
    if live:
        raise ClusterStillServing(
            f"{live} cluster node(s) still serve this database: stop them first "
            "(or start this server as a node, with NODE_ID and REDIS_URL)"
        )
    result = await session.execute(text("DELETE FROM table_leases"))
    # after the leases: a table's reservation is fenced while its lease is there
    await session.execute(text("DELETE FROM house_reservations"))
    await session.execute(text("DELETE FROM cluster_nodes"))
    return int(getattr(result, "rowcount", 0) or 0)


class Owner(NamedTuple):
    """Who serves a table now, as PostgreSQL says: for forwarding a request to it."""

    status: str
    owner: str | None
    live: bool
    """The owner's node row has not expired."""


async def owner_of(session: AsyncSession, table_id: str) -> Owner | None:
    """The table's status, the node its lease names and whether that node is live; None
    when there is no such table."""
    row = (
        await session.execute(
            text(
                "SELECT t.status, l.owner, coalesce(c.expires_at > now(), false)"
                " FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id"
                " LEFT JOIN cluster_nodes c ON c.id = l.owner WHERE t.id = :t"
            ),
            {"t": table_id},
        )
    ).first()
    return None if row is None else Owner(str(row[0]), row[1], bool(row[2]))


async def fence(session: AsyncSession, table_id: str, node_id: str, epoch: int) -> None:
    """Refuse (SQLSTATE ``T3FEN``) unless ``node_id`` holds ``table_id`` at ``epoch`` now;
    the lease is then share-locked to the end of the transaction (migration 0007's
    ``table31_fence``). PostgreSQL only."""
    await session.execute(
        text("SELECT table31_fence(:t, :n, :e)"), {"t": table_id, "n": node_id, "e": epoch}
    )


async def table_is_open(session: AsyncSession, table_id: str) -> bool:
    """Whether ``table_id`` exists and is not closed (served by some node, or soon)."""
    status = await session.scalar(text("SELECT status FROM tables WHERE id = :t"), {"t": table_id})
    return status is not None and status != "closed"


HOUSE_OPENING_LOCK = 31310007
"""The advisory lock under which nodes starting at once take turns to open the house."""


async def take_turns_opening_the_house(session: AsyncSession) -> None:
    """Wait for the other nodes opening the house now: the lock is held to the end of the
    transaction, so the house's opening float is granted once, not once a node."""
    await session.execute(text(f"SELECT pg_advisory_xact_lock({HOUSE_OPENING_LOCK})"))
