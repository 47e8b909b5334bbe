"""What the runtime reads from and writes to the database: players, seats, hands, tables.

Each function takes a session inside the caller's transaction (the writer's, or a request's)
and moves chips only through :mod:`app.ledger`.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app import ledger
from app.db.models import (
    Account,
    DeviceToken,
    GameTable,
    Hand,
    HandPlayer,
    HostAction,
    Player,
    Seat,
    ServerSetting,
    Shoe,
    utcnow,
)
from app.db.session import EncodedJSON
from app.ledger import Movement


def new_id() -> str:
    return uuid.uuid4().hex


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --------------------------------------------------------------------------- players


async def create_player(
    session: AsyncSession, name: str, *, bankroll: int, is_bot: bool = False
) -> tuple[Player, str]:
    """A new player with a secret token and the starting bankroll granted by the host."""
    token = secrets.token_urlsafe(32)
    player = Player(id=new_id(), name=name, token_hash=hash_token(token), is_bot=is_bot)
    session.add(player)
    await session.flush()
    await ledger.ensure_accounts(session, [ledger.bankroll(player.id)])
    if bankroll > 0:
        await ledger.transfer(
            session, None, ledger.bankroll(player.id), bankroll, "starting bankroll"
        )
    return player, token


async def player_by_token(session: AsyncSession, token: str) -> Player | None:
    """The player a token belongs to: the first device's, or one made by a recovery code."""
    if not token or len(token) > 200:
        return None
    digest = hash_token(token)
    player = await session.scalar(select(Player).where(Player.token_hash == digest))
    if player is None:
        player = await session.scalar(
            select(Player)
            .join(DeviceToken, DeviceToken.player_id == Player.id)
            .where(DeviceToken.token_hash == digest)
        )
    return player


async def new_recovery_code(session: AsyncSession, player_id: str) -> str:
    """A fresh personal recovery code (the previous one stops working)."""
    code = secrets.token_urlsafe(18)
    await session.execute(
        update(Player).where(Player.id == player_id).values(recovery_hash=hash_token(code))
    )
    return code


async def redeem_recovery_code(session: AsyncSession, code: str) -> tuple[Player, str] | None:
    """Carry an identity to another device: a new device token for the code's player."""
    if not code or len(code) > 200:
        return None
    player = await session.scalar(select(Player).where(Player.recovery_hash == hash_token(code)))
    if player is None:
        return None
    token = secrets.token_urlsafe(32)
    session.add(DeviceToken(token_hash=hash_token(token), player_id=player.id))
    return player, token


async def get_setting(session: AsyncSession, key: str) -> Any:
    row = await session.get(ServerSetting, key)
    return None if row is None else row.value


async def set_setting(session: AsyncSession, key: str, value: Any) -> None:
    row = await session.get(ServerSetting, key)
    if row is None:
        session.add(ServerSetting(key=key, value=value))
    else:
        row.value = value


async def record_host_action(
    session: AsyncSession, action: str, detail: dict[str, Any], note: str | None = None
) -> None:
    session.add(HostAction(action=action, detail=detail, note=note))


async def fund_house(session: AsyncSession, amount: int, reason: str) -> int:
    """The host grants chips to the house (RULES.md §4); returns its balance."""
    await ledger.transfer(session, None, ledger.HOUSE, amount, reason)
    await record_host_action(session, "fund_house", {"amount": amount}, reason)
    return await ledger.balance(session, ledger.HOUSE)


async def grant_or_take(
    session: AsyncSession, player_id: str, amount: int, reason: str
) -> int | None:
    """The host grants chips to a bankroll (amount > 0) or takes them back (amount < 0);
    the bankroll's balance after, or None if there is no such player. A take larger than
    the bankroll raises :class:`app.ledger.InsufficientFunds`."""
    if await session.get(Player, player_id) is None:
        return None
    account = ledger.bankroll(player_id)
    if amount > 0:
        await ledger.transfer(session, None, account, amount, reason)
    else:
        await ledger.transfer(session, account, None, -amount, reason)
    await record_host_action(
        session,
        "grant_chips" if amount > 0 else "take_chips",
        {"player_id": player_id, "amount": amount},
        reason,
    )
    return await ledger.balance(session, account)


# --------------------------------------------------------------------------- seats


async def sit(session: AsyncSession, table_id: str, seat: int, player_id: str, buy_in: int) -> None:
    """Seat a player: the buy-in moves from the bankroll to the table stack."""
    session.add(Seat(table_id=table_id, seat=seat, player_id=player_id))
    await session.flush()
    await ledger.transfer(
        session,
        ledger.bankroll(player_id),
        ledger.stack(table_id, player_id),
        buy_in,
        "buy-in",
        table_id=table_id,
    )


async def top_up(session: AsyncSession, table_id: str, player_id: str, amount: int) -> None:
    await ledger.transfer(
        session,
        ledger.bankroll(player_id),
        ledger.stack(table_id, player_id),
        amount,
        "top-up",
        table_id=table_id,
    )


async def leave(session: AsyncSession, table_id: str, seat: int, player_id: str) -> int:
    """Stand a player up: the whole table stack goes back to the bankroll."""
    account = ledger.stack(table_id, player_id)
    amount = await ledger.balance(session, account)
    await ledger.transfer(
        session, account, ledger.bankroll(player_id), amount, "cash-out", table_id=table_id
    )
    await session.execute(delete(Seat).where(Seat.table_id == table_id, Seat.seat == seat))
    return amount


# --------------------------------------------------------------------------- tables


async def create_table(
    session: AsyncSession,
    *,
    table_id: str,
    name: str,
    game: str,
    options: dict[str, Any],
    created_by: str | None,
    private: bool = False,
    invite_code: str | None = None,
) -> None:
    session.add(
        GameTable(
            id=table_id,
            name=name,
            game=game,
            options=options,
            created_by=created_by,
            private=private,
            invite_code=invite_code,
        )
    )


async def save_table_state(session: AsyncSession, table_id: str, state: dict[str, Any]) -> None:
    await session.execute(update(GameTable).where(GameTable.id == table_id).values(state=state))


async def set_table_status(
    session: AsyncSession, table_id: str, status: str, pause_reason: str | None = None
) -> None:
    await session.execute(
        update(GameTable)
        .where(GameTable.id == table_id)
        .values(status=status, pause_reason=pause_reason)
    )


@dataclass
class StoredSeat:
    seat: int
    player_id: str
    name: str
    is_bot: bool


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


async def load_tables(session: AsyncSession) -> list[StoredTable]:
    """Every table that is not closed, with its seats and its accounts' balances."""
    tables = (await session.scalars(select(GameTable).where(GameTable.status != "closed"))).all()
    out: list[StoredTable] = []
    for table in tables:
        rows = await session.execute(
            select(Seat.seat, Seat.player_id, Player.name, Player.is_bot)
            .join(Player, Player.id == Seat.player_id)
            .where(Seat.table_id == table.id)
            .order_by(Seat.seat)
        )
        seats = [StoredSeat(int(r[0]), r[1], r[2], bool(r[3])) for r in rows]
        accounts = await session.execute(
            select(Account.id, Account.balance).where(Account.table_id == table.id)
        )
        out.append(
            StoredTable(
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
                last_hand_number=int(
                    await session.scalar(
                        select(func.coalesce(func.max(Hand.number), 0)).where(
                            Hand.table_id == table.id
                        )
                    )
                    or 0
                ),
                seats=seats,
                balances={a: int(b) for a, b in accounts},
            )
        )
    return out


async def void_unfinished_hands(session: AsyncSession) -> set[str]:
    """After a crash: every hand still marked playing is void (its stakes never left the
    stacks in the database, so they are back). Returns the tables that had one."""
    rows = await session.execute(select(Hand.id, Hand.table_id).where(Hand.status == "playing"))
    found = list(rows)
    if found:
        await session.execute(
            update(Hand)
            .where(Hand.id.in_([r[0] for r in found]))
            .values(status="void", ended_at=utcnow(), record={"void": "server restart"})
        )
    return {r[1] for r in found}


# --------------------------------------------------------------------------- hands


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
) -> None:
    row = {
        "id": hand_id,
        "table_id": table_id,
        "game": game,
        "number": number,
        "status": "playing",
        "started_at": started_at,
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
    all in the caller's one transaction (RULES.md §0, "A hand")."""
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
        conn.execute(
            _INSERT_SHOES, [{**shoe, "table_id": hand.table_id} for shoe in hand.new_shoes]
        )
    if hand.retired_commits:
        conn.execute(_RETIRE_SHOES, {"commits": hand.retired_commits, "retired_at": hand.ended_at})
    conn.execute(_TABLE_AFTER_HAND, {"table_id": hand.table_id, "state": hand.table_state})


async def mark_void(session: AsyncSession, hand_id: str, reason: str) -> None:
    """A hand that will never finish (an error, a shutdown): void, with nothing settled."""
    await session.execute(
        update(Hand)
        .where(Hand.id == hand_id)
        .values(status="void", ended_at=utcnow(), record={"void": reason})
    )
