"""Who may see a private table, as SQL: the one rule every read of hands, ledgers and tables
applies (docs/review.md, "Who may see what"; :mod:`app.review.access` holds the rules each
resource adds inside a table's audience, and the answers a caller gets).

**A private table is seen only by its audience**: the players who ever sat at it, its opener,
the holders of its invite and the host. That rule is :func:`hidden_table`, a condition on a
``tables`` row, and nothing else decides it: :func:`visible_table` asks it of one table,
:func:`visible` makes it the filter every list adds, :func:`hidden_tables_of` names a player's
tables it hides.

"Ever sat at it": a seat always begins with a buy-in of at least one chip, which the ledger
records with the table's id (``app/db/store/seats.py: sit``), or, at a room's new table, with
the stack the switch moved there (``room switch``, app/db/store/rooms.py), so a player who
played a hand there has one; a player seated now counts too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, exists, false, not_, or_, select, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import GameTable, LedgerEntry, Player, Seat


@dataclass(frozen=True)
class Reader:
    """The caller: a player (or nobody), whether they hold the admin token, and the invite
    code they came with (if any)."""

    player: Player | None
    host: bool = False
    invite: str | None = None

    @property
    def player_id(self) -> str | None:
        return self.player.id if self.player is not None else None


def _sat_at(player_id: str) -> ColumnElement[bool]:
    """The player ever sat at the ``tables`` row in hand: a buy-in there, or a room's switch
    that brought their stack there (the ledger's ``ix_ledger_table_reason`` finds either), or
    a seat there now."""
    return or_(
        exists().where(
            LedgerEntry.table_id == GameTable.id,
            LedgerEntry.reason == "buy-in",
            LedgerEntry.source == ledger.bankroll(player_id),
        ),
        exists().where(
            LedgerEntry.table_id == GameTable.id,
            LedgerEntry.reason == ledger.ROOM_SWITCH,
            LedgerEntry.target == f"{ledger.STACK}:" + GameTable.id + f":{player_id}",
        ),
        exists().where(Seat.table_id == GameTable.id, Seat.player_id == player_id),
    )


def hidden_table(reader: Reader) -> ColumnElement[bool]:
    """THE rule: true for a ``tables`` row the reader may not see — a private table of which
    the reader is neither a player, nor the opener, nor an invite holder, nor the host.

    Never NULL (each term guards its NULLs), so ``NOT`` of it and ``NOT IN`` its rows are
    safe."""
    if reader.host:
        return false()
    terms: list[ColumnElement[bool]] = [GameTable.private.is_(True)]
    if reader.invite:
        terms.append(or_(GameTable.invite_code.is_(None), GameTable.invite_code != reader.invite))
    player_id = reader.player_id
    if player_id is not None:
        terms.append(or_(GameTable.created_by.is_(None), GameTable.created_by != player_id))
        terms.append(not_(_sat_at(player_id)))
    return and_(*terms)


def visible(reader: Reader, table_id: Any) -> ColumnElement[bool]:
    """The filter a list adds: rows whose table (the column ``table_id``) the reader may see.

    An uncorrelated ``NOT IN`` the database evaluates once per query (the few private tables
    hidden from this reader), so a list still walks its index in order from the cursor and
    only steps over the hidden rows it meets."""
    if reader.host:
        return true()
    hidden: Select[Any] = select(GameTable.id).where(hidden_table(reader))
    return table_id.not_in(hidden)


async def visible_table(session: AsyncSession, table_id: str, reader: Reader) -> GameTable | None:
    """The table, when it exists and the reader may see it; None otherwise (the two are one
    answer to the caller)."""
    if len(table_id) > 40:
        return None
    table: GameTable | None = await session.scalar(
        select(GameTable).where(GameTable.id == table_id, not_(hidden_table(reader)))
    )
    return table


async def hidden_tables_of(session: AsyncSession, player_id: str, reader: Reader) -> set[str]:
    """The tables the player sat at that are hidden from the reader (none for the player
    themselves, nor for the host): what a player's figures, chart and sittings leave out."""
    if reader.host or reader.player_id == player_id:
        return set()
    rows = await session.scalars(
        select(GameTable.id).where(hidden_table(reader), _sat_at(player_id))
    )
    return set(rows.all())


async def sat_at_table(session: AsyncSession, player_id: str, table_id: str) -> bool:
    """Did the player ever sit at the table (a buy-in there, or a seat there now)?"""
    found = await session.scalar(
        select(GameTable.id).where(GameTable.id == table_id, _sat_at(player_id))
    )
    return found is not None


async def visible_room(session: AsyncSession, room_id: str, reader: Reader) -> bool:
    """Whether the reader may see the room: one of its tables at least is not hidden from them
    (the rule of :func:`hidden_table`, so a private room's audience is its tables' audience;
    ``GET /api/hands?room_id=`` lists the hands of those tables alone)."""
    if len(room_id) > 40:
        return False
    found = await session.scalar(
        select(GameTable.id)
        .where(GameTable.room_id == room_id, not_(hidden_table(reader)))
        .limit(1)
    )
    return found is not None


def played_in_rooms(player_id: str) -> Select[Any]:
    """The rooms (their ids) with a table the player ever sat at (:func:`_sat_at`)."""
    return select(GameTable.room_id).where(GameTable.room_id.is_not(None), _sat_at(player_id))
