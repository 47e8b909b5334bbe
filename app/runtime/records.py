"""Turning a finished hand into what is stored: ledger movements, the record, the results.

The engine speaks of seats (``seat:3``, ``bets:3``, ``pot``, ``house``); the ledger speaks of
players and tables (``stack:T:P``, ``bets:T:P``, ``pot:T``, ``house``). This module maps one
to the other with the roster of the hand, and builds the record of docs/rules.md §0.9.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from app.db import account_ids, ledger
from app.db.ledger import Movement
from app.games.core.accounts import account as engine_seat_account
from app.games.core.accounts import is_seat, kind_of, owner_of, seat_account
from app.games.core.money import Transfer
from app.review.results import hand_result, owner_seat

RECORD_VERSION = 1


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat."""

    player_id: str
    name: str
    is_bot: bool = False
    bot_level: str | None = None
    """A bot's level (``random``, ``steady``, ``best``: app/analysis/bots.py); None for a
    person."""


@dataclass
class Away:
    """A seated player sitting out (docs/rules.md §0.11): out of the engine, dealt nothing,
    their seat and ``stack`` kept by the table (the chips stay in the ledger's stack, where
    they were); ``since`` is when they went (the table's clock) and ``reason`` why, when it
    was not their own choice (the clock played for them twice in a row)."""

    player_id: str
    stack: int
    since: float
    reason: str | None = None

    def stored(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "stack": self.stack,
            "since": self.since,
            "reason": self.reason,
        }


def ledger_account(account: str, table_id: str, roster: dict[int, SeatInfo]) -> str:
    """Map an engine account to the ledger's: ``seat:N`` is the stack of the player in seat N;
    ``X:N`` is that player's ``X:T:P``; a bare ``X`` is the table's ``X:T``; ``house`` stays."""
    if account == ledger.HOUSE:
        return account
    seat = owner_of(account)
    if seat is None:
        return ledger.table_account(kind_of(account), table_id)
    player_id = roster[seat].player_id
    if is_seat(account):
        return ledger.stack(table_id, player_id)
    return ledger.table_account(kind_of(account), table_id, player_id)


def engine_account(account_id: str, table_id: str, seat_of: dict[str, int]) -> str | None:
    """The inverse of :func:`ledger_account` for a table's accounts (None if not seated)."""
    name = account_ids.parse_account(account_id)
    if name.table_id is None or name.table_id != table_id:
        return None
    if name.player_id is None:
        return name.kind
    seat = seat_of.get(name.player_id)
    if seat is None:
        return None
    if name.kind == account_ids.STACK:
        return seat_account(seat)
    return engine_seat_account(name.kind, seat)


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
            **({"bot_level": info.bot_level} if info.is_bot else {}),
            "stack": balances.get(seat_account(seat), 0),
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


def result_of(
    hand_id: str,
    number: int,
    transfers: list[Transfer],
    roster: dict[int, SeatInfo],
    seats: set[int],
) -> dict[str, Any]:
    """:func:`hand_result` of a hand just played, from its transfers and roster."""
    return hand_result(
        hand_id,
        number,
        [(t.source, t.target, t.amount, t.reason) for t in transfers],
        {seat: (info.player_id, info.name) for seat, info in roster.items()},
        seats,
    )
