"""What the analysis's worker process runs (app/runtime/analyses.py): kept apart, so that the
worker imports the analysis and the games, not the server (its database, its web framework).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Any

NICENESS = 10
"""How much lower the worker's CPU priority is than the server's (``os.nice``)."""


PARENT_CHECK_SECONDS = 1.0
"""How often the worker looks whether the server that started it is still there."""


def worker_started() -> None:
    """In the worker process, first: a lower CPU priority, so that the scheduler gives the
    server's process and the database writer's the CPU first (Linux: ``SCHED_IDLE`` too, the
    class a waking task of any other preempts at once); Ctrl-C is the server's; and the worker
    ends with the server, however the server ends (killed, it cannot stop its worker)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), name="parent watch", daemon=True).start()


def _end_with(parent: int) -> None:
    """End this process as soon as ``parent`` is gone (the worker is then another's child)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def analyse_record(record: dict[str, Any]) -> tuple[str, Any]:
    """A finished hand's analysis (:func:`app.analysis.hand.analyse_hand`, its JSON):
    ``("ok", analysis)`` or ``("failed", why)``. Any exception is told in words, so that
    nothing that fails to pickle crosses back to the server."""
    try:
        from app.analysis.hand import analyse_hand

        return "ok", analyse_hand(record).to_json()
    except ModuleNotFoundError as err:
        if str(err.name or "").startswith("app.analysis."):
            return "failed", f"no analysis for {record.get('game')} yet"
        return "failed", f"{type(err).__name__}: {err}"
    except Exception as err:  # a record the replay cannot re-play, an analyser's bug
        return "failed", f"{type(err).__name__}: {err}"
