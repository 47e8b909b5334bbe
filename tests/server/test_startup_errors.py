"""``python -m app serve`` as a real subprocess: the server as it is run serves with the HTTP
guards of app/server.py and lifts its open file limit; and a start-up that cannot work (a
bad ``DATABASE_URL``, a database that cannot be reached or was never migrated) ends at once
with one clear line on stderr and a non-zero status, not a traceback."""

from __future__ import annotations

import resource
import signal
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.conftest import _postgres_reachable, free_port
from tests.server.test_settings_and_cli import PYTHON, clean_env


@contextmanager
def served(
    tmp_path: Path, database_url: str, **env: str
) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """The server running as ``python -m app serve`` does, its soft open file limit
    lowered to 256 first (as a shell's ``ulimit -n 256`` would)."""
    port = free_port()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    process = subprocess.Popen(
        [PYTHON, "-m", "app", "serve"],
        cwd=tmp_path,  # no .env file here
        env=clean_env(DATABASE_URL=database_url, PORT=str(port), **env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=low_limit,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, process.communicate()[1]
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.1)
        yield process, port
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)


def open_file_limits(pid: int) -> tuple[int, int]:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError("no open file limit")


def test_the_served_server_lifts_its_file_limit_and_cuts_off_slow_headers(
    tmp_path: Path, database_url: str
) -> None:
    with served(tmp_path, database_url, HTTP_HEADER_TIMEOUT="0.5") as (process, port):
        soft, hard = open_file_limits(process.pid)
        assert soft == hard, (soft, hard)
        assert soft > 256
        # the timeout: a deadline for a server that never answers, never a measure
        with socket.create_connection(("127.0.0.1", port), timeout=30) as slow:
            slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never ended
            answer = b""
            while chunk := slow.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer


# --------------------------------------------------------------------------- refused starts


PG = "postgresql+asyncpg://postgres@127.0.0.1:5432"


def refused_start(tmp_path: Path, database_url: str, **env: str) -> str:
    """``python -m app serve`` that must end at once: its stderr, one line."""
    result = subprocess.run(
        [PYTHON, "-m", "app", "serve"],
        cwd=tmp_path,
        env=clean_env(DATABASE_URL=database_url, PORT=str(free_port()), **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    assert lines[0].startswith("table31: cannot start: ")
    return lines[0]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("not a url", "is not a database URL"),
        ("postgresql+asyncpg://postgres@127.0.0.1:notaport/x", "is not a database URL"),
        ("mysql+aiomysql://user@db/table31", "'mysql+aiomysql', which this server cannot use"),
        ("postgresql://postgres@127.0.0.1/table31", "write postgresql+asyncpg://"),
        ("sqlite:///table31.db", "write sqlite+aiosqlite://"),
        ("postgresql+asyncpg://", "names no database"),
        (f"{PG}", "names no database"),
        ("postgresql+asyncpg://postgres:s3cret@127.0.0.1:5432/", "names no database"),
        ("sqlite+aiosqlite://", "names no SQLite file"),
        ("sqlite+aiosqlite:///:memory:", "names no SQLite file"),
    ],
)
def test_a_database_url_the_server_cannot_use_is_refused_in_one_line(
    tmp_path: Path, url: str, says: str
) -> None:
    line = refused_start(tmp_path, url)
    assert says in line, line
    assert "s3cret" not in line


def test_a_database_that_cannot_be_opened_is_refused_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    line = refused_start(tmp_path, f"sqlite+aiosqlite:///{missing}")
    assert "does not exist" in line and "alembic upgrade head" in line
    assert not missing.exists(), "the check must not create the file"
    line = refused_start(tmp_path, f"sqlite+aiosqlite:///{tmp_path}/no/such/folder/x.db")
    assert "does not exist" in line


def test_a_database_never_migrated_is_refused_in_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    line = refused_start(tmp_path, f"sqlite+aiosqlite:///{empty}")
    assert "has not been migrated" in line and "alembic upgrade head" in line


def test_a_database_behind_the_code_is_refused_in_one_line(
    tmp_path: Path, database_url: str
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("the SQLite copy is altered here")
    with sqlite3.connect(database_url.split("///", 1)[1]) as db:
        db.execute("UPDATE alembic_version SET version_num = '0001'")
    line = refused_start(tmp_path, database_url)
    assert "is at migration 0001" in line and "alembic upgrade head" in line


def test_postgresql_unreachable_or_missing_is_refused_in_one_line(tmp_path: Path) -> None:
    line = refused_start(tmp_path, "postgresql+asyncpg://postgres@127.0.0.1:1/table31")
    assert "cannot open PostgreSQL database 'table31' at 127.0.0.1:1" in line
    if not _postgres_reachable(f"{PG}/postgres"):
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    line = refused_start(tmp_path, f"{PG}/t31_no_such_database")
    assert 'database "t31_no_such_database" does not exist' in line
    # the server's default database, never migrated for Table 31
    line = refused_start(tmp_path, f"{PG}/postgres")
    assert "has not been migrated" in line


def test_a_refused_setting_is_one_line(tmp_path: Path) -> None:
    line = refused_start(tmp_path, f"sqlite+aiosqlite:///{tmp_path}/x.db", ENVIRONMENT="production")
    assert "SECRET_KEY" in line


def test_a_port_in_use_is_refused_before_any_table_is_recovered(
    tmp_path: Path, database_url: str
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [PYTHON, "-m", "app", "serve"],
            cwd=tmp_path,
            env=clean_env(DATABASE_URL=database_url, PORT=str(port), HOST="127.0.0.1"),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.strip() == (
        f"table31: cannot start: cannot listen on 127.0.0.1:{port}: Address already in use"
    ), result.stderr[-2000:]
