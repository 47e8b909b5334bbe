"""Hand lists: per table, per player, by game; newest first, filtered by date, paged by cursor.

A page is ``limit`` hands ordered by ``(ended_at, id)`` descending. The next page starts
*after* the last row of this one: the cursor is that row's ``ended_at|id`` and the query asks
for ``(ended_at, id) < cursor``, a range the index seeks into — no OFFSET, so the thousandth
page costs what the first does. The queries, and the index each one reads, are
:mod:`app.db.store.hand_lists`: the database reads exactly ``limit + 1`` index entries.

Who sat and the viewer's result come from ``hand_players`` by primary key for the page's
hands only; the records (large JSON) are never read to draw a list.

A list for a reader leaves out the hands of the private tables hidden from that reader
(:mod:`app.db.store.access`); the index walk stays the plan, stepping over the hidden rows it
meets.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from app.db.store import hand_lists
from app.db.store.access import Reader
from app.db.store.hand_lists import Filters as Filters
from app.db.store.hand_lists import ListQuery
from app.db.store.hand_lists import explain as explain
from app.db.types import AsyncSession
from app.i18n.messages import N_, Text

MAX_LIMIT = 100


class BadCursor(ValueError):
    """The ``before`` cursor is not one this server gave out."""


def parse_when(text: str | None, *, end: bool = False) -> datetime | None:
    """A date (``2026-11-21``: that day's start in UTC; with ``end``, the next day's) or an
    ISO date-time (UTC if no offset is given)."""
    if not text:
        return None
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            moment = datetime.combine(day, time(), tzinfo=UTC)
            if end:
                moment = datetime.fromordinal(day.toordinal() + 1).replace(tzinfo=UTC)
            return moment
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            Text(N_("{text} is not a date (YYYY-MM-DD) or an ISO date-time"), text=repr(text))
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def encode_cursor(ended_at: datetime, hand_id: str) -> str:
    return f"{ended_at.isoformat()}|{hand_id}"


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    stamp, sep, hand_id = cursor.partition("|")
    try:
        if not sep or not hand_id or len(hand_id) > 40:
            raise ValueError
        return datetime.fromisoformat(stamp), hand_id
    except ValueError:
        raise BadCursor(N_("before must be the 'next' cursor of a previous page")) from None


def list_query(
    filters: Filters,
    before: str | None,
    limit: int,
    *,
    sqlite: bool,
    reader: Reader | None = None,
) -> ListQuery:
    """The query a page of this list runs (also what the index tests EXPLAIN), for
    ``reader``: without the hands of the private tables hidden from them. ``None`` reads
    every hand, as the host does (for the server's own uses: benchmarks, tools)."""
    cursor = decode_cursor(before) if before else None
    limit = max(1, min(limit, MAX_LIMIT))
    return hand_lists.list_query(filters, cursor, limit, sqlite=sqlite, reader=reader)


async def hand_page(
    session: AsyncSession,
    filters: Filters,
    *,
    before: str | None = None,
    limit: int = 20,
    viewer_id: str | None = None,
    reader: Reader | None = None,
) -> dict[str, Any]:
    """One page of a hand list as ``reader`` may see it (see :func:`list_query`): rows (game,
    when, who sat, the viewer's result) and the cursor of the next page (None on the last).
    The viewer is the reader's player unless ``viewer_id`` says otherwise."""
    limit = max(1, min(limit, MAX_LIMIT))
    if reader is not None and viewer_id is None:
        viewer_id = reader.player_id
    cursor = decode_cursor(before) if before else None
    rows = await hand_lists.list_rows(session, filters, cursor, limit, reader)
    page = rows[:limit]
    ids = [row[0] for row in page]
    seated: dict[str, list[dict[str, Any]]] = {hand_id: [] for hand_id in ids}
    for hand_id, seat, net, player_id, name in await hand_lists.seated_players(session, ids):
        seated[hand_id].append(
            {"seat": int(seat), "player_id": player_id, "name": name, "net": int(net)}
        )
    out = []
    for hand_id, table_id, game, number, status, started, ended, count, staked in page:
        sitters = sorted(seated[hand_id], key=lambda s: s["seat"])
        mine = next((s for s in sitters if s["player_id"] == viewer_id), None)
        out.append(
            {
                "hand_id": hand_id,
                "table_id": table_id,
                "game": game,
                "number": int(number),
                "status": status,
                "started_at": _iso(started),
                "ended_at": _iso(ended),
                "players": [{k: s[k] for k in ("seat", "player_id", "name")} for s in sitters],
                "seated": int(count or 0),
                "staked": int(staked or 0),
                "your_seat": mine["seat"] if mine else None,
                "your_net": mine["net"] if mine else None,
            }
        )
    last = page[-1] if page else None
    more = len(rows) > limit and last is not None
    return {
        "hands": out,
        "next": encode_cursor(_aware(last[6]), last[0]) if more and last is not None else None,
    }


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _iso(moment: datetime | None) -> str | None:
    return _aware(moment).isoformat() if moment is not None else None
