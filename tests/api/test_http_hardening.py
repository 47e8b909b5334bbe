"""The HTTP layer against outsiders, through the real app on a real socket: request bodies
are limited before they are read, cookie-authenticated writes must come from this site's
pages, and every response carries the security headers (docs/protocol.md, "Security")."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from app.db.models import GameTable
from app.db.models import Player as PlayerRow
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings

MB = 1024 * 1024
JSON = {"content-type": "application/json"}
CHUNK = b"x" * 65536


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as client:
        yield client


async def twenty_megabytes() -> AsyncIterator[bytes]:
    """A 20 MB body sent in 64 KiB pieces of one buffer: the client holds 64 KiB of it."""
    for _ in range(20 * MB // len(CHUNK)):
        yield CHUNK


def reset_peak_memory() -> None:
    """Start counting this process's peak resident memory afresh (Linux: clear_refs 5)."""
    Path("/proc/self/clear_refs").write_text("5")


def peak_memory_growth(since: int) -> int:
    """Peak resident bytes (VmHWM) beyond ``since``."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024 - since
    raise AssertionError("no VmHWM")


def resident_memory() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


async def raw_request(live: LiveServer, head: bytes, body: bytes = b"") -> bytes:
    """Send ``head`` (and the start of a body) on a raw socket and read what comes back
    before the rest of the body is sent: an answer that did not wait for the body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", live.settings.port)
    try:
        writer.write(head + body)
        await writer.drain()
        return await asyncio.wait_for(reader.read(65536), 30)
    finally:
        writer.close()


# --------------------------------------------------------------------------- body limit


async def test_a_body_over_the_limit_is_refused_before_it_is_read(live: LiveServer) -> None:
    # 20 MB announced, 1 KiB sent: the 413 comes without the server waiting for the rest.
    answer = await raw_request(
        live,
        b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 20971520\r\n\r\n",
        b"{" + b" " * 1023,
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"application/json" in head.lower()
    assert b"at most 16384 bytes" in body and b"MAX_BODY_BYTES" in body


@pytest.mark.parametrize("announced", [True, False], ids=["content-length", "chunked"])
async def test_a_twenty_megabyte_body_is_refused_and_never_held_in_memory(
    live: LiveServer, http: httpx.AsyncClient, announced: bool
) -> None:
    headers = {"content-type": "application/json"}
    if announced:
        headers["content-length"] = str(20 * MB)
    reset_peak_memory()
    before = resident_memory()
    response = await http.post("/api/session", content=twenty_megabytes(), headers=headers)
    grown = peak_memory_growth(before)
    # the server and this client share the process: neither held the body (20 MB)
    assert grown < 6 * MB, f"peak memory grew by {grown / MB:.1f} MB"
    assert response.status_code == 413, response.text
    assert "at most 16384 bytes" in response.json()["detail"]
    # the same connection serves the next request (the rest was read and dropped)
    again = await http.post("/api/session", json={"name": "Ada"})
    assert again.status_code == 200, again.text


async def test_a_body_within_the_limit_is_served(http: httpx.AsyncClient) -> None:
    padded = b'{"name": "Ada"' + b" " * 15000 + b"}"
    response = await http.post(
        "/api/session", content=padded, headers={"content-type": "application/json"}
    )
    assert response.status_code == 200, response.text


# --------------------------------------------------------------------------- cross-site writes


@asynccontextmanager
async def signed_in(live: LiveServer, **headers: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client holding the sign-in cookie, as a browser does, sending ``headers``."""
    async with httpx.AsyncClient(base_url=live.base_url, timeout=10, headers=headers) as client:
        name = f"Ada {next(NAMES)}"
        response = await client.post("/api/session", json={"name": name})  # no cookie yet
        assert response.status_code == 200, response.text
        yield client


NAMES = itertools.count()
OPEN = {"game": "greek-31", "name": "Forged"}


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"referer": "https://evil.example/page"},
        {"origin": "http://127.0.0.1.evil.example"},
    ],
    ids=["no-origin", "other-site", "null", "other-referer", "lookalike"],
)
async def test_a_cookie_write_from_another_site_is_refused(
    live: LiveServer, headers: dict[str, str]
) -> None:
    async with signed_in(live, **headers) as client:
        response = await client.post("/api/tables", json=OPEN)
        assert response.status_code == 403, response.text
        assert "cross-site" in response.json()["detail"]
        # reads are not writes: the same client still sees its tables
        assert (await client.get("/api/me")).status_code == 200
    assert not live.services.lobby.listing(None, everything=True)


@pytest.mark.parametrize(
    "headers",
    [{"origin": "{base}"}, {"referer": "{base}/tables/abc"}],
    ids=["origin", "referer"],
)
async def test_a_cookie_write_from_this_site_passes(
    live: LiveServer, headers: dict[str, str]
) -> None:
    own = {name: value.format(base=live.base_url) for name, value in headers.items()}
    async with signed_in(live, **own) as client:
        response = await client.post("/api/tables", json=OPEN)
        assert response.status_code == 201, response.text


async def test_a_bearer_token_needs_no_origin(live: LiveServer) -> None:
    async with signed_in(live) as client:
        token = client.cookies["t31_token"]
        response = await client.post(
            "/api/tables", json=OPEN, headers={"authorization": f"Bearer {token}"}
        )
        assert response.status_code == 201, response.text


async def test_behind_a_trusted_proxy_the_forwarded_host_is_this_site(database_url: str) -> None:
    forwarded = {"x-forwarded-host": "cards.example", "x-forwarded-proto": "https"}
    for trusted, expected in ((True, 201), (False, 403)):
        server = LiveServer(make_settings(database_url, trust_proxy_headers=trusted))
        await server.start()
        try:
            async with signed_in(server, origin="https://cards.example", **forwarded) as client:
                # the cookie is Secure behind an https proxy: sent here over plain http by hand
                client.headers["cookie"] = f"t31_token={client.cookies['t31_token']}"
                client.cookies.clear()
                response = await client.post("/api/tables", json=OPEN)
                assert response.status_code == expected, (trusted, response.text)
                # the scheme the proxy saw must be the page's too
                response = await client.post(
                    "/api/tables", json=OPEN, headers={"origin": "http://cards.example"}
                )
                assert response.status_code == 403, (trusted, response.text)
        finally:
            await server.stop()


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b'{"name": "Ada"}'),
        ("application/x-www-form-urlencoded", b"name=Ada"),
        ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="name"'),
        (None, b'{"name": "Ada"}'),
    ],
    ids=["text-plain", "form", "multipart", "no-type"],
)
async def test_a_body_that_is_not_declared_json_is_refused(
    live: LiveServer, http: httpx.AsyncClient, content_type: str | None, body: bytes
) -> None:
    headers = {"content-type": content_type} if content_type else {}
    request = http.build_request("POST", "/api/session", content=body, headers=headers)
    assert ("content-type" in request.headers) == (content_type is not None)
    response = await http.send(request)
    assert response.status_code == 415, response.text
    assert "application/json" in response.json()["detail"]
    # a write with no body needs no type; +json types are JSON
    response = await http.post(
        "/api/session",
        content=b'{"name": "Ada"}',
        headers={"content-type": "application/vnd.table31+json; charset=utf-8"},
    )
    assert response.status_code == 200, response.text


# --------------------------------------------------------------------------- slow and idle


@asynccontextmanager
async def serving(database_url: str, **settings: object) -> AsyncIterator[LiveServer]:
    server = LiveServer(make_settings(database_url, **settings))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def connect(server: LiveServer, source: str = "127.0.0.1") -> RawConnection:
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", server.settings.port, local_addr=(source, 0)
    )
    return RawConnection(reader, writer)


class RawConnection:
    """One client connection written to by hand: what a slow or hostile client sends."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def until_closed(self, within: float = 5) -> bytes:
        """Everything the server sends until it closes the connection (fails after
        ``within`` seconds: the server held it open)."""
        return await asyncio.wait_for(self.reader.read(), within)

    async def response(self) -> bytes:
        """One response's head (a request's answer), read up to its blank line."""
        return await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 30)

    def close(self) -> None:
        self.writer.close()


GET = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


async def test_headers_that_never_end_are_cut_off(database_url: str) -> None:
    async with serving(database_url, http_header_timeout=0.5) as server:
        silent = await connect(server)  # sends nothing at all
        partial = await connect(server)
        await partial.send(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        dripping = await connect(server)

        async def drip() -> None:  # a byte at a time never moves the deadline
            with contextlib.suppress(ConnectionError):
                for byte in b"GET /api/games HTTP/1.1\r\nX-Slow: " + b"a" * 100:
                    await dripping.send(bytes([byte]))
                    await asyncio.sleep(0.05)

        dripper = asyncio.create_task(drip())
        for connection in (silent, partial, dripping):
            answer = await connection.until_closed()
            assert answer.startswith(b"HTTP/1.1 408"), answer
            assert b"took too long" in answer
        dripper.cancel()
        # a prompt request on a fresh connection is served as ever
        prompt = await connect(server)
        await prompt.send(GET)
        assert (await prompt.response()).startswith(b"HTTP/1.1 200")
        prompt.close()


async def test_a_client_still_sending_reads_its_408_not_a_reset(database_url: str) -> None:
    """Closed with the client's bytes unread, a connection is reset, and a client still
    sending (a drip, or bytes in flight) could lose the 408 before reading it: the server
    ends its side after the 408, drops what still comes, and closes when the client does
    (app/server.py LINGER_SECONDS)."""
    async with serving(database_url, http_header_timeout=0.3) as server:
        flooding = await connect(server)
        await flooding.send(b"GET /api/games HTTP/1.1\r\nX-Slow: ")

        async def flood() -> None:  # never ends its headers, and keeps sending past the 408
            with contextlib.suppress(ConnectionError):
                while True:
                    await flooding.send(b"a" * 512)
                    await asyncio.sleep(0.002)

        flooder = asyncio.create_task(flood())
        try:
            head = await flooding.response()  # the 408 comes while the client still sends
            assert head.startswith(b"HTTP/1.1 408"), head
            sent = flooder.done()
            await asyncio.sleep(0.2)  # and it goes on sending after it
        finally:
            flooder.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flooder
        assert not sent
        rest = await flooding.until_closed()  # the end, not a reset
        assert b"took too long" in rest, rest
        flooding.close()


async def test_a_body_that_stalls_is_cut_off(database_url: str) -> None:
    async with serving(database_url, http_body_timeout=0.5) as server:
        stalled = await connect(server)
        await stalled.send(
            b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n" + b'{"name": '
        )
        assert await stalled.until_closed() == b""


async def test_blank_lines_between_requests_do_not_keep_a_connection(database_url: str) -> None:
    async with serving(database_url, http_header_timeout=0.5) as server:
        connection = await connect(server)
        await connection.send(GET)
        assert (await connection.response()).startswith(b"HTTP/1.1 200")

        async def blank_lines() -> None:
            with contextlib.suppress(ConnectionError):
                while True:
                    await connection.send(b"\r\n")
                    await asyncio.sleep(0.1)

        sender = asyncio.create_task(blank_lines())
        try:
            rest = await connection.until_closed()
        finally:
            sender.cancel()
        assert b"HTTP/1.1 408" in rest


async def test_connections_from_one_address_are_capped(database_url: str) -> None:
    async with serving(database_url, max_http_connections_per_address=4) as server:
        # 127.0.0.2 holds four connections open without a word; a fifth is refused
        held = [await connect(server, "127.0.0.2") for _ in range(4)]
        extra = await connect(server, "127.0.0.2")
        refused = await extra.until_closed()
        assert refused.startswith(b"HTTP/1.1 429"), refused
        assert b"too many connections" in refused
        # others are served meanwhile
        async with httpx.AsyncClient(timeout=30, base_url=server.base_url) as other:
            assert (await other.get("/api/games")).status_code == 200
        # one closed, one more admitted, and those held are served when they speak
        held.pop().close()
        deadline = asyncio.get_running_loop().time() + 60  # for a stuck run only
        while True:  # the server sees the close on its next turn of the loop
            again = await connect(server, "127.0.0.2")
            await again.send(GET)
            head = await again.response()
            if head.startswith(b"HTTP/1.1 200"):
                break
            again.close()
            assert asyncio.get_running_loop().time() < deadline, "none admitted after a close"
            await asyncio.sleep(0.02)
        again.close()
        for connection in held:
            await connection.send(GET)
            assert (await connection.response()).startswith(b"HTTP/1.1 200")
            connection.close()


async def test_table_sockets_leave_the_http_count(database_url: str) -> None:
    async with serving(database_url, max_http_connections_per_address=2) as server:
        ada = await Player.join(server, "Ada")
        table_id = await ada.open_table("greek-31")
        await ada.http.aclose()  # its keep-alive connection no longer counts
        watchers = []
        for _ in range(3):
            watcher = Player(server.base_url, server.ws_url, "Ada", ada.token, ada.info)
            await watcher.connect(table_id)
            watchers.append(watcher)
        async with httpx.AsyncClient(timeout=30, base_url=server.base_url) as other:
            assert (await other.get("/api/games")).status_code == 200
        for watcher in watchers:
            await watcher.close()


async def test_behind_a_trusted_proxy_connections_are_not_capped(database_url: str) -> None:
    async with serving(
        database_url, max_http_connections_per_address=2, trust_proxy_headers=True
    ) as server:
        held = [await connect(server) for _ in range(5)]
        for connection in held:
            await connection.send(GET)
            assert (await connection.response()).startswith(b"HTTP/1.1 200")
            connection.close()


# --------------------------------------------------------------------------- downloads, errors


HOST_HEADERS = {"authorization": f"Bearer {ADMIN_TOKEN}"}


async def test_downloads_name_any_file_safely(live: LiveServer) -> None:
    """A file name outside latin-1 (or with a quote) in Content-Disposition was a 500: the
    header is latin-1. Ids are made by the server, so rows with such ids are written here
    as an older version or an import could have left them."""
    odd = '€-"x"'
    async with live.services.sessionmaker() as session:
        player = PlayerRow(id=odd, name="Odd")
        if hasattr(PlayerRow, "token_hash"):
            player.token_hash = "0" * 64
        session.add(player)
        session.add(GameTable(id=odd, name="Odd", game="greek-31", options={}, status="closed"))
        await session.commit()
    quoted = quote(odd, safe="")
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST_HEADERS) as host:
        for path, name in (
            (f"/api/tables/{quoted}/ledger.csv", f"ledger-{odd}.csv"),
            (f"/api/players/{quoted}/hands.jsonl", f"hands-{odd}.jsonl"),
        ):
            response = await host.get(path)
            assert response.status_code == 200, (path, response.text)
            disposition = response.headers["content-disposition"]
            assert f"filename*=UTF-8''{quote(name, safe='')}" in disposition
            plain = disposition.split('filename="')[1].split('"')[0]
            assert plain.isascii() and plain == name.replace("€", "_").replace('"', "_")


async def test_an_unexpected_error_is_a_json_500_logged_once(
    live: LiveServer, http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret detail: /srv/table31/app.py password=hunter2")

    live.services.lobby.listing = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR):
        response = await http.get("/api/tables")
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/json"
    detail = response.json()["detail"]
    assert detail.startswith("internal server error (ref ")
    assert "hunter2" not in response.text and "Traceback" not in response.text
    reference = detail.split("(ref ")[1].split(")")[0]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert reference in errors[0].getMessage() and "GET /api/tables" in errors[0].getMessage()
    assert errors[0].exc_info is not None and "hunter2" in str(errors[0].exc_info[1])
    # the server goes on
    assert (await http.get("/api/games")).status_code == 200


# --------------------------------------------------------------------------- strict bodies


async def test_rest_bodies_take_no_look_alike_values(live: LiveServer) -> None:
    """A seat is a JSON number, a flag true/false, a name a string: as the socket reads
    them. Pydantic's default took {"seat": true} as seat 1 and "2" as 2."""
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("greek-31")
    host = httpx.AsyncClient(base_url=live.base_url, headers=HOST_HEADERS, timeout=30)
    refused: list[tuple[httpx.AsyncClient, str, str, dict[str, object]]] = [
        (ada.http, "POST", f"/api/tables/{table_id}/bots", {"seat": True}),
        (ada.http, "POST", f"/api/tables/{table_id}/bots", {"seat": "2"}),
        (ada.http, "POST", f"/api/tables/{table_id}/bots", {"seat": 2.0}),
        (ada.http, "POST", "/api/tables", {"game": "greek-31", "private": 1}),
        (ada.http, "POST", "/api/tables", {"game": "greek-31", "private": "true"}),
        (ada.http, "POST", "/api/tables", {"game": "greek-31", "name": 31}),
        (ada.http, "POST", "/api/session", {"name": 31}),
        (host, "POST", "/api/admin/house", {"amount": "500"}),
        (
            host,
            "POST",
            f"/api/admin/players/{ada.player_id}/chips",
            {"amount": True, "reason": "x"},
        ),
        (host, "POST", f"/api/admin/tables/{table_id}/pause", {"reason": 7}),
        (host, "POST", f"/api/admin/tables/{table_id}/close", {"reason": False}),
        (host, "PUT", "/api/admin/settings", {"starting_bankroll": "2000"}),
    ]
    try:
        for client, method, path, body in refused:
            response = await client.request(method, path, json=body)
            assert response.status_code == 422, (path, body, response.text)
        # the table and the player are as they were
        assert list(live.services.lobby.tables) == [table_id]
        summary = live.services.lobby.tables[table_id].summary()
        assert summary["players"] == 0 and summary["status"] == "open"
        added = await ada.http.post(f"/api/tables/{table_id}/bots", json={"seat": 2})
        assert added.status_code == 201, added.text
        assert added.json()["seat"] == 2
        granted = await host.post(
            f"/api/admin/players/{ada.player_id}/chips", json={"amount": 5, "reason": "x"}
        )
        assert granted.status_code == 200, granted.text
    finally:
        await host.aclose()
        await ada.close()


# --------------------------------------------------------------------------- security headers


async def test_every_response_carries_the_security_headers(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    answers = [
        await http.get("/"),
        await http.get("/api/games"),
        await http.get("/static/js/dom.js"),
        await http.get("/no/such/page"),
        await http.post("/api/session", content=b"x" * 20000, headers=JSON),
        await http.post("/api/session", content=b"name=x", headers={"content-type": "text/plain"}),
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 404, 413, 415]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "object-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy and "base-uri 'self'" in policy
        assert f"ws://127.0.0.1:{live.settings.port}" in policy
        assert "unsafe-inline" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "same-origin"
    # FastAPI's API browser runs Swagger UI's inline script from its CDN: that page only
    docs = await http.get("/docs")
    assert "https://cdn.jsdelivr.net" in docs.headers["content-security-policy"]
    # a Host that is not a host name never reaches the policy
    odd = await http.get("/api/games", headers={"host": "a b;script-src *"})
    assert "script-src *" not in odd.headers.get("content-security-policy", "")
