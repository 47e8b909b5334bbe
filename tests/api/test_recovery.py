"""The crash test as the product promises it (app/runtime/table/actor.py, "A crash loses nothing").

The real server runs as a separate process (``python -m app serve``). Two players sit at a
Trianta Ena table over real sockets and play a hand to the end, then stake in the next one;
with the stake down the server is killed with SIGKILL and started again on the same database.
Then: the audit balances, the table is there with the same seats and the stacks as they were
before the interrupted hand, that hand is void in the history, and both players come back to
their seats and play a new hand.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.client import Player
from tests.conftest import ADMIN_TOKEN, free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
SETTINGS_VARS = {
    "ENVIRONMENT", "SECRET_KEY", "DATABASE_URL", "ADMIN_TOKEN", "JOIN_CODE", "ENABLED_GAMES",
    "PORT", "HOST", "NEXT_HAND_SECONDS", "BOT_DELAY_SECONDS", "STARTING_BANKROLL",
}  # fmt: skip
OPTIONS = {"min_bet": 10, "turn_seconds": 60, "bet_seconds": 60}
"""Long timers: every decision in this test is a player's, none a timeout's."""
STAKE = 10
START_BOUND = 60.0
"""Seconds a (re)started server has to answer: a deadline that only ends a server that never
comes up (a busy machine took 15 s to recover this one's table; it was 300 looks 50 ms apart)."""


def server_env(database_url: str, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS_VARS}
    env.update(
        DATABASE_URL=database_url,
        HOST="127.0.0.1",
        PORT=str(port),
        ENVIRONMENT="test",
        ADMIN_TOKEN=ADMIN_TOKEN,
        NEXT_HAND_SECONDS="0.05",
        BOT_DELAY_SECONDS="0.01",
        PYTHONPATH=str(ROOT),
    )
    return env


class ServerProcess:
    """``python -m app serve`` in a subprocess; ``base_url``/``ws_url`` as tests.client wants."""

    def __init__(self, database_url: str, port: int, log: Path) -> None:
        self.database_url = database_url
        self.port = port
        self.log = log
        self.base_url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    async def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [PYTHON, "-m", "app", "serve"],
                cwd=ROOT,
                env=server_env(self.database_url, self.port),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_BOUND
        async with httpx.AsyncClient(base_url=self.base_url, timeout=1) as http:
            while loop.time() < deadline:
                if self.process.poll() is not None:
                    raise AssertionError(f"the server exited:\n{self.output()}")
                try:
                    if (await http.get("/api/games")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.05)
        raise AssertionError(f"the server did not answer:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed."""
        assert self.process is not None and self.process.poll() is None, self.output()
        os.kill(self.process.pid, signal.SIGKILL)
        assert self.process.wait(10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(
                not os.environ.get("TEST_DATABASE_URL"), reason="TEST_DATABASE_URL is not set"
            ),
        ),
    ]
)
def server_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database the server subprocess can open."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("database_url")  # truncated for this test
        return url
    # a copy of the session's database migrated by alembic upgrade head (tests/conftest.py),
    # rather than alembic again in a process of its own
    template: Path = request.getfixturevalue("sqlite_template")
    shutil.copy(template, tmp_path / "db.sqlite")
    return f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}"


@pytest.fixture
async def server(server_database: str, tmp_path: Path) -> AsyncIterator[ServerProcess]:
    process = ServerProcess(server_database, free_port(), tmp_path / "server.log")
    await process.start()
    try:
        yield process
    finally:
        process.stop()


async def get(server: ServerProcess, path: str, token: str = ADMIN_TOKEN, **params: Any) -> Any:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
        response = await http.get(path, params=params, headers={"authorization": f"Bearer {token}"})
        assert response.status_code == 200, (path, response.text)
        return response.json()


def stacks(view: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in view["seats"]}


def betting_in_a_new_hand(seen: set[str]) -> Callable[[dict[str, Any]], bool]:
    return lambda v: (
        v["hand_id"] is not None
        and v["hand_id"] not in seen
        and any(t["kind"] == "bet" for t in v["legal"])
    )


async def test_a_killed_server_restarts_with_every_chip_in_place(
    server: ServerProcess, tmp_path: Path
) -> None:
    banker = await Player.join(server, "Banker")
    punter = await Player.join(server, "Punter")
    table_id = await banker.open_table("trianta-ena", **OPTIONS)
    await banker.connect(table_id)
    await banker.sit(300, seat=0)
    await punter.connect(table_id)
    await punter.sit(100, seat=1)

    # Play whole hands (stake, stand) until one has finished; then stake in the next and stop
    # there, with the stake down and the punter to act.
    seen: set[str] = set()
    finished: list[str] = []
    after_last_finished: dict[int, int] = {}
    while True:
        view = await punter.wait_for(betting_in_a_new_hand(seen))
        hand_id = view["hand_id"]
        seen.add(hand_id)
        before = stacks(view)  # betting phase: nothing of this hand is staked yet
        if finished:
            assert before == after_last_finished, "a hand starts from the last one's stacks"
        assert (await punter.act({"kind": "bet", "amount": STAKE}))["type"] == "ack"
        view = await punter.wait_for(
            lambda v, h=hand_id: v["hand_id"] != h or (v["phase"] == "playing" and v["turn"] == 1)
        )
        if view["hand_id"] == hand_id and finished:
            interrupted, stacks_before = hand_id, before
            mine = view["seats"][1]
            assert mine["hands"][0]["stake"] == STAKE
            assert mine["stack"] == before[1] - STAKE, "the stake is down"
            break
        if view["hand_id"] == hand_id:
            assert (await punter.act({"kind": "stand"}))["type"] == "ack"
            view = await punter.wait_for(lambda v, h=hand_id: v["hand_id"] != h)
        finished.append(hand_id)
        # the view everyone got when the hand was settled (before the next deal)
        after_last_finished = stacks(
            next(s["view"] for s in reversed(punter.states) if s["view"]["hand_id"] is None)
        )

    assert finished and sum(stacks_before.values()) == 400
    audit_before = await get(server, "/api/admin/audit")  # also: pending writes are done
    settled = [await get(server, f"/api/hands/{h}") for h in finished]
    assert all(r["settlement"] for r in settled), "chips moved in every finished hand"
    assert audit_before["balanced"] is True

    server.kill()
    for person in (banker, punter):
        await asyncio.wait_for(person.close(), 30)
    await server.start()

    # The chips: nothing created, nothing lost, and the interrupted stake is back.
    audit = await get(server, "/api/admin/audit")
    assert audit["balanced"] is True, audit
    assert audit["granted"] == audit_before["granted"] == audit["accounts_total"]

    # The table and its seats.
    listed = await get(server, "/api/tables")
    assert table_id in [t["table_id"] for t in listed]
    table = await get(server, f"/api/tables/{table_id}")
    seats = {s["seat"]: s["player_id"] for s in table["seats"]}
    assert seats == {0: banker.player_id, 1: punter.player_id}
    assert table["hands_played"] == len(finished)

    # The history: the interrupted hand is void, the finished ones are as they were.
    hands = (await get(server, "/api/hands", table_id=table_id))["hands"]
    status = {h["hand_id"]: h["status"] for h in hands}
    assert status.get(interrupted) == "void", hands
    assert all(status[h] == "finished" for h in finished), hands
    assert hands[0]["hand_id"] == interrupted
    void = await get(server, f"/api/hands/{interrupted}")
    assert void["status"] == "void" and "restart" in void["void"]
    assert (void["hand_id"], void["table_id"], void["game"]) == (
        interrupted,
        table_id,
        "trianta-ena",
    )

    # The bankrolls did not move.
    assert (await get(server, "/api/me", banker.token))["bankroll"] == 700
    assert (await get(server, "/api/me", punter.token))["bankroll"] == 900

    # Both come back to their seats and find the stacks from before the interrupted hand.
    banker = Player(server.base_url, server.ws_url, "Banker", banker.token, banker.info)
    punter = Player(server.base_url, server.ws_url, "Punter", punter.token, punter.info)
    await banker.connect(table_id)
    await punter.connect(table_id)
    assert banker.view is not None and banker.view["you"] == 0
    assert punter.view is not None and punter.view["you"] == 1
    assert stacks(punter.view) == stacks_before
    assert stacks(banker.view) == stacks_before
    # and they are told why their stake came back, though the table has dealt since
    assert "restarted" in (punter.view["table"]["message"] or "")

    # A new hand is dealt and played to the end.
    view = await punter.wait_for(betting_in_a_new_hand(seen))
    new_hand = view["hand_id"]
    assert stacks(view) == stacks_before
    assert (await punter.act({"kind": "bet", "amount": STAKE}))["type"] == "ack"
    view = await punter.wait_for(
        lambda v: v["hand_id"] != new_hand or (v["phase"] == "playing" and v["turn"] == 1)
    )
    if view["hand_id"] == new_hand:
        assert (await punter.act({"kind": "stand"}))["type"] == "ack"
    await punter.wait_for(lambda v: v["hand_id"] != new_hand)

    audit = await get(server, "/api/admin/audit")
    assert audit["balanced"] is True and audit["granted"] == audit_before["granted"]
    hands = (await get(server, "/api/hands", table_id=table_id))["hands"]
    assert hands[0]["hand_id"] == new_hand and hands[0]["status"] == "finished"
    numbers = {h["hand_id"]: h["number"] for h in hands}
    assert numbers[new_hand] == numbers[interrupted] + 1  # the void hand used its number up
    record = await get(server, f"/api/hands/{new_hand}")
    assert {s["seat"]: s["stack"] for s in record["seats_before"]} == stacks_before
    after = {s["seat"]: s["stack"] for s in record["seats_after"]}
    assert sum(after.values()) == 400 and abs(after[1] - stacks_before[1]) == STAKE
    for person in (banker, punter):
        await person.close()
