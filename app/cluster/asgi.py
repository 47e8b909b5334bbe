"""Small ASGI pieces of request forwarding (forward.py): a request's whole body, a
``receive`` that gives it again, a 503 with ``Retry-After``."""

from __future__ import annotations

import orjson
from starlette.types import Message, Receive, Send


async def read_body(receive: Receive) -> bytes | None:
    """The whole request body (the body limit wraps ``receive``); None if the client left."""
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` again (it was read to forward it), then the client's
    own (its disconnect)."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again


async def unavailable(send: Send, detail: str, retry_after: int) -> None:
    """503 with ``{"detail": ...}`` and ``Retry-After``."""
    body = orjson.dumps({"detail": detail})
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(retry_after).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
