"""What PostgreSQL says after a cluster has played through its nodes dying.

A hand is settled by ONE transaction at its end (app/db/store/hands.py, docs/rules.md §0.9):
its ledger entries, its players' rows and the hand row's ``finished``. Two owners of one table
at once (a node that kept acting after losing its lease) would show here as a hand finished
twice, entries of one hand written by two transactions, or two finished hands with one
number at one table. PostgreSQL's ``xmin`` names the transaction that wrote a row, so
"written once" is a query, not a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import asyncpg


def dsn(database_url: str) -> str:
    """asyncpg's DSN for a SQLAlchemy URL (``postgresql+asyncpg://`` -> ``postgresql://``)."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def fetch(database_url: str, query: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(dsn(database_url), timeout=10)
    try:
        return list(await conn.fetch(query, *args))
    finally:
        await conn.close()


SETTLED_TWICE = {
    "a hand's ledger entries written by more than one transaction": """
        SELECT hand_id, count(DISTINCT xmin::text) AS n FROM ledger_entries
        WHERE hand_id IS NOT NULL GROUP BY hand_id HAVING count(DISTINCT xmin::text) > 1""",
    "a hand's entries not written by the transaction that finished it": """
        SELECT e.hand_id, h.status FROM ledger_entries e JOIN hands h ON h.id = e.hand_id
        WHERE e.xmin::text <> h.xmin::text GROUP BY e.hand_id, h.status""",
    "a hand's ledger entries for a hand not finished": """
        SELECT e.hand_id, h.status FROM ledger_entries e LEFT JOIN hands h ON h.id = e.hand_id
        WHERE e.hand_id IS NOT NULL AND h.status IS DISTINCT FROM 'finished'
        GROUP BY e.hand_id, h.status""",
    "a player's result of one hand written twice": """
        SELECT hand_id, player_id, count(*) AS n FROM hand_players
        GROUP BY hand_id, player_id HAVING count(*) > 1""",
    "one table's hand number finished twice": """
        SELECT table_id, number, count(*) AS n FROM hands WHERE status = 'finished'
        GROUP BY table_id, number HAVING count(*) > 1""",
}


async def settlement_faults(database_url: str) -> list[str]:
    """Every hand settled more than once, or settled other than by its own one transaction."""
    faults: list[str] = []
    for what, query in SETTLED_TWICE.items():
        faults += [f"{what}: {dict(row)}" for row in await fetch(database_url, query)]
    return faults


async def chip_faults(database_url: str) -> list[str]:
    """The chips in every account against the chips granted from outside (minus those taken
    out), read in one statement; and no account below zero."""
    rows = await fetch(
        database_url,
        """SELECT (SELECT coalesce(sum(balance), 0) FROM accounts) AS held,
                  (SELECT coalesce(sum(amount) FILTER (WHERE source IS NULL), 0)
                        - coalesce(sum(amount) FILTER (WHERE target IS NULL), 0)
                   FROM ledger_entries) AS granted,
                  (SELECT count(*) FROM accounts WHERE balance < 0) AS negative""",
    )
    held, granted, negative = rows[0]["held"], rows[0]["granted"], rows[0]["negative"]
    faults = [] if held == granted else [f"accounts hold {held}, {granted} were granted"]
    return faults + ([f"{negative} accounts below zero"] if negative else [])


async def leases(database_url: str) -> dict[str, tuple[str | None, int]]:
    """Every table's lease: table id -> (owner node, epoch)."""
    rows = await fetch(database_url, "SELECT table_id, owner, epoch FROM table_leases")
    return {row["table_id"]: (row["owner"], int(row["epoch"])) for row in rows}


async def hands_in_play(database_url: str, table_ids: Iterable[str]) -> dict[str, str]:
    """The hands marked playing at ``table_ids``: hand id -> table id."""
    rows = await fetch(
        database_url,
        "SELECT id, table_id FROM hands WHERE status = 'playing' AND table_id = ANY($1::text[])",
        list(table_ids),
    )
    return {row["id"]: row["table_id"] for row in rows}


async def hand_outcomes(database_url: str, hand_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each hand's status now, with its ledger entries and players' rows counted."""
    rows = await fetch(
        database_url,
        """SELECT h.id, h.status,
                  (SELECT count(*) FROM ledger_entries e WHERE e.hand_id = h.id) AS entries,
                  (SELECT count(*) FROM hand_players p WHERE p.hand_id = h.id) AS players
           FROM hands h WHERE h.id = ANY($1::text[])""",
        list(hand_ids),
    )
    return {row["id"]: dict(row) for row in rows}
