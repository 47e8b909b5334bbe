"""What routes are injected with: the services, a database session, the caller."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, WebSocket
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.security import same_secret
from app.db.models import Player
from app.runtime import store
from app.services import Services

COOKIE = "t31_token"


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


async def optional_player(request: Request, session: SessionDep) -> Player | None:
    """The caller, by Bearer token or cookie. The lookup's transaction is ended at once, so
    the request does not hold a pooled connection while it waits for the writer (which
    needs one from the same pool)."""
    token = request_token(request)
    player = await store.player_by_token(session, token) if token else None
    await session.commit()
    return player


async def current_player(request: Request, session: SessionDep) -> Player:
    player = await optional_player(request, session)
    if player is None:
        raise HTTPException(401, "sign in first: POST /api/session with your name")
    return player


PlayerDep = Annotated[Player, Depends(current_player)]
OptionalPlayerDep = Annotated[Player | None, Depends(optional_player)]


def is_host(request: Request, services: Services) -> bool:
    token = bearer(request) or request.query_params.get("admin_token") or ""
    return bool(token) and same_secret(token, services.admin_token)


def require_host(request: Request, services: ServicesDep) -> None:
    if not is_host(request, services):
        raise HTTPException(403, "host only: send the admin token as 'Authorization: Bearer …'")


HostDep = Depends(require_host)
