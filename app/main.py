"""Builds the FastAPI app: routes, static files, and the services' start and stop (its
lifespan)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute

from app.api import ws
from app.api.deps import COOKIE
from app.api.errors import (
    RuleRefusal,
    http_error_response,
    refusal_schemas,
    rule_refusal_response,
)
from app.api.middleware import (
    BodyLimit,
    CookieWritesNeedOrigin,
    ErrorsAsJson,
    JsonBodiesOnly,
    SecurityHeaders,
)
from app.api.routes import (
    admin,
    admin_page,
    blocks,
    chat,
    cluster,
    games,
    hands,
    i18n,
    ops,
    pages,
    review,
    rooms,
    rules_pages,
    session,
    tables,
)
from app.core.config import Settings, get_settings
from app.games.core.cards import SeedSource, csprng_seed
from app.server import served_process
from app.services import Services

ROOT = Path(__file__).resolve().parents[1]


ROUTERS = (
    session.router,
    blocks.router,
    games.router,
    tables.router,
    rooms.router,
    rooms.pages,
    chat.router,
    hands.router,
    admin.router,
    admin_page.router,
    ops.router,
    cluster.router,
    pages.router,
    i18n.router,
    rules_pages.router,
    review.router,
)


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """``/openapi.json``: FastAPI's document, with the schemas its refusals refer to
    (app/api/errors.py, :func:`~app.api.errors.refusal`), made once."""
    document = app.openapi_schema
    if document is None:
        document = FastAPI.openapi(app)  # which keeps it as app.openapi_schema
        schemas = {**document.get("components", {}).get("schemas", {}), **refusal_schemas()}
        document.setdefault("components", {})["schemas"] = dict(sorted(schemas.items()))
    return document


@functools.cache
def _included_routes() -> tuple[BaseRoute, ...]:
    """The routers included once for every app this process makes. FastAPI builds an
    included router's routes (every endpoint's models) again for each include, on its first
    request: ~0.14 s of CPU an app, and the test suite starts hundreds. Nothing in them is an
    app's own (its state comes with each request; no app overrides a dependency), so one
    include serves them all."""
    holder = APIRouter()
    for router in ROUTERS:
        holder.include_router(router)
    return tuple(holder.routes)


def create_app(
    settings: Settings | None = None, seeds: SeedSource = csprng_seed, *, served: bool = False
) -> FastAPI:
    """The app, with its services built from ``settings`` (the environment by default).
    ``served``: the app of ``python -m app serve``, whose lifespan also tunes the process and
    drains the lobby on a stop signal (app/server.py, :func:`served_process`)."""
    settings = settings or get_settings()
    services = Services.build(settings, seeds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await services.start()  # the tables recovered
        try:
            if served:
                async with served_process(services.drain):
                    yield
            else:
                yield
        finally:
            await services.stop()

    app = FastAPI(title="Table 31", version="0.1.0", lifespan=lifespan)
    app.openapi = functools.partial(openapi_document, app)  # type: ignore[method-assign]
    app.state.services = services
    app.router.routes.extend(_included_routes())
    # The table socket on the app itself, not through an included router: each of thousands
    # of sockets would keep that router's extra frame and scope copy for its whole life
    # (~1 KiB a socket, docs/performance.md).
    app.add_api_websocket_route("/ws/tables/{table_id}", ws.table_socket)
    app.add_exception_handler(RuleRefusal, rule_refusal_response)
    # every other refusal's words in the reader's language (app/i18n/messages.py)
    app.add_exception_handler(StarletteHTTPException, http_error_response)
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    # What every request passes through first (app/api/middleware.py); the last added runs
    # first: the security headers on every answer, any error as JSON, then a body too
    # large, a cross-site write, a body that is not JSON; then, innermost, what the
    # hosting adds (a node's: a table's requests answered by the node that serves it).
    services.hosting.install(app, services.metrics)
    app.add_middleware(
        CookieWritesNeedOrigin, cookie=COOKIE, trust_proxy=settings.trust_proxy_headers
    )
    app.add_middleware(JsonBodiesOnly)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(ErrorsAsJson)
    app.add_middleware(SecurityHeaders, trust_proxy=settings.trust_proxy_headers)
    return app
