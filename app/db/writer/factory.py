"""The writer the settings ask for (``DATABASE_WRITER``)."""

from __future__ import annotations

from app.core.config import Settings
from app.db.writer.base import DatabaseWriter
from app.db.writer.process import ProcessWriter
from app.db.writer.thread import Writer


def make_writer(settings: Settings) -> DatabaseWriter:
    """A process of its own by default (:mod:`app.db.writer.process`), or a thread
    (:mod:`app.db.writer.thread`)."""
    if settings.database_writer == "process":
        return ProcessWriter(settings.database_url)
    return Writer(settings.database_url)
