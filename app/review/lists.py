"""Hand lists: per table, per player, by game; newest first, filtered by date, paged by cursor.

A page is ``limit`` hands ordered by ``(ended_at, id)`` descending. The next page starts
*after* the last row of this one: the cursor is that row's ``ended_at|id`` and the query asks
for ``(ended_at, id) < cursor``, a range the index seeks into — no OFFSET, so the thousandth
page costs what the first does. Each query has an index whose leading columns are its
equality filters and whose next columns are ``ended_at, id`` (the order), so the database
reads exactly ``limit + 1`` index entries (``migrations/versions/0003_review_indexes.py``):

* a table's hands: ``hands (table_id, ended_at, id)``;
* a player's hands: ``hand_players (player_id, ended_at, hand_id)``, and with a game
  ``hand_players (player_id, game, ended_at, hand_id)``;
* every hand of a game: ``hands (game, ended_at, id)``; every hand: ``hands (ended_at, id)``.

Who sat and the viewer's result come from ``hand_players`` by primary key for the page's
hands only; the records (large JSON) are never read to draw a list.

A list for a reader leaves out the hands of the private tables hidden from that reader
(:func:`app.review.access.visible`: one ``NOT IN`` over the few such tables, evaluated once),
so the index walk above stays the plan; it only steps over the hidden rows it meets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import Select, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.expression import ClauseElement, Executable

from app.db.models import Hand, HandPlayer, Player
from app.review.access import Reader, visible

MAX_LIMIT = 100


class BadCursor(ValueError):
    """The ``before`` cursor is not one this server gave out."""


@dataclass(frozen=True)
class Filters:
    """What a list is narrowed to; ``since`` inclusive, ``until`` exclusive."""

    table_id: str | None = None
    player_id: str | None = None
    game: str | None = None
    since: datetime | None = None
    until: datetime | None = None


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
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD) or an ISO date-time") from None
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
        raise BadCursor("before must be the 'next' cursor of a previous page") from None


def hands_query(
    filters: Filters, before: tuple[datetime, str] | None, limit: int, *, sqlite: bool
) -> Select:
    """The hands of a table, of a game, or all hands (no player): one page plus one row."""
    fix = _fixer(sqlite)
    query = select(
        Hand.id,
        Hand.table_id,
        Hand.game,
        Hand.number,
        Hand.status,
        Hand.started_at,
        Hand.ended_at,
        Hand.players,
        Hand.staked,
    ).where(Hand.ended_at.is_not(None))
    if filters.table_id is not None:
        query = query.where(Hand.table_id == filters.table_id)
    if filters.game is not None:
        query = query.where(Hand.game == filters.game)
    return _page(query, Hand.ended_at, Hand.id, filters, before, limit, fix)


def player_query(
    filters: Filters, before: tuple[datetime, str] | None, limit: int, *, sqlite: bool
) -> Select:
    """A player's hands (optionally of one game, at one table): one page plus one row."""
    assert filters.player_id is not None
    fix = _fixer(sqlite)
    query = (
        select(
            HandPlayer.hand_id,
            Hand.table_id,
            HandPlayer.game,
            Hand.number,
            Hand.status,
            Hand.started_at,
            HandPlayer.ended_at,
            Hand.players,
            Hand.staked,
        )
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(HandPlayer.player_id == filters.player_id, HandPlayer.ended_at.is_not(None))
    )
    if filters.game is not None:
        query = query.where(HandPlayer.game == filters.game)
    if filters.table_id is not None:
        query = query.where(Hand.table_id == filters.table_id)
    return _page(query, HandPlayer.ended_at, HandPlayer.hand_id, filters, before, limit, fix)


def _page(
    query: Select,
    ended_at: InstrumentedAttribute[Any],
    hand_id: InstrumentedAttribute[Any],
    filters: Filters,
    before: tuple[datetime, str] | None,
    limit: int,
    fix: Any,
) -> Select:
    """One page of a list, whatever its table: ``since`` ≤ ``ended_at`` < ``until``, after
    the cursor, newest first by ``(ended_at, hand_id)``, one row more than ``limit``."""
    if filters.since is not None:
        query = query.where(ended_at >= fix(filters.since))
    if filters.until is not None and not _cursor_bounds(before, filters.until):
        query = query.where(ended_at < fix(filters.until))
    if before is not None:
        query = query.where(tuple_(ended_at, hand_id) < tuple_(fix(before[0]), before[1]))
    return query.order_by(ended_at.desc(), hand_id.desc()).limit(limit + 1)


def _cursor_bounds(before: tuple[datetime, str] | None, until: datetime) -> bool:
    """True when the cursor already lies below ``until``: the cursor alone is then the upper
    bound, so the index seeks to it (two upper bounds would leave one as a row filter)."""
    return before is not None and _aware(before[0]) < _aware(until)


def _fixer(sqlite: bool) -> Any:
    def fix(moment: datetime) -> datetime:
        if sqlite:
            return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

    return fix


def list_query(
    filters: Filters,
    before: str | None,
    limit: int,
    *,
    sqlite: bool,
    reader: Reader | None = None,
) -> Select:
    """The query a page of this list runs (also what the index tests EXPLAIN), for
    ``reader``: without the hands of the private tables hidden from them. ``None`` reads
    every hand, as the host does (for the server's own uses: benchmarks, tools)."""
    cursor = decode_cursor(before) if before else None
    limit = max(1, min(limit, MAX_LIMIT))
    if filters.player_id is not None:
        query = player_query(filters, cursor, limit, sqlite=sqlite)
    else:
        query = hands_query(filters, cursor, limit, sqlite=sqlite)
    if reader is not None:
        query = query.where(visible(reader, Hand.table_id))
    return query


def is_sqlite(session: AsyncSession) -> bool:
    return session.bind is not None and session.bind.dialect.name == "sqlite"


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
    query = list_query(filters, before, limit, sqlite=is_sqlite(session), reader=reader)
    rows = list((await session.execute(query)).all())
    page = rows[:limit]
    ids = [row[0] for row in page]
    seated: dict[str, list[dict[str, Any]]] = {hand_id: [] for hand_id in ids}
    if ids:
        people = await session.execute(
            select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.net, Player.id, Player.name)
            .join(Player, Player.id == HandPlayer.player_id)
            .where(HandPlayer.hand_id.in_(ids))
        )
        for hand_id, seat, net, player_id, name in people:
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


class _Explain(Executable, ClauseElement):
    """``EXPLAIN`` (PostgreSQL) or ``EXPLAIN QUERY PLAN`` (SQLite) of a query, with its
    parameters bound as the query itself binds them."""

    inherit_cache = False

    def __init__(self, query: Select, prefix: str) -> None:
        self.query = query
        self.prefix = prefix


@compiles(_Explain)
def _compile_explain(element: _Explain, compiler: Any, **kw: Any) -> str:
    return f"{element.prefix} {compiler.process(element.query, **kw)}"


async def explain(session: AsyncSession, query: Select) -> list[str]:
    """The database's plan for ``query``, one line per row (for the index tests and bench)."""
    prefix = "EXPLAIN QUERY PLAN" if is_sqlite(session) else "EXPLAIN"
    rows = (await session.execute(_Explain(query, prefix))).all()
    return [str(row[-1]) for row in rows]
