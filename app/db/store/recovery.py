"""What a start-up reads to restore the open tables, and what it does with the rest: the
hands still marked playing are void, a table that cannot be restored is closed with every
chip it holds returned.

A restored table's story (docs/protocol.md §6.6) is read here too: its last finished hand's
record and the hands voided since (:func:`load_table`), so that the first ``story`` after a
restart tells the last hand, the void one and then the next (app/runtime/story.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import account_ids, ledger
from app.db.ledger import Movement
from app.db.models import Account, GameTable, Hand, Player, Seat
from app.db.store.hands import void_hands
from app.db.store.host import record_host_action
from app.i18n.messages import N_

RESTARTED = N_("The server restarted: the hand in play was void, stakes returned.")
"""Why a hand still playing at a start-up is void (kept in its record, told in the story)."""
MOVED = N_("The node serving this table stopped: the hand in play was void, stakes returned.")
"""Why a hand still playing when a node adopts its table is void (cluster mode)."""
STORY_VOIDS = 5
"""The story a restart restores holds at most this many hands voided since the last finished
one (a hand voided at each of several restarts in a row)."""
STORY_KEYS = (
    "hand_id",
    "number",
    "started_at",
    "ended_at",
    "seats_before",
    "seats_after",
    "events",
    "result",
    "settlement",
)
"""What the story needs of the last finished hand's record (never its private part)."""


@dataclass
class StoredSeat:
    seat: int
    player_id: str
    name: str
    is_bot: bool
    bot_level: str | None = None


@dataclass
class StoredTable:
    table_id: str
    name: str
    game: str
    options: dict[str, Any]
    status: str
    created_by: str | None
    state: dict[str, Any] | None
    hands_played: int
    private: bool
    invite_code: str | None
    pause_reason: str | None
    last_hand_number: int
    """The highest hand number ever used at this table (void hands included)."""
    seats: list[StoredSeat]
    balances: dict[str, int]
    """Every account of this table (stacks, pot, bets, prison) by id."""
    host_id: str | None = None
    """The table's host (null: its opener)."""
    last_hand: dict[str, Any] | None = None
    """The last finished hand's record, its public parts and the events with their
    ``private_to`` marks (:data:`STORY_KEYS`): the story filters them per viewer."""
    voids: list[dict[str, Any]] = field(default_factory=list)
    """The hands voided since the last finished one, oldest first, as the story's
    ``hand_void`` events (``hand_id``, ``number``, ``reason``, ``t``)."""
    room_id: str | None = None
    """The room this table is played in (app/db/store/rooms.py), or None."""


async def open_table_ids(session: AsyncSession) -> list[str]:
    """Every table that is not closed, oldest first (what a start-up recovers)."""
    rows = await session.scalars(
        select(GameTable.id).where(GameTable.status != "closed").order_by(GameTable.created_at)
    )
    return list(rows)


async def load_table(session: AsyncSession, table_id: str) -> StoredTable:
    """One table with its seats and its accounts' balances. Raises whatever the stored row
    makes it raise (state that is not JSON, say): the caller recovers each table on its own."""
    table = await session.get(GameTable, table_id)
    if table is None:
        raise LookupError(f"no table {table_id}")
    rows = await session.execute(
        select(Seat.seat, Seat.player_id, Player.name, Player.is_bot, Seat.bot_level)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.table_id == table.id)
        .order_by(Seat.seat)
    )
    seats = [StoredSeat(int(r[0]), r[1], r[2], bool(r[3]), r[4]) for r in rows]
    accounts = await session.execute(
        select(Account.id, Account.balance).where(Account.table_id == table.id)
    )
    last_hand = await session.scalar(
        select(func.coalesce(func.max(Hand.number), 0)).where(Hand.table_id == table.id)
    )
    return StoredTable(
        table_id=table.id,
        name=table.name,
        game=table.game,
        options=dict(table.options),
        status=table.status,
        created_by=table.created_by,
        state=table.state,
        hands_played=table.hands_played,
        private=table.private,
        invite_code=table.invite_code,
        pause_reason=table.pause_reason,
        host_id=table.host_id,
        last_hand_number=int(last_hand or 0),
        seats=seats,
        balances={a: int(b) for a, b in accounts},
        room_id=table.room_id,
        **await _story(session, table.id),
    )


async def _story(session: AsyncSession, table_id: str) -> dict[str, Any]:
    """The table's last finished hand (:data:`STORY_KEYS` of its record) and the hands voided
    after it (at most :data:`STORY_VOIDS`, oldest first): what a restored table's story
    tells first (docs/protocol.md §6.6). Two reads down ``ix_hands_table_ended``."""
    last = (
        await session.execute(
            select(Hand.record, Hand.ended_at)
            .where(Hand.table_id == table_id, Hand.status == "finished")
            .order_by(Hand.ended_at.desc(), Hand.id.desc())
            .limit(1)
        )
    ).first()
    record = last[0] if last is not None and isinstance(last[0], dict) else None
    voided = select(Hand.id, Hand.number, Hand.record, Hand.ended_at).where(
        Hand.table_id == table_id, Hand.status == "void", Hand.ended_at.is_not(None)
    )
    if last is not None and last[1] is not None:
        voided = voided.where(Hand.ended_at > last[1])
    rows = (
        await session.execute(
            voided.order_by(Hand.ended_at.desc(), Hand.id.desc()).limit(STORY_VOIDS)
        )
    ).all()
    voids = []
    for hand_id, number, stored, ended in reversed(rows):
        reason = stored.get("void") if isinstance(stored, dict) else None
        voids.append(
            {
                "kind": "hand_void",
                "hand_id": hand_id,
                "number": int(number),
                "reason": reason if isinstance(reason, str) else "stakes returned",
                "t": _seconds(ended),
            }
        )
    return {
        "last_hand": None if record is None else {k: record[k] for k in STORY_KEYS if k in record},
        "voids": voids,
    }


def _seconds(moment: datetime) -> float:
    """A stored time as Unix seconds (SQLite gives it back without its zone: UTC)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.timestamp()


@dataclass
class ClosedTable:
    """A table that could not be restored at start-up, closed with its chips returned."""

    table_id: str
    name: str
    game: str
    reason: str
    returned: dict[str, int]
    """Chips returned to each player's bankroll (player id to chips)."""


async def close_unrestorable_table(
    session: AsyncSession, table_id: str, reason: str
) -> ClosedTable:
    """Close a table whose stored state cannot be restored, returning every chip it holds.

    Nothing of its state is read (it may be what fails): only its accounts and seats. Each
    player's own account at the table (``stack:T:P``, ``bets:T:P``, ``prison:T:P``) goes back
    to that player's bankroll; a table-wide account (a pot) is shared equally among the
    players who hold an account at the table, the odd chips to the first of them by id, or
    to the house when nobody does. One transaction: the movements, the seats, the status,
    and a host action that names the table and the reason."""
    name, game = (
        await session.execute(
            select(GameTable.name, GameTable.game).where(GameTable.id == table_id)
        )
    ).one()
    rows = (
        await session.execute(
            select(Account.id, Account.balance).where(
                Account.table_id == table_id, Account.balance != 0
            )
        )
    ).all()
    owned: list[tuple[str, str, int]] = []  # (account, player, chips)
    shared: list[tuple[str, int]] = []
    for account_id, balance in rows:
        holder = account_ids.parse_account(str(account_id)).player_id
        if holder is not None:
            owned.append((str(account_id), holder, int(balance)))
        else:
            shared.append((str(account_id), int(balance)))
    moves: list[Movement] = [
        Movement(account, ledger.bankroll(player), chips, "table closed at start-up")
        for account, player, chips in owned
    ]
    holders = sorted({player for _, player, _ in owned})
    for account, chips in shared:
        if not holders:
            moves.append(Movement(account, ledger.HOUSE, chips, "table closed at start-up"))
            continue
        share, odd = divmod(chips, len(holders))
        for k, player in enumerate(holders):
            amount = share + (odd if k == 0 else 0)
            if amount:
                moves.append(
                    Movement(account, ledger.bankroll(player), amount, "table closed at start-up")
                )
    await ledger.record(session, moves, table_id=table_id)
    returned: dict[str, int] = {}
    for move in moves:
        owner = account_ids.bankroll_owner(move.target)
        if owner is not None:
            returned[owner] = returned.get(owner, 0) + move.amount
    await session.execute(delete(Seat).where(Seat.table_id == table_id))
    await session.execute(
        update(GameTable)
        .where(GameTable.id == table_id)
        .values(status="closed", pause_reason=reason[:200])
    )
    await record_host_action(
        session,
        "recovery_closed_table",
        {"table_id": table_id, "name": name, "game": game, "returned": returned},
        reason[:200],
    )
    return ClosedTable(table_id, name, game, reason, returned)


async def void_unfinished_hands(session: AsyncSession) -> set[str]:
    """After a crash: every hand still marked playing is void (its stakes never left the
    stacks in the database, so they are back), its players kept (:func:`void_hands`).
    Returns the tables that had one."""
    voided = await void_hands(session, Hand.status == "playing", RESTARTED)
    return {table_id for _, table_id in voided}


async def void_unfinished_hand(session: AsyncSession, table_id: str) -> bool:
    """:func:`void_unfinished_hands` for one table: what a node adopting the table of a node
    that failed runs (app/cluster/node.py), inside the fence of its new lease, so that the
    node which lost the table can no longer finish that hand. True if the table had one."""
    which = (Hand.table_id == table_id) & (Hand.status == "playing")
    return bool(await void_hands(session, which, MOVED))
