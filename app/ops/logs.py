"""Structured logs: one JSON object a line, with the table and hand on every line.

The table actor sets the context (``table_id``, ``hand_id``) while it works; every log
record made meanwhile carries them, whichever module logs it.

A record is formatted where it is made (the context is the caller's) and written by a thread
of its own (:func:`configure`): a write to a file or a pipe waits as long as the disk or the
reader is busy, and on the event loop that wait stops every table. With the database writer
flushing to the same disk, writes of a log line were measured taking up to half a second
(docs/performance.md §9).
"""

from __future__ import annotations

import atexit
import contextvars
import json
import logging
import queue
import re
import time
from logging.handlers import QueueHandler, QueueListener
from typing import Any

table_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("table_id", default=None)
hand_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("hand_id", default=None)


def error_line(exc: BaseException) -> str:
    """An exception as one short line for a log, ``/healthz`` and the host's page: its type
    and its message (white space folded, at most 200 characters)."""
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def set_context(table_id: str | None, hand_id: str | None) -> None:
    table_var.set(table_id)
    hand_var.set(hand_id)


SECRET_PARAMS = re.compile(r"([?&](?:token|admin_token|invite|code)=)[^&\s\"']*", re.IGNORECASE)
"""Query parameters that are credentials: a socket's ``?token=``, the host's token, a private
table's invite and a recovery code. uvicorn logs each socket's path with its query string."""


class RedactSecrets(logging.Filter):
    """Blank the credentials in a record's message (``?token=…``) before any handler writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = SECRET_PARAMS.sub(r"\1…", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "table": getattr(record, "table_id", None) or table_var.get(),
            "hand": getattr(record, "hand_id", None) or hand_var.get(),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


_listener: QueueListener | None = None


def configure(level: str = "INFO", *, json_lines: bool = True) -> QueueListener:
    """Send every logger (uvicorn's too) to stderr, as JSON lines or plain text, through a
    queue and a writing thread. Returns that thread's listener: :func:`stop` (or its own
    ``stop``) writes what is queued and ends it. Configuring again replaces the previous one."""
    stop()
    handler = QueueHandler(queue.SimpleQueue())
    handler.addFilter(RedactSecrets())
    handler.setFormatter(
        JsonFormatter()
        if json_lines
        else logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
    )
    stream = logging.StreamHandler()
    stream.setFormatter(logging.Formatter("%(message)s"))  # formatted already, by the caller
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    global _listener
    _listener = QueueListener(handler.queue, stream)
    _listener.start()
    atexit.register(stop)  # once per listener is harmless: stop() does nothing the second time
    return _listener


def flush() -> None:
    """Write out what is queued now and go on (a process about to be ended by a signal)."""
    if _listener is not None:
        _listener.stop()
        _listener.start()


def stop() -> None:
    """Write out the records still queued and stop the writing thread (if one runs)."""
    global _listener
    if _listener is not None:
        _listener.stop()
        _listener = None
