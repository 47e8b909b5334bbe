"""The writer process's own side: read jobs from the server's socket, write them in
batches (:func:`app.db.writer.batch.write_batch`), send the results back.

Started by :meth:`app.db.writer.process.ProcessWriter.start` as
``python -m app.db.writer.child <fd> <parent pid>``. It dies with its parent
(``PR_SET_PDEATHSIG`` on Linux; elsewhere it ends when the socket closes) and ignores
SIGINT and SIGTERM, which the parent handles.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import logging
import os
import pickle
import signal
import sys
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from app.db.writer.wire import BYE, STOP

if TYPE_CHECKING:
    from app.db.writer.base import Result

log = logging.getLogger("table31.writer")


def child_main(fd: int, parent: int) -> None:
    """The writer process: read jobs, write them in batches, send results back."""
    # The collector is off until what start-up built is frozen, below: SQLAlchemy, the
    # models and the store live as long as the process, and the collections that walked them
    # while they were imported cost a fifth of the process's start (app/ops/collector.py).
    # So they are imported here, not at the top of this module, which runs first.
    gc.disable()
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pipe = Connection(fd)
    try:
        url, batch_limit = pickle.loads(pipe.recv_bytes())
    except EOFError:
        return
    from app.db import store  # noqa: F401 - the jobs' modules (else the first batch's)
    from app.db.session import make_engine, make_sessionmaker
    from app.db.writer.batch import write_batch  # noqa: F401 - _write's

    loop = asyncio.new_event_loop()
    engine = make_engine(url, inline=True)
    sessionmaker = make_sessionmaker(engine)
    gc.freeze()  # what the imports built is never walked again (app/ops/collector.py)
    gc.enable()
    queued: collections.deque[tuple[int, bytes]] = collections.deque()
    stopping = False
    try:
        while queued or not stopping:
            # Group commit without a wait: every job that came while the last batch was
            # being written goes into the next one. A quiet server commits a settled hand at
            # once (the table that ended it is told only then); a busy one writes fuller
            # batches by itself, as jobs queue while it writes. It used to wait for more (up
            # to the last write's length, at most 20 ms); not waiting halved the ack p99 of
            # the acts that end a hand for ~1% more writer CPU (docs/performance.md, §10).
            if not queued or (not stopping and pipe.poll(0)):
                try:
                    for item in pickle.loads(pipe.recv_bytes()):
                        if item == STOP:
                            stopping = True
                        else:
                            queued.append(item)
                except EOFError:  # the parent is gone: nobody will read the results
                    return
                if len(queued) < batch_limit:
                    continue
            batch = [queued.popleft() for _ in range(min(batch_limit, len(queued)))]
            results, rewritten = loop.run_until_complete(_write(sessionmaker, batch))
            pipe.send_bytes(_dumps_results((1, int(rewritten), results)))
        pipe.send_bytes(pickle.dumps(BYE))
    finally:
        loop.run_until_complete(engine.dispose())
        loop.close()


async def _write(
    sessionmaker: Any, items: list[tuple[int, bytes]]
) -> tuple[list[tuple[int, bool, Any]], bool]:
    """Unpickle and write one batch; a job that does not unpickle fails alone."""
    from app.db.writer.batch import write_batch  # imported by child_main, with the collector off

    ids: list[int] = []
    calls = []
    failed: list[tuple[int, bool, Any]] = []
    for job_id, payload in items:
        try:
            job, args, kwargs = pickle.loads(payload)
        except Exception as exc:  # a module the child cannot import, say
            failed.append((job_id, False, RuntimeError(f"the job did not unpickle: {exc}")))
            continue
        ids.append(job_id)
        calls.append((job, args, kwargs))
    written: list[Result] = []
    rewritten = False
    if calls:
        try:
            written, rewritten = await write_batch(sessionmaker, calls)
        except BaseException as exc:  # pragma: no cover - never let one batch stop the writer
            log.exception("database batch failed")
            written = [(False, RuntimeError(f"the database batch failed: {exc}"))] * len(calls)
    return [(i, ok, value) for i, (ok, value) in zip(ids, written, strict=True)] + failed, rewritten


def _dumps_results(message: tuple[int, int, list[tuple[int, bool, Any]]]) -> bytes:
    """Pickle the results. A result that will not pickle, or an exception that would not
    unpickle on the other side (a custom ``__init__``), becomes a RuntimeError with its
    text: the server must always get an answer for every job."""
    batches, rewritten, results = message
    if all(ok for _, ok, _ in results):
        try:
            return pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        except Exception:
            pass  # one of the results: find it below
    safe = []
    for job_id, ok, value in results:
        try:
            data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
            if not ok:  # exceptions are rare: check the round trip
                pickle.loads(data)
        except Exception as exc:
            ok, value = False, RuntimeError(f"{value!r} (it could not be sent back: {exc})")
        safe.append((job_id, ok, value))
    return pickle.dumps((batches, rewritten, safe), pickle.HIGHEST_PROTOCOL)


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(0)


if __name__ == "__main__":
    child_main(int(sys.argv[1]), int(sys.argv[2]))
