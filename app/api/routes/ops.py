"""Operations: ``/healthz`` (process up, database reachable) and ``/metrics`` (Prometheus)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy import text

from app.api.deps import ServicesDep
from app.api.errors import ApiRoute
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


@router.get(
    "/healthz",
    response_model=Healthy,
    responses={
        200: {"model": Healthy, "description": "Up, and the database answers."},
        503: {"model": Unhealthy, "description": "The database did not answer within 3 s."},
    },
)
async def healthz(services: ServicesDep) -> dict[str, Any] | JSONResponse:
    """200 when the process is up and the database answers within 3 seconds, else 503."""
    try:
        async with asyncio.timeout(3), services.sessionmaker() as session:
            await session.execute(text("SELECT 1"))
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
    responses={200: {"content": {CONTENT_TYPE: {}}, "description": "Prometheus's text format."}},
)
async def metrics(services: ServicesDep) -> Response:
    """The server's counters and gauges, in Prometheus's text format, for Prometheus to scrape."""
    return Response(scrape(services.metrics), media_type=CONTENT_TYPE)
