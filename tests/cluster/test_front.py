"""The cluster's front: nginx as app/cluster/nginx.py writes it, and ``python -m app cluster``.

* The config nginx is given is one nginx accepts (``nginx -t``), the launcher's and the one
  docker-compose.yml mounts (deploy/nginx.cluster.conf, which must be what nginx.py writes).
* Routing, against two small nodes of the test's own (real uvicorn servers, real sockets)
  whose route endpoint the test controls: a table's socket reaches the node the route answer
  names, with the table id in the route subrequest (a regex location's capture, read in an
  auth_request subrequest), its query string intact, the client's own X-Forwarded-For
  replaced, a close code (4409) passed through; REST goes to every node in turn and a node
  that is down is skipped, POST included (refused before anything was sent).
* A real cluster (two ``python -m app serve`` nodes on PostgreSQL and Redis): a player signs
  in, opens a table, connects its socket and plays, all through the front; the socket reached
  the table's owner; every node's ``/metrics`` answers.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import subprocess
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from app.cluster import nginx
from tests.client import Player
from tests.cluster.harness import (  # noqa: F401 - the fixture
    PG_SERVER,
    REDIS_SERVER,
    Cluster,
    cluster_factory,
    cluster_problem,
    need_cluster,
)

pytestmark = pytest.mark.cluster

FRONT_PORT = 18440
STUB_PORTS = (18441, 18442)
DEAD_NODE = "127.0.0.1:18443"
CLUSTER_PORT = 18400


def need_nginx() -> None:
    if not nginx.nginx_binary():
        pytest.skip("cluster test skipped: nginx is not installed")


# --------------------------------------------------------------------------- the config


def test_the_config_renders_and_nginx_accepts_it(tmp_path: Path) -> None:
    need_nginx()
    front = nginx.Front(tmp_path, "127.0.0.1:18499", ["127.0.0.1:1", "127.0.0.1:2", "10.0.0.3:4"])
    front.write()
    assert "syntax is ok" in front.test()
    text = front.config.read_text()
    for node in front.nodes:
        assert f"server {node} " in text
    assert f"pid {tmp_path.resolve()}/nginx.pid;" in text
    with pytest.raises(ValueError):
        nginx.render([], "1", tmp_path)
    # a broken config is refused, with nginx's reason
    front.config.write_text(text.replace("auth_request_set", "auth_request_sett"))
    with pytest.raises(RuntimeError, match="auth_request_sett"):
        front.test()


def test_the_compose_front_is_the_one_nginx_py_writes(tmp_path: Path) -> None:
    """deploy/nginx.cluster.conf is written by ``python -m app.cluster.nginx``: edited by hand
    it would drift from the routing tested here. nginx accepts it."""
    need_nginx()
    shipped = nginx.COMPOSE_CONFIG.read_text()
    assert shipped == nginx.compose_config(), "run: python -m app.cluster.nginx"
    assert "resolver 127.0.0.11" in shipped
    (tmp_path / "nginx.conf").write_text(shipped)
    binary = nginx.nginx_binary() or "nginx"
    done = subprocess.run(
        [binary, "-t", "-p", f"{tmp_path}/", "-c", "nginx.conf", "-g", f"pid {tmp_path}/x.pid;"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- routing


class StubNode:
    """A small real node: a route endpoint answering from ``owners``, a table socket that
    says who served it, and a REST echo. Serves on 127.0.0.1:``port`` in the test's loop."""

    def __init__(self, port: int, owners: dict[str, str]) -> None:
        self.port = port
        self.address = f"127.0.0.1:{port}"
        self.owners = owners
        self.asked: list[dict[str, Any]] = []
        self.posts = 0
        app = Starlette(
            routes=[
                Route("/api/cluster/route", self.route),
                WebSocketRoute("/ws/tables/{table_id}", self.socket),
                Route("/api/echo", self.echo, methods=["GET", "POST"]),
            ]
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.task: asyncio.Task[None] | None = None

    async def route(self, request: Request) -> Response:
        table = request.query_params.get("table", "")
        self.asked.append(
            {"table": table, "method": request.method, **{k: v for k, v in request.headers.items()}}
        )
        if table not in self.owners:
            return Response(status_code=404)
        return Response(headers={nginx.ROUTE_HEADER: self.owners[table]})

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_json(
            {
                "node": self.address,
                "table": websocket.path_params["table_id"],
                "query": websocket.url.query,
                "forwarded_for": websocket.headers.get("x-forwarded-for"),
                "host": websocket.headers.get("host"),
            }
        )
        text = await websocket.receive_text()
        if text == "close 4409":
            await websocket.close(4409, "this table is served by another node; ask again")
            return
        await websocket.send_text(f"{self.address}: {text}")
        await websocket.close()

    async def echo(self, request: Request) -> Response:
        if request.method == "POST":
            self.posts += 1
        return JSONResponse({"node": self.address})

    async def start(self) -> None:
        self.task = asyncio.create_task(self.server.serve())
        while not self.server.started:
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self.server.should_exit = True
        if self.task is not None:
            await asyncio.wait_for(self.task, 30)


@pytest.fixture
async def stubs(tmp_path: Path) -> AsyncIterator[tuple[nginx.Front, list[StubNode]]]:
    need_nginx()
    owners: dict[str, str] = {}
    nodes = [StubNode(port, owners) for port in STUB_PORTS]
    # t-dead: its owner has just died (nothing listens at its address)
    owners.update({"t-a": nodes[0].address, "t-b": nodes[1].address, "t-dead": DEAD_NODE})
    for node in nodes:
        await node.start()
    front = nginx.Front(tmp_path, f"127.0.0.1:{FRONT_PORT}", [n.address for n in nodes], workers=1)
    await asyncio.to_thread(front.start)
    try:
        yield front, nodes
    finally:
        front.stop()
        for node in nodes:
            await node.stop()


async def test_a_tables_socket_reaches_the_node_the_route_names(
    stubs: tuple[nginx.Front, list[StubNode]],
) -> None:
    _, (a, b) = stubs
    url = f"ws://127.0.0.1:{FRONT_PORT}/ws/tables"
    for table, owner in (("t-a", a), ("t-b", b), ("t-b", b), ("t-a", a)):
        async with websockets.connect(
            f"{url}/{table}?token=tok&invite=inv", additional_headers={"X-Forwarded-For": "6.6.6.6"}
        ) as ws:
            hello = json.loads(await ws.recv())
            assert hello == {
                "node": owner.address,
                "table": table,
                "query": "token=tok&invite=inv",
                "forwarded_for": "127.0.0.1",  # the client's own header is replaced
                "host": f"127.0.0.1:{FRONT_PORT}",
            }
            await ws.send("hello")
            assert await ws.recv() == f"{owner.address}: hello"
    asked = a.asked + b.asked
    # the table id reached the subrequest; it is a GET without the socket's upgrade
    assert sorted(r["table"] for r in asked) == ["t-a", "t-a", "t-b", "t-b"]
    assert {r["method"] for r in asked} == {"GET"}
    assert all("upgrade" not in r and r.get("x-forwarded-for") == "127.0.0.1" for r in asked)
    assert a.asked and b.asked, "the route is asked of every node in turn"

    # a close code the node gives reaches the client as it was
    async with websockets.connect(f"{url}/t-b") as ws:
        await ws.recv()
        await ws.send("close 4409")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4409
    assert closed.value.rcvd.reason == "this table is served by another node; ask again"

    # no route answer, no socket: the handshake is refused before any node sees it
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(f"{url}/t-unknown"):
            pass
    assert refused.value.response.status_code == 500
    # an owner that cannot be reached: 502, and the client tries again later
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(f"{url}/t-dead"):
            pass
    assert refused.value.response.status_code == 502
    # not a table id: not routed as a socket
    with pytest.raises(websockets.InvalidStatus):
        async with websockets.connect(f"{url}/a/b"):
            pass


async def test_rest_goes_to_every_node_and_skips_one_that_is_down(
    stubs: tuple[nginx.Front, list[StubNode]],
) -> None:
    _, (a, b) = stubs
    async with httpx.AsyncClient(timeout=30, base_url=f"http://127.0.0.1:{FRONT_PORT}") as http:
        served = Counter([(await http.get("/api/echo")).json()["node"] for _ in range(10)])
        assert served == {a.address: 5, b.address: 5}
        await a.stop()
        for _ in range(6):
            got = await http.get("/api/echo")
            assert got.status_code == 200 and got.json()["node"] == b.address
            # a POST refused at connect was never sent: it goes to the next node once
            posted = await http.post("/api/echo", json={})
            assert posted.status_code == 200 and posted.json()["node"] == b.address
        assert b.posts == 6


# --------------------------------------------------------------------------- a real cluster


async def test_a_player_plays_through_the_front(cluster_factory: Any) -> None:  # noqa: F811
    cluster: Cluster = cluster_factory("t31_d_front", 2, base_port=CLUSTER_PORT, redis_db=4)
    await cluster.wait_healthy_async()
    front = type("Front", (), {"base_url": cluster.url, "ws_url": cluster.ws_url})
    players = [await Player.join(front, f"Front {i}") for i in range(2)]
    try:
        table_id = await players[0].open_table("greek-31", turn_seconds=2)
        async with httpx.AsyncClient(timeout=30) as http:
            answers = [
                (await http.get(f"{cluster.node_url(n)}/api/cluster/route?table={table_id}"))
                for n in cluster.node_ids
            ]
        owners = {r.headers[nginx.ROUTE_HEADER] for r in answers}
        assert len(owners) == 1, f"the nodes disagree on the owner: {owners}"
        owner = next(n for n in cluster.node_ids if cluster.node_address(n) in owners)
        for person in players:
            await person.connect(table_id)
            await person.sit(300)
        rng = random.Random(31)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        acked = 0
        while acked < 6 or players[0].view is None or players[0].view["hands_dealt"] < 2:
            assert loop.time() < deadline, f"no play through the front: {players[0].view}"
            movers = [p for p in players if p.view and p.view["legal"]]
            if not movers:
                await asyncio.sleep(0.02)
                continue
            person = rng.choice(movers)
            action = person.random_legal(rng)
            assert action is not None
            answer = await person.act(action)
            acked += answer["type"] == "ack"
        # REST about the table is answered by every node, through the front
        for _ in range(4):
            got = await players[1].http.get(f"/api/tables/{table_id}")
            assert got.status_code == 200, got.text
        # each node's /metrics answers; the owner holds the table and both sockets
        host = {"authorization": f"Bearer {cluster.admin_token}"}  # /metrics: the host's only
        async with httpx.AsyncClient(timeout=30, headers=host) as http:
            for node in cluster.node_ids:
                text = (await http.get(f"{cluster.node_url(node)}/metrics")).text
                sockets = _gauge(text, "table31_connections")
                assert sockets == (2 if node == owner else 0), (node, sockets)
            assert (await http.get(f"{cluster.url}/metrics")).status_code == 200
    finally:
        for person in players:
            await person.close()


def _gauge(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} is not in /metrics"
    return float(found.group(1))


async def test_a_moved_tables_socket_asks_again_and_reaches_the_new_owner(
    cluster_factory: Any,  # noqa: F811
) -> None:
    """The owner stops (SIGTERM): the socket is closed with 4409; asked again through the
    front it reaches the node that took the table over, whose versions go on from higher."""
    cluster: Cluster = cluster_factory(
        "t31_d_move", 2, base_port=CLUSTER_PORT + 10, redis_db=4, env={"LEASE_SECONDS": "3"}
    )
    await cluster.wait_healthy_async()
    front = type("Front", (), {"base_url": cluster.url, "ws_url": cluster.ws_url})
    person = await Player.join(front, "Mover")
    try:
        table_id = await person.open_table("greek-31")
        await person.connect(table_id)
        await person.sit(300)
        before = person.version
        owner = await _owner(cluster, table_id)
        cluster.kill(owner, signal.SIGTERM)
        with pytest.raises(ConnectionError):  # what comes until the node closes the socket
            while True:
                await person.receive(30)
        assert person.ws.close_code == 4409, (person.ws.close_code, person.ws.close_reason)
        assert await asyncio.to_thread(cluster.wait_exit, owner, 60) is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60  # for a stuck run only
        url = f"{cluster.ws_url}/ws/tables/{table_id}?token={person.token}"
        closes: list[int | None] = []
        while True:
            assert loop.time() < deadline, f"never served again; closes {closes}"
            async with websockets.connect(url) as ws:
                try:
                    first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                except websockets.ConnectionClosed:
                    closes.append(ws.close_code)
                    await asyncio.sleep(0.25)
                    continue
            break
        assert set(closes) <= {4409}, closes
        assert first["type"] == "state"
        assert first["version"] > before and first["version"] >= 1_000_000_000
        assert first["view"]["you"] is not None, "the seat is kept across the move"
        other = next(n for n in cluster.node_ids if n != owner)
        assert await _owner(cluster, table_id, [other]) == other
    finally:
        await person.close()


async def _owner(cluster: Cluster, table_id: str, nodes: list[str] | None = None) -> str:
    """The node every node (of ``nodes``) names as the table's owner."""
    async with httpx.AsyncClient(timeout=30) as http:
        answers = {
            (await http.get(f"{cluster.node_url(n)}/api/cluster/route?table={table_id}")).headers[
                nginx.ROUTE_HEADER
            ]
            for n in nodes or cluster.node_ids
        }
    assert len(answers) == 1, f"the nodes disagree on the owner: {answers}"
    return next(n for n in cluster.node_ids if cluster.node_address(n) in answers)


async def test_the_front_reaches_a_node_in_its_namespace_and_skips_it_cut_off(
    cluster_factory: Any,  # noqa: F811
) -> None:
    """A node on another address (its own network namespace) is reached by the front. Cut
    off, it is skipped: every request is still answered, by the other node (the front gives
    up on the silent one after its connect timeout, 2 s); and a socket to it, which nothing
    resets, is closed by the front once the node has been silent for the socket timeout (3 s
    here; the client then asks again). No wait is measured: the 30 s deadlines are for a
    stuck run, long past those timeouts, and short of nginx's defaults (60 s) that a front
    without them would wait."""
    cluster: Cluster = cluster_factory(
        "t31_d_netns",
        2,
        base_port=CLUSTER_PORT + 20,
        redis_db=4,
        netns=True,
        front_socket_timeout="3s",
    )
    await cluster.wait_healthy_async()
    cluster.kill("n2", signal.SIGTERM)
    assert await asyncio.to_thread(cluster.wait_exit, "n2", 60) is not None
    cluster.start("n2", netns=True)
    await cluster.wait_healthy_async()
    assert cluster.node_address("n2").startswith("10.231.")
    front = type("Front", (), {"base_url": cluster.url, "ws_url": cluster.ws_url})
    person = await Player.join(front, "Spectator")
    try:
        tables = [await person.open_table("greek-31") for _ in range(2)]
        owners = {await _owner(cluster, t): t for t in tables}
        assert set(owners) == {"n1", "n2"}, "new tables go to the least busy node"
        await person.connect(owners["n2"], token=False)  # a spectator, through the front
        host = {"authorization": f"Bearer {cluster.admin_token}"}  # /metrics: the host's only
        async with httpx.AsyncClient(base_url=cluster.url, timeout=30, headers=host) as http:
            served: Counter[str] = Counter()
            for _ in range(8):
                got = await http.get("/metrics")
                assert got.status_code == 200
                served[_node_of(got.text)] += 1
            assert served == {"n1": 4, "n2": 4}
            await person.send({"type": "ping"})  # the socket is alive, through the front
            await person.next_of("pong")
            cluster.cut_off("n2")
            try:
                loop = asyncio.get_running_loop()
                for _ in range(8):
                    got = await http.get("/metrics")
                    assert got.status_code == 200 and _node_of(got.text) == "n1"
                closed_by = loop.time() + 30
                with pytest.raises(ConnectionError):  # not a TimeoutError: closed, not stuck
                    while True:
                        await person.receive(max(0.1, closed_by - loop.time()))
            finally:
                cluster.reconnect("n2")
    finally:
        await person.close()


def _node_of(metrics: str) -> str:
    """The node whose /metrics this is (its info metric's label)."""
    found = re.search(r'table31_node_info\{node="([\w-]+)"', metrics)
    assert found, "no table31_node_info in /metrics"
    return found.group(1)


def test_a_live_socket_outlasts_the_fronts_socket_timeout() -> None:
    """The front closes a socket whose node has sent nothing for SOCKET_READ_TIMEOUT; the nodes
    ping every socket more often than that (twice within it: one lost ping is no close), so
    only a socket whose node is gone is closed (tried by hand: a silent client at a quiet
    table stayed 60 s behind a front timing out at 25 s)."""
    from app.server import uvicorn_config
    from tests.conftest import make_settings

    config = uvicorn_config(object(), make_settings("sqlite+aiosqlite:///unused.db"))
    timeout = float(nginx.SOCKET_READ_TIMEOUT.removesuffix("s"))
    assert config.ws_ping_interval is not None
    assert 2 * config.ws_ping_interval < timeout
