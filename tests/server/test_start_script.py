"""The container's start script, run directly (no Docker engine here): it waits for the
database, runs the migrations and serves — on a fresh PostgreSQL database, and on SQLite."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, _postgres_reachable, free_port

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
VENV_BIN = Path(sys.executable).parent


def run_start_script(database_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "PATH": f"{VENV_BIN}:{os.environ['PATH']}",
        "DATABASE_URL": database_url,
        "ENVIRONMENT": "production",
        "SECRET_KEY": "a-long-random-secret-for-the-start-test",
        "ADMIN_TOKEN": "start-admin",
        "PORT": str(port),
        "HOST": "127.0.0.1",
    }
    log = (tmp_path / "start.log").open("w")
    process = subprocess.Popen(
        ["sh", "docker/start.sh"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = (
            time.monotonic() + 180
        )  # for a stuck start only (a migration and a start on a busy machine)
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                if health.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, (tmp_path / "start.log").read_text()
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.2)
        audit = httpx.get(
            f"http://127.0.0.1:{port}/api/admin/audit",
            headers={"authorization": "Bearer start-admin"},
            timeout=30,  # a deadline for a stuck server, never a wait
        ).json()
        assert audit["balanced"] is True and audit["house"] > 0
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=30).json()
        assert len(games) == 5
    finally:
        process.send_signal(signal.SIGTERM)
        # uvicorn re-raises the signal it caught once the graceful shutdown is done
        assert process.wait(30) in (0, -signal.SIGTERM)
    text = (tmp_path / "start.log").read_text()
    assert "Running upgrade" in text and "0002" in text
    assert "Application shutdown complete" in text


def test_start_script_on_sqlite(tmp_path: Path) -> None:
    run_start_script(f"sqlite+aiosqlite:///{tmp_path}/fresh.db", tmp_path)


def test_start_script_on_a_fresh_postgresql_database(tmp_path: Path) -> None:
    if not _postgres_reachable("postgresql+asyncpg://postgres@127.0.0.1:5432/test"):
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    import asyncpg

    name = f"t31_start_{uuid.uuid4().hex[:8]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        run_start_script(f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}", tmp_path)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def unreachable_database_env(wait_seconds: str) -> dict[str, str]:
    """The start script's environment with a database nothing listens for."""
    return {
        **os.environ,
        "PATH": f"{VENV_BIN}:{os.environ['PATH']}",
        "DATABASE_URL": f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/nowhere",
        "DB_WAIT_SECONDS": wait_seconds,
    }


def test_start_script_keeps_trying_while_the_database_is_unreachable(tmp_path: Path) -> None:
    """Nothing listens on the database's port and the window (DB_WAIT_SECONDS) is long: the
    script tries again and again, says it is waiting, and neither gives up nor gets as far
    as the migrations. The test watches for the third attempt, then stops it."""
    log = tmp_path / "start.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            ["sh", "docker/start.sh"],
            cwd=ROOT,
            env=unreachable_database_env("600"),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the shell and its python: stopped together
        )
    try:
        deadline = time.monotonic() + 60  # for a stuck run only
        while log.read_text().count("waiting for the database") < 3:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"no third attempt: {log.read_text()}"
            time.sleep(0.1)
        assert process.poll() is None, log.read_text()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(30)
    text = log.read_text()
    assert "the database is not reachable" not in text
    assert "Running upgrade" not in text


def test_start_script_gives_up_once_its_window_is_out(tmp_path: Path) -> None:
    """A window of 0 s: the first refusal ends it, with a reason, without waiting (the
    waiting message would show a script that ignores DB_WAIT_SECONDS) and without the
    migrations."""
    done = subprocess.run(
        ["sh", "docker/start.sh"],
        cwd=ROOT,
        env=unreachable_database_env("0"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "the database is not reachable" in done.stderr
    assert "waiting for the database" not in done.stderr
    assert "Running upgrade" not in done.stdout + done.stderr
