"""Waiting for a condition in the tests that drive a server from asyncio: looked at again
after 1 ms, then less and less often (up to every ``pause`` seconds), with a deadline that
is only there for a stuck run (60 s unless said), never a measure of how long anything
took. An answer on the loopback comes in a millisecond or two, and a test that waits on a
thousand of them (a long round of random play) should not wait 20 ms for each."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

PATIENCE = 60.0


async def until(
    check: Callable[[], Any], what: str, patience: float = PATIENCE, *, pause: float = 0.02
) -> None:
    """Return once ``check()`` (awaited, if it gives an awaitable) is truthy; fail with
    ``what`` if it never is within ``patience`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    wait = 0.001
    while True:
        found = check()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(wait)
        wait = min(wait * 1.5, pause)
