"""Real storage faults for the storage tests, each one that happens to hosts:

* :func:`kill_writer`: ``kill -9`` of the server's writer process;
* :class:`FullDisk`: the SQLite file on a small file system of its own (tmpfs), which fills
  up, then is given room again (root only: skipped with a notice elsewhere);
* :class:`PostgresLine`: the server reaches PostgreSQL through this TCP relay, which the test
  cuts (every connection dropped, new ones refused) and mends: PostgreSQL unreachable for a
  while;
* :func:`drop_postgres_connections`: PostgreSQL ends every connection of the server's (as a
  restart of PostgreSQL does), so the write in flight fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from tests.conftest import LiveServer


def kill_writer(live: LiveServer) -> None:
    """``kill -9`` of the server's writer process (the server itself goes on)."""
    pid = getattr(live.services.writer, "pid", None)
    assert pid is not None, "the server's writer is not a process"
    os.kill(pid, signal.SIGKILL)


class FullDisk:
    """A tmpfs of ``size`` bytes holding the SQLite database: it fills up as hands are
    written; :meth:`make_room` gives it ``room`` bytes more."""

    def __init__(self, template: Path, size: int) -> None:
        self.template = template
        self.size = size
        self.dir = Path(tempfile.mkdtemp(prefix="table31-full-"))

    def mount(self) -> str:
        """The database URL on the small file system (skips the test when it cannot mount)."""
        import pytest

        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs", str(self.dir)],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            pytest.skip(f"NOTICE: cannot mount a small file system here: {done.stderr!r}")
        shutil.copy(self.template, self.dir / "table31.db")
        return f"sqlite+aiosqlite:///{self.dir / 'table31.db'}"

    def fill(self) -> None:
        """Take what is left, so that the next write finds the disk full."""
        with contextlib.suppress(OSError), open(self.dir / "filler", "wb") as filler:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()

    def make_room(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.dir / "filler").unlink()

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.dir)], capture_output=True, check=False)
        with contextlib.suppress(OSError):
            self.dir.rmdir()


class PostgresLine:
    """A TCP relay between the server and PostgreSQL that the test cuts and mends."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.target = (parsed.host or "127.0.0.1", parsed.port or 5432)
        self.parsed = parsed
        self.cut = False
        self.pairs: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        """The database URL through the relay."""
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return str(self.parsed.set(port=port).render_as_string(hide_password=False))

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cut:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.pairs |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.close()
                self.pairs.discard(dst)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut_off(self) -> None:
        """PostgreSQL unreachable: every connection dropped, new ones refused."""
        self.cut = True
        for writer in list(self.pairs):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self.pairs.clear()

    def mend(self) -> None:
        self.cut = False

    async def stop(self) -> None:
        self.cut_off()
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)


async def drop_postgres_connections(url: str) -> int:
    """PostgreSQL ends every other connection to the server's database; how many."""
    parsed = make_url(url)
    conn: Any = await asyncpg.connect(
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        database=parsed.database,
    )
    try:
        rows = await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()",
            parsed.database,
        )
    finally:
        await conn.close()
    return len(rows)
