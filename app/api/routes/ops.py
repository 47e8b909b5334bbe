"""Operations: ``/healthz`` (process up, database reachable) and ``/metrics`` (Prometheus)."""

from __future__ import annotations

import asyncio
from collections import Counter

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse
from sqlalchemy import text

from app.api.deps import ServicesDep
from app.ops import collector, memory

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=None)
async def healthz(services: ServicesDep) -> JSONResponse:
    """200 when the process is up and the database answers within 3 seconds, else 503."""
    try:
        async with asyncio.timeout(3), services.sessionmaker() as session:
            await session.execute(text("SELECT 1"))
    except Exception as exc:
        return JSONResponse({"status": "unhealthy", "database": repr(exc)[:200]}, 503)
    return JSONResponse(
        {
            "status": "ok",
            "database": "ok",
            "tables": len(services.lobby.tables),
            "writer_pending": services.writer.pending,
        }
    )


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(services: ServicesDep) -> PlainTextResponse:
    lobby = services.lobby
    tables = Counter(t.game_cls.id for t in lobby.tables.values() if not t.closed)
    body = lobby.metrics.render(
        connections=sum(len(t.connections) for t in lobby.tables.values()),
        tables=dict(tables),
        writer_pending=services.writer.pending,
        writer_failures=services.writer.failures,
    )
    body += "\n".join(collector.PAUSES.lines()) + "\n"
    body += "\n".join(collector.COLLECTOR.lines()) + "\n"
    body += "\n".join(memory.TRIMMER.lines()) + "\n"
    return PlainTextResponse(body, media_type="text/plain; version=0.0.4")
