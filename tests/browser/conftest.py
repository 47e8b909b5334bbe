"""Fixtures for the Playwright tests: the real app in a real uvicorn server, and Chromium.

The server runs as ``python -m app serve`` in a subprocess on a free port, with a fresh SQLite
database: a copy of one migrated by ``alembic upgrade head`` once per worker (tests run the
migrations; Alembic in a process of its own for each server cost two seconds of CPU a server).
Chromium is the system's ``/usr/bin/chromium``; when it is missing every browser test is skipped
with a notice (``playwright install`` is never called).
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import migrate

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
"""Chromium's headless shell (Debian's chromium-headless-shell, the same engine and version;
what Playwright itself runs headless): the tests' pages run in it where it is installed, on a
fifth less CPU than the whole browser's headless mode (Chromium is most of the browser pass's
CPU). A test that needs what only the whole browser has (notifications) asks for
``full_chromium``."""
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
ACTION_TIMEOUT = 60_000
"""Milliseconds a page's action (a click, a fill, a navigation) may wait for its element;
``expect`` waits up to EXPECT_TIMEOUT for what it asserts. Both only end a test that is stuck:
one that passes waits no longer for them, and a busy machine (every worker's Chromium drawing
tables of bots) stretches what takes a second when idle to several."""
EXPECT_TIMEOUT = 60_000
STARTUP_PATIENCE = 120.0
"""Seconds a server may take to answer once started: a guard for a stuck start only (a
start takes a second or two when idle, and 30 s was not enough with every core busy)."""


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
    deadline = time.monotonic() + STARTUP_PATIENCE
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
    tail = log_path.read_text()[-3000:]
    raise RuntimeError(f"the server did not answer within {STARTUP_PATIENCE:.0f} s:\n{tail}")


@functools.cache
def migrated_template() -> Path:
    """An SQLite database migrated by ``alembic upgrade head`` (in this process, as
    tests/conftest.py's template), once per worker: each server's database is a copy."""
    folder = Path(tempfile.mkdtemp(prefix="table31-browser-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "template.db"
    migrate(f"sqlite+aiosqlite:///{path}")
    return path


class ServedProcess:
    """``python -m app serve`` on a SQLite file of its own, migrated first: started, stopped
    and started again on the same address and database (the pages' sockets reconnect)."""

    def __init__(self, tmp: Path, **settings: str) -> None:
        self.db_path = tmp / "db.sqlite"
        self.log_path = tmp / "server.log"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{self.db_path}",
            "NEXT_HAND_SECONDS": "0.3",
            # every state a bot's act brings is drawn again by each page at the table: at
            # 0.05 s Chromium spent a sixth more CPU on it, and the pass took longer
            "BOT_DELAY_SECONDS": "0.1",
            "ENVIRONMENT": "test",
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "ENABLED_GAMES": "all",
            "ADMIN_TOKEN": ADMIN_TOKEN,
            # every browser signs up from 127.0.0.1 (tests/api/test_identity_hardening.py
            # tests the limit)
            "SIGNUPS_PER_HOUR": "0",
            # one browser's player may open many tables and bots
            # (tests/api/test_abuse_limits.py)
            "MAX_TABLES_PER_PLAYER": "0",
            "MAX_TABLES_PER_HOUR": "0",
            "MAX_BOTS_PER_TABLE": "0",
            # the session's tables keep their bots seated: the bots' bank covers them all
            # (tests/api/test_bot_pool.py tests a bank that cannot)
            "BOTS_FLOAT": "100000000",
            # the session's tables of bots play hundreds of hands: each is analysed when a
            # page asks for it (tests/browser/test_analysis_browser.py), not every one of
            # them in the background while the pass shares the cores
            "ANALYSIS_AFTER_HAND": "false",
            # as the other suites' servers (tests/conftest.py make_settings): the pages show an
            # analysis's shape; its figures' accuracy is tested on the analysers at full effort
            "ANALYSIS_SAMPLES": "30",
            "ANALYSIS_NICENESS": "1",
            # a page may be read in the pseudo-locale, by its language cookie
            # (tests/browser/test_pseudo_locale_browser.py); nobody else is offered it
            "PSEUDO_LOCALE": "true",
            **settings,
        }
        self.env.pop("JOIN_CODE", None)
        self.process: subprocess.Popen[bytes] | None = None
        shutil.copy(migrated_template(), self.db_path)

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app", "serve"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        _wait_until_up(self.url, self.process, self.log_path)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserServer]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    served = ServedProcess(tmp_path_factory.mktemp("browser-server"))
    try:
        served.start()
        yield BrowserServer(url=served.url, db_path=served.db_path, log_path=served.log_path)
    finally:
        served.stop()


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT)
    with sync_playwright() as playwright:
        yield playwright


def _launch(playwright: Any, executable: Path) -> Iterator[Any]:
    browser = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def chromium(playwright_driver: Any) -> Iterator[Any]:
    """The browser the pages run in: the headless shell where installed, else Chromium."""
    yield from _launch(playwright_driver, HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM)


@pytest.fixture(scope="session")
def full_chromium(playwright_driver: Any) -> Iterator[Any]:
    """The whole Chromium (its headless mode), for what the headless shell lacks."""
    yield from _launch(playwright_driver, CHROMIUM)


@pytest.fixture
def open_page(chromium: Any, live_server: BrowserServer) -> Iterator[Callable[..., Any]]:
    """``open_page(viewport)``: a page in its own browser context (its own cookies, so its own
    player). Uncaught script errors on any page fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] = WIDE) -> Any:
        context = chromium.new_context(
            viewport=viewport,
            base_url=live_server.url,
            # the tests' own calls (page.request) name this site as a page's fetch does: a
            # write made with the sign-in cookie must (app/api/middleware.py)
            extra_http_headers={"origin": live_server.url},
        )
        context.set_default_timeout(ACTION_TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture(autouse=True)
def _every_name_free(request: pytest.FixtureRequest) -> None:
    """Each test meets a server where no person has its names yet, as if it were fresh: the
    people of earlier tests keep their names but give up their name keys (a key that holds
    '#' matches no name), so two tests may both have an "Ada" (app/core/names.py)."""
    if "live_server" not in request.fixturenames:
        return
    server: BrowserServer = request.getfixturevalue("live_server")
    with sqlite3.connect(server.db_path, timeout=30) as db:
        db.execute(
            "UPDATE players SET name_key = name_key || '#' || id"
            " WHERE is_bot = 0 AND name_key NOT LIKE '%#%'"
        )


@pytest.fixture(scope="session", autouse=True)
def _shots_folder() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
