"""The host's calls (admin token): chips, the house, tables, seats, bots, settings, audit.

Every call that changes something is recorded as a host action (``GET /api/admin/actions``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field
from sqlalchemy import select

from app import ledger
from app.api.deps import HostDep, ServicesDep
from app.db.models import Account, HostAction, Player
from app.ledger import InsufficientFunds
from app.runtime import store
from app.runtime.table import TableActor
from app.services import Services

router = APIRouter(prefix="/api/admin", tags=["host"], dependencies=[HostDep])

MAX_GRANT = 10**12


class HouseFunds(BaseModel):
    amount: int = Field(gt=0, le=MAX_GRANT, description="chips to grant to the house")
    reason: str = Field(default="host top-up", max_length=80)


class ChipsIn(BaseModel):
    amount: int = Field(ge=-MAX_GRANT, le=MAX_GRANT, description="grant (>0) or take (<0)")
    reason: str = Field(min_length=1, max_length=80)


class PauseIn(BaseModel):
    reason: str = Field(default="", max_length=200)


class CloseIn(BaseModel):
    reason: str = Field(default="The host closed this table", max_length=200)


class SettingsIn(BaseModel):
    starting_bankroll: int = Field(ge=0, le=10**9)


def _table(services: Services, table_id: str) -> TableActor:
    table = services.lobby.get(table_id)
    if table is None or table.closed:
        raise HTTPException(404, "no such table")
    return table


async def _record(
    services: Services, action: str, detail: dict[str, Any], note: str | None = None
) -> None:
    await services.writer.run(store.record_host_action, action, detail, note)


@router.get("/audit")
async def audit(services: ServicesDep) -> dict[str, Any]:
    """Chips granted against the sum over every account (PROTOCOL.md), after pending writes,
    with the house's balance and the chips by kind of account."""
    await services.writer.flush()
    async with services.sessionmaker() as session:
        result = await ledger.audit(session)
        result["house"] = await ledger.balance(session, ledger.HOUSE)
        rows = await session.execute(select(Account.kind, Account.balance))
        by_kind: dict[str, int] = {}
        for kind, balance in rows:
            by_kind[kind] = by_kind.get(kind, 0) + int(balance)
        result["by_kind"] = by_kind
    return result


@router.post("/house")
async def fund_house(body: HouseFunds, services: ServicesDep) -> dict[str, Any]:
    """Grant chips to the house that banks Trente et Quarante."""
    balance = await services.writer.run(store.fund_house, body.amount, body.reason)
    services.lobby.house.fund(body.amount)  # the tables it banks publish their new limits
    return {"house": balance}


@router.get("/players")
async def players(services: ServicesDep) -> list[dict[str, Any]]:
    """Every player with their bankroll."""
    async with services.sessionmaker() as session:
        rows = await session.execute(
            select(Player.id, Player.name, Player.is_bot, Player.created_at, Account.balance)
            .join(Account, Account.id == "bankroll:" + Player.id, isouter=True)
            .order_by(Player.created_at)
        )
        return [
            {
                "player_id": pid,
                "name": name,
                "bot": bot,
                "created_at": created.isoformat(),
                "bankroll": int(balance or 0),
            }
            for pid, name, bot, created, balance in rows
        ]


@router.post("/players/{player_id}/chips")
async def grant_or_take(player_id: str, body: ChipsIn, services: ServicesDep) -> dict[str, Any]:
    """Grant chips to a bankroll (amount > 0) or take them back (amount < 0), through the
    ledger with the host's reason. A take larger than the bankroll is refused."""
    if body.amount == 0:
        raise HTTPException(422, "amount must not be zero")
    try:
        balance = await services.writer.run(
            store.grant_or_take, player_id, body.amount, body.reason
        )
    except InsufficientFunds:
        raise HTTPException(409, "the bankroll does not hold that many chips") from None
    if balance is None:
        raise HTTPException(404, "no such player")
    return {"player_id": player_id, "bankroll": balance}


@router.get("/tables")
async def tables(services: ServicesDep) -> list[dict[str, Any]]:
    """Every open table, private ones included, with invite links."""
    out = []
    for table in services.lobby.tables.values():
        if table.closed:
            continue
        row = table.summary()
        # a removed seat stands up at the next moment the rules allow: say so meanwhile
        for seat in row["seats"]:
            seat["leaving"] = seat["seat"] in table._pending_leave
        if table.private:
            row["invite_code"] = table.invite_code
            row["invite_path"] = f"/tables/{table.table_id}?invite={table.invite_code}"
        out.append(row)
    return out


@router.post("/tables/{table_id}/pause")
async def pause(
    table_id: str, services: ServicesDep, body: PauseIn | None = None
) -> dict[str, Any]:
    """Stop the table's clocks and actions; its players see that the host paused it, and why."""
    table = _table(services, table_id)
    body = body or PauseIn()
    await table.pause(body.reason or None)
    await _record(services, "pause_table", {"table_id": table_id}, body.reason or None)
    return table.summary()


@router.post("/tables/{table_id}/resume")
async def resume(table_id: str, services: ServicesDep) -> dict[str, Any]:
    table = _table(services, table_id)
    await table.resume()
    await _record(services, "resume_table", {"table_id": table_id})
    return table.summary()


@router.post("/tables/{table_id}/close")
async def close(
    table_id: str, services: ServicesDep, body: CloseIn | None = None
) -> dict[str, Any]:
    """Close the table for good: the hand in play is void, every stack goes home."""
    table = _table(services, table_id)
    body = body or CloseIn()
    await table.shutdown(body.reason, close_table=True)
    await _record(services, "close_table", {"table_id": table_id, "name": table.name}, body.reason)
    return {"table_id": table_id, "status": "closed"}


@router.delete("/tables/{table_id}/seats/{seat}")
async def remove_seat(table_id: str, seat: int, services: ServicesDep) -> dict[str, Any]:
    """Stand a player up (at the next moment the rules allow); the stack goes back to the
    bankroll."""
    table = _table(services, table_id)
    async with table.lock:
        info = table.roster.get(seat)
        if info is None:
            raise HTTPException(404, "nobody sits in that seat")
        table.request_leave(seat)
        left = seat not in table.roster
    await _record(
        services, "remove_seat", {"table_id": table_id, "seat": seat, "player_id": info.player_id}
    )
    return {"seat": seat, "removed": left, "pending": not left}


@router.post("/tables/{table_id}/bots", status_code=201)
async def add_bot(table_id: str, services: ServicesDep) -> dict[str, Any]:
    table = _table(services, table_id)
    try:
        seat = await services.lobby.add_bot(table, None)
    except ValueError as err:
        raise HTTPException(409, str(err)) from None
    await _record(services, "add_bot", {"table_id": table_id, "seat": seat})
    return {"seat": seat}


@router.delete("/tables/{table_id}/bots/{seat}")
async def remove_bot(table_id: str, seat: int, services: ServicesDep) -> dict[str, Any]:
    """Stand a bot up (at the next moment the rules allow), recorded as a host action."""
    left = await _table(services, table_id).remove_bot(seat)
    if left is None:
        raise HTTPException(404, "no bot in that seat")
    await _record(services, "remove_bot", {"table_id": table_id, "seat": seat})
    return {"seat": seat, "removed": left, "pending": not left}


@router.get("/settings")
async def get_settings(services: ServicesDep) -> dict[str, Any]:
    return {"starting_bankroll": services.starting_bankroll}


@router.put("/settings")
async def put_settings(body: SettingsIn, services: ServicesDep) -> dict[str, Any]:
    """Change the starting bankroll granted to each new player (kept across restarts)."""
    await services.writer.run(store.set_setting, "starting_bankroll", body.starting_bankroll)
    services.starting_bankroll = body.starting_bankroll
    await _record(services, "set_starting_bankroll", {"value": body.starting_bankroll})
    return {"starting_bankroll": body.starting_bankroll}


@router.get("/actions")
async def actions(services: ServicesDep) -> list[dict[str, Any]]:
    """Every host action, newest first."""
    async with services.sessionmaker() as session:
        rows = (
            await session.scalars(select(HostAction).order_by(HostAction.id.desc()).limit(500))
        ).all()
        return [
            {"at": a.at.isoformat(), "action": a.action, "detail": a.detail, "note": a.note}
            for a in rows
        ]
