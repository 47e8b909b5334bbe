"""The loop's periodic chores (app/ops/clock.py): run again and again until stopped, a chore
that fails is run again at the next tick, and a chore may stop its own clock."""

from __future__ import annotations

import asyncio

from app.ops.clock import Every


async def test_a_chore_runs_every_tick_until_stopped() -> None:
    runs: list[int] = []
    every = Every(0.01, lambda: runs.append(1))
    assert not every.running
    every.start()
    every.start()  # once only
    await asyncio.sleep(0.1)
    every.stop()
    done = len(runs)
    assert done >= 3 and not every.running
    await asyncio.sleep(0.05)
    assert len(runs) == done


async def test_a_failing_chore_runs_again_and_a_chore_may_stop_its_clock() -> None:
    loop = asyncio.get_running_loop()
    errors: list[object] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context.get("exception")))
    calls: list[int] = []

    def chore() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the first one fails")
        if len(calls) == 3:
            every.stop()

    every = Every(0.01, chore)
    every.start()
    await asyncio.sleep(0.15)
    assert len(calls) == 3 and not every.running
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    loop.set_exception_handler(None)
