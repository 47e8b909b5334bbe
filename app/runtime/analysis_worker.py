"""The analysis's worker process (app/runtime/analyses.py): ``python -m
app.runtime.analysis_worker PARENT_PID [NICENESS]``, a fresh interpreter that imports the
analysis and the games, not the server (nor whatever ``__main__`` started the server, which a
multiprocessing spawn would import again).

It reads requests on its standard input and answers on its standard output, one at a time,
each a frame: 4 bytes of length (big-endian), then a pickle. A request is ``(function,
record)``, ``function`` a module-level function (pickled by name: :func:`analyse_record`, or
a test's), or a :func:`functools.partial` of one (the server's: :func:`analyse_record` with
its ``ANALYSIS_SAMPLES``); the answer is what it returns, ``(status, value)``. Anything the
analysis prints goes to the standard error, never into the answers. The end of its input ends
it; so does its parent's end, however the parent ends (killed, it cannot close the input
first).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from typing import Any, BinaryIO

NICENESS = 10
"""How much lower the worker's CPU priority is than the server's (``os.nice``), unless its
command line says otherwise (the server's ``ANALYSIS_NICENESS``)."""
PARENT_CHECK_SECONDS = 1.0
"""How often the worker looks whether the server that started it is still there."""


def analyse_record(record: dict[str, Any], samples: int | None = None) -> tuple[str, Any]:
    """A finished hand's analysis (:func:`app.analysis.hand.analyse_hand`, its JSON), its
    estimates simulating ``samples`` hands an option (the server's ``ANALYSIS_SAMPLES``,
    docs/analysis.md §2; None: :data:`~app.analysis.position.ANALYSIS_EFFORT`'s):
    ``("ok", analysis)`` or ``("failed", why)``. Any exception is told in words, so that
    nothing that fails to pickle crosses back to the server."""
    try:
        from app.analysis.hand import analyse_hand
        from app.analysis.position import ANALYSIS_EFFORT, Effort

        effort = ANALYSIS_EFFORT if samples is None else Effort(samples)
        return "ok", analyse_hand(record, effort).to_json()
    except ModuleNotFoundError as err:
        if str(err.name or "").startswith("app.analysis."):
            return "failed", f"no analysis for {record.get('game')} yet"
        return "failed", f"{type(err).__name__}: {err}"
    except Exception as err:  # a record the replay cannot re-play, an analyser's bug
        return "failed", f"{type(err).__name__}: {err}"


def lower_priority(niceness: int = NICENESS) -> None:
    """A lower CPU priority, so that the scheduler gives the server's process and the database
    writer's the CPU first: niced by ``niceness``, and on Linux in the ``SCHED_BATCH`` class (a
    CPU-bound job that a waking task does not wait behind). Not ``SCHED_IDLE``: that class runs
    only on a CPU nothing else wants, so on a machine kept busy by other work an analysis, even
    one a reader waits for, could wait without end; niced, the worker keeps a small share (at
    10, about a tenth of what another busy process at the server's priority gets)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(niceness)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))


def end_with(parent: int) -> None:
    """End this process as soon as ``parent`` is gone (the worker is then another's child,
    or was already when it started)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def frame(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def read_frame(source: BinaryIO) -> bytes | None:
    """The next frame's payload, or None at the end of the input."""
    head = source.read(4)
    if len(head) < 4:
        return None
    size = int.from_bytes(head, "big")
    payload = source.read(size)
    return payload if len(payload) == size else None


def serve(source: BinaryIO, answers: BinaryIO) -> None:
    """Answer each request until the input ends."""
    while (payload := read_frame(source)) is not None:
        try:
            function, record = pickle.loads(payload)
            answer = function(record)
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # a function that raised, or whose answer does not pickle
            data = pickle.dumps(("failed", f"{type(err).__name__}: {err}"))
        answers.write(frame(data))
        answers.flush()


def main(argv: list[str]) -> int:
    parent = int(argv[1])
    niceness = int(argv[2]) if len(argv) > 2 else NICENESS
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    threading.Thread(target=end_with, args=(parent,), name="parent watch", daemon=True).start()
    lower_priority(niceness)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log
    serve(sys.stdin.buffer, answers)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
