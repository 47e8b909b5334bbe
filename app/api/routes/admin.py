"""The host's calls (admin token): chips, the house, the bots' bank, tables, rooms, seats,
bots, settings, audit.

Every call that changes something is recorded as a host action (``GET /api/admin/actions``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import Field

from app.analysis.bots import DEFAULT_LEVEL
from app.api.deps import HostDep, ServicesDep
from app.api.errors import ApiRoute, errors
from app.api.locale import request_locale
from app.api.schemas import BotIn, StrictBody
from app.api.schemas.base import Reply
from app.api.schemas.host import (
    AdminRoom,
    Audit,
    Bankroll,
    BotAdded,
    HostActionRow,
    HostSettings,
    HouseBalance,
    PlayerRow,
    RecoveryReport,
    RoomClosed,
    SeatRemoved,
    Seeded,
)
from app.api.schemas.tables import TableClosed, TableSummary
from app.db import ledger, store
from app.db.devices import aware
from app.db.ledger import InsufficientFunds
from app.db.store import host_lists
from app.db.store.host import BOTS_FLOAT_NOTE
from app.db.store.rooms import StoredRoom
from app.i18n.messages import N_, Text, localize, said
from app.runtime.table.actor import TableActor
from app.services import Services

router = APIRouter(
    prefix="/api/admin",
    tags=["host"],
    dependencies=[HostDep],
    route_class=ApiRoute,
    responses=errors(403, 404, 409, 422),
)

MAX_GRANT = 10**12


class HouseFunds(StrictBody):
    amount: int = Field(gt=0, le=MAX_GRANT, description="chips to grant to the house")
    reason: str = Field(default="host top-up", max_length=80)


class ChipsIn(StrictBody):
    amount: int = Field(ge=-MAX_GRANT, le=MAX_GRANT, description="grant (>0) or take (<0)")
    reason: str = Field(min_length=1, max_length=80)


class BotsFunds(StrictBody):
    amount: int = Field(gt=0, le=MAX_GRANT, description="chips to grant to the bots' bank")
    reason: str = Field(default="host top-up", max_length=80)


class BotsBank(Reply):
    """The bots' bank: the one account every bot buys in from and brings its stack home to."""

    bots: int = Field(description="chips in the bots' bank now")
    granted: int = Field(description="chips the host has granted it, its opening float included")
    seated: int = Field(description="bots seated at tables now")
    at_tables: int = Field(description="chips on the seated bots' stacks")
    pool: int = Field(description="bots there may be (one per bot name)")


class PauseIn(StrictBody):
    reason: str = Field(default="", max_length=200)


class CloseIn(StrictBody):
    reason: str = Field(default="The host closed this table", max_length=200)


class RoomCloseIn(StrictBody):
    reason: str = Field(default="The host closed this room", max_length=200)


class SeedIn(StrictBody):
    seed: str = Field(
        pattern=r"^[0-9a-fA-F]{2,64}$", description="1 to 32 bytes in hex: the shuffles' seed"
    )


class SettingsIn(StrictBody):
    starting_bankroll: int = Field(ge=0, le=10**9)


def _table(services: Services, table_id: str) -> TableActor:
    table = services.lobby.get(table_id)
    if table is None or table.closed:
        raise HTTPException(404, N_("no such table"))
    return table


async def _record(
    services: Services, action: str, detail: dict[str, Any], note: str | None = None
) -> None:
    await services.writer.run(store.record_host_action, action, detail, note)


@router.get("/audit", response_model=Audit)
async def audit(services: ServicesDep) -> dict[str, Any]:
    """Chips granted against the sum over every account (docs/protocol.md), after pending writes,
    with the house's balance and the chips by kind of account: every figure from one
    statement, so from one snapshot while the writer commits (:func:`app.db.ledger.audit`)."""
    await services.writer.flush()
    async with services.sessionmaker() as session:
        return await ledger.audit(session)


@router.get("/recovery", response_model=RecoveryReport)
async def recovery(services: ServicesDep) -> dict[str, Any]:
    """What this start-up recovered: tables restored, hands voided, and the tables that
    could not be restored, closed with their chips returned (with the reason)."""
    return services.lobby.recovery.to_json()


@router.post("/house", response_model=HouseBalance)
async def fund_house(body: HouseFunds, services: ServicesDep) -> dict[str, Any]:
    """Grant chips to the house that banks Trente et Quarante."""
    balance = await services.writer.run(store.fund_house, body.amount, body.reason)
    services.lobby.house.fund(body.amount)  # the tables it banks publish their new limits
    await services.hosting.house_funded(body.amount)  # those served elsewhere too
    return {"house": balance}


@router.get("/bots", response_model=BotsBank)
async def bots_bank(services: ServicesDep) -> dict[str, Any]:
    """The bots' bank, once the chips of every bot that has left (stood up, its table closed)
    are home in it: the bots' results add up here (app/runtime/bot_pool.py)."""
    return await services.lobby.bot_pool.bank()


@router.post("/bots", response_model=BotsBank)
async def fund_bots(body: BotsFunds, services: ServicesDep) -> dict[str, Any]:
    """Grant chips to the bots' bank (the host's log: ``fund_bots``); its state after."""
    await services.lobby.bot_pool.fund(body.amount, body.reason)
    return await services.lobby.bot_pool.bank()


@router.get("/players", response_model=list[PlayerRow])
async def players(services: ServicesDep) -> list[dict[str, Any]]:
    """Every player with their bankroll."""
    async with services.sessionmaker() as session:
        rows = await host_lists.players_with_bankrolls(session)
    return [
        {
            "player_id": row.player_id,
            "name": row.name,
            "bot": row.bot,
            "created_at": row.created_at.isoformat(),
            "bankroll": row.bankroll,
        }
        for row in rows
    ]


@router.post("/players/{player_id}/chips", response_model=Bankroll)
async def grant_or_take(player_id: str, body: ChipsIn, services: ServicesDep) -> dict[str, Any]:
    """Grant chips to a bankroll (amount > 0) or take them back (amount < 0), through the
    ledger with the host's reason. A take larger than the bankroll is refused."""
    if body.amount == 0:
        raise HTTPException(422, N_("amount must not be zero"))
    try:
        balance = await services.writer.run(
            store.grant_or_take, player_id, body.amount, body.reason
        )
    except InsufficientFunds:
        raise HTTPException(409, N_("the bankroll does not hold that many chips")) from None
    if balance is None:
        raise HTTPException(404, N_("no such player"))
    return {"player_id": player_id, "bankroll": balance}


@router.get("/tables", response_model=list[TableSummary])
async def tables(request: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """Every open table, private ones included, with invite links (and the seats leaving).
    Those served elsewhere too (every node's, in a cluster: app/runtime/hosting.py). Why a
    table is paused in the reader's language when the server gave the reason (one the host
    typed as it was typed)."""
    locale = request_locale(request)
    return [
        {**row, "pause_reason": localize(row["pause_reason"], locale)}
        if row.get("pause_reason")
        else row
        for row in services.lobby.host_rows()
    ]


@router.post("/tables/{table_id}/pause", response_model=TableSummary)
async def pause(
    table_id: str, services: ServicesDep, body: PauseIn | None = None
) -> dict[str, Any]:
    """Stop the table's clocks and actions; its players see that the host paused it, and why."""
    table = _table(services, table_id)
    body = body or PauseIn()
    await table.pause(body.reason or None)
    await _record(services, "pause_table", {"table_id": table_id}, body.reason or None)
    return table.summary()


@router.post("/tables/{table_id}/resume", response_model=TableSummary)
async def resume(table_id: str, services: ServicesDep) -> dict[str, Any]:
    table = _table(services, table_id)
    await table.resume()
    await _record(services, "resume_table", {"table_id": table_id})
    return table.summary()


@router.post("/tables/{table_id}/close", response_model=TableClosed)
async def close(
    table_id: str, services: ServicesDep, body: CloseIn | None = None
) -> dict[str, Any]:
    """Close the table for good: the hand in play is void, every stack goes home."""
    table = _table(services, table_id)
    body = body or CloseIn()
    await table.shutdown(body.reason, close_table=True)
    await _record(services, "close_table", {"table_id": table_id, "name": table.name}, body.reason)
    await services.lobby.bot_pool.bring_home()  # its bots' stacks, home to the bots' bank
    return {"table_id": table_id, "status": "closed"}


@router.get("/rooms", response_model=list[AdminRoom])
async def rooms(services: ServicesDep) -> list[dict[str, Any]]:
    """Every open room, oldest first: its host, the table it plays at now (with its link),
    how many tables it has played and who is seated now (docs/protocol/admin.md). A room's
    table served elsewhere is read from the host's list of tables (every node's)."""
    async with services.sessionmaker() as session:
        stored = sorted(await store.open_rooms(session), key=lambda r: (r.created_at, r.room_id))
    live = {row["table_id"]: row for row in services.lobby.host_rows()}
    out = []
    for room in stored:
        held = services.lobby.rooms.get(room.room_id)
        table_id = held.table_id if held is not None else room.current_table_id
        row = live.get(table_id or "")
        invite = f"?invite={room.invite_code}" if room.private and room.invite_code else ""
        table = None
        if row is not None:
            table = {
                "table_id": row["table_id"],
                "game": row["game"],
                "game_title": row["game_title"],
                "status": row["status"],
                "in_hand": row["in_hand"],
                "path": f"/tables/{row['table_id']}{invite}",
            }
        seats = row["seats"] if row is not None else []
        out.append(
            {
                "room_id": room.room_id,
                "name": room.name,
                "private": room.private,
                "url": f"/rooms/{room.room_id}{invite}",
                "host": _room_host(services, table_id, room),
                "opened": aware(room.created_at).isoformat(),
                "table": table,
                "tables_played": len(room.tables),
                "hands": sum(t["hands"] for t in room.tables),
                "seated": [
                    {k: seat[k] for k in ("seat", "player_id", "name", "bot")} for seat in seats
                ],
                "watching": row["spectators"] if row is not None else 0,
            }
        )
    return out


def _room_host(services: Services, table_id: str | None, room: StoredRoom) -> dict[str, Any]:
    """The room's host as its table says now (the role may be handed on at the table), else
    as the database does."""
    table = services.lobby.get(table_id or "")
    block = table.core.host_block() if table is not None and not table.closed else None
    if block is not None and block.get("name"):
        return block
    return {"player_id": room.host_id, "name": room.host_name}


@router.post("/rooms/{room_id}/close", response_model=RoomClosed)
async def close_room(
    room_id: str, services: ServicesDep, body: RoomCloseIn | None = None
) -> dict[str, Any]:
    """Close a room for good: the table it plays at closes as ``…/tables/{id}/close`` closes
    one (the hand in play void, every stack home), and the room with it (docs/rules.md
    §0.15). 404 for no such room, 409 for a room closed already, or one whose table another
    node serves (close that table: the room closes with it)."""
    body = body or RoomCloseIn()
    async with services.sessionmaker() as session:
        room = await store.load_room(session, room_id) if len(room_id) <= 40 else None
    if room is None:
        raise HTTPException(404, N_("no such room"))
    if room.status != "open":
        raise HTTPException(409, N_("the room is closed already"))
    held = services.lobby.rooms.get(room_id)
    table_id = held.table_id if held is not None else room.current_table_id
    here = table_id is not None and services.lobby.get(table_id) is not None
    if table_id and not here and await services.hosting.served_elsewhere(table_id):
        raise HTTPException(
            409,
            Text(
                N_(
                    "another node serves the room's table: close it there "
                    "(POST /api/admin/tables/{table_id}/close), the room closes with it"
                ),
                table_id=table_id,
            ),
        )
    closed = await services.lobby.rooms.close(room_id, body.reason, table_id)
    detail = {"room_id": room_id, "name": room.name, "table_id": closed}
    await _record(services, "close_room", detail, body.reason)
    await services.lobby.bot_pool.bring_home()  # its bots' stacks, home to the bots' bank
    return {"room_id": room_id, "status": "closed", "table_id": closed}


@router.delete("/tables/{table_id}/seats/{seat}", response_model=SeatRemoved)
async def remove_seat(table_id: str, seat: int, services: ServicesDep) -> dict[str, Any]:
    """Stand a player up (at the next moment the rules allow); the stack goes back to the
    bankroll."""
    table = _table(services, table_id)
    info = table.roster.get(seat)
    left = await table.request_leave(seat)
    if info is None or left is None:
        raise HTTPException(404, N_("nobody sits in that seat"))
    await _record(
        services, "remove_seat", {"table_id": table_id, "seat": seat, "player_id": info.player_id}
    )
    return {"seat": seat, "removed": left, "pending": not left}


@router.post("/tables/{table_id}/bots", status_code=201, response_model=BotAdded)
async def add_bot(
    table_id: str, services: ServicesDep, body: BotIn | None = None
) -> dict[str, Any]:
    """Seat a bot of the pool (in ``seat``, or the first free one, playing at ``level``),
    its buy-in from the bots' bank (409 when the bank cannot cover it: ``POST
    /api/admin/bots`` adds chips)."""
    table = _table(services, table_id)
    try:
        seat = await services.lobby.add_bot(
            table, body.seat if body else None, level=body.level if body else DEFAULT_LEVEL
        )
    except ValueError as err:
        raise HTTPException(409, said(err)) from None
    level = body.level if body else DEFAULT_LEVEL
    await _record(services, "add_bot", {"table_id": table_id, "seat": seat, "level": level})
    return {"seat": seat}


@router.delete("/tables/{table_id}/bots/{seat}", response_model=SeatRemoved)
async def remove_bot(table_id: str, seat: int, services: ServicesDep) -> dict[str, Any]:
    """Stand a bot up (at the next moment the rules allow), recorded as a host action; its
    stack goes home to the bots' bank."""
    left = await _table(services, table_id).remove_bot(seat)
    if left is None:
        raise HTTPException(404, N_("no bot in that seat"))
    if left:
        await services.lobby.bot_pool.bring_home()
    await _record(services, "remove_bot", {"table_id": table_id, "seat": seat})
    return {"seat": seat, "removed": left, "pending": not left}


@router.post("/tables/{table_id}/seed", response_model=Seeded)
async def seed_table(table_id: str, body: SeedIn, services: ServicesDep) -> dict[str, Any]:
    """Tests only (``ENVIRONMENT=test``): every later shuffle of this table draws its seed
    from a deterministic generator seeded by ``seed`` (app/games/cards.py ``seeded_source``),
    so a browser test deals the pair, the tie or the natural it needs instead of waiting
    for one; the table's bots choose from a generator seeded by it too. Anywhere else: 403,
    shuffles stay the CSPRNG's (docs/rules.md §0)."""
    if services.settings.environment != "test":
        raise HTTPException(
            403, N_("a table's shuffle seed can be fixed only on a test server (ENVIRONMENT=test)")
        )
    if len(body.seed) % 2:
        raise HTTPException(422, N_("seed must be whole bytes in hex (an even number of digits)"))
    table = _table(services, table_id)
    await table.fix_seed(bytes.fromhex(body.seed))
    await _record(services, "seed_table", {"table_id": table_id, "seed": body.seed.lower()})
    return {"table_id": table_id, "seed": body.seed.lower()}


@router.get("/settings", response_model=HostSettings)
async def get_settings(services: ServicesDep) -> dict[str, Any]:
    return {"starting_bankroll": services.starting_bankroll}


@router.put("/settings", response_model=HostSettings)
async def put_settings(body: SettingsIn, services: ServicesDep) -> dict[str, Any]:
    """Change the starting bankroll granted to each new player (kept across restarts)."""
    await services.writer.run(store.set_setting, "starting_bankroll", body.starting_bankroll)
    services.starting_bankroll = body.starting_bankroll
    await _record(services, "set_starting_bankroll", {"value": body.starting_bankroll})
    return {"starting_bankroll": body.starting_bankroll}


SERVER_NOTES = frozenset({BOTS_FLOAT_NOTE})
"""The host's log's notes the server writes itself (marked messages, worded for the reader)."""


@router.get("/actions", response_model=list[HostActionRow])
async def actions(request: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """Every host action, newest first; a note the server wrote (the bots' float) also in the
    reader's words (``note_words``), a note the host typed as typed."""
    locale = request_locale(request)
    async with services.sessionmaker() as session:
        rows = await host_lists.host_actions(session, 500)
    return [
        {
            "at": a.at.isoformat(),
            "action": a.action,
            "detail": a.detail,
            "note": a.note,
            "note_words": localize(a.note, locale) if a.note in SERVER_NOTES else a.note,
        }
        for a in rows
    ]
