"""Hands: a hand's row when it is dealt, and at its end ONE write of its ledger movements,
record, players, shoes and the table's state (docs/rules.md §0.9); a void hand marked, with who
sat in it (docs/review.md, "Void hands")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.db import ledger
from app.db.ledger import Movement
from app.db.models import GameTable, Hand, HandPlayer, Shoe, utcnow
from app.db.session import EncodedJSON

_HANDS = cast(Table, Hand.__table__)
_HAND_PLAYERS = cast(Table, HandPlayer.__table__)
_SHOES = cast(Table, Shoe.__table__)
_TABLES = cast(Table, GameTable.__table__)
_INSERT_HAND = _HANDS.insert()
_FINISH_HAND = (
    _HANDS.update()
    .where(_HANDS.c.id == bindparam("hand_id"))
    .values(
        status=bindparam("status"),
        ended_at=bindparam("ended_at"),
        record=bindparam("record"),
        players=bindparam("players"),
        staked=bindparam("staked"),
    )
)
_INSERT_HAND_PLAYERS = _HAND_PLAYERS.insert()
_INSERT_SHOES = _SHOES.insert()
_SHOES_STORED = select(_SHOES.c.commit).where(
    _SHOES.c.commit.in_(bindparam("commits", expanding=True))
)
_RETIRE_SHOES = (
    _SHOES.update()
    .where(
        _SHOES.c.commit.in_(bindparam("commits", expanding=True)),
        _SHOES.c.retired_at.is_(None),
    )
    .values(retired_at=bindparam("retired_at"))
)
_TABLE_AFTER_HAND = (
    _TABLES.update()
    .where(_TABLES.c.id == bindparam("table_id"))
    .values(state=bindparam("state"), hands_played=_TABLES.c.hands_played + 1)
)
"""A hand's statements, built once (Core, not the ORM's unit of work: a hand is written
with plain INSERTs and UPDATEs, each compiled once per database)."""


async def hand_started(
    session: AsyncSession,
    *,
    hand_id: str,
    table_id: str,
    game: str,
    number: int,
    started_at: datetime,
    seats: list[dict[str, Any]] | None = None,
) -> None:
    """A hand's row as it is dealt (``playing``). ``seats`` are who sits in it (``seat``,
    ``player_id``, ``name``, ``bot``, ``stack`` before it, as a record's ``seats_before``):
    kept in a first record, so that a hand that never finishes still names its players when
    it is void (:func:`void_hands`; docs/review.md, "Void hands")."""
    row: dict[str, Any] = {
        "id": hand_id,
        "table_id": table_id,
        "game": game,
        "number": number,
        "status": "playing",
        "started_at": started_at,
    }
    if seats is not None:
        row["players"] = len(seats)
        row["record"] = {
            "hand_id": hand_id,
            "table_id": table_id,
            "game": game,
            "number": number,
            "started_at": started_at.isoformat(),
            "seats_before": seats,
        }
    await session.run_sync(lambda s: s.connection().execute(_INSERT_HAND, row))


@dataclass
class FinishedHand:
    """Everything one hand's transaction writes."""

    hand_id: str
    table_id: str
    game: str
    number: int
    started_at: datetime
    ended_at: datetime
    movements: list[Movement]
    record: EncodedJSON  # encoded when the hand ends: one string, not thousands of objects
    players: dict[str, tuple[int, int]]  # player_id -> (seat, net)
    staked: int
    new_shoes: list[dict[str, Any]]
    retired_commits: list[str]
    table_state: EncodedJSON
    void: bool = False


async def hand_finished(session: AsyncSession, hand: FinishedHand) -> None:
    """Write a finished hand: ledger entries, record, players, shoes and the table's state,
    all in the caller's one transaction (docs/rules.md §0.9)."""
    await session.run_sync(_hand_finished, hand)


def _hand_finished(session: Session, hand: FinishedHand) -> None:
    """:func:`hand_finished` in one greenlet: 6 statements for a hand (3 for the ledger,
    the hand, its players, the table), plus one per shoe change."""
    ledger.record_sync(session, hand.movements, hand_id=hand.hand_id, table_id=hand.table_id)
    conn = session.connection()
    values = {
        "status": "void" if hand.void else "finished",
        "ended_at": hand.ended_at,
        "record": hand.record,
        "players": len(hand.players),
        "staked": hand.staked,
    }
    result = conn.execute(_FINISH_HAND, {"hand_id": hand.hand_id, **values})
    if result.rowcount == 0:  # its start was never written: write it whole
        conn.execute(
            _INSERT_HAND,
            {
                "id": hand.hand_id,
                "table_id": hand.table_id,
                "game": hand.game,
                "number": hand.number,
                "started_at": hand.started_at,
                **values,
            },
        )
    if hand.players:
        conn.execute(
            _INSERT_HAND_PLAYERS,
            [
                {
                    "hand_id": hand.hand_id,
                    "player_id": pid,
                    "seat": seat,
                    "net": net,
                    "ended_at": hand.ended_at,
                    "game": hand.game,
                }
                for pid, (seat, net) in hand.players.items()
            ],
        )
    if hand.new_shoes:
        stored = set(
            conn.scalars(_SHOES_STORED, {"commits": [shoe["commit"] for shoe in hand.new_shoes]})
        )
        # a shuffle already stored is the same shuffle (its commit is its seed's hash): only a
        # test server's fixed seed (docs/protocol.md, "Fixing a table's shuffle seed") deals
        # one at two tables; the operating system's seeds never repeat
        shoes = [shoe for shoe in hand.new_shoes if shoe["commit"] not in stored]
        if shoes:
            conn.execute(_INSERT_SHOES, [{**shoe, "table_id": hand.table_id} for shoe in shoes])
    if hand.retired_commits:
        conn.execute(_RETIRE_SHOES, {"commits": hand.retired_commits, "retired_at": hand.ended_at})
    conn.execute(_TABLE_AFTER_HAND, {"table_id": hand.table_id, "state": hand.table_state})


VOID_RECORD_KEYS = ("hand_id", "table_id", "game", "number", "started_at", "seats_before")
"""What a void hand's record keeps of the first record written when it was dealt."""


async def mark_void(session: AsyncSession, hand_id: str, reason: str) -> None:
    """A hand that will never finish (an error, a shutdown): void, with nothing settled."""
    await void_hands(session, (Hand.id == hand_id) & (Hand.status == "playing"), reason)


async def void_hands(
    session: AsyncSession, which: ColumnElement[bool], reason: str
) -> list[tuple[str, str]]:
    """Every hand ``which`` selects becomes void: nothing settled, none of its chips moved
    (its stakes never left the stacks in the ledger). Its record keeps who sat in it, when it
    began and ``void``, the reason; each of its players gets a ``hand_players`` row with net
    0, so the hand lists name them and the hand opens for them (docs/review.md, "Void
    hands"). A hand dealt before its players were stored keeps only the reason. Returns each
    hand voided with its table, as ``(hand_id, table_id)``."""
    rows = (
        await session.execute(select(Hand.id, Hand.table_id, Hand.game, Hand.record).where(which))
    ).all()
    ended = utcnow()
    seated: list[dict[str, Any]] = []
    for hand_id, _table_id, game, stored in rows:
        first = stored if isinstance(stored, dict) else {}
        record: dict[str, Any] = {k: first[k] for k in VOID_RECORD_KEYS if k in first}
        record |= {"ended_at": ended.isoformat(), "void": reason}
        players = {
            str(s["player_id"]): int(s["seat"])
            for s in record.get("seats_before") or []
            if isinstance(s, dict) and s.get("player_id") is not None
        }
        await session.execute(
            update(Hand)
            .where(Hand.id == hand_id)
            .values(status="void", ended_at=ended, record=record, players=len(players))
        )
        seated += [
            {
                "hand_id": hand_id,
                "player_id": player_id,
                "seat": seat,
                "net": 0,
                "ended_at": ended,
                "game": game,
            }
            for player_id, seat in players.items()
        ]
    if seated:
        await session.execute(insert(HandPlayer), seated)
    return [(str(r[0]), str(r[1])) for r in rows]
