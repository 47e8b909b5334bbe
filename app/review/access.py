"""Who may read what: one rule for private tables, then each resource's own rule.

**A private table is seen only by its audience**: the players who ever sat at it, its opener,
the holders of its invite (the ``invite`` query parameter, as the live table takes it) and the
host. For anyone else a private table, its hands and its ledger do not exist: a record, a
replay, a ledger or a page answers 404 as for an id never given out, a list leaves them out,
and a player's figures, chart and sittings are computed without them (docs/review.md, "Who
may see what"). That rule is :func:`hidden_table`, a SQL condition on a ``tables`` row, and
nothing else decides it: :func:`visible_table` asks it of one table, :func:`visible` makes it
the filter every hand list adds, :func:`hidden_tables_of` names a player's tables it hides.

"Ever sat at it": a seat always begins with a buy-in of at least one chip, which the ledger
records with the table's id (``app/db/store/seats.py: sit``), so a player who played a hand
there has one; a player seated now counts too.

Inside a table's audience, the rules of any table apply:

* A hand's record (``GET /api/hands/{id}``): anyone; a reader who did not play the hand sees
  what a spectator saw.
* A hand's replay, export and proof: the players who sat at the table during that hand
  (whoever was in a seat at any moment of it, latecomers included), and the host. Not
  spectators, not strangers: a hand link works for the people who were there.
* A table's ledger: the players who ever sat at that table, and the host.
* A night's ledger: the host sees every table; a player sees the tables they sat at.
* A player's page and figures: any signed-in player (a private card room among friends);
  the player's own hands as JSON lines: that player and the host.

A hand is readable only when it is over: a hand still being played is "not found".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException
from sqlalchemy import ColumnElement, Select, and_, exists, false, not_, or_, select, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import GameTable, Hand, LedgerEntry, Player, Seat

NO_HAND = "no finished hand with that id"
NO_TABLE = "no such table"


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
    """The player ever sat at the ``tables`` row in hand: a buy-in there (the ledger's
    ``ix_ledger_table_reason`` finds it), or a seat there now."""
    return or_(
        exists().where(
            LedgerEntry.table_id == GameTable.id,
            LedgerEntry.reason == "buy-in",
            LedgerEntry.source == ledger.bankroll(player_id),
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


def hand_players(record: dict[str, Any]) -> dict[str, int]:
    """Every player who sat at the table during the hand, with their seat."""
    out: dict[str, int] = {}
    for key in ("seats_before", "seats_after"):
        for seat in record.get(key) or []:
            if seat.get("player_id"):
                out.setdefault(str(seat["player_id"]), int(seat["seat"]))
    return out


async def finished_hand(session: AsyncSession, hand_id: str, reader: Reader) -> Hand:
    """The hand, once it is over (finished or void) and when the reader may see its table;
    404 otherwise (the same answer for a hand never played)."""
    hand = await session.get(Hand, hand_id) if len(hand_id) <= 40 else None
    if hand is None or hand.status == "playing" or hand.record is None:
        raise HTTPException(404, NO_HAND)
    if await visible_table(session, hand.table_id, reader) is None:
        raise HTTPException(404, NO_HAND)
    return hand


def check_hand_reader(hand: Hand, reader: Reader) -> int | None:
    """Refuse anyone but the hand's players and the host; return the reader's seat."""
    seat = hand_players(hand.record or {}).get(reader.player_id or "")
    if seat is not None or reader.host:
        return seat
    if reader.player is None:
        raise HTTPException(401, "sign in to see this hand: it is shared with its players")
    raise HTTPException(403, "this hand is shared with the players who sat at its table")


async def sat_at_table(session: AsyncSession, player_id: str, table_id: str) -> bool:
    """Did the player ever sit at the table (a buy-in there, or a seat there now)?"""
    found = await session.scalar(
        select(GameTable.id).where(GameTable.id == table_id, _sat_at(player_id))
    )
    return found is not None


async def check_table_reader(session: AsyncSession, table_id: str, reader: Reader) -> GameTable:
    """A table's ledger: its players and the host (401 signed out; 404 for a table that does
    not exist or is hidden from the reader; 403 for a table the reader never sat at)."""
    if reader.player is None and not reader.host:
        raise HTTPException(401, "sign in to see this table's ledger")
    table = await visible_table(session, table_id, reader)
    if table is None:
        raise HTTPException(404, NO_TABLE)
    if reader.host:
        return table
    assert reader.player is not None
    if not await sat_at_table(session, reader.player.id, table_id):
        raise HTTPException(403, "a table's ledger is for the players who sat at it")
    return table


def check_self_or_host(player_id: str, reader: Reader) -> None:
    if reader.host or reader.player_id == player_id:
        return
    if reader.player is None:
        raise HTTPException(401, "sign in first")
    raise HTTPException(403, "only the player themselves (or the host) may export their hands")


def check_signed_in(reader: Reader) -> None:
    if reader.player is None and not reader.host:
        raise HTTPException(401, "sign in to see the players' pages")
