"""Structured logs: one JSON object a line, with the table and hand on every line.

The table actor sets the context (``table_id``, ``hand_id``) while it works; every log
record made meanwhile carries them, whichever module logs it.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
from typing import Any

table_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("table_id", default=None)
hand_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("hand_id", default=None)


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


def configure(level: str = "INFO", *, json_lines: bool = True) -> None:
    """Send every logger (uvicorn's too) to stderr, as JSON lines or plain text."""
    handler = logging.StreamHandler()
    handler.addFilter(RedactSecrets())
    handler.setFormatter(
        JsonFormatter()
        if json_lines
        else logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
