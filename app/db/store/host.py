"""The server's settings and what the host does with chips: funding the house and the bots'
bank, granting to or taking from a bankroll, each written down as a host action; and the
bots' bank itself (the one account every bot buys in from and brings its chips home to)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import exists, func, select, text, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.account_ids import STACK, bankroll_of
from app.db.models import Account, HostAction, LedgerEntry, Player, Seat, ServerSetting
from app.i18n.messages import N_

BOTS_FLOAT_NOTE = N_("the bots' opening float (BOTS_FLOAT)")
"""The host's log's note of the bots' float: the server's words, marked (the log words it in the
reader's language, ``note_words``); a note the host typed is shown as typed."""
BOTS_BANK_LOCK = 31310008
"""PostgreSQL: the advisory lock under which the bots' bank is opened (nodes take turns)."""


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
    """The host grants chips to the house (docs/rules.md §4); returns its balance."""
    await ledger.transfer(session, None, ledger.HOUSE, amount, reason)
    await record_host_action(session, "fund_house", {"amount": amount}, reason)
    return await ledger.balance(session, ledger.HOUSE)


async def grant_or_take(
    session: AsyncSession, player_id: str, amount: int, reason: str
) -> int | None:
    """The host grants chips to a bankroll (amount > 0) or takes them back (amount < 0);
    the bankroll's balance after, or None if there is no such player. A take larger than
    the bankroll raises :class:`app.db.ledger.InsufficientFunds`."""
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


async def open_bots_bank(session: AsyncSession, float_amount: int) -> int:
    """The bots' bank, opened the first time anything needs it: its account made and the
    host's opening float (``BOTS_FLOAT``) granted through the ledger, in one transaction and
    once only (an account that exists was opened). On PostgreSQL every job of the bank
    (a bot taken, chips home, a grant, a look) takes turns with the other nodes' under one
    advisory lock, held to the transaction's end. The float is written in the host's log
    as ``fund_bots``. Returns the bank's balance."""
    if (await session.connection()).dialect.name == "postgresql":
        # every job of the bots' bank starts here: taken first, the lock orders them, so
        # that two nodes' jobs never lock the bots' bankrolls and the bank in other orders
        # (a deadlock) nor pick the same free bot
        await session.execute(text(f"SELECT pg_advisory_xact_lock({BOTS_BANK_LOCK})"))
    held = await session.scalar(select(Account.balance).where(Account.id == ledger.BOTS))
    if held is not None:
        return int(held)
    await ledger.ensure_accounts(session, [ledger.BOTS])
    if float_amount > 0:
        await ledger.transfer(session, None, ledger.BOTS, float_amount, "the bots' float")
        await record_host_action(session, "fund_bots", {"amount": float_amount}, BOTS_FLOAT_NOTE)
    return max(float_amount, 0)


async def fund_bots(session: AsyncSession, amount: int, reason: str, float_amount: int) -> int:
    """The host grants chips to the bots' bank (opened first if it was not); returns its
    balance."""
    await open_bots_bank(session, float_amount)
    await ledger.transfer(session, None, ledger.BOTS, amount, reason)
    await record_host_action(session, "fund_bots", {"amount": amount}, reason)
    return await ledger.balance(session, ledger.BOTS)


async def bots_home(
    session: AsyncSession,
    float_amount: int,
    *,
    busy: Collection[str] = (),
    only: Collection[str] | None = None,
) -> int:
    """Bring home to the bots' bank the chips of every bot that sits at no table (a bot that
    stood up or whose table closed finds its stack in its bankroll, as a person's): the
    whole bankroll, through the ledger. Left alone: the bots being seated, whose buy-in is in
    their bankroll on its way to a table: ``busy`` (this process's) and any whose last credit
    came from the bank (another node's, in a cluster). ``only``: those bots, whatever their
    last credit (a bot that did not sit). Returns the chips brought home."""
    await open_bots_bank(session, float_amount)
    query = (
        select(Player.id, Account.balance)
        .join(Account, Account.id == bankroll_of(Player.id))
        .where(
            Player.is_bot == true(),
            Account.balance > 0,
            ~exists().where(Seat.player_id == Player.id),
        )
    )
    if only is not None:
        query = query.where(Player.id.in_(list(only)))
    else:
        last_credit = (
            select(LedgerEntry.source)
            .where(LedgerEntry.target == Account.id)
            .order_by(LedgerEntry.id.desc())
            .limit(1)
            .correlate(Account)
            .scalar_subquery()
        )
        query = query.where(func.coalesce(last_credit, "") != ledger.BOTS)
    moves = [
        ledger.Movement(ledger.bankroll(player_id), ledger.BOTS, int(held), "a bot's chips home")
        for player_id, held in await session.execute(query)
        if player_id not in busy
    ]
    await ledger.record(session, moves)
    return sum(m.amount for m in moves)


async def bots_bank(
    session: AsyncSession, float_amount: int, busy: Collection[str]
) -> dict[str, int]:
    """The bots' bank for the host's page, once the chips of the bots that have left are
    home (:func:`bots_home`): its balance, the bots seated now and the chips on their stacks,
    and the chips the host has granted it (its float included)."""
    await bots_home(session, float_amount, busy=busy)
    bot_ids = select(Player.id).where(Player.is_bot == true())
    seated = await session.scalar(
        select(func.count(func.distinct(Seat.player_id))).where(Seat.player_id.in_(bot_ids))
    )
    at_tables = await session.scalar(
        select(func.coalesce(func.sum(Account.balance), 0)).where(
            Account.kind == STACK, Account.player_id.in_(bot_ids)
        )
    )
    return {
        "bots": await ledger.balance(session, ledger.BOTS),
        "granted": await ledger.granted_to(session, ledger.BOTS),
        "seated": int(seated or 0),
        "at_tables": int(at_tables or 0),
    }
