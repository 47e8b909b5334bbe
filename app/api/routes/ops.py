"""Operations: ``/healthz`` (process up, database reachable) and ``/metrics`` (Prometheus,
the host's only: ``Authorization: Bearer <ADMIN_TOKEN>``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from app.api.deps import HostDep, ServicesDep
from app.api.errors import ApiRoute, errors
from app.db.ping import ping
from app.ops.exposition import CONTENT_TYPE, scrape

router = APIRouter(tags=["operations"], route_class=ApiRoute)


class Healthy(BaseModel):
    status: str
    database: str
    tables: int
    writer_pending: int


class Unhealthy(BaseModel):
    status: str
    database: str
    detail: str | None = None


@router.get(
    "/healthz",
    response_model=Healthy,
    responses={
        200: {"model": Healthy, "description": "Up, and the database answers."},
        503: {
            "model": Unhealthy,
            "description": "The database did not answer within 3 s, or cannot store now "
            "(the tables are stopped until it can).",
        },
    },
)
async def healthz(services: ServicesDep) -> dict[str, Any] | JSONResponse:
    """200 when the process is up, the database answers within 3 seconds and the last write
    was stored; 503 with the reason while the tables are stopped because the database could
    not store (app/runtime/storage.py) or does not answer."""
    guard = services.guard
    if not guard.ok:
        return JSONResponse(
            {"status": "unhealthy", "database": guard.reason, "detail": guard.detail}, 503
        )
    try:
        async with asyncio.timeout(3), services.sessionmaker() as session:
            await ping(session)
    except Exception as exc:
        return JSONResponse({"status": "unhealthy", "database": repr(exc)[:200]}, 503)
    return {
        "status": "ok",
        "database": "ok",
        "tables": len(services.lobby.tables),
        "writer_pending": services.writer.pending,
    }


@router.get(
    "/metrics",
    response_class=Response,
    dependencies=[HostDep],
    responses={
        200: {"content": {CONTENT_TYPE: {}}, "description": "Prometheus's text format."},
        **errors(403),
    },
)
async def metrics(services: ServicesDep) -> Response:
    """The server's counters and gauges, in Prometheus's text format, for Prometheus to
    scrape with the admin token (``Authorization: Bearer <ADMIN_TOKEN>``; 403 without it):
    they tell how busy the server is and why sockets were refused, which is the host's to
    know, not every visitor's."""
    return Response(scrape(services.metrics), media_type=CONTENT_TYPE)
