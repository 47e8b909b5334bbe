"""The REST API fuzzed against its own OpenAPI document (schemathesis).

Every operation in ``/openapi.json`` is called with generated requests, valid and invalid,
three times over: with no token, with a player's token and with the host's (admin) token.
Each answer must be no 5xx, a status code the document lists for that operation, of the
documented content type, and a body that fits the documented schema (an error's body is
``{"detail": ...}``, docs/protocol.md §4.1); a request the document does not allow must be
refused. Schemathesis's boundary values come first (every parameter and body field at its
limits, missing, of the wrong type), then random requests.

The server is the real app on a real socket (``tests/conftest.py``'s ``LiveServer``), run on
an event loop of its own in a thread, so that schemathesis's blocking calls reach it. Before
the fuzzing starts it holds a table where two people played hands (the fuzzing player opened
it and sat there), a table of bots with finished hands, a private table and a spare table
(the only one the host's ``close`` is pointed at). Path parameters are now and then replaced
by these real ids, so the fuzzing reaches past the 404s into the routes' code. Then every
operation and page is called with U+0000 in each parameter and body, and at the end the
chips must still add up (``GET /api/admin/audit``). Pytest's summary tells how many requests
each caller made, their statuses, and which operations never answered 2xx.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import select

from app.db import store
from app.db.models import Hand, Player
from app.main import create_app
from tests.client import Player as Client
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.fuzz.threaded import ThreadedServer, fresh_database
from tests.review.live_play import play

MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
"""Random requests per operation and caller, after schemathesis's boundary values (each
parameter and body field at its limits, missing, of the wrong type): ~2,800 requests in
~30 s for 44 operations x 3 callers. A deeper run, with fresh random cases:
``FUZZ_EXAMPLES=100 FUZZ_RANDOM=1 pytest tests/fuzz/test_openapi_fuzz.py``."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
REFUSES_INVALID = negative_data_rejection
"""A request the document does not allow (``true`` for an integer, a missing field) must be
refused (4xx): a lax body model that coerced ``{"starting_bankroll": true}`` to 1 was
accepted. Not for the two operations whose body fields :func:`flatmap_body` replaces with
real values (that can make an invalid body valid)."""

# The document the app serves, built from the app itself at collection (the live server's
# /openapi.json is checked to be the same document before any fuzzing).
DOCUMENT = create_app(make_settings("sqlite+aiosqlite:///:memory:")).openapi()
schema = schemathesis.openapi.from_dict(DOCUMENT)
schema.config.phases.update(phases=["examples", "coverage", "fuzzing"])
OPERATIONS = [f"{verb.upper()} {path}" for path, ops in DOCUMENT["paths"].items() for verb in ops]


@dataclass
class Seeded:
    """The real values the fuzzing is pointed at now and then."""

    tables: list[str] = field(default_factory=list)
    spare_table: str = ""  # the only table the host's fuzzed `close` may close
    hands: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    recovery_codes: list[str] = field(default_factory=list)  # another player's
    devices: list[str] = field(default_factory=list)  # the fuzzing player's other devices


SEEDED = Seeded()


def real_values(operation: str, name: str) -> list[Any]:
    """The seeded values for a path or query parameter (or body field) called ``name``."""
    if name == "table_id":
        return [SEEDED.spare_table] if operation.endswith("/close") else SEEDED.tables
    pools: dict[str, list[Any]] = {
        "hand_id": SEEDED.hands,
        "player_id": SEEDED.players,
        "seat": [0, 1, 2],
        "game": SEEDED.games,
        "code": SEEDED.recovery_codes,
        "device_id": SEEDED.devices,
    }
    return pools.get(name, [])


def sometimes_real(operation: str, values: Any) -> st.SearchStrategy[Any]:
    """``values`` (a dict of generated parameters or body fields) as generated, or with
    some of them replaced by seeded real ones."""
    if not isinstance(values, dict) or not values:
        return st.just(values)
    parts = {
        name: st.sampled_from(real) | st.just(value)
        if (real := real_values(operation, name))
        else st.just(value)
        for name, value in values.items()
    }
    return st.fixed_dictionaries(parts)


def label(context: schemathesis.HookContext) -> str:
    return context.operation.label if context.operation is not None else ""


@schema.hook
def flatmap_path_parameters(
    context: schemathesis.HookContext, path_parameters: dict[str, Any] | None
) -> st.SearchStrategy[Any]:
    return sometimes_real(label(context), path_parameters)


@schema.hook
def flatmap_query(
    context: schemathesis.HookContext, query: dict[str, Any] | None
) -> st.SearchStrategy[Any]:
    return sometimes_real(label(context), query)


BODIES_SEEDED = ("POST /api/tables", "POST /api/session/recover")


@schema.hook
def flatmap_body(context: schemathesis.HookContext, body: Any) -> st.SearchStrategy[Any]:
    """A table's game and a recovery code: a real one now and then, so that opening a
    table and redeeming a code get past their first refusal."""
    if label(context) in BODIES_SEEDED:
        return sometimes_real(label(context), body)
    return st.just(body)


async def device_token(live: LiveServer, player_id: str) -> str:
    """A new signed-in device of the player (a recovery code made and redeemed)."""
    code = await live.services.writer.run(store.new_recovery_code, player_id)
    found = await live.services.writer.run(store.redeem_recovery_code, code)
    assert found is not None
    return found[1]


async def seed(live: LiveServer) -> tuple[Seeded, Client]:
    """Tables, hands, players and devices to point the fuzzing at; returns them and the
    player the fuzzing calls as (who opened the played table and sat at it)."""
    table_id, people, _ = await play(live, "trianta-ena", hands=2, players=2, seconds=20)
    player = people[0]  # its client is closed: a new one with the same token
    me = Client(live.base_url, live.ws_url, player.name, player.token, player.info)
    bots = await me.open_table("vingt-un", turn_seconds=1)
    for _ in range(2):
        response = await me.http.post(f"/api/tables/{bots}/bots", json={})
        assert response.status_code == 201, response.text
    table = live.services.lobby.get(bots)
    assert table is not None
    deadline = asyncio.get_running_loop().time() + 20
    while table.hands_played < 2:
        assert asyncio.get_running_loop().time() < deadline, "the bots did not play"
        await asyncio.sleep(0.02)
    await table.pause("seeded")  # the bots wait while the fuzzing runs (until a resume)
    private = (
        await me.http.post("/api/tables", json={"game": "greek-31", "private": True})
    ).json()["table_id"]
    spare = await me.open_table("greek-31")
    await live.services.writer.flush()
    async with live.services.sessionmaker() as session:
        hands = list(
            (await session.scalars(select(Hand.id).where(Hand.status == "finished"))).all()
        )
        players = list((await session.scalars(select(Player.id))).all())
    other = people[1]
    for _ in range(2):
        await device_token(live, me.player_id)
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        recovery = await http.post("/api/me/recovery", headers=auth(other.token))
        games = await http.get("/api/games")
        mine = await http.get("/api/me/devices", headers=auth(me.token))
    await me.http.aclose()
    devices = mine.json()["devices"] if mine.status_code == 200 else []
    return (
        Seeded(
            tables=[table_id, bots, private, spare],
            spare_table=spare,
            hands=hands,
            players=players,
            games=[game["id"] for game in games.json()],
            recovery_codes=[recovery.json()["code"]],
            devices=[d["device_id"] for d in devices if not d["this_device"]],
        ),
        me,
    )


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class Fuzzed:
    """The seeded server as the tests call it."""

    base_url: str
    threaded: ThreadedServer
    player_id: str
    token: str  # the fuzzing player's, renewed after a fuzzed sign-out retires it

    def renew(self) -> None:
        self.token = self.threaded.run(device_token(self.threaded.live, self.player_id))


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory,
    sqlite_template: Path,
    postgres_url: str | None,
    pytestconfig: pytest.Config,
) -> Iterator[Fuzzed]:
    """The seeded live server."""
    if not pytestconfig.pluginmanager.is_registered(COVERAGE):
        pytestconfig.pluginmanager.register(COVERAGE, "openapi-fuzz-coverage")
    url = fresh_database(tmp_path_factory, sqlite_template, postgres_url, "fuzz")
    threaded = ThreadedServer(url)
    try:
        threaded.run(threaded.live.start())
        served = httpx.get(f"{threaded.live.base_url}/openapi.json").json()
        assert served == DOCUMENT, "the fuzzed document is not the one the server serves"
        seeded, me = threaded.run(seed(threaded.live))
        SEEDED.__dict__.update(seeded.__dict__)
        yield Fuzzed(threaded.live.base_url, threaded, me.player_id, me.token)
    finally:
        threaded.close()


class Coverage:
    """What the fuzzing sent and got, told at the end of pytest's output."""

    def __init__(self) -> None:
        self.statuses: dict[str, Counter[int]] = defaultdict(Counter)
        self.answered: dict[str, set[str]] = defaultdict(set)  # a 2xx at least once

    def record(self, caller: str, operation: str, status: int) -> None:
        self.statuses[caller][status] += 1
        if status < 300:
            self.answered[caller].add(operation)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.statuses:
            return
        write = terminalreporter.write_line
        total = sum(sum(c.values()) for c in self.statuses.values())
        write(
            f"REST fuzzing (schemathesis): {len(OPERATIONS)} operations x "
            f"{len(self.statuses)} callers, {total} requests"
        )
        for caller, counts in self.statuses.items():
            write(
                f"  {caller}: {sum(counts.values())} requests, a 2xx from "
                f"{len(self.answered[caller])}/{len(OPERATIONS)} operations; statuses "
                + ", ".join(f"{code}x{n}" for code, n in sorted(counts.items()))
            )
        never = sorted(set(OPERATIONS) - set().union(*self.answered.values()))
        if never:
            write(f"  never a 2xx: {', '.join(never)}")


COVERAGE = Coverage()


SIGN_OUTS = ("/api/me/signout", "/api/me/devices/")
"""Operations that may retire the caller's own token."""


def fuzz(case: schemathesis.Case, server: Fuzzed, caller: str, token: str | None) -> None:
    headers = auth(token)
    response = case.call(base_url=server.base_url, headers=headers, timeout=10)
    COVERAGE.record(caller, case.operation.label, response.status_code)
    if token == server.token and case.path.startswith(SIGN_OUTS) and response.status_code < 300:
        server.renew()  # the next cases are still a player's
    seeded_body = case.operation.label in BODIES_SEEDED
    checks = CHECKS if seeded_body else [*CHECKS, REFUSES_INVALID]
    case.validate_response(response, checks=checks, headers=headers)


FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=os.environ.get("FUZZ_RANDOM") is None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@schema.parametrize()
@FUZZ_SETTINGS
def test_without_a_token(case: schemathesis.Case, server: Fuzzed) -> None:
    fuzz(case, server, "no token", None)


@schema.parametrize()
@FUZZ_SETTINGS
def test_as_a_player(case: schemathesis.Case, server: Fuzzed) -> None:
    fuzz(case, server, "player", server.token)


@schema.parametrize()
@FUZZ_SETTINGS
def test_as_the_host(case: schemathesis.Case, server: Fuzzed) -> None:
    fuzz(case, server, "host", ADMIN_TOKEN)


PAGES = ["/tables/{table_id}", "/tables/{table_id}/history", "/hands/{hand_id}", "/players/{id}"]
"""The pages whose path names a row (they are not in the API's document)."""


Call = tuple[str, str, dict[str, str], dict[str, Any] | None]


def nul_calls() -> list[Call]:
    """Every operation with U+0000 in each of its path parameters, in each of its query
    parameters in turn, and in its JSON body; the pages with it in their id."""
    calls: list[Call] = []
    for path, operations in [*DOCUMENT["paths"].items(), *((page, {"get": {}}) for page in PAGES)]:
        for verb, operation in operations.items():
            parameters = operation.get("parameters", [])
            bare = re.sub(r"\{[^}]+\}", "x", path)
            if "{" in path:
                calls.append((verb, re.sub(r"\{[^}]+\}", "a%00b", path), {}, None))
            calls += [
                (verb, bare, {p["name"]: "a\x00b"}, None) for p in parameters if p["in"] == "query"
            ]
            if "requestBody" in operation:  # a host's reason, a name, a code: any text
                calls.append((verb, bare, {}, {"reason": "a\x00b", "name": "a\x00b"}))
    return calls


def test_a_nul_character_anywhere_is_refused(server: Fuzzed) -> None:
    """U+0000 in a path parameter, a query value or a body's text: 422 with the documented
    body, for each caller, never the database's failure (PostgreSQL's text cannot hold it:
    some 20 routes that looked such an id up, and the host's routes that store a reason,
    answered 500 there; the fuzzing found it on PostgreSQL)."""
    calls = nul_calls()
    assert len(calls) > 40, calls
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        for caller in (None, server.token, ADMIN_TOKEN):
            for verb, path, query, body in calls:
                response = http.request(verb, path, params=query, json=body, headers=auth(caller))
                assert response.status_code == 422, (verb, path, query, body, response.text)
                assert "NUL" in response.json()["detail"], (verb, path, query, body)


def test_the_chips_still_add_up(server: Fuzzed) -> None:
    """Whatever the host's fuzzed grants, takes, closes and bot removals did, every chip is
    still accounted for."""
    audit = httpx.get(f"{server.base_url}/api/admin/audit", headers=auth(ADMIN_TOKEN)).json()
    assert audit["balanced"], audit
