"""The caller's own blocks (docs/protocol/identity.md §4.3): list, block, unblock. A block is
for the caller only (app/runtime/blocks.py): the server sends them none of the blocked
person's chat messages and reactions; nobody else is affected or told."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import PlayerDep, ServicesDep
from app.api.errors import ApiRoute, RuleRefusal, errors
from app.api.schemas.blocks import Blocks
from app.db import store
from app.games.core.errors import ErrorCode
from app.i18n.messages import N_
from app.runtime.blocks import MAX_BLOCKS
from app.services import Services

router = APIRouter(
    prefix="/api/me",
    tags=["identity"],
    route_class=ApiRoute,
    responses=errors(401, 404, 409, 422),
)


async def _answer(services: Services, player_id: str) -> dict[str, Any]:
    """The caller's blocks as the database has them, also made this process's (its tables
    filter with them at once)."""
    async with services.sessionmaker() as session:
        blocked = await store.blocks_of(session, player_id)
    services.lobby.blocks.set(player_id, (b.player_id for b in blocked))
    return {
        "blocks": [{"player_id": b.player_id, "name": b.name} for b in blocked],
        "max": MAX_BLOCKS,
    }


@router.get("/blocks", response_model=Blocks)
async def my_blocks(player: PlayerDep, services: ServicesDep) -> Any:
    """The people the caller blocks, oldest block first."""
    return await _answer(services, player.id)


@router.put("/blocks/{player_id}", response_model=Blocks)
async def block(player_id: str, player: PlayerDep, services: ServicesDep) -> Any:
    """Block a person for yourself only (again: nothing changes). Refused: yourself
    (``not_allowed``, 409), a player that does not exist (``no_such_player``, 404), more than
    200 blocks (``too_many_blocks``, 409)."""
    if player_id == player.id:
        raise RuleRefusal(ErrorCode.NOT_ALLOWED, N_("you cannot block yourself"))
    if len(player_id) > 32:
        raise RuleRefusal(ErrorCode.NO_SUCH_PLAYER, N_("there is no player with that id"))
    try:
        await services.writer.run(store.block, player.id, player_id, MAX_BLOCKS)
    except store.BlockRefused as refused:
        raise RuleRefusal(ErrorCode(refused.reason), refused.message) from None
    return await _answer(services, player.id)


@router.delete("/blocks/{player_id}", response_model=Blocks)
async def unblock(player_id: str, player: PlayerDep, services: ServicesDep) -> Any:
    """Unblock a person (not blocked: nothing changes)."""
    if len(player_id) <= 32:
        await services.writer.run(store.unblock, player.id, player_id)
    return await _answer(services, player.id)
