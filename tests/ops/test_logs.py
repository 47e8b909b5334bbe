"""Logs (app/ops/logs.py): a record is formatted where it is made, with the caller's table
and hand, and written by a thread of its own, so a write that waits never holds up the
event loop."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Iterator

import pytest

from app.ops import logs


class GatedStream(io.StringIO):
    """A stream whose writes wait for ``gate``: a disk or a pipe that is busy."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def write(self, text: str) -> int:
        self.gate.wait(10)
        return super().write(text)


@pytest.fixture
def stream() -> Iterator[GatedStream]:
    """Logs configured, their writing thread writing to a :class:`GatedStream`."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    listener = logs.configure()
    stream = GatedStream()
    handler = listener.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(stream)
    try:
        yield stream
    finally:
        stream.gate.set()
        logs.stop()
        root.handlers[:], root.level = saved[0], saved[1]


def test_a_write_that_waits_does_not_hold_up_the_caller(stream: GatedStream) -> None:
    logs.set_context("table-1", "hand-7")
    try:
        logging.getLogger("table31.table").info("hand settled: %s", "Ada +20")
    finally:
        logs.set_context(None, None)
    assert stream.getvalue() == ""  # the call came back; the line still waits to be written
    stream.gate.set()
    logs.stop()  # writes what is queued
    entry = json.loads(stream.getvalue())
    assert entry["msg"] == "hand settled: Ada +20"
    assert (entry["table"], entry["hand"]) == ("table-1", "hand-7")  # the caller's context
    assert entry["level"] == "info" and entry["logger"] == "table31.table"


def test_credentials_are_blanked_and_exceptions_kept(stream: GatedStream) -> None:
    stream.gate.set()
    log = logging.getLogger("table31")
    log.info("GET /ws/tables/x?token=SECRET123&invite=INV456")
    try:
        raise ValueError("the engine failed")
    except ValueError:
        log.exception("table t hand h: engine failed")
    logs.stop()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert "SECRET123" not in stream.getvalue() and "INV456" not in stream.getvalue()
    assert lines[0]["msg"] == "GET /ws/tables/x?token=…&invite=…"
    assert "ValueError: the engine failed" in lines[1]["exc"]


def test_flush_writes_what_is_queued_and_the_thread_goes_on(stream: GatedStream) -> None:
    stream.gate.set()
    log = logging.getLogger("table31")
    log.info("before the signal")
    logs.flush()  # what the server does just before uvicorn ends it with the signal
    assert "before the signal" in stream.getvalue()
    log.info("after")
    logs.stop()
    assert "after" in stream.getvalue()
