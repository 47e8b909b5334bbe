"""Is a request from a page of this site? The Origin check shared by the CSRF guard on
cookie-authenticated writes (app/api/middleware.py) and the table socket.

A browser names the page that made a request in ``Origin`` (every cross-site request, every
POST, every WebSocket handshake) and sends the ``Host`` it is talking to; a page of another
site can set neither. The request is this site's when the Origin's host and port are the
Host's. Behind a proxy the server trusts (``TRUST_PROXY_HEADERS``) the host the browser used
may arrive as ``X-Forwarded-Host`` instead (the proxy's own upstream address in ``Host``), and
the scheme as ``X-Forwarded-Proto``: then those count too. Without a trusted proxy the
scheme is not compared (TLS may end at a proxy the server cannot see), only host and port.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
SECURE = frozenset({"https", "wss"})


def request_origin(headers: Mapping[str, str]) -> str | None:
    """The page's origin as the browser gave it: ``Origin``, or failing that the scheme and
    host of ``Referer``; None when the request names neither (a non-browser client).
    ``headers`` is looked up by lower-case name (Starlette's Headers, or a plain dict)."""
    origin = headers.get("origin")
    if origin:
        return origin.strip()
    referer = headers.get("referer")
    if referer:
        parts = urlsplit(referer.strip())
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}"
        return "null"
    return None


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """``host[:port]`` as (lower-case host, port), the port by default that of ``scheme``."""
    try:
        parts = urlsplit(f"//{netloc.strip()}")
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number, a malformed IPv6 literal
        return None
    if not host or parts.username is not None or parts.path or parts.query:
        return None
    if port is None:
        port = DEFAULT_PORTS.get(scheme)
        if port is None:
            return None
    return host, port


def _last(value: str) -> str:
    """The last of a comma-separated header's values: the one the nearest proxy added."""
    return value.split(",")[-1].strip()


def same_site(headers: Mapping[str, str], trust_proxy: bool) -> bool:
    """True when the request's Origin (or Referer) is this site: its host and port are those
    of ``Host`` (or, when ``trust_proxy``, of ``X-Forwarded-Host``), and, when ``trust_proxy``
    and the proxy sent ``X-Forwarded-Proto``, its scheme is that one. False when the request
    names no origin at all, or ``Origin: null`` (a sandboxed frame, a file): callers that
    admit non-browser clients without an Origin check :func:`request_origin` first."""
    origin = request_origin(headers)
    if not origin or origin == "null":
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.netloc:
        return False
    forwarded_proto = _last(headers.get("x-forwarded-proto", "")).lower() if trust_proxy else ""
    if forwarded_proto and (scheme in SECURE) != (forwarded_proto in SECURE):
        return False
    page = _host_port(parts.netloc, scheme)
    if page is None:
        return False
    candidates = [headers.get("host", "")]
    if trust_proxy:
        candidates.append(_last(headers.get("x-forwarded-host", "")))
    return any(
        _host_port(candidate, forwarded_proto or scheme) == page
        for candidate in candidates
        if candidate
    )
