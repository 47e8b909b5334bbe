"""Shared fixtures: a migrated database per test and the real app on a real socket.

The suite runs on SQLite by default. ``TEST_DATABASE_URL`` (``make test-pg``) points it at
PostgreSQL instead; when that server cannot be reached the run stops at once with a notice
and exit status 0, so a machine without PostgreSQL still passes ``make test``.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import shutil
import socket
import ssl
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from alembic import command
from alembic.config import Config

from app.core.config import Settings
from app.i18n.negotiate import LANG_COOKIE
from app.main import create_app
from app.server import uvicorn_config
from app.services import Services

ROOT = Path(__file__).resolve().parents[1]

# Every test client speaks plain HTTP to 127.0.0.1, yet each httpx client would load the CA
# bundle for TLS it never uses: some 30 ms of CPU a client, thousands of clients a run (a fifth
# of the socket tests' CPU in a profile). One context, made once, serves them all.
_TLS = ssl.create_default_context()
httpx.AsyncClient.__init__ = functools.partialmethod(  # type: ignore[method-assign]
    httpx.AsyncClient.__init__, verify=_TLS
)
ADMIN_TOKEN = "test-admin-token"
TABLE_NAMES = (
    "hand_players",
    "hands",
    "shoes",
    "seats",
    "ledger_entries",
    "accounts",
    "host_actions",
    "device_tokens",
    "server_settings",
    "tables",
    "players",
)


def migrate(url: str) -> None:
    """Run ``alembic upgrade head`` against ``url`` (in a thread: env.py runs its own loop)."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    errors: list[BaseException] = []

    def run() -> None:
        try:
            command.upgrade(config, "head")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _postgres_reachable(url: str) -> bool:
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    try:
        with socket.create_connection((parsed.host or "127.0.0.1", parsed.port or 5432), 2):
            return True
    except OSError:
        return False


def pytest_configure(config: pytest.Config) -> None:
    url = os.environ.get("TEST_DATABASE_URL", "")
    if url.startswith("postgresql") and not _postgres_reachable(url):
        pytest.exit(
            f"NOTICE: PostgreSQL at {url} is not reachable: skipping the PostgreSQL pass.",
            returncode=0,
        )
    gc.disable()  # until the suite is collected: pytest_collection, below


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    """The suite is collected with the collector off, and what the collection built is then
    frozen (as the server does with what its start built, app/ops/collector.py). Every xdist
    worker collects the whole suite: the test modules, the app they import, schemathesis's
    cases; some 750,000 objects that live as long as the worker, which CPython's collections
    walked again and again while they were built (a third of a worker's collection CPU) and
    every full collection of the run walked once more."""
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


# ---------------------------------------------------------------------- the longest files first

DURATIONS_KEY = "table31/file_seconds"
"""Where the last runs left how long each test file took (pytest's cache, .pytest_cache)."""
LONG_FILES = {
    "tests/restart/test_restart_property.py": 45,
    "tests/storage/test_storage_fault_property.py": 15,
    "tests/browser/test_evening_browser.py": 45,
    "tests/browser/test_accessibility_browser.py": 20,
    "tests/browser/test_review_browser.py": 20,
    "tests/cluster/test_house_bank.py": 20,
    "tests/cluster/test_handover.py": 15,
    "tests/bench/test_bench_cluster_smoke.py": 35,
    "tests/browser/test_room_evening_browser.py": 60,
    "tests/browser/test_screens_browser.py": 40,
    "tests/analysis/test_bot_levels.py": 30,
    "tests/review/test_analysis_api.py": 30,
    "tests/server/test_startup_errors.py": 30,
    "tests/restart/test_restart_regressions.py": 25,
    "tests/browser/test_pseudo_locale_browser.py": 80,
    "tests/browser/test_pseudo_locale_host_browser.py": 30,
}
"""Seconds some files take alone, where no run has left its durations yet (a fresh clone): the
files of one long test, which would otherwise be handed out last."""


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _known_seconds(config: pytest.Config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    return {**LONG_FILES, **(cache.get(DURATIONS_KEY, {}) if cache else {})}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist's main process reads the durations once and hands them to every worker:
    each worker must collect the same order (another run may write the cache meanwhile)."""
    node.workerinput[DURATIONS_KEY] = _known_seconds(node.config)


PASS_FOLDERS = {"browser": ("tests/browser/",), "cluster": ("tests/cluster/", "tests/bench/")}
"""Where the tests of each marker live: the Makefile's browser and cluster passes collect only
these folders (each worker collecting the whole suite, only to deselect it, cost seconds of
CPU each), so a test so marked anywhere else would run in no pass: the collection refuses it."""


def _misplaced(items: list[pytest.Item]) -> list[str]:
    return [
        f"{item.nodeid} (marked {marker}: put it under {' or '.join(folders)})"
        for item in items
        for marker, folders in PASS_FOLDERS.items()
        if item.get_closest_marker(marker) and not item.nodeid.startswith(folders)
    ]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A browser or cluster test outside its pass's folders stops the run (PASS_FOLDERS).

    The longest files first. pytest-xdist (``--dist loadfile --no-loadscope-reorder``) hands
    each worker one file at a time in this order; a file of one long test handed out last kept
    one worker busy while the others had finished (40 s of the SQLite pass). The order of the
    tests within a file, and of files of equal weight, is kept."""
    misplaced = _misplaced(items)
    if misplaced:
        raise pytest.UsageError("tests no pass of make test would run:\n" + "\n".join(misplaced))
    worker = getattr(config, "workerinput", None) or {}
    seconds = worker.get(DURATIONS_KEY) or _known_seconds(config)
    items.sort(key=lambda item: -seconds.get(_file_of(item.nodeid), 0.0))


_file_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _file_seconds[_file_of(report.nodeid)] = (
        _file_seconds.get(_file_of(report.nodeid), 0.0) + report.duration
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The run's seconds per file into the cache, for the next run's order (by the main
    process, which gets every worker's reports; files this run did not run keep theirs)."""
    cache = getattr(session.config, "cache", None)
    if cache is None or hasattr(session.config, "workerinput") or not _file_seconds:
        return
    known: dict[str, float] = cache.get(DURATIONS_KEY, {})
    known.update({name: round(value, 1) for name, value in _file_seconds.items()})
    cache.set(DURATIONS_KEY, known)


def pytest_report_header(config: pytest.Config) -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    return f"database: {url if url else 'SQLite (a fresh migrated file per test)'}"


def _worker_database(url: str) -> str:
    """Under pytest-xdist each worker gets a database of its own, ``<name>_<worker>``, created
    on first use, so parallel workers never truncate each other's tables."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    import asyncpg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    name = f"{parsed.database}_{worker}"

    async def create() -> None:
        conn = await asyncpg.connect(
            host=parsed.host or "127.0.0.1",
            port=parsed.port or 5432,
            user=parsed.username or "postgres",
            password=parsed.password,
            database=parsed.database,
        )
        try:
            exists = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
            if not exists:
                await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create())
    return str(parsed.set(database=name).render_as_string(hide_password=False))


@pytest.fixture(scope="session")
def postgres_url() -> str | None:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        url = _worker_database(url)
        migrate(url)
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    migrate(f"sqlite+aiosqlite:///{path}")
    return path


async def _truncate(url: str) -> None:
    from sqlalchemy import text

    from app.db.session import make_engine

    engine = make_engine(url)
    async with engine.begin() as conn:
        # fail loudly rather than wait forever on a lock another run holds
        await conn.execute(text("SET LOCAL lock_timeout = '30s'"))
        await conn.execute(text(f"TRUNCATE {', '.join(TABLE_NAMES)} RESTART IDENTITY CASCADE"))
    await engine.dispose()


@pytest.fixture
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_template: Path,
    postgres_url: str | None,
) -> Iterator[str]:
    """A migrated, empty database for one test."""
    if postgres_url:
        asyncio.run(_truncate(postgres_url))
        yield postgres_url
        return
    path = tmp_path / "table31.db"
    shutil.copy(sqlite_template, path)
    yield f"sqlite+aiosqlite:///{path}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_settings(database_url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "environment": "test",
        "database_url": database_url,
        "admin_token": ADMIN_TOKEN,
        "secret_key": "test-secret-key-0123456789",
        "next_hand_seconds": 0.05,
        "bot_delay_seconds": 0.01,
        "messages_per_second": 1000.0,
        "message_burst": 1000,
        "port": free_port(),
        "enabled_games": "all",
        # a thread: each test's server starts in milliseconds; the writer process (the
        # server's default) is tested in tests/db/test_writer.py, by the rules-blind client
        # and wherever a test runs `python -m app serve`
        "database_writer": "thread",
        # no analysis process behind every test that plays a hand: the analysis tests turn
        # it on (tests/review/test_analysis_api.py); a hand is still analysed when asked for
        "analysis_after_hand": False,
        # a finished hand's estimates from 30 simulated hands an option, not 1,000: the served
        # analysis is checked for its shape, privacy and flow (tests/review/test_analysis_api.py);
        # its figures' accuracy is tested on the analysers at full effort (tests/analysis/)
        "analysis_samples": 30,
        # the analysis's worker niced by 1, not 10: on a machine shared with other work a
        # worker at 10 gets a tenth of a busy process's share and an analysis a test waits for
        # took minutes (tests/review/test_analysis_api.py checks the niceness is applied)
        "analysis_niceness": 1,
        # every test client signs up from 127.0.0.1: no sign-up limit unless a test sets one
        # (tests/api/test_identity_hardening.py)
        "signups_per_hour": 0,
        # tests open many tables and bots as one player: no such limit unless a test sets one
        # (tests/api/test_abuse_limits.py, tests/api/test_bot_pool.py)
        "max_tables_per_player": 0,
        "max_tables_per_hour": 0,
        "max_bots_per_table": 0,
        # and bots enough: a bank of a thousand buy-ins (tests/api/test_bot_pool.py tests one
        # that cannot pay)
        "bots_float": 1_000_000,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


class LiveServer:
    """The real app served by uvicorn on a loopback port, in the test's event loop."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.base_url = f"http://127.0.0.1:{settings.port}"
        self.ws_url = f"ws://127.0.0.1:{settings.port}"
        # the server's own configuration (app/server.py), as `python -m app serve` runs it
        config = uvicorn_config(
            self.app,
            settings,
            host="127.0.0.1",
            log_level="warning",
            lifespan="on",
            # uvicorn closes an idle keep-alive connection after 5 s by default; a test that
            # waits longer and then reuses its client races that close (httpx.ReadError).
            timeout_keep_alive=300,
        )
        self.server = uvicorn.Server(config)
        self._task: asyncio.Task[None] | None = None

    @property
    def services(self) -> Services:
        services: Services = self.app.state.services
        return services

    async def start(self) -> None:
        self._task = asyncio.create_task(self.server.serve())
        for _ in range(500):
            if self.server.started:
                return
            if self._task.done():
                self._task.result()
            await asyncio.sleep(0.01)
        raise RuntimeError("the server did not start")

    async def stop(self) -> None:
        self.server.should_exit = True
        if self._task is not None:
            await asyncio.wait_for(self._task, 15)


@pytest.fixture
async def live(database_url: str) -> AsyncIterator[LiveServer]:
    server = LiveServer(make_settings(database_url))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


Serve = Callable[..., Awaitable[LiveServer]]
"""``await serve(**settings)``: the real app started with some settings changed."""


@pytest.fixture
async def serve(database_url: str) -> AsyncIterator[Serve]:
    """Start the real app with some settings changed, as often as a test needs (each stopped
    at the test's end, unless the test stopped it itself)."""
    servers: list[LiveServer] = []

    async def start(**overrides: Any) -> LiveServer:
        server = LiveServer(make_settings(database_url, **overrides))
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if not server.server.should_exit:
            await server.stop()


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the live server that names its site as a page's fetch does (a write made
    with the sign-in cookie must: app/api/middleware.py)."""
    async with site_client(live) as client:
        yield client


def site_client(live: LiveServer, language: str | None = None) -> httpx.AsyncClient:
    """A client of the live server naming its site as a page's fetch does, reading in
    ``language`` (its language cookie) when given."""
    return httpx.AsyncClient(
        base_url=live.base_url,
        headers={"origin": live.base_url},
        cookies={LANG_COOKIE: language} if language else None,
        timeout=10,
    )


@pytest.fixture
async def live_as_served(database_url: str) -> AsyncIterator[LiveServer]:
    """The real app with its database writer in a process of its own, as ``make run``
    serves it (``live`` keeps the writer on a thread, which starts in milliseconds)."""
    server = LiveServer(make_settings(database_url, database_writer="process"))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
