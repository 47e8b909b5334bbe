"""What a fairness proof reads back (through :mod:`app.db.store.proofs`): the shoes a hand drew
from, and, for a game that gathers used cards under the stock, the table's finished hands since
the shuffle of the shoe a hand drew from (the database side of :mod:`app.review.fairness`,
which is pure; docs/fairness.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.db.store import proofs
from app.db.types import AsyncSession
from app.review.fairness import GATHERING_GAMES, StoredShoe, shuffles_in
from app.review.steps import shoes_of

MAX_CHAIN = 20_000
"""The most hands :func:`earlier_hands` reads back to find the hand that shuffled a shoe."""


async def earlier_hands(
    session: AsyncSession, hand_id: str, table_id: str, ended_at: datetime
) -> list[dict[str, Any]]:
    """The records of a table's finished hands before ``hand_id``, oldest first, back to the
    one that shuffled the shoe it drew from (what :func:`app.review.fairness.verify` needs
    for a game that gathers used cards under the stock; empty for any other game)."""
    hand = await proofs.hand_by_id(session, hand_id)
    record = (hand.record if hand is not None else None) or {}
    if record.get("game") not in GATHERING_GAMES:
        return []
    commits = {
        str(stock["shuffle"].get("commit"))
        for stock in shuffles_in((record.get("private") or {}).get("start_state"))
        if isinstance(stock.get("shuffle"), dict)
    }
    out: list[dict[str, Any]] = []
    cursor: tuple[datetime, str] = (ended_at, hand_id)
    while commits and len(out) < MAX_CHAIN:
        rows = await proofs.hands_before(session, table_id, cursor, 100)
        if not rows:
            break
        for earlier, ended, earlier_id in rows:
            out.append(dict(earlier or {}))
            cursor = (ended, earlier_id)
            commits -= set((out[-1].get("shuffles") or {}).get("new") or [])
            if not commits:
                break
    out.reverse()
    return out


async def stored_shoes(
    session: AsyncSession, record: dict[str, Any], *more: dict[str, Any]
) -> dict[str, StoredShoe]:
    """The stored shoes the hand drew from (and those the ``more`` hands shuffled), by
    commitment."""
    commits = [commit for commit, _ in shoes_of(record)]
    for other in more:
        commits += list((other.get("shuffles") or {}).get("new") or [])
    return {
        s.commit: StoredShoe(s.commit, s.seed, list(s.source), s.retired_at)
        for s in await proofs.shoes_by_commit(session, commits)
    }
