"""The real server as a child process, to be stopped (SIGTERM or SIGKILL) and started again.

``python -m app serve`` runs as ``make run`` runs it: its database writer in a process of its
own (the default). Each server is the leader of a new process group, so the writer goes with
it whatever happens to the test; :func:`servers` kills every group it started when the test
ends, passed or failed, and checks that none is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select, update

from app.core.config import Settings
from app.db.ledger import BOTS
from app.db.models import Account, GameTable, Hand, LedgerEntry, Player
from app.db.session import make_engine
from tests.conftest import ADMIN_TOKEN, ROOT, free_port

PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
START_BOUND = 40.0
"""Seconds a (re)started server has to answer ``/healthz``: recovery is bounded work."""
STOP_BOUND = 30.0
"""Seconds a server has to end after SIGTERM (uvicorn's graceful shutdown allows 10)."""
SECRET_KEY = "restart-test-secret-key-0123456789"


class ServerDied(AssertionError):
    """The server process ended on its own (at start-up, or while it should serve)."""


def server_env(database_url: str, port: int, **extra: str) -> dict[str, str]:
    """The environment of a test server: none of the caller's settings, short clocks."""
    settings = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in settings}
    env.update(
        ENVIRONMENT="test",
        DATABASE_URL=database_url,
        ADMIN_TOKEN=ADMIN_TOKEN,
        SECRET_KEY=SECRET_KEY,
        HOST="127.0.0.1",
        PORT=str(port),
        NEXT_HAND_SECONDS="0.1",
        BOT_DELAY_SECONDS="0.02",
        MESSAGES_PER_SECOND="1000",
        MESSAGE_BURST="1000",
        ENABLED_GAMES="all",
        SIGNUPS_PER_HOUR="0",  # the people of every table sign up from one address
        LOG_FORMAT="text",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


def _die_with_parent() -> None:
    """In the child, before ``exec``: SIGKILL when the test's process ends, however it ends
    (a test run killed in its tracks runs none of its clean-ups). Linux only."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def migrate_sqlite(template: Path, target: Path) -> str:
    """A fresh migrated SQLite database at ``target``, copied from a migrated ``template``."""
    shutil.copy(template, target)
    return f"sqlite+aiosqlite:///{target}"


class ServerProcess:
    """One ``python -m app serve`` at a time on ``database_url``; ``start`` again after a stop.

    ``base_url``/``ws_url`` are what :class:`tests.client.Player` wants; each start takes a
    fresh free port (a killed server's port may linger), so clients are rebuilt after one.
    """

    def __init__(self, database_url: str, log: Path, **env: str) -> None:
        self.database_url = database_url
        self.log = log
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def output(self, chars: int = 6000) -> str:
        """The end of the server's output (all its starts, appended)."""
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    async def start(self, bound: float = START_BOUND) -> float:
        """Start the server and wait until ``/healthz`` answers 200; the seconds it took.

        Raises :class:`ServerDied` with the server's output if it exits first, and an
        AssertionError if it does not answer within ``bound``."""
        for _ in range(3):  # a free port may be taken between looking and binding
            started = time.monotonic()
            self._spawn()
            try:
                await self._wait_healthy(started + bound)
            except ServerDied:
                if "address already in use" in self.output(2000).lower():
                    continue
                raise
            return time.monotonic() - started
        raise ServerDied(f"no free port to serve on:\n{self.output()}")

    async def start_and_kill(self, after: float) -> None:
        """Start the server and SIGKILL it ``after`` seconds into the app's start-up (the
        recovery of the tables), or when it ends, whichever comes first: a crash in the
        middle of a recovery, whose writes must be transactions too."""
        mark = self.log.stat().st_size if self.log.exists() else 0
        self._spawn()
        assert self.process is not None
        deadline = time.monotonic() + START_BOUND
        while "Waiting for application startup" not in self._output_since(mark):
            if self.process.poll() is not None or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(after)
        self.kill_group()
        with self.log.open("ab") as out:
            out.write(f"\n==== SIGKILL {after}s into the start-up\n".encode())

    def _output_since(self, offset: int) -> str:
        with self.log.open("rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def _spawn(self) -> None:
        assert not self.running, "the server is running already"
        self.port = free_port()
        with self.log.open("ab") as out:
            out.write(f"\n==== start {self.starts + 1} on port {self.port}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                [PYTHON, "-m", "app", "serve"],
                cwd=ROOT,
                env=server_env(self.database_url, self.port, **self.env),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: the writer goes with it
                preexec_fn=_die_with_parent,
            )
        self.starts += 1

    async def _wait_healthy(self, deadline: float) -> None:
        assert self.process is not None
        async with httpx.AsyncClient(base_url=self.base_url, timeout=2) as http:
            while True:
                if self.process.poll() is not None:
                    self.kill_group()
                    raise ServerDied(
                        f"the server exited ({self.process.returncode}) at start-up:\n"
                        f"{self.output()}"
                    )
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    self.kill_group()
                    raise AssertionError(f"the server did not answer /healthz:\n{self.output()}")
                await asyncio.sleep(0.05)

    def terminate(self) -> int:
        """SIGTERM, as the host's ``docker stop`` or Ctrl-C: the graceful shutdown runs.
        Returns the exit status (0, or -SIGTERM: uvicorn raises the signal again)."""
        process = self._alive()
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(STOP_BOUND)
        except subprocess.TimeoutExpired:
            self.kill_group()
            raise AssertionError(
                f"the server did not stop on SIGTERM within {STOP_BOUND}s:\n{self.output()}"
            ) from None
        self.kill_group()
        assert code in (0, -signal.SIGTERM), f"SIGTERM ended it with {code}:\n{self.output()}"
        return code

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing queued is written."""
        process = self._alive()
        os.kill(process.pid, signal.SIGKILL)
        process.wait(STOP_BOUND)
        self.kill_group()

    def stop(self, how: str) -> None:
        """``"sigterm"`` or ``"sigkill"``."""
        if how == "sigterm":
            self.terminate()
        elif how == "sigkill":
            self.kill()
        else:  # pragma: no cover - a test's typo
            raise ValueError(how)

    def _alive(self) -> subprocess.Popen[bytes]:
        process = self.process
        if process is None or process.poll() is not None:
            raise ServerDied(f"the server is not running:\n{self.output()}")
        return process

    def kill_group(self) -> None:
        """SIGKILL whatever is left of the group this server leads (its writer), and reap
        the server itself."""
        process = self.process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(STOP_BOUND)
        # the group's other members (the writer) are reaped by init; wait until gone
        deadline = time.monotonic() + 60  # for a stuck run only
        while group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.02)

    # ------------------------------------------------------------------ the host's calls

    async def admin(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async with httpx.AsyncClient(
            base_url=self.base_url,
            timeout=20,
            headers={"authorization": f"Bearer {ADMIN_TOKEN}"},
        ) as http:
            return await http.request(method, path, **kwargs)

    async def admin_json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = await self.admin(method, path, **kwargs)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json()


def group_alive(pgid: int) -> bool:
    """Whether any live process of group ``pgid`` is left. A zombie waiting for init to reap
    it (its parent, the server, is gone) has ended: it is not counted."""
    proc = Path("/proc")
    if not proc.is_dir():  # pragma: no cover - not Linux: any member, zombies too
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


@contextlib.contextmanager
def servers() -> Iterator[list[ServerProcess]]:
    """Collects the servers a test starts; at the end (passed or failed) every one of them
    and its writer is killed, and none may be left."""
    started: list[ServerProcess] = []
    try:
        yield started
    finally:
        for server in started:
            server.kill_group()
        left = [s.process.pid for s in started if s.process and group_alive(s.process.pid)]
        assert not left, f"server process groups left behind: {left}"


# ---------------------------------------------------------------------- the database itself


def owner(account: str | None) -> str | None:
    """The player an account belongs to (``bankroll:P``, ``stack:T:P``, ``bets:T:P``...),
    None for the house, a table's own accounts (``pot:T``) and the outside."""
    if account is None:
        return None
    parts = account.split(":")
    if parts[0] == "bankroll":
        return parts[1]
    return parts[2] if len(parts) == 3 else None


LEAVE_MOVES = frozenset({"bets left in the pot", "pot won"})
"""The one change of owner between hands the rules make (docs/rules.md §5.12): an En og
tredive player who leaves a match between its rounds leaves their bets in the pot, and when
that leaves one player in, that player wins the pot; both are written with the leave."""


async def ledger_faults(database_url: str) -> list[str]:
    """What in the stored ledger breaks "chips change owner only in settled hands" (but for
    :data:`LEAVE_MOVES`). The bots' bank and its bots are one owner: a bot's buy-in from the
    bank, and its chips home to it, move no chip away from the house's bots
    (app/runtime/bot_pool.py)."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            entries = (
                await conn.execute(
                    select(
                        LedgerEntry.id,
                        LedgerEntry.source,
                        LedgerEntry.target,
                        LedgerEntry.amount,
                        LedgerEntry.reason,
                        LedgerEntry.hand_id,
                    )
                )
            ).all()
            status = dict((await conn.execute(select(Hand.id, Hand.status))).all())
            negative = (
                await conn.execute(select(Account.id, Account.balance).where(Account.balance < 0))
            ).all()
            bots = set((await conn.execute(select(Player.id).where(Player.is_bot))).scalars())
    finally:
        await engine.dispose()

    def holder(account: str | None) -> str | None:
        found = owner(account)
        return BOTS if account == BOTS or found in bots else found

    faults = [f"{account} holds {balance}" for account, balance in negative]
    for entry_id, source, target, amount, reason, hand_id in entries:
        if hand_id is not None and status.get(hand_id) != "finished":
            faults.append(
                f"entry {entry_id} ({source} -> {target}, {amount}, {reason!r}) belongs to a "
                f"hand that is {status.get(hand_id)}"
            )
        elif (
            hand_id is None
            and source is not None
            and target is not None
            and holder(source) != holder(target)
            and reason not in LEAVE_MOVES
        ):
            faults.append(
                f"entry {entry_id} moved {amount} from {source} to {target} ({reason!r}) "
                "outside any hand"
            )
    return faults


async def stored_state(database_url: str, table_id: str) -> Any:
    """A table's between-hands state as stored (``tables.state``)."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            return (
                await conn.execute(select(GameTable.state).where(GameTable.id == table_id))
            ).scalar_one()
    finally:
        await engine.dispose()


async def write_state(database_url: str, table_id: str, state: Any) -> None:
    """Overwrite a table's stored state, as a bug or a hand at the database might."""
    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                update(GameTable).where(GameTable.id == table_id).values(state=state)
            )
    finally:
        await engine.dispose()
