"""What goes down the socket between the server and its writer process: frames of
:class:`multiprocessing.connection.Connection` (a 4-byte big-endian length, then the
bytes), each a pickle."""

from __future__ import annotations

STOP = b"stop"
"""Sent by :meth:`app.db.writer.process.ProcessWriter.close`: the child writes what came
before, then ends."""
BYE = "bye"
"""The child's last message: everything before the stop is written."""


def frame(data: bytes) -> bytes:
    """``data`` as one frame: its length, then itself."""
    return len(data).to_bytes(4, "big", signed=True) + data
