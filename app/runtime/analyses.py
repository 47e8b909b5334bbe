"""Hands analysed off the table's loop (docs/review.md, "The analysis"; docs/analysis.md).

A hand's analysis (:func:`app.analysis.hand.analyse_hand`) is pure Python and CPU-bound: a few
seconds for a hand whose figures are estimated by simulation. It never runs on the server's
event loop, nor on its core's share of time while tables play:

* one **process of its own** computes them (``python -m app.runtime.analysis_worker``, a fresh
  interpreter, as the database writer's: not a multiprocessing spawn, which would import again
  whatever ``__main__`` started the server), started the first time an analysis is wanted, at
  a lower CPU priority (``os.nice`` by ``ANALYSIS_NICENESS``, and Linux's ``SCHED_BATCH``) so
  that the scheduler gives the server's process and the database writer's the CPU first; it
  ends with the server, even one killed outright; each hand's analysis simulates
  ``ANALYSIS_SAMPLES`` hands an option where it estimates (sent with the hand);
* once a hand's record is committed, its table tells the lobby (the shell's
  ``on_hand_stored``, after the commit: :meth:`Analyses.hand_stored`), which queues the hand
  here (setting ``ANALYSIS_AFTER_HAND``); a void hand is never analysed. The newest hand
  queued goes first: behind a backlog (more hands than one worker keeps up with) the hands
  just played are ready soonest, the older ones later (or when asked for);
* the background queue waits while the server's own process is busy (more than
  ``ANALYSIS_BUSY_SHARE`` of a core over the last second, :class:`ProcessLoad`): each analysis
  also costs the server's loop its record's reading and its result's keeping, and its worker,
  however low its priority, takes a core the server's sockets and writer would otherwise have.
  Measured at a thousand tables on two cores, the background analysis doubled the players'
  act-to-ack p99 while it analysed about one hand in sixty (docs/performance.md §13); a friends'
  evening leaves the server idle nearly all the time, and its hands are analysed as they end;
* a reader who asks for a hand not analysed yet (queued, or a hand older than the analysis)
  gets it computed now (:meth:`Analyses.analysis_of`): their request goes ahead of the
  background queue, and waits. Only when :data:`MAX_WAITING` requests already wait is it
  refused (:class:`Busy`: 503 with ``Retry-After``);
* each result is kept (``hand_analyses``, written through the database writer:
  :func:`app.db.store.analyses.save_analysis`), and read from there afterwards.

The worker computes one hand at a time; a hand asked for while it is queued or computed waits
for that same computation. An analysis that fails (a game without its analyser, a record the
replay cannot re-play) is not retried until the server restarts (:class:`NotAnalysable`);
one that spends more than :data:`TIMEOUT_SECONDS` of the worker's CPU time has its worker
killed (a new one starts for the next hand) and is told busy, the second time given up. CPU
time, not time on the clock: on a machine busy with other work the worker, at its low
priority, may wait long for the CPU without running away. At the server's stop the
worker is stopped, killed if it is computing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import pickle
import sys
import time
from asyncio.subprocess import Process
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.analysis.hand import VERSION
from app.db.session import encode_json
from app.db.store import analyses as analyses_store
from app.db.types import AsyncSession, async_sessionmaker
from app.db.writer.base import DatabaseWriter
from app.i18n.messages import N_, Text
from app.runtime.analysis_worker import NICENESS, analyse_record, frame

log = logging.getLogger("table31.analysis")

MAX_WAITING = 8
"""Readers' requests that may wait for a computation at once; one more is refused (Busy)."""
MAX_QUEUED = 2_000
"""Hands queued in the background at most; beyond, the oldest is left to be computed when
first asked for."""
MAX_FAILED = 1_000
"""Failed hands remembered (not computed again until a restart)."""
TIMEOUT_SECONDS = 120.0
CPU_POLL_SECONDS = 0.25
"""How often the worker's CPU time is read while it computes."""
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def spent(pid: int) -> float:
    """Seconds of CPU the process ``pid`` has used (Linux's /proc); elsewhere, or once it is
    gone, the clock's seconds (so a limit on it still ends)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return time.monotonic()


"""An analysis running longer is a bug: its worker is killed."""
STOP_SECONDS = 2.0
"""How long the stop waits for an idle worker to end by itself before killing it."""
ROOT = str(Path(__file__).resolve().parents[2])
"""The folder that holds ``app/``: the worker's import path."""
RETRY_AFTER_SECONDS = 5
"""What a refused reader is told to wait (``Retry-After``)."""


HOLD_SECONDS = 1.0
"""How long the background queue waits before looking again at a busy server."""


class ProcessLoad:
    """How busy this process is: the CPU seconds of all its threads over the seconds on the
    clock, over the last ``window`` seconds (taken when asked, so over a longer stretch after
    a while unasked). ``clock`` and ``cpu`` are injected (tests drive them by hand)."""

    def __init__(
        self,
        window: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        cpu: Callable[[], float] = time.process_time,
    ) -> None:
        self.window, self.clock, self.cpu = window, clock, cpu
        self._at, self._spent = clock(), cpu()
        self._share = 0.0

    def share(self) -> float:
        """The share of one core used over the last window (0 until a window has passed)."""
        now = self.clock()
        if now - self._at >= self.window:
            spent_now = self.cpu()
            self._share = (spent_now - self._spent) / (now - self._at)
            self._at, self._spent = now, spent_now
        return self._share

    def over(self, limit: float) -> Callable[[], bool]:
        """Whether the process is busier than ``limit`` of a core; a limit of 0: never."""
        if limit <= 0:
            return lambda: False
        return lambda: self.share() > limit


def analysis_of_samples(samples: int) -> Callable[[dict[str, Any]], tuple[str, Any]]:
    """The worker's analysis of a finished hand, its estimates simulating ``samples`` hands an
    option (``ANALYSIS_SAMPLES``, docs/analysis.md §2): sent with each request, so the worker
    needs no setting of its own."""
    return functools.partial(analyse_record, samples=samples)


class Busy(Exception):
    """Too many readers already wait for analyses: try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        super().__init__(N_("the analysis is busy: try again in a few seconds"))
        self.retry_after = retry_after


class NotAnalysable(Exception):
    """This hand has no analysis: why, in words."""


# --------------------------------------------------------------------------- the service


@dataclass
class _Job:
    """A hand to analyse: its record when the reader's request brought it (else read first),
    and the future every one waiting for it awaits."""

    hand_id: str
    done: asyncio.Future[dict[str, Any]]
    record: dict[str, Any] | None = None
    urgent: bool = False


@dataclass
class Analyses:
    """The hands' analyses, computed in a worker process, one at a time, and kept."""

    sessionmaker: async_sessionmaker[AsyncSession]
    writer: DatabaseWriter
    after_hand: bool = True
    """Queue each stored hand (``ANALYSIS_AFTER_HAND``); else only readers' requests."""
    analyse: Callable[[dict[str, Any]], tuple[str, Any]] = analyse_record
    """What the worker runs on a record (a module-level function, or a ``functools.partial``
    of one: it is pickled by name and imported by the worker). The server's is
    :func:`analyse_record` with its ``ANALYSIS_SAMPLES`` (:func:`analysis_of_samples`)."""
    niceness: int = NICENESS
    """How much lower the worker's CPU priority is than the server's (``ANALYSIS_NICENESS``)."""
    max_waiting: int = MAX_WAITING
    timeout: float = TIMEOUT_SECONDS
    busy: Callable[[], bool] = field(default=lambda: False)
    """Whether the server is too busy for the background queue now (``ANALYSIS_BUSY_SHARE``,
    :meth:`ProcessLoad.over`): it waits, readers' requests do not."""
    hold_seconds: float = HOLD_SECONDS
    computed: int = field(default=0, init=False)
    """Analyses computed since the start (a figure for tests and metrics)."""
    _jobs: dict[str, _Job] = field(default_factory=dict, init=False)
    """Every hand queued or being computed."""
    _urgent: OrderedDict[str, None] = field(default_factory=OrderedDict, init=False)
    _background: OrderedDict[str, None] = field(default_factory=OrderedDict, init=False)
    _failed: OrderedDict[str, str] = field(default_factory=OrderedDict, init=False)
    _timeouts: dict[str, int] = field(default_factory=dict, init=False)
    """Hands whose analysis ran out of time once (the second time, they are given up)."""
    _wake: asyncio.Event | None = field(default=None, init=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False)
    _process: Process | None = field(default=None, init=False)
    _busy_with: str | None = field(default=None, init=False)
    _stopped: bool = field(default=False, init=False)

    # ------------------------------------------------------------------ asking

    def hand_stored(self, hand_id: str) -> None:
        """A hand's record is committed (its table's shell says so, after the commit): queue
        its analysis, unless the setting is off. A void hand is skipped when its turn comes
        (it is never told here: a void hand is not "finished")."""
        if self.after_hand:
            self.queue(hand_id)

    def queue(self, hand_id: str) -> None:
        """Analyse this hand in the background (nothing happens if it is queued already,
        failed before, or the queue is full)."""
        if self._stopped or hand_id in self._jobs or hand_id in self._failed:
            return
        if len(self._background) >= MAX_QUEUED:  # the oldest is left for when it is asked for
            oldest, _ = self._background.popitem(last=False)
            self._jobs.pop(oldest, None)
        loop = asyncio.get_running_loop()
        self._jobs[hand_id] = _Job(hand_id, loop.create_future())
        self._background[hand_id] = None
        self._kick()

    def failure(self, hand_id: str) -> str | None:
        """Why this hand could not be analysed (since the start), or None."""
        return self._failed.get(hand_id)

    async def analysis_of(self, hand_id: str, record: dict[str, Any]) -> dict[str, Any]:
        """The hand's analysis computed now (the caller found none kept): ahead of the
        background queue, or the computation already under way. Raises :class:`Busy` when
        :attr:`max_waiting` requests wait already, :class:`NotAnalysable` when it fails."""
        if hand_id in self._failed:
            raise NotAnalysable(self._failed[hand_id])
        if self._stopped:
            raise Busy()
        job = self._jobs.get(hand_id)
        if job is None or (not job.urgent and self._busy_with != hand_id):
            if len(self._urgent) >= self.max_waiting:
                raise Busy()
            if job is None:
                job = self._jobs[hand_id] = _Job(
                    hand_id, asyncio.get_running_loop().create_future()
                )
            self._background.pop(hand_id, None)
            job.record, job.urgent = record, True
            self._urgent[hand_id] = None
            self._kick()
        try:
            return await asyncio.shield(job.done)
        except (Busy, NotAnalysable):
            raise
        except Exception as exc:  # the database, for a moment: the reader may ask again
            log.warning("hand %s: its analysis failed: %s", hand_id, exc)
            raise Busy() from exc

    @property
    def waiting(self) -> int:
        """Hands queued or being computed."""
        return len(self._jobs)

    # ------------------------------------------------------------------ the loop

    def _kick(self) -> None:
        if self._wake is None:
            self._wake = asyncio.Event()
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="hand analyses")

    def _next(self) -> _Job | None:
        """Readers' requests first, in the order they came; then, unless the server is busy,
        the newest hand queued (the one its players may open next: behind a backlog, the
        older ones wait)."""
        if self._urgent:
            hand_id, _ = self._urgent.popitem(last=False)
            return self._jobs[hand_id]
        if self._background and not self.busy():
            hand_id, _ = self._background.popitem(last=True)
            return self._jobs[hand_id]
        return None

    async def _run(self) -> None:
        assert self._wake is not None
        while not self._stopped:
            job = self._next()
            if job is None:
                self._wake.clear()
                if self._background:  # held back while the server is busy: look again soon
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), self.hold_seconds)
                else:
                    await self._wake.wait()
                continue
            self._busy_with = job.hand_id
            try:
                outcome: dict[str, Any] | Exception = await self._one(job)
            except asyncio.CancelledError:  # the stop: whoever waits for this hand is told
                if not job.done.done():
                    job.done.set_exception(Busy())
                    job.done.exception()
                raise
            except Exception as exc:  # told to whoever waits; the loop goes on
                outcome = exc
            finally:
                self._busy_with = None
                self._jobs.pop(job.hand_id, None)
            if isinstance(outcome, NotAnalysable):
                self._remember_failure(job.hand_id, str(outcome))
            if not job.done.done():
                if isinstance(outcome, Exception):
                    job.done.set_exception(outcome)
                    job.done.exception()  # retrieved: a background job has nobody waiting
                else:
                    job.done.set_result(outcome)

    async def _one(self, job: _Job) -> dict[str, Any]:
        """Analyse one hand and keep the result; a background one is read first (skipped if
        kept already by the current method, or not finished)."""
        record = job.record
        if record is None:
            async with self.sessionmaker() as session:
                kept = await analyses_store.stored_analysis(session, job.hand_id)
                if kept is not None and kept[0] == VERSION:
                    return kept[1]
                hand = await analyses_store.hand_to_analyse(session, job.hand_id)
            if hand is None or hand[0] != "finished" or hand[2] is None:
                raise NotAnalysable(Text(N_("only a finished hand is analysed")))
            record = hand[2]
        analysis = await self._compute(job.hand_id, record)
        self.computed += 1
        try:
            await self.writer.run(
                analyses_store.save_analysis, job.hand_id, VERSION, encode_json(analysis)
            )
        except Exception as exc:  # not kept: computed again when next asked for
            log.warning("hand %s: its analysis could not be stored: %s", job.hand_id, exc)
        return analysis

    async def _compute(self, hand_id: str, record: dict[str, Any]) -> dict[str, Any]:
        """Run the analysis in the worker (started now if need be; once more if it died)."""
        request = frame(pickle.dumps((self.analyse, record), pickle.HIGHEST_PROTOCOL))
        for attempt in (1, 2):
            worker = await self._worker()
            try:
                status, value = await self._answer(worker, request)
            except TimeoutError:
                await self._kill_worker()
                # a machine busy for a while (the worker runs only on what is left of the CPU)
                # or a runaway: told busy the first time, given up the second
                self._timeouts[hand_id] = self._timeouts.get(hand_id, 0) + 1
                if self._timeouts[hand_id] < 2:
                    raise Busy() from None
                raise NotAnalysable(Text(N_("the analysis took too long"))) from None
            except (asyncio.IncompleteReadError, ConnectionError, OSError):  # it died
                await self._kill_worker()
                if attempt == 2:
                    raise NotAnalysable(Text(N_("the analysis's process failed"))) from None
                continue
            if status != "ok":
                raise NotAnalysable(str(value))
            return dict(value)
        raise AssertionError("unreachable")

    @staticmethod
    async def _ask(worker: Process, request: bytes) -> tuple[str, Any]:
        """One request to the worker and its answer (app/runtime/analysis_worker.py)."""
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(request)
        await worker.stdin.drain()
        size = int.from_bytes(await worker.stdout.readexactly(4), "big")
        status, value = pickle.loads(await worker.stdout.readexactly(size))
        return str(status), value

    async def _answer(self, worker: Process, request: bytes) -> tuple[str, Any]:
        """The worker's answer to ``request``; TimeoutError once the worker has spent
        :attr:`timeout` seconds of CPU on it (where the process's CPU time cannot be read,
        seconds on the clock)."""
        asking = asyncio.ensure_future(self._ask(worker, request))
        start = spent(worker.pid)
        try:
            while True:
                done, _ = await asyncio.wait({asking}, timeout=CPU_POLL_SECONDS)
                if done:
                    return asking.result()
                if spent(worker.pid) - start > self.timeout:
                    raise TimeoutError
        finally:
            if not asking.done():
                asking.cancel()

    async def _worker(self) -> Process:
        """The worker process, started if it is not running: a fresh interpreter
        (``python -m app.runtime.analysis_worker``, told this process's id to end with it, and
        its niceness)."""
        if self._process is None or self._process.returncode is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
            self._process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "app.runtime.analysis_worker",
                str(os.getpid()),
                str(self.niceness),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env=env,
            )
        return self._process

    @property
    def worker_pid(self) -> int | None:
        """The worker process's id, while it runs."""
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    async def _kill_worker(self) -> None:
        """Kill the worker (it runs away, or died): a new one starts for the next hand."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

    def _remember_failure(self, hand_id: str, why: str) -> None:
        log.info("hand %s is not analysed: %s", hand_id, why)
        self._failed[hand_id] = why
        while len(self._failed) > MAX_FAILED:
            self._failed.popitem(last=False)

    # ------------------------------------------------------------------ stopping

    async def stop(self) -> None:
        """The server stops: nothing more is queued, whoever waits is told (Busy), and the
        worker ends (killed if it is computing: the analysis is computed again when asked)."""
        self._stopped = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for job in self._jobs.values():
            if not job.done.done():
                job.done.set_exception(Busy())
                job.done.exception()  # retrieved: nobody may be waiting for it
        self._jobs.clear()
        self._urgent.clear()
        self._background.clear()
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            process.stdin.close()  # the end of its input: an idle worker ends by itself
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except TimeoutError:  # computing: killed
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
