"""``GET /api/cluster/route``: which node serves a table, for the front (nginx's
``auth_request`` before it proxies a table socket; docs/protocol/cluster.md)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel

from app.api.deps import ServicesDep
from app.api.errors import ApiRoute

router = APIRouter(tags=["operations"], route_class=ApiRoute)

NODE_HEADER = "X-Table31-Node"


class NodeRoute(BaseModel):
    node: str
    """The address (host:port) of the node that serves the table, as in the header."""


@router.get(
    "/api/cluster/route",
    response_model=NodeRoute,
    responses={
        200: {
            "description": "The header X-Table31-Node (and ``node``) names the address "
            "(host:port) of the node serving the table: its live owner, else the node that "
            "answers (whose socket then closes with 4409: ask again). A server on its own "
            "names itself."
        }
    },
)
async def route(
    services: ServicesDep, response: Response, table: str = Query(max_length=64)
) -> dict[str, str]:
    """The address of the node that serves ``table``, in the header ``X-Table31-Node``."""
    address = await services.hosting.route(table)
    response.headers[NODE_HEADER] = address
    return {"node": address}
