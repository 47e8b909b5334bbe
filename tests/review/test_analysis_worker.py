"""The analysis's worker process (app/runtime/analyses.py), without a server: one hand at a
time in a process of its own; two readers of one hand share one computation; a reader beyond
the waiting room is refused (Busy); a runaway analysis has its worker killed (told busy, then
given up) and the next hand is computed by a new one; at the stop, a worker in the middle of
an analysis is ended at once and whoever waits is told; a server killed outright leaves no
worker behind. The background queue waits while the server is busy, a reader's request does
not; the server's load is its process's CPU over the clock's, a window at a time."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.analysis.hand import VERSION
from app.db.store import analyses as analyses_store
from app.runtime.analyses import TIMEOUT_SECONDS, Analyses, Busy, NotAnalysable, ProcessLoad
from tests.waiting import until


class Writer:
    """The database writer, as the analyses use it: each kept analysis noted."""

    def __init__(self) -> None:
        self.kept: list[tuple[str, int]] = []

    async def run(self, job: Any, hand_id: str, method: int, analysis: Any) -> None:
        self.kept.append((hand_id, method))


def slow(record: dict[str, Any]) -> tuple[str, Any]:
    """An analysis that never ends in time (run in the worker): it spends CPU until killed
    (the limit is on the worker's CPU time)."""
    while True:
        pass


def quick(record: dict[str, Any]) -> tuple[str, Any]:
    time.sleep(0.2)
    return "ok", {"version": VERSION, "game": record["game"], "decisions": [], "shown": {}}


def service(analyse: Any, **extra: Any) -> tuple[Analyses, Writer]:
    """The analyses with their worker niced by 1 (as tests/conftest.py's servers): the
    runaway's limit is on its CPU time, which a worker niced by 10 on a machine busy with
    other work is given slowly."""
    writer = Writer()
    extra.setdefault("niceness", 1)
    return Analyses(None, writer, analyse=analyse, **extra), writer  # type: ignore[arg-type]


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


async def test_readers_of_one_hand_share_one_computation_and_it_is_kept() -> None:
    analyses, writer = service(quick)
    try:
        first, second = await asyncio.gather(
            analyses.analysis_of("h1", {"game": "vingt-un"}),
            analyses.analysis_of("h1", {"game": "vingt-un"}),
        )
        assert first == second and first["game"] == "vingt-un"
        assert analyses.computed == 1 and writer.kept == [("h1", VERSION)]
        assert analyses.worker_pid is not None
    finally:
        await analyses.stop()


async def test_a_reader_beyond_the_waiting_room_is_refused() -> None:
    analyses, _ = service(slow, max_waiting=1)
    try:
        running = asyncio.ensure_future(analyses.analysis_of("h1", {"game": "x"}))
        await until(lambda: analyses._busy_with == "h1", "the first analysis started")
        waiting = asyncio.ensure_future(analyses.analysis_of("h2", {"game": "x"}))
        await asyncio.sleep(0)
        with pytest.raises(Busy) as refused:
            await analyses.analysis_of("h3", {"game": "x"})
        assert refused.value.retry_after > 0
    finally:
        await analyses.stop()
    for told in (running, waiting):  # the stop tells whoever waits
        with pytest.raises(Busy):
            await told


async def test_a_runaway_analysis_is_killed_and_the_next_hand_computed() -> None:
    analyses, writer = service(slow, timeout=1)
    try:
        with pytest.raises(Busy):  # a busy machine, perhaps: tried again when asked again
            await analyses.analysis_of("h1", {"game": "x"})
        with pytest.raises(NotAnalysable, match="too long"):  # twice: given up
            await analyses.analysis_of("h1", {"game": "x"})
        with pytest.raises(NotAnalysable, match="too long"):  # remembered: not tried again
            await analyses.analysis_of("h1", {"game": "x"})
        assert analyses.worker_pid is None, "not tried again: no worker was started for it"
        assert analyses.failure("h1") == "the analysis took too long"
        analyses.analyse, analyses.timeout = quick, TIMEOUT_SECONDS  # a new worker's start
        assert (await analyses.analysis_of("h2", {"game": "x"}))["game"] == "x"
        assert writer.kept == [("h2", VERSION)]
    finally:
        await analyses.stop()


async def test_the_worker_ends_with_the_stop_even_in_the_middle_of_an_analysis() -> None:
    analyses, _ = service(slow)
    asking = asyncio.ensure_future(analyses.analysis_of("h1", {"game": "x"}))
    await until(lambda: analyses.worker_pid is not None, "the worker started", 120)
    pid = analyses.worker_pid
    assert pid is not None
    await until(lambda: analyses._busy_with == "h1", "the analysis started")
    await analyses.stop()
    assert not alive(pid), "the stop killed the worker in the middle of its analysis"
    with pytest.raises(Busy):
        await asking
    analyses.queue("h2")  # after the stop: nothing more is taken
    assert analyses.waiting == 0


class NoSession:
    """The database session of a background job, whose reads the test answers itself."""

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


async def test_the_background_waits_while_the_server_is_busy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hand queued in the background is not analysed while the server says it is busy (the
    queue looks again every ``hold_seconds``), a reader's request is computed all the same,
    and the queued hand is analysed once the server is quiet."""

    async def nothing_kept(_session: Any, _hand_id: str) -> None:
        return None

    async def finished(_session: Any, hand_id: str) -> tuple[str, str, dict[str, Any]]:
        return "finished", "vingt-un", {"game": "vingt-un"}

    monkeypatch.setattr(analyses_store, "stored_analysis", nothing_kept)
    monkeypatch.setattr(analyses_store, "hand_to_analyse", finished)
    load = {"busy": True, "asked": 0}

    def busy() -> bool:
        load["asked"] += 1
        return bool(load["busy"])

    analyses, writer = service(quick, busy=busy, hold_seconds=0.01)
    analyses.sessionmaker = NoSession  # type: ignore[assignment]
    try:
        analyses.queue("h1")
        await until(lambda: load["asked"] >= 3, "the queue looking again at a busy server")
        assert writer.kept == [] and analyses.waiting == 1 and analyses.worker_pid is None
        read = await analyses.analysis_of("h2", {"game": "greek-31"})  # a reader: at once
        assert read["game"] == "greek-31" and writer.kept == [("h2", VERSION)]
        asked = load["asked"]
        await until(lambda: load["asked"] >= asked + 2, "the queue still waiting")
        assert writer.kept == [("h2", VERSION)], "a background hand analysed on a busy server"
        load["busy"] = False
        await until(lambda: ("h1", VERSION) in writer.kept, "the queued hand, once quiet")
        assert analyses.computed == 2
    finally:
        await analyses.stop()


def test_the_load_is_the_processes_cpu_over_the_clocks_a_window_at_a_time() -> None:
    now = {"clock": 100.0, "cpu": 5.0}
    load = ProcessLoad(1.0, clock=lambda: now["clock"], cpu=lambda: now["cpu"])
    over = load.over(0.5)
    assert load.share() == 0.0 and not over()  # no window has passed yet
    now["clock"], now["cpu"] = 100.5, 5.5  # half a window: not measured yet
    assert load.share() == 0.0
    now["clock"], now["cpu"] = 101.0, 5.9  # 0.9 s of CPU in 1 s
    assert load.share() == pytest.approx(0.9) and over()
    now["clock"], now["cpu"] = 101.5, 5.9  # the same window still
    assert over()
    now["clock"], now["cpu"] = 103.0, 6.3  # 0.4 s in 2 s
    assert load.share() == pytest.approx(0.2) and not over()
    now["cpu"] = 1000.0
    assert not ProcessLoad(1.0, clock=lambda: now["clock"], cpu=lambda: now["cpu"]).over(0)()


SERVER = """
import asyncio, sys
from app.runtime.analyses import Analyses
from tests.review.test_analysis_worker import Writer, slow

async def main():
    analyses = Analyses(None, Writer(), analyse=slow)
    asyncio.ensure_future(analyses.analysis_of("h1", {"game": "x"}))
    while analyses.worker_pid is None or analyses._busy_with != "h1":
        await asyncio.sleep(0.05)
    print(analyses.worker_pid, flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


async def test_the_worker_ends_when_the_server_is_killed() -> None:
    """A server killed (SIGKILL) cannot stop its worker: the worker sees it gone and ends."""
    root = Path(__file__).resolve().parents[2]
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVER, cwd=root, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert server.stdout is not None
        line = await asyncio.wait_for(server.stdout.readline(), 300)
        worker = int(line)
        assert alive(worker)
    finally:
        server.kill()
        await server.wait()
    await until(lambda: not alive(worker), "the worker ended with its server", 60)
