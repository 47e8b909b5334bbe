"""What every answer's model shares."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Reply(BaseModel):
    """A route's answer (or a part of one), as the route builds it.

    The routes return plain dicts; FastAPI reads each through its model and writes back
    only the keys the route set (``ApiRoute`` serializes with ``exclude_unset``), so a
    model's defaults are never added to an answer. A key the model does not name is kept
    (``extra="allow"``): the model documents the answer, it does not cut it."""

    model_config = ConfigDict(extra="allow")
