"""The browser's pages: the lobby and a table (Jinja2; the client is static JS)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.api.deps import ServicesDep, SessionDep, optional_player
from app.api.routes.games import games_listing

ROOT = Path(__file__).resolve().parents[3]
templates = Jinja2Templates(directory=str(ROOT / "templates"))

router = APIRouter(tags=["pages"], include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, services: ServicesDep) -> HTMLResponse:
    return templates.TemplateResponse(
        request,
        "lobby.html",
        {
            "games": games_listing(services.settings.game_ids),
            "join_code_required": bool(services.settings.join_code),
        },
    )


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(
    table_id: str, request: Request, services: ServicesDep, session: SessionDep
) -> HTMLResponse:
    table = services.lobby.get(table_id)
    viewer = await optional_player(request, session)
    if (
        table is None
        or table.closed
        or not table.may_enter(viewer.id if viewer else None, request.query_params.get("invite"))
    ):
        raise HTTPException(404, "no such table (a private table needs its invite link)")
    return templates.TemplateResponse(
        request,
        "table.html",
        {"table": table.summary(), "join_code_required": bool(services.settings.join_code)},
    )
