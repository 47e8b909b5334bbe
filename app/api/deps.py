"""What routes are injected with: the services, a database session, the caller."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, WebSocket

from app.core.security import same_secret
from app.db import devices
from app.db.models import Player
from app.db.types import AsyncSession
from app.i18n.messages import N_
from app.services import Services

COOKIE = "t31_token"
SIGN_IN_FIRST = N_("sign in first: POST /api/session with your name")


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def get_session(services: ServicesDep) -> AsyncIterator[AsyncSession]:
    async with services.sessionmaker() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]


def bearer(request: Request | WebSocket) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


def request_token(request: Request) -> str | None:
    return bearer(request) or request.cookies.get(COOKIE)


async def signed_in(request: Request, session: AsyncSession) -> devices.SignedIn | None:
    """The caller's player and device, by Bearer token or cookie; None for no token, or one
    that expired or was signed out. Looked up once a request (kept on ``request.state``).
    The lookup's transaction is ended at once, so the request does not hold a pooled
    connection while it waits for the writer (which needs one from the same pool). A device
    whose last use is over an hour old has it written again, by the writer, without waiting:
    its token lives ``TOKEN_DAYS`` from now (app/db/devices.py)."""
    if hasattr(request.state, "signed_in"):
        cached: devices.SignedIn | None = request.state.signed_in
        return cached
    token = request_token(request)
    found = await devices.device_by_token(session, token) if token else None
    await session.commit()
    if found is not None and found.due_for_touch:
        services: Services = request.app.state.services
        services.writer.submit(devices.touch_device, found.device_id, services.settings.token_days)
    request.state.signed_in = found
    return found


async def optional_player(request: Request, session: SessionDep) -> Player | None:
    """The caller, by Bearer token or cookie (see :func:`signed_in`)."""
    found = await signed_in(request, session)
    return None if found is None else found.player


async def current_player(request: Request, session: SessionDep) -> Player:
    player = await optional_player(request, session)
    if player is None:
        raise HTTPException(401, SIGN_IN_FIRST)
    return player


PlayerDep = Annotated[Player, Depends(current_player)]
OptionalPlayerDep = Annotated[Player | None, Depends(optional_player)]


def is_host(request: Request, services: Services) -> bool:
    token = bearer(request) or request.query_params.get("admin_token") or ""
    return bool(token) and same_secret(token, services.admin_token)


def require_host(request: Request, services: ServicesDep) -> None:
    if not is_host(request, services):
        raise HTTPException(403, N_("host only: send the admin token as 'Authorization: Bearer …'"))


HostDep = Depends(require_host)
