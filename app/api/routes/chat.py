"""A table's chat over REST (docs/protocol/rest.md §4.5): read what it keeps, and moderate
it, as the table's opener or the host. The socket's ``mute``, ``unmute`` and ``remove_chat``
(docs/protocol/socket.md §5.9) do the same for the opener; the host moderates here."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import OptionalPlayerDep, ServicesDep, is_host
from app.api.errors import ApiRoute, RuleRefusal, errors
from app.api.routes.tables import _opener_or_host, _table
from app.api.schemas.chat import ChatKept, ChatRemoved, MuteIn, Mutes
from app.runtime.protocol import ProtocolError
from app.runtime.table.core import HOST

router = APIRouter(
    prefix="/api/tables",
    tags=["tables"],
    route_class=ApiRoute,
    responses=errors(401, 403, 404, 409, 422),
)


def _refused(err: ProtocolError) -> RuleRefusal:
    """A chat refusal over REST: 404 for a message or table that is gone, 409 for a person
    the table does not know or muting oneself, with the socket's code."""
    return RuleRefusal(err.code, err.message)


@router.get("/{table_id}/chat", response_model=ChatKept)
async def get_chat(
    table_id: str, request: Request, viewer: OptionalPlayerDep, services: ServicesDep
) -> dict[str, Any]:
    """The table's kept chat: its last 100 messages (oldest first), who is muted, the
    reactions, and whether the caller may moderate (its opener, the host)."""
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    kept = table.chat_history(player_id)
    kept["can_moderate"] = kept["can_moderate"] or is_host(request, services)
    del kept["type"]
    return kept


@router.post("/{table_id}/chat/mutes", response_model=Mutes)
async def mute(
    table_id: str,
    body: MuteIn,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Mute a person at this table (the opener or the host): their chat and reactions are
    refused with ``muted`` until unmuted; the mute is kept across restarts."""
    player_id = viewer.id if viewer else None
    table = _table(services, table_id, request, player_id)
    _opener_or_host(table, request, services, player_id)
    by = HOST if is_host(request, services) else player_id
    try:
        return {"muted": table.set_muted(body.player_id, muted=True, by=by)}
    except ProtocolError as err:
        raise _refused(err) from None


@router.delete("/{table_id}/chat/mutes/{player_id}", response_model=Mutes)
async def unmute(
    table_id: str,
    player_id: str,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Unmute a person at this table (the opener or the host); unmuting someone who is not
    muted changes nothing."""
    caller = viewer.id if viewer else None
    table = _table(services, table_id, request, caller)
    _opener_or_host(table, request, services, caller)
    try:
        return {"muted": table.set_muted(player_id, muted=False, by=caller)}
    except ProtocolError as err:
        raise _refused(err) from None


@router.delete("/{table_id}/chat/messages/{message_id}", response_model=ChatRemoved)
async def remove_message(
    table_id: str,
    message_id: int,
    request: Request,
    viewer: OptionalPlayerDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Remove a chat message (the opener or the host): everyone at the table is told, and
    no client receives it again."""
    caller = viewer.id if viewer else None
    table = _table(services, table_id, request, caller)
    _opener_or_host(table, request, services, caller)
    try:
        table.remove_chat(message_id)
    except ProtocolError as err:
        raise _refused(err) from None
    return {"id": message_id, "removed": True}
