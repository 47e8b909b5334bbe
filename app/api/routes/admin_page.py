"""The host's page (``/admin``) and the page that redeems a recovery link (``/recover``).

Both pages are static shells: the host's page asks for the admin token in the browser and then
uses the host API (``app/api/routes/admin.py``); the recovery page posts the link's code to
``POST /api/session/recover``. Neither page holds a secret, so neither needs one to be served.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.api.errors import ApiRoute
from app.api.routes.pages import templates

router = APIRouter(tags=["pages"], include_in_schema=False, route_class=ApiRoute)

NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
"""The recovery code rides in the address: keep it out of caches and Referer headers."""


@router.get("/admin", response_class=HTMLResponse)
async def admin_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "admin.html", {}, headers=NO_STORE)


@router.get("/recover", response_class=HTMLResponse)
async def recover_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "recover.html", {}, headers=NO_STORE)
