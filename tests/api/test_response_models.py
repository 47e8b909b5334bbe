"""Every JSON route of the REST API declares the model of its answer, so the OpenAPI
document (``/openapi.json``) is the REST reference; only the HTML pages, the table socket and
the routes that answer a file or Prometheus's text (their media type stated) have none."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
from fastapi import APIRouter, FastAPI
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, APIWebSocketRoute
from pydantic import BaseModel, TypeAdapter
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount

from app.api.errors import ApiRoute, Error, ValidationFailed
from app.api.schemas.tables import SeatSummary
from app.main import create_app
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.review.live_play import play

APP = create_app(make_settings("sqlite+aiosqlite:///:memory:"))
DOCUMENT = APP.openapi()


def routes(found: list[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route of the app, those of included routers too."""
    for route in found:
        included = getattr(route, "original_router", None)  # FastAPI's included router
        if included is not None:
            yield from routes(included.routes)
        else:
            yield route


def answers_itself(route: APIRoute) -> bool:
    """A page or a file: the route states a response class other than JSON's."""
    kind = route.response_class
    return (
        isinstance(kind, type) and issubclass(kind, Response) and not issubclass(kind, JSONResponse)
    )


API = [r for r in routes(APP.routes) if isinstance(r, APIRoute)]
JSON_ROUTES = [r for r in API if r.include_in_schema and not answers_itself(r)]


def test_the_walk_finds_every_kind_of_route() -> None:
    everything = list(routes(APP.routes))
    assert len(JSON_ROUTES) > 35
    assert any(isinstance(r, APIWebSocketRoute) for r in everything)  # the table socket
    assert any(isinstance(r, Mount) for r in everything)  # /static
    assert any(not r.include_in_schema for r in API)  # the pages
    assert {r.path for r in API if answers_itself(r)} >= {
        "/metrics",
        "/api/hands/{hand_id}/export",
        "/api/tables/{table_id}/ledger.csv",
    }


def test_every_json_route_declares_a_response_model() -> None:
    missing = [f"{sorted(r.methods)} {r.path}" for r in JSON_ROUTES if r.response_model is None]
    assert not missing, missing
    loose = [
        f"{sorted(r.methods)} {r.path}"
        for r in JSON_ROUTES
        if r.response_model in (dict, list) or "Any" in repr(r.response_model)
    ]
    assert not loose, loose


def success(operation: dict[str, Any]) -> dict[str, Any]:
    code = next(c for c in operation["responses"] if c.startswith("2"))
    return dict(operation["responses"][code])


def test_the_document_gives_every_answer_a_schema() -> None:
    """Each operation's success has a schema naming its fields (a model's), or states the
    media type of the file it answers."""
    for path, operations in DOCUMENT["paths"].items():
        for verb, operation in operations.items():
            content = success(operation).get("content", {})
            assert content, (verb, path)
            for media, body in content.items():
                schema = body.get("schema", {})
                if media == "application/json":
                    assert schema.get("$ref") or schema.get("items") or schema.get("type"), (
                        verb,
                        path,
                        schema,
                    )


def references(node: object) -> Iterator[str]:
    """Every ``$ref`` in a part of the document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def test_every_refusal_refers_to_its_schema_as_fastapi_writes_it() -> None:
    """The routes' refusals refer to Error's and ValidationFailed's schemas rather than name
    them as models (app/api/errors.py, :func:`~app.api.errors.refusal`): every reference
    points into the document, and those schemas are what FastAPI writes for the models."""
    schemas = DOCUMENT["components"]["schemas"]
    named = set(references(DOCUMENT))
    assert "#/components/schemas/Error" in named
    assert "#/components/schemas/ValidationFailed" in named
    assert {ref.removeprefix("#/components/schemas/") for ref in named} <= set(schemas)
    as_models = FastAPI()
    as_models.get("/", responses={404: {"model": Error}, 422: {"model": ValidationFailed}})(
        lambda: None
    )
    fastapis = as_models.openapi()["components"]["schemas"]
    for name in ("Error", "ValidationFailed", "Problem", "ErrorCode"):
        assert schemas[name] == fastapis[name], name
        assert list(schemas[name]) == list(fastapis[name]), name  # in its order too


async def test_an_answer_keeps_exactly_the_keys_the_route_set() -> None:
    """A model documents an answer without changing it: its defaults are not added (a
    public table has no ``invite_code`` key, not ``null``), a key it does not name is kept,
    a number stays the number it was."""
    router = APIRouter(route_class=ApiRoute)
    answer = {"seat": 2, "player_id": "p1", "name": "Ann", "bot": False, "new_key": [1.5, 2]}

    @router.get("/seat", response_model=SeatSummary)
    async def seat() -> dict[str, Any]:
        return dict(answer)

    app = FastAPI()
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(timeout=30, transport=transport, base_url="http://t") as client:
        assert (await client.get("/seat")).json() == answer


def unnamed(value: Any, where: str = "") -> list[str]:
    """The keys of an answer read through its model that the model does not name."""
    if isinstance(value, BaseModel):
        found = [f"{where}.{key}" for key in value.model_extra or {}]
        for name in type(value).model_fields:
            found += unnamed(getattr(value, name), f"{where}.{name}")
        return found
    if isinstance(value, list):
        return [key for item in value for key in unnamed(item, f"{where}[]")]
    return []


async def test_real_answers_name_no_key_outside_their_models(live: LiveServer) -> None:
    """The models are the whole reference: a played table's answers, as a player and as
    the host, carry no key their model leaves out."""
    table_id, people, _ = await play(live, "trianta-ena", hands=1, players=2)
    player = people[0]  # its client is closed: the same player on a new one
    me = Player(live.base_url, live.ws_url, player.name, player.token, player.info)
    host = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    hands = (await me.http.get("/api/hands")).json()["hands"]
    hand_id = hands[0]["hand_id"]
    asked = {
        "/api/me": {},
        "/api/me/devices": {},
        "/api/games": {},
        "/api/tables": {},
        f"/api/tables/{table_id}": {},
        "/api/hands": {},
        f"/api/hands/{hand_id}": {},
        f"/api/hands/{hand_id}/replay": {},
        f"/api/hands/{hand_id}/verify": {},
        f"/api/tables/{table_id}/hands": {},
        f"/api/tables/{table_id}/ledger": {},
        f"/api/players/{me.player_id}": {},
        f"/api/players/{me.player_id}/hands": {},
        "/api/admin/audit": host,
        "/api/admin/recovery": host,
        "/api/admin/players": host,
        "/api/admin/tables": host,
        "/api/admin/settings": host,
        "/api/admin/actions": host,
        "/healthz": {},
    }
    by_path = {r.path: r for r in JSON_ROUTES if "GET" in r.methods}
    for path, headers in asked.items():
        response = await me.http.get(path, headers=headers)
        assert response.status_code == 200, (path, response.text)
        route = next(r for p, r in by_path.items() if r.path_regex.match(path))
        body = TypeAdapter(route.response_model).validate_python(response.json())
        assert unnamed(body) == [], (path, unnamed(body))
    await me.close()
