"""Account ids: how the ledger names an account, and the one parser that reads a name back.

``bankroll:P`` holds a player's chips away from the tables, ``stack:T:P`` their chips on a
table, ``K:T`` a table's own account (``pot``), ``K:T:P`` a player's other account at a table
(``bets``, ``prison``), and ``house`` the bank of the house-banked game. Every id is built by
a function here and read back by :func:`parse_account`; the strings are what the database
stores, so they never change.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, SQLColumnExpression

HOUSE = "house"
BANKROLL = "bankroll"
STACK = "stack"


def bankroll(player_id: str) -> str:
    """A player's chips away from the tables: ``bankroll:P``."""
    return f"{BANKROLL}:{player_id}"


def stack(table_id: str, player_id: str) -> str:
    """A player's chips on a table: ``stack:T:P``."""
    return f"{STACK}:{table_id}:{player_id}"


def bankroll_of(player_id: SQLColumnExpression[str]) -> ColumnElement[str]:
    """:func:`bankroll` computed by the database from a player id column (for a join)."""
    return f"{BANKROLL}:" + player_id


def table_account(kind: str, table_id: str, player_id: str | None = None) -> str:
    """A table's own account: ``pot:T``, or a player's ``bets:T:P`` / ``prison:T:P``."""
    return f"{kind}:{table_id}" if player_id is None else f"{kind}:{table_id}:{player_id}"


@dataclass(frozen=True)
class AccountName:
    """What an account id names: its kind, and the table and player it belongs to (if any)."""

    kind: str
    table_id: str | None
    player_id: str | None


def parse_account(account_id: str) -> AccountName:
    """The reading back of every account id this module builds: ``bankroll:P`` (a player,
    no table), ``house`` (neither), ``K:T`` (a table's own) and ``K:T:P`` (a player's at a
    table: ``stack``, ``bets``, ``prison``)."""
    kind, _, rest = account_id.partition(":")
    if kind == BANKROLL:
        return AccountName(kind, None, rest)
    if kind == HOUSE:
        return AccountName(kind, None, None)
    parts = account_id.split(":")
    return AccountName(
        kind,
        parts[1] if len(parts) > 1 else None,
        parts[2] if len(parts) > 2 else None,
    )


def bankroll_owner(account_id: str | None) -> str | None:
    """The player whose bankroll this account is; None for any other account."""
    if not account_id:
        return None
    name = parse_account(account_id)
    return name.player_id if name.kind == BANKROLL else None
