"""Who may read what: one rule for private tables, then each resource's own rule.

**A private table is seen only by its audience**: the players who ever sat at it, its opener,
the holders of its invite (the ``invite`` query parameter, as the live table takes it) and the
host. For anyone else a private table, its hands and its ledger do not exist: a record, a
replay, a ledger or a page answers 404 as for an id never given out, a list leaves them out,
and a player's figures, chart and sittings are computed without them (docs/review.md, "Who
may see what"). That rule is SQL, in :mod:`app.db.store.access`
(:func:`~app.db.store.access.hidden_table`), and nothing else decides it: :func:`visible_table`
asks it of one table, every hand list adds it, :func:`hidden_tables_of` names a player's
tables it hides.

Inside a table's audience, the rules of any table apply:

* A hand's record (``GET /api/hands/{id}``): anyone; a reader who did not play the hand sees
  what a spectator saw.
* A hand's replay, export and proof: the players who sat at the table during that hand
  (whoever was in a seat at any moment of it, latecomers included), and the host. Not
  spectators, not strangers: a hand link works for the people who were there.
* A table's ledger: the players who ever sat at that table, and the host.
* A night's ledger: the host sees every table; a player sees the tables they sat at.
* A room (the history page's ``?room_id=``): whoever may see one of its tables at least; its
  hand list holds the hands of the tables they may see.
* A player's page and figures: any signed-in player (a private card room among friends);
  the player's own hands as JSON lines: that player and the host.

A hand is readable only when it is over: a hand still being played is "not found".
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from app.db.models import GameTable, Hand
from app.db.store import proofs
from app.db.store.access import Reader as Reader
from app.db.store.access import hidden_tables_of as hidden_tables_of
from app.db.store.access import sat_at_table as sat_at_table
from app.db.store.access import visible_room as visible_room
from app.db.store.access import visible_table as visible_table
from app.db.types import AsyncSession
from app.i18n.messages import N_

NO_HAND = "no finished hand with that id"
NO_TABLE = "no such table"


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
    hand = await proofs.hand_by_id(session, hand_id) if len(hand_id) <= 40 else None
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
        raise HTTPException(401, N_("sign in to see this hand: it is shared with its players"))
    raise HTTPException(403, N_("this hand is shared with the players who sat at its table"))


async def check_table_reader(session: AsyncSession, table_id: str, reader: Reader) -> GameTable:
    """A table's ledger: its players and the host (401 signed out; 404 for a table that does
    not exist or is hidden from the reader; 403 for a table the reader never sat at)."""
    if reader.player is None and not reader.host:
        raise HTTPException(401, N_("sign in to see this table's ledger"))
    table = await visible_table(session, table_id, reader)
    if table is None:
        raise HTTPException(404, NO_TABLE)
    if reader.host:
        return table
    assert reader.player is not None
    if not await sat_at_table(session, reader.player.id, table_id):
        raise HTTPException(403, N_("a table's ledger is for the players who sat at it"))
    return table


def check_self_or_host(player_id: str, reader: Reader) -> None:
    if reader.host or reader.player_id == player_id:
        return
    if reader.player is None:
        raise HTTPException(401, N_("sign in first"))
    raise HTTPException(403, N_("only the player themselves (or the host) may export their hands"))


def check_signed_in(reader: Reader) -> None:
    if reader.player is None and not reader.host:
        raise HTTPException(401, N_("sign in to see the players' pages"))
