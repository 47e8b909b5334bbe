"""The REST API's refusals as its OpenAPI document states them (docs/protocol.md §4.1), and
the one refusal every route makes before its code runs.

Every refused request answers a 4xx status with a JSON body ``{"detail": ...}``; a refusal
by the table's rules (a seat that is not sitting out, a chat message that is gone) adds the
``code`` the socket would send for it (:class:`RuleRefusal`: one set of codes, the
:class:`~app.games.core.errors.ErrorCode` of the engines and the socket). Each router
lists the statuses its own routes answer with :func:`errors` (``APIRouter(responses=...)``)
and takes :class:`ApiRoute` as its ``route_class``, which adds what every request may meet
before a route sees it (app/api/middleware.py): a body too large (413) and, on a write, a
cross-site write signed in by the cookie alone (403) or a body that is not JSON (415). So
``/openapi.json`` documents every answer a client can get, and the REST fuzzing
(``tests/fuzz/test_openapi_fuzz.py``) holds the app to it. Routes that answer a file
(CSV, SVG, JSON lines) state their media type with :func:`file_response`.

:class:`ApiRoute` also refuses a request whose path, query or JSON body holds the NUL
character (U+0000) with 422, before the route's code runs: PostgreSQL's text cannot hold it,
so an id like ``%00`` made the database fail (500) wherever it reached a query, and so did a
host's ``reason`` when it was stored, where on SQLite the one was merely not found and the
other stored.

It also refuses, with 422 and in words, a JSON body holding a number JSON cannot carry:
``NaN``, ``Infinity``, ``-Infinity`` (not JSON at all, though Python's parser reads them)
or one too large for a double (``1e400``, read as infinity). And a request that does not
validate is answered without the values it held (each problem's ``loc``, ``msg`` and
``type`` only, :func:`problems`): FastAPI's own answer echoed each value as ``input``, and an
infinite one cannot be written as JSON, so such a body answered 500 with a traceback. Each
problem's ``msg`` is worded in the reader's language (app/api/validation_words.py; English
as Pydantic words it), its ``loc`` and ``type`` as they are.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from fastapi import HTTPException
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.constants import REF_TEMPLATE
from fastapi.openapi.models import Schema
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.utils import is_body_allowed_for_status_code
from pydantic import BaseModel, Field
from pydantic.json_schema import models_json_schema
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import Response

from app.api.locale import request_locale
from app.api.validation_words import problem_words
from app.games.core.errors import ErrorCode
from app.i18n.locales import DEFAULT
from app.i18n.messages import N_, localize
from app.runtime.rule_words import worded


class Error(BaseModel):
    """A refused request: ``detail`` says why, in words for people; a refusal by the table's
    rules also names its ``code``, as the socket does (docs/protocol.md §5.5)."""

    detail: str = Field(examples=["no such table"])
    code: ErrorCode | None = None


STATUS_OF: dict[ErrorCode, int] = {
    ErrorCode.NO_SUCH_TABLE: 404,
    ErrorCode.NO_SUCH_MESSAGE: 404,
    ErrorCode.NO_SUCH_PLAYER: 404,
    ErrorCode.TABLE_CLOSED: 404,
    ErrorCode.UNAUTHORIZED: 401,
}
"""The HTTP status of a rule's refusal by its code; any other code is a conflict (409)."""


class RuleRefusal(HTTPException):
    """A table's refusal (a :class:`~app.runtime.protocol.ProtocolError` or an engine's
    rule error: anything with a ``code`` and a ``message``) answered over REST: its status
    from :data:`STATUS_OF`, its words as ``detail`` (an engine's English through
    :func:`~app.runtime.rule_words.worded`) and its ``code``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(STATUS_OF.get(code, 409), worded(message))
        self.code = ErrorCode(code)


async def rule_refusal_response(request: Request, exc: Exception) -> JSONResponse:
    """The body of a :class:`RuleRefusal`: ``{"detail": ..., "code": ...}``, the detail in
    the reader's language (the code in none)."""
    assert isinstance(exc, RuleRefusal)
    detail = localize(exc.detail, request_locale(request))
    return JSONResponse({"detail": detail, "code": exc.code}, status_code=exc.status_code)


async def http_error_response(request: Request, exc: Exception) -> Response:
    """Any other refusal (``HTTPException``), as FastAPI answers it (``{"detail": ...}``,
    its headers), its detail in the reader's language (app/i18n/messages.py)."""
    assert isinstance(exc, StarletteHTTPException)
    headers = getattr(exc, "headers", None)
    if not is_body_allowed_for_status_code(exc.status_code):
        return Response(status_code=exc.status_code, headers=headers)
    detail = localize(exc.detail, request_locale(request))
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=headers)


class Problem(BaseModel):
    """One problem with a request's body, query or path (FastAPI's validation item)."""

    loc: list[str | int]
    msg: str
    type: str


class ValidationFailed(BaseModel):
    """A 422: ``detail`` lists the problems (``loc`` names the place, ``msg`` the problem),
    or is one sentence for a value that is well formed but unusable (a bad ``before``
    cursor, a zero chip grant, an unknown time zone). Opening a table adds ``field`` and
    ``message``: the first problem's dotted field and its message."""

    detail: list[Problem] | str
    field: str | None = None
    message: str | None = None


WHEN: dict[int, str] = {
    400: "The body cannot be read as JSON text (it is not UTF-8).",
    401: "Signed out: the route needs a player token (`POST /api/session`).",
    403: "Not allowed: host only, a join code is needed, not the table's opener, a hand or "
    "ledger not shared with the caller, or a write signed in by the cookie from another site.",
    404: "No such player, table, hand or bot; a private table without its invite; a hand "
    "still being played.",
    409: "The request conflicts with the state: a name or a seat taken, a bankroll that "
    "cannot pay, a void hand that cannot be replayed.",
    413: "The request's body is larger than the server takes (MAX_BODY_BYTES).",
    415: "A write's body is not JSON (send 'Content-Type: application/json').",
    422: "The body, query or path does not validate.",
    429: "Too many requests from this address: wait and try again.",
    503: "Busy for now: too many readers wait for a hand's analysis to be computed; try "
    "again after the seconds Retry-After gives.",
}


REFUSALS = (Error, ValidationFailed)
"""The bodies of the refusals: their schemas are the document's once (:func:`refusal_schemas`)."""


def refusal(model: type[BaseModel], description: str) -> dict[str, Any]:
    """One refusal in a route's OpenAPI ``responses``: its description, and its body's schema
    as a reference to ``model``'s, one of :data:`REFUSALS`.

    Not as the entry's ``model``: for each model named so, FastAPI builds a validator and a
    serializer, for every route, and again for every route when the app serves its first
    requests; the routes list some 450 refusals, and those builds were a tenth of the CPU
    of a server's start. The document is the same (tests/api/test_response_models.py)."""
    assert model in REFUSALS, model
    schema = {"$ref": REF_TEMPLATE.format(model=model.__name__)}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` for these refusals, each with its body's schema."""
    return {
        status: refusal(ValidationFailed if status == 422 else Error, WHEN[status])
        for status in statuses
    }


def refusal_schemas() -> dict[str, Any]:
    """The schemas of :data:`REFUSALS` (and of what they hold), written as FastAPI writes
    those of the models it is given (fastapi/openapi/utils.py): a description ends at a form
    feed, and each is read as OpenAPI's schema then written without its nulls. What the
    refusals' references point at."""
    _, document = models_json_schema(
        [(model, "serialization") for model in REFUSALS], ref_template=REF_TEMPLATE
    )
    schemas: dict[str, Any] = {}
    for name, schema in document["$defs"].items():
        if "description" in schema:
            schema["description"] = schema["description"].split("\f")[0]
        schemas[name] = jsonable_encoder(Schema(**schema), by_alias=True, exclude_none=True)
    return schemas


WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


NUL = "\x00"
NUL_IN_JSON = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
"""U+0000 in a JSON text: the escape ``\\u0000`` after an even run of backslashes (a raw NUL
byte is not JSON at all, and FastAPI refuses it as such)."""
NUL_REFUSED = N_("text must not contain the invisible NUL character (U+0000)")


def holds_nul(request: Request) -> bool:
    """A path parameter or a query parameter (name or value) holding U+0000."""
    return any(NUL in value for value in request.path_params.values()) or any(
        NUL in key or NUL in value for key, value in request.query_params.multi_items()
    )


async def body_holds_nul(request: Request) -> bool:
    """The request's JSON body holds U+0000 in a string (read once: the route reads the
    same bytes again from the request)."""
    try:
        body = await request.body()
    except HTTPException:
        raise  # the body limit's 413
    except Exception:
        return False  # the route reads the body again, meets the same and answers 400
    return NUL_IN_JSON.search(body) is not None


NON_FINITE_REFUSED = N_(
    "numbers must be finite: NaN, Infinity and numbers too large for a double (like 1e400) "
    "are not JSON numbers"
)


class _NonFinite(ValueError):
    """A number in a JSON body that no JSON number can be."""


def _constant(name: str) -> Any:
    raise _NonFinite(name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NonFinite(text)
    return value


async def body_holds_non_finite(request: Request) -> bool:
    """The request's JSON body holds ``NaN``, ``Infinity``, ``-Infinity`` or a number that
    overflows a double. A body that is not JSON at all is the route's to refuse (400/422)."""
    try:
        body = await request.body()
    except HTTPException:
        raise  # the body limit's 413
    except Exception:
        return False
    if not body:
        return False
    try:
        json.loads(body, parse_constant=_constant, parse_float=_float)
    except _NonFinite:
        return True
    except Exception:
        return False
    return False


def problems(errors: Sequence[Any], locale: str = DEFAULT) -> list[dict[str, Any]]:
    """A validation error's problems as the API answers them: where (``loc``), what
    (``msg``, in ``locale``: app/api/validation_words.py) and its kind (``type``); never the
    value that was sent (``input``) nor the checker's context (``ctx``), which may hold values
    JSON cannot write."""
    out = []
    for error in errors:
        loc = [part if isinstance(part, int) else str(part) for part in error.get("loc", ())]
        msg = problem_words(error, locale)
        out.append({"loc": loc, "msg": msg, "type": str(error.get("type", ""))})
    return out


class ApiRoute(APIRoute):
    """A route of the API. It refuses a path, query or JSON body holding U+0000, and a JSON
    body holding a number that is not finite, with 422 before the route's code runs; a
    request that does not validate is answered without echoing what it held (:func:`problems`).
    Its document also lists the refusals of
    app/api/middleware.py:
    413 for any request, 403 and 415 for a write; and, for a route that reads a body,
    FastAPI's 400 for one that is not text. What the route or its router list wins.

    A route's answer is read through its ``response_model`` and written with the keys the
    route set and no others (``response_model_exclude_unset``): the model documents the
    answer without adding its defaults to it (app/api/schemas/)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        kwargs["response_model_exclude_unset"] = True
        methods = {method.upper() for method in kwargs.get("methods") or ()}
        before = errors(413, 422, *((403, 415) if methods & WRITES else ()))
        kwargs["responses"] = {**before, **(kwargs.get("responses") or {})}
        super().__init__(path, endpoint, **kwargs)
        if self.body_field is not None:
            self.responses = {**errors(400), **self.responses}

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        reads_body = self.body_field is not None

        async def refusing_nul(request: Request) -> Response:
            if holds_nul(request) or (reads_body and await body_holds_nul(request)):
                detail = localize(NUL_REFUSED, request_locale(request))
                return JSONResponse({"detail": detail}, status_code=422)
            if reads_body and await body_holds_non_finite(request):
                message = localize(NON_FINITE_REFUSED, request_locale(request))
                return JSONResponse(
                    {"detail": [{"loc": ["body"], "msg": message, "type": "value_error"}]},
                    status_code=422,
                )
            try:
                return await handler(request)
            except RequestValidationError as exc:
                told = problems(exc.errors(), request_locale(request))
                return JSONResponse({"detail": told}, status_code=422)

        return refusing_nul


def file_response(media_type: str, description: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` entry of a route whose 200 is a file of ``media_type``
    (use with ``response_class=Response``, so JSON is not listed as well)."""
    return {
        200: {
            "description": description,
            "content": {media_type: {"schema": {"type": "string"}}},
        }
    }
