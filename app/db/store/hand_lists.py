"""The queries of the hand lists (:mod:`app.review.lists` says how a list is paged): one page
of hands, per table, per player or by game, newest first, and what a page shows of each
hand's players; a player's hands oldest first (their export); a query's plan.

A page is ``limit`` hands ordered by ``(ended_at, id)`` descending, after the cursor: the
query asks for ``(ended_at, id) < cursor``, a range the index seeks into — no OFFSET. Each
query has an index whose leading columns are its equality filters and whose next columns are
``ended_at, id`` (``migrations/versions/0003_review_indexes.py``):

* a table's hands: ``hands (table_id, ended_at, id)``;
* a player's hands: ``hand_players (player_id, ended_at, hand_id)``, and with a game
  ``hand_players (player_id, game, ended_at, hand_id)``;
* every hand of a game: ``hands (game, ended_at, id)``; every hand: ``hands (ended_at, id)``.

A list for a reader leaves out the hands of the private tables hidden from that reader
(:func:`app.db.store.access.visible`: one ``NOT IN`` over the few such tables, evaluated
once), so the index walk above stays the plan; it only steps over the hidden rows it meets.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.expression import ClauseElement, Executable

from app.db.dialect import is_sqlite, stored_moment
from app.db.models import GameTable, Hand, HandPlayer, Player
from app.db.store.access import Reader, visible

ListQuery = Select
"""The query a page of a list runs (what :func:`explain` takes)."""
Cursor = tuple[datetime, str]
"""Where a page starts: after the hand ``(ended_at, id)``."""


@dataclass(frozen=True)
class Filters:
    """What a list is narrowed to; ``since`` inclusive, ``until`` exclusive."""

    table_id: str | None = None
    player_id: str | None = None
    game: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    room_id: str | None = None
    """A room's hands: those of every table of the room (its story, table after table)."""


def _in_room(room_id: str) -> Any:
    """The hand is at one of the room's tables (``tables.room_id``'s index)."""
    return Hand.table_id.in_(select(GameTable.id).where(GameTable.room_id == room_id))


def hands_query(filters: Filters, before: Cursor | None, limit: int, *, sqlite: bool) -> ListQuery:
    """The hands of a table, of a game, or all hands (no player): one page plus one row."""
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
    if filters.room_id is not None:
        query = query.where(_in_room(filters.room_id))
    if filters.game is not None:
        query = query.where(Hand.game == filters.game)
    return _page(query, Hand.ended_at, Hand.id, filters, before, limit, sqlite)


def player_query(filters: Filters, before: Cursor | None, limit: int, *, sqlite: bool) -> ListQuery:
    """A player's hands (optionally of one game, at one table): one page plus one row."""
    assert filters.player_id is not None
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
    if filters.room_id is not None:
        query = query.where(_in_room(filters.room_id))
    return _page(query, HandPlayer.ended_at, HandPlayer.hand_id, filters, before, limit, sqlite)


def _page(
    query: ListQuery,
    ended_at: InstrumentedAttribute[Any],
    hand_id: InstrumentedAttribute[Any],
    filters: Filters,
    before: Cursor | None,
    limit: int,
    sqlite: bool,
) -> ListQuery:
    """One page of a list, whatever its table: ``since`` ≤ ``ended_at`` < ``until``, after
    the cursor, newest first by ``(ended_at, hand_id)``, one row more than ``limit``."""

    def fix(moment: datetime) -> datetime:
        return stored_moment(moment, sqlite=sqlite)

    if filters.since is not None:
        query = query.where(ended_at >= fix(filters.since))
    if filters.until is not None and not _cursor_bounds(before, filters.until):
        query = query.where(ended_at < fix(filters.until))
    if before is not None:
        query = query.where(tuple_(ended_at, hand_id) < tuple_(fix(before[0]), before[1]))
    return query.order_by(ended_at.desc(), hand_id.desc()).limit(limit + 1)


def _cursor_bounds(before: Cursor | None, until: datetime) -> bool:
    """True when the cursor already lies below ``until``: the cursor alone is then the upper
    bound, so the index seeks to it (two upper bounds would leave one as a row filter)."""
    return before is not None and _aware(before[0]) < _aware(until)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def list_query(
    filters: Filters,
    before: Cursor | None,
    limit: int,
    *,
    sqlite: bool,
    reader: Reader | None = None,
) -> ListQuery:
    """The query a page of ``limit`` hands of this list runs (one row more: whether another
    page follows), for ``reader``: without the hands of the private tables hidden from them.
    ``None`` reads every hand, as the host does."""
    if filters.player_id is not None:
        query = player_query(filters, before, limit, sqlite=sqlite)
    else:
        query = hands_query(filters, before, limit, sqlite=sqlite)
    if reader is not None:
        query = query.where(visible(reader, Hand.table_id))
    return query


async def list_rows(
    session: AsyncSession,
    filters: Filters,
    before: Cursor | None,
    limit: int,
    reader: Reader | None = None,
) -> list[Any]:
    """The rows of one page of the list, and one more when another page follows: each
    ``(hand_id, table_id, game, number, status, started_at, ended_at, players, staked)``."""
    query = list_query(filters, before, limit, sqlite=is_sqlite(session), reader=reader)
    return list((await session.execute(query)).all())


async def seated_players(
    session: AsyncSession, hand_ids: Collection[str]
) -> list[tuple[str, int, int, str, str]]:
    """``(hand_id, seat, net, player_id, name)`` of every player of these hands."""
    if not hand_ids:
        return []
    rows = await session.execute(
        select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.net, Player.id, Player.name)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(HandPlayer.hand_id.in_(list(hand_ids)))
    )
    return [(h, seat, net, p, name) for h, seat, net, p, name in rows]


async def player_nets(
    session: AsyncSession, player_id: str, hand_ids: Collection[str]
) -> dict[str, int]:
    """The player's net in each of these hands they played (a hand not theirs is left out)."""
    rows = await session.execute(
        select(HandPlayer.hand_id, HandPlayer.net).where(
            HandPlayer.player_id == player_id, HandPlayer.hand_id.in_(list(hand_ids))
        )
    )
    return {str(hand_id): int(net) for hand_id, net in rows}


async def player_hands_oldest_first(
    session: AsyncSession, player_id: str, *, batch: int = 200
) -> AsyncIterator[Hand]:
    """Every hand the player played that has ended and has a record, oldest first (by
    ``(ended_at, id)``), read ``batch`` at a time; each batch is let go of by the session once
    given out, so a long history is never held whole."""
    after: tuple[datetime | None, str] | None = None
    while True:
        query = (
            select(HandPlayer.ended_at, HandPlayer.hand_id)
            .where(HandPlayer.player_id == player_id, HandPlayer.ended_at.is_not(None))
            .order_by(HandPlayer.ended_at, HandPlayer.hand_id)
            .limit(batch)
        )
        if after is not None:
            query = query.where(tuple_(HandPlayer.ended_at, HandPlayer.hand_id) > tuple_(*after))
        rows = list((await session.execute(query)).all())
        if not rows:
            return
        hands = {
            h.id: h
            for h in (
                await session.scalars(select(Hand).where(Hand.id.in_([r[1] for r in rows])))
            ).all()
        }
        for ended, hand_id in rows:
            hand = hands.get(hand_id)
            if hand is not None and hand.record is not None:
                yield hand
            after = (ended, hand_id)
        session.expunge_all()


class _Explain(Executable, ClauseElement):
    """``EXPLAIN`` (PostgreSQL) or ``EXPLAIN QUERY PLAN`` (SQLite) of a query, with its
    parameters bound as the query itself binds them."""

    inherit_cache = False

    def __init__(self, query: ListQuery, prefix: str) -> None:
        self.query = query
        self.prefix = prefix


@compiles(_Explain)
def _compile_explain(element: _Explain, compiler: Any, **kw: Any) -> str:
    return f"{element.prefix} {compiler.process(element.query, **kw)}"


async def explain(session: AsyncSession, query: ListQuery) -> list[str]:
    """The database's plan for ``query``, one line per row (for the index tests and bench)."""
    prefix = "EXPLAIN QUERY PLAN" if is_sqlite(session) else "EXPLAIN"
    rows = (await session.execute(_Explain(query, prefix))).all()
    return [str(row[-1]) for row in rows]
