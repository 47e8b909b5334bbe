"""Turning a finished hand into what is stored: ledger movements, the record, the results.

The engine speaks of seats (``seat:3``, ``bets:3``, ``pot``, ``house``); the ledger speaks of
players and tables (``stack:T:P``, ``bets:T:P``, ``pot:T``, ``house``). This module maps one
to the other with the roster of the hand, and builds the record of RULES.md §0, "A hand".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from app import ledger
from app.games.base import Transfer
from app.ledger import Movement

RECORD_VERSION = 1


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat."""

    player_id: str
    name: str
    is_bot: bool = False


def ledger_account(account: str, table_id: str, roster: dict[int, SeatInfo]) -> str:
    """Map an engine account to the ledger's: ``seat:N`` is the stack of the player in seat N;
    ``X:N`` is that player's ``X:T:P``; a bare ``X`` is the table's ``X:T``; ``house`` stays."""
    if account == ledger.HOUSE:
        return account
    kind, _, seat = account.partition(":")
    if not seat:
        return ledger.table_account(kind, table_id)
    player_id = roster[int(seat)].player_id
    if kind == "seat":
        return ledger.stack(table_id, player_id)
    return ledger.table_account(kind, table_id, player_id)


def engine_account(account_id: str, table_id: str, seat_of: dict[str, int]) -> str | None:
    """The inverse of :func:`ledger_account` for a table's accounts (None if not seated)."""
    parts = account_id.split(":")
    if len(parts) < 2 or parts[1] != table_id:
        return None
    kind = parts[0]
    if len(parts) == 2:
        return kind
    seat = seat_of.get(parts[2])
    if seat is None:
        return None
    return f"seat:{seat}" if kind == "stack" else f"{kind}:{seat}"


def movements(
    transfers: list[Transfer], table_id: str, roster: dict[int, SeatInfo]
) -> list[Movement]:
    return [
        Movement(
            ledger_account(t.source, table_id, roster),
            ledger_account(t.target, table_id, roster),
            t.amount,
            t.reason,
        )
        for t in transfers
    ]


def owner_seat(account: str) -> int | None:
    """The seat whose player owns an engine account (``seat:3``, ``bets:3``), else None."""
    _, _, seat = account.partition(":")
    return int(seat) if seat.isdigit() else None


def net_by_seat(transfers: list[Transfer]) -> dict[int, int]:
    """Each seat's net result over the hand, counting all the accounts it owns."""
    net: dict[int, int] = defaultdict(int)
    for t in transfers:
        source = owner_seat(t.source)
        target = owner_seat(t.target)
        if source == target:
            continue
        if source is not None:
            net[source] -= t.amount
        if target is not None:
            net[target] += t.amount
    return dict(net)


def seats_listing(roster: dict[int, SeatInfo], balances: dict[str, int]) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat,
            "player_id": info.player_id,
            "name": info.name,
            "bot": info.is_bot,
            "stack": balances.get(f"seat:{seat}", 0),
        }
        for seat, info in sorted(roster.items())
    ]


def settlement(transfers: list[Transfer], roster: dict[int, SeatInfo]) -> list[dict[str, Any]]:
    """The hand's transfers, with the players named beside the seats."""
    out = []
    for t in transfers:
        row = t.to_json()
        for end, account in (("from_player", t.source), ("to_player", t.target)):
            seat = owner_seat(account)
            if seat is not None and seat in roster:
                row[end] = roster[seat].player_id
        out.append(row)
    return out
