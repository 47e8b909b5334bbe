"""A stop signal to the served process: the lobby's shutdown first (the sockets still open to
be told why), then the server's own handler, which starts uvicorn's graceful shutdown."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Iterator
from types import FrameType

import pytest

from app.server import RESTARTING, drain_first


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait for ``check`` to hold; the deadline is for a stuck run only, never a measure."""
    deadline = time.monotonic() + 30
    while not check():
        assert time.monotonic() < deadline, f"{what}: never"
        await asyncio.sleep(0.01)


@pytest.fixture
def server_handler() -> Iterator[list[int]]:
    """A stand-in for uvicorn's handler, in place as uvicorn's is while it serves; the
    signals it was given."""
    given: list[int] = []

    def handle_exit(signum: int, frame: FrameType | None) -> None:
        given.append(signum)

    saved = {s: signal.signal(s, handle_exit) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield given
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


async def test_the_lobby_drains_before_the_server_is_told(server_handler: list[int]) -> None:
    drained: list[str] = []
    release = asyncio.Event()

    async def drain(reason: str) -> None:
        drained.append(reason)
        await release.wait()

    restore = drain_first(drain)
    signal.raise_signal(signal.SIGTERM)
    await until(lambda: bool(drained), "the lobby's drain started")
    assert drained == [RESTARTING]
    assert server_handler == []  # uvicorn would close the sockets now: not yet
    release.set()
    await until(lambda: bool(server_handler), "the server told once the drain is done")
    assert server_handler == [signal.SIGTERM]
    assert drained == [RESTARTING]
    restore()
    signal.raise_signal(signal.SIGTERM)  # the server's own handler again
    assert server_handler == [signal.SIGTERM, signal.SIGTERM]


async def test_a_second_signal_goes_to_the_server_at_once(server_handler: list[int]) -> None:
    release = asyncio.Event()
    draining: list[str] = []

    async def drain(reason: str) -> None:
        draining.append(reason)
        await release.wait()  # a database that does not answer, say

    restore = drain_first(drain)
    try:
        signal.raise_signal(signal.SIGINT)
        await until(lambda: bool(draining), "the lobby's drain started")
        assert server_handler == []
        signal.raise_signal(signal.SIGINT)  # Ctrl-C again: the server's own handling now
        assert server_handler == [signal.SIGINT]
    finally:
        release.set()
        restore()
    # the drain, let go, still ends by telling the server (a second time here)
    await until(lambda: len(server_handler) == 2, "the drain's end told the server")
    assert server_handler == [signal.SIGINT, signal.SIGINT]


async def test_a_failed_drain_still_stops_the_server(server_handler: list[int]) -> None:
    async def drain(reason: str) -> None:
        raise RuntimeError("the database is gone")

    restore = drain_first(drain)
    try:
        signal.raise_signal(signal.SIGTERM)
        await until(lambda: bool(server_handler), "the server told after the failed drain")
        assert server_handler == [signal.SIGTERM]
    finally:
        restore()
