"""Identity: ``POST /api/session`` and ``GET /api/me`` (PROTOCOL.md, "Identity")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from app import ledger
from app.api.deps import (
    COOKIE,
    OptionalPlayerDep,
    PlayerDep,
    ServicesDep,
    SessionDep,
    request_token,
)
from app.api.schemas import SessionIn
from app.core.security import same_secret
from app.db.models import Player
from app.runtime import store

router = APIRouter(prefix="/api", tags=["identity"])


async def player_json(session: Any, player: Player, token: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player_id": player.id,
        "name": player.name,
        "bankroll": await ledger.balance(session, ledger.bankroll(player.id)),
    }
    if token is not None:
        out["token"] = token
    return out


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    """This device's session: an httponly cookie holding the token, for a year."""
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        max_age=365 * 24 * 3600,
        secure=request.url.scheme == "https",
    )


@router.post("/session")
async def open_session(
    body: SessionIn,
    request: Request,
    response: Response,
    services: ServicesDep,
    session: SessionDep,
    existing: OptionalPlayerDep,
) -> dict[str, Any]:
    """Create a player (granting the starting bankroll), or return the cookie's player."""
    settings = services.settings
    if existing is not None:
        token = request_token(request) or ""
        return await player_json(session, existing, token)
    if settings.join_code and not same_secret(body.join_code or "", settings.join_code):
        raise HTTPException(403, "this server needs its join code")
    player, token = await services.writer.run(
        store.create_player, body.name, bankroll=services.starting_bankroll
    )
    set_session_cookie(request, response, token)
    return await player_json(session, player, token)


@router.get("/me")
async def me(player: PlayerDep, session: SessionDep) -> dict[str, Any]:
    return await player_json(session, player)


class RecoverIn(BaseModel):
    code: str = Field(min_length=1, max_length=200)


@router.post("/me/recovery")
async def make_recovery_code(player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """A personal recovery code and link: open the link on another device to be the same
    player there. Making a new one retires the old one."""
    player_id = player.id  # plain data for the writer's thread, not the request's ORM object
    code = await services.writer.run(store.new_recovery_code, player_id)
    return {"code": code, "link": f"/recover?code={code}"}


@router.post("/session/recover")
async def recover(
    body: RecoverIn,
    request: Request,
    response: Response,
    services: ServicesDep,
    session: SessionDep,
) -> dict[str, Any]:
    """Redeem a recovery code on this device: sets this device's cookie."""
    found = await services.writer.run(store.redeem_recovery_code, body.code)
    if found is None:
        raise HTTPException(404, "that recovery code is not valid (it may have been replaced)")
    player, token = found
    set_session_cookie(request, response, token)
    return await player_json(session, player, token)
