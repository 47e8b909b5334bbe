"""The REST API's bodies, both ways: what a request sends (:mod:`.bodies`) and what each
route answers, by area (:mod:`.identity`, :mod:`.tables`, :mod:`.games`, :mod:`.hands`,
:mod:`.review`, :mod:`.host`). The answers' models are the routes' ``response_model``: the
OpenAPI document (``/openapi.json``, ``/docs``) is the REST reference."""

from app.api.schemas.bodies import (
    NAME_PATTERN,
    BotIn,
    SessionIn,
    StrictBody,
    TableIn,
    clean_name,
)

__all__ = ["NAME_PATTERN", "BotIn", "SessionIn", "StrictBody", "TableIn", "clean_name"]
