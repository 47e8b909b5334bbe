"""Who may read what (issue 7: "a link to a hand can be shared with the others at that table").

* A hand's record, replay, export and proof: the players who sat at the table during that
  hand (whoever was in a seat at any moment of it, latecomers included), and the host. Not
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
from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Hand, HandPlayer, LedgerEntry, Player


@dataclass(frozen=True)
class Reader:
    """The caller: a player (or nobody) and whether they hold the admin token."""

    player: Player | None
    host: bool = False

    @property
    def player_id(self) -> str | None:
        return self.player.id if self.player is not None else None


def hand_players(record: dict[str, Any]) -> dict[str, int]:
    """Every player who sat at the table during the hand, with their seat."""
    out: dict[str, int] = {}
    for key in ("seats_before", "seats_after"):
        for seat in record.get(key) or []:
            if seat.get("player_id"):
                out.setdefault(str(seat["player_id"]), int(seat["seat"]))
    return out


async def finished_hand(session: AsyncSession, hand_id: str) -> Hand:
    """The hand, once it is over (finished or void); 404 otherwise."""
    hand = await session.get(Hand, hand_id) if len(hand_id) <= 40 else None
    if hand is None or hand.status == "playing" or hand.record is None:
        raise HTTPException(404, "no finished hand with that id")
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
    """Did the player ever sit at the table (a buy-in there, or a hand played there)?"""
    bought_in = await session.scalar(
        select(
            exists().where(
                LedgerEntry.source == f"bankroll:{player_id}",
                LedgerEntry.table_id == table_id,
                LedgerEntry.reason == "buy-in",
            )
        )
    )
    if bought_in:
        return True
    played = await session.scalar(
        select(
            exists().where(
                HandPlayer.player_id == player_id,
                HandPlayer.hand_id.in_(select(Hand.id).where(Hand.table_id == table_id)),
            )
        )
    )
    return bool(played)


async def check_table_reader(session: AsyncSession, table_id: str, reader: Reader) -> None:
    if reader.host:
        return
    if reader.player is None:
        raise HTTPException(401, "sign in to see this table's ledger")
    if not await sat_at_table(session, reader.player.id, table_id):
        raise HTTPException(403, "a table's ledger is for the players who sat at it")


def check_self_or_host(player_id: str, reader: Reader) -> None:
    if reader.host or reader.player_id == player_id:
        return
    if reader.player is None:
        raise HTTPException(401, "sign in first")
    raise HTTPException(403, "only the player themselves (or the host) may export their hands")


def check_signed_in(reader: Reader) -> None:
    if reader.player is None and not reader.host:
        raise HTTPException(401, "sign in to see the players' pages")
