"""What every HTTP request passes through before a route sees it (pure ASGI: nothing here
reads a body into memory or starts a task, and the table sockets pass straight through).

* :class:`BodyLimit`: a request body of more than ``MAX_BODY_BYTES`` is refused with 413
  before it is read: at once on its ``Content-Length``, or, for a chunked body, as soon as
  the bytes counted so far pass the limit (what has arrived is dropped, the rest never read).
  Every body the API takes is a small JSON document; without a limit one request of 200 MB
  was parsed on the event loop, before sign-in, and stalled every table.
* :class:`CookieWritesNeedOrigin`: a write signed in by the cookie alone must come from this
  site's pages (cross-site request forgery); Bearer-token clients are not concerned.
* :class:`JsonBodiesOnly`: a write's body is JSON with a JSON ``Content-Type``, never a form
  (but the recovery page's one form, which its route takes from this site's page only).
* :class:`ErrorsAsJson`: an unexpected exception is a JSON 500 for the client, logged once.
* :class:`SecurityHeaders`: every response carries the Content-Security-Policy and the
  browser's other guards.
"""

from __future__ import annotations

import json
import logging
import re
import secrets

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.origin import same_site
from app.db.writer.base import storage_failure

log = logging.getLogger("table31.http")

JSON_HEADERS = [(b"content-type", b"application/json")]


async def send_json(send: Send, status: int, detail: str, *, close: bool = False) -> None:
    """A whole JSON error response, ``{"detail": "..."}`` as FastAPI words its own errors;
    ``close`` asks the server to close the connection after it."""
    body = json.dumps({"detail": detail}).encode()
    headers = [*JSON_HEADERS, (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of request header ``name`` (lower case), or None."""
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


class WatchedSend:
    """``send``, noting whether the response has started: a middleware that rescues an error
    can answer in its own words only before the first ``http.response.start``."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        self.started = self.started or message["type"] == "http.response.start"
        await self.send(message)


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit. An HTTPException, so
    that FastAPI's body parsing lets it through and it is answered as a 413, wherever the
    body was being read."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, too_large(max_bytes))


def too_large(max_bytes: int) -> str:
    return f"request body too large: at most {max_bytes} bytes (MAX_BODY_BYTES)"


class BodyLimit:
    """Refuse a request body of more than ``max_bytes`` with 413 before it is parsed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = header(scope, b"content-length")
        if length is not None and length.strip().isdigit() and int(length) > self.max_bytes:
            # Answered before a byte of the body is read. The server reads on and drops what
            # the client still sends (keep-alive), so the client sees this answer, not a reset.
            await send_json(send, 413, too_large(self.max_bytes))
            return
        received = 0
        watched = WatchedSend(send)

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        try:
            await self.app(scope, counted_receive, watched)
        except BodyTooLarge:
            if watched.started:
                raise
            await send_json(send, 413, too_large(self.max_bytes))


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class CookieWritesNeedOrigin:
    """Cross-site request forgery: a write signed in by the ``t31_token`` cookie alone must
    come from a page of this site (its ``Origin``, or failing that its ``Referer``; see
    app/api/origin.py), else 403. A browser sends the cookie with a form another site posts
    to us; it never lets that site add an ``Authorization`` header, so a request that
    carries ``Authorization: Bearer`` (bots, API clients) is not checked."""

    def __init__(self, app: ASGIApp, cookie: str, trust_proxy: bool) -> None:
        self.app = app
        self.cookie = cookie
        self.trust_proxy = trust_proxy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            headers = Headers(scope=scope)
            signed_in_by_cookie = self.cookie in cookie_parser(headers.get("cookie", ""))
            has_bearer = headers.get("authorization", "").lower().startswith("bearer ")
            if signed_in_by_cookie and not has_bearer and not same_site(headers, self.trust_proxy):
                await send_json(
                    send,
                    403,
                    "cross-site request refused: a change made with the sign-in cookie must "
                    "come from this site's pages (Origin); API clients send "
                    "'Authorization: Bearer <token>'",
                )
                return
        await self.app(scope, receive, send)


def is_json(content_type: str) -> bool:
    """``application/json`` or ``application/<something>+json``, parameters aside."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


RECOVERY_FORM = "/recover"
"""The one HTML form the site posts: the recovery page's (app/api/routes/admin_page.py),
form-encoded, which that route takes only from this site's own page (its Origin)."""


def _recovery_form(scope: Scope, content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return scope["path"] == RECOVERY_FORM and kind == "application/x-www-form-urlencoded"


class JsonBodiesOnly:
    """A write's body must be JSON, said so by its ``Content-Type`` (415 otherwise). A form
    (``application/x-www-form-urlencoded``, ``multipart/form-data``, ``text/plain``) is what
    another site's page can post without asking the browser first; none of it is ever read
    as JSON. A write without a body (leave, pause…) needs no type."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            length = header(scope, b"content-length")
            has_body = header(scope, b"transfer-encoding") is not None or (
                length is not None and length.strip() not in (b"", b"0")
            )
            content_type = (header(scope, b"content-type") or b"").decode("latin-1")
            if has_body and not is_json(content_type) and not _recovery_form(scope, content_type):
                await send_json(
                    send, 415, "request bodies are JSON: send 'Content-Type: application/json'"
                )
                return
        await self.app(scope, receive, send)


class ErrorsAsJson:
    """An exception no route turned into an answer: the client gets a JSON 500 with a short
    reference and nothing of the error itself (no traceback, no message that could name a
    file, a query or a secret); the server logs it once, with its traceback and the same
    reference. (Starlette's own last resort answers in plain text, and uvicorn logs the
    exception it re-raises a second time.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        watched = WatchedSend(send)
        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            if storage_failure(exc):  # the database cannot store or answer: say so, 503
                log.warning(
                    "%s %s: storage failed: %s", scope["method"], scope["path"], type(exc).__name__
                )
                if not watched.started:
                    await send_json(
                        send, 503, "The server cannot save right now; try again in a moment."
                    )
                return
            reference = secrets.token_hex(4)
            log.exception(
                "unhandled error answering %s %s (ref %s)",
                scope["method"],
                scope["path"],
                reference,
            )
            if not watched.started:  # else the server closes the half-sent response
                await send_json(
                    send,
                    500,
                    f"internal server error (ref {reference}): the server could not answer "
                    "this request; the error is logged",
                )


CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""No script but the site's own files (no inline script, no handler attribute, no eval), no
inline style attribute, no plugin, no framing by another site. ``{sockets}`` names this
host's ``ws:``/``wss:`` origins: CSP 3 counts them as 'self', older browsers need them."""

DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.jsdelivr.net; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
"""FastAPI's API browser (``/docs``, ``/redoc``) is one inline script and Swagger UI from a
CDN; those pages show nothing a player wrote, so they alone may run them."""
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})

_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


class SecurityHeaders:
    """Every HTTP response gets the browser's guards: the Content-Security-Policy above,
    ``X-Content-Type-Options: nosniff`` (a download is never run as a script or a page),
    ``X-Frame-Options: DENY`` (no clickjacking; ``frame-ancestors`` for older browsers),
    ``Referrer-Policy: same-origin`` (no URL leaves for another site; this site's own
    requests keep their Referer, which the CSRF check may fall back on) and
    ``Cross-Origin-Opener-Policy: same-origin``. A header a route set itself is kept."""

    def __init__(self, app: ASGIApp, trust_proxy: bool) -> None:
        self.app = app
        self.trust_proxy = trust_proxy

    def _sockets(self, scope: Scope) -> str:
        host = header(scope, b"host") or b""
        if self.trust_proxy:
            forwarded = header(scope, b"x-forwarded-host")
            if forwarded:
                host = forwarded.split(b",")[-1].strip()
        name = host.decode("latin-1")
        return f" ws://{name} wss://{name}" if _HOST.match(name) else ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] in DOCS_PATHS:
            policy = DOCS_POLICY.encode()
        else:
            policy = CONTENT_SECURITY_POLICY.format(sockets=self._sockets(scope)).encode()

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in (
                    (b"content-security-policy", policy),
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"same-origin"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                ):
                    if name not in present:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, guarded_send)
