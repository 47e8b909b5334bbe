"""Fixtures for the Playwright tests: the real app in a real uvicorn server, and Chromium.

The server runs as ``python -m app serve`` in a subprocess on a free port, with a fresh SQLite
database migrated by ``alembic upgrade head`` (STYLE.md §7: tests run the migrations). Chromium is
the system's ``/usr/bin/chromium``; when it is missing every browser test is skipped with a notice
(``playwright install`` is never called).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
NO_CHROMIUM = f"Chromium is not installed at {CHROMIUM}; the browser tests need it"
SHOTS = Path("/tmp/shots")
WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 390, "height": 844}
ADMIN_TOKEN = "browser-admin-token"


@dataclass(frozen=True)
class BrowserServer:
    url: str
    db_path: Path
    log_path: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/games", timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within 30 s:\n{log_path.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserServer]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    tmp = tmp_path_factory.mktemp("browser-server")
    db_path = tmp / "db.sqlite"
    log_path = tmp / "server.log"
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{db_path}",
        "NEXT_HAND_SECONDS": "0.3",
        "BOT_DELAY_SECONDS": "0.05",
        "ENVIRONMENT": "test",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "ENABLED_GAMES": "all",
        "ADMIN_TOKEN": ADMIN_TOKEN,
    }
    env.pop("JOIN_CODE", None)
    migrated = subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if migrated.returncode != 0:
        raise RuntimeError(f"alembic upgrade head failed:\n{migrated.stderr[-3000:]}")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log_path)
        yield BrowserServer(url=url, db_path=db_path, log_path=log_path)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def open_page(chromium: Any, live_server: BrowserServer) -> Iterator[Callable[..., Any]]:
    """``open_page(viewport)``: a page in its own browser context (its own cookies, so its own
    player). Uncaught script errors on any page fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] = WIDE) -> Any:
        context = chromium.new_context(viewport=viewport, base_url=live_server.url)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture(scope="session", autouse=True)
def _shots_folder() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
