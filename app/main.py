"""Builds the FastAPI app: routes, static files, and the services' start and stop."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.api import ws
from app.api.routes import admin, admin_page, games, hands, ops, pages, review, session, tables
from app.core.config import Settings, get_settings
from app.games.cards import SeedSource, csprng_seed
from app.services import Services

ROOT = Path(__file__).resolve().parents[1]


def create_app(settings: Settings | None = None, seeds: SeedSource = csprng_seed) -> FastAPI:
    """The app, with its services built from ``settings`` (the environment by default)."""
    settings = settings or get_settings()
    services = Services.build(settings, seeds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await services.start()
        try:
            yield
        finally:
            await services.stop()

    app = FastAPI(title="Table 31", version="0.1.0", lifespan=lifespan)
    app.state.services = services
    for router in (
        session.router,
        games.router,
        tables.router,
        hands.router,
        admin.router,
        admin_page.router,
        ops.router,
        pages.router,
        review.router,
    ):
        app.include_router(router)
    # The table socket on the app itself, not through an included router: each of thousands
    # of sockets would keep that router's extra frame and scope copy for its whole life
    # (~1 KiB a socket, docs/performance.md).
    app.add_api_websocket_route("/ws/tables/{table_id}", ws.table_socket)
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    return app
