"""A connection's sends (app/runtime/connection.py): written at once with no task while the
socket takes them, order kept behind a write that waits, a close after what is queued, a
too-slow client closed, a dead socket stops everything."""

from __future__ import annotations

import asyncio

from app.runtime.connection import SEND_QUEUE_LIMIT, Connection


class Sink:
    """Records what a socket would write; ``gate`` (when cleared) holds every send."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str | None] | None = None
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail = False
        self.cancelled: list[str] = []

    async def send_text(self, data: str) -> None:
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled.append(data)
            raise
        if self.fail:
            raise RuntimeError("the socket is gone")
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.gate.wait()
        self.closed = (code, reason)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_socket_that_takes_each_frame_is_written_at_once_without_a_task() -> None:
    sink = Sink()
    conn = Connection(sink, "p", "P")
    before = len(asyncio.all_tasks())
    conn.send("a")
    assert sink.sent == ["a"]  # there and then, before the loop turns
    conn.send("b")
    conn.send("c")
    assert sink.sent == ["a", "b", "c"]
    assert conn._task is None and len(asyncio.all_tasks()) == before
    assert sink.closed is None
    await conn.wait_closed()  # nothing in flight: returns at once


async def test_a_write_that_waits_is_finished_by_a_task_then_the_queue_in_order() -> None:
    sink = Sink()
    sink.gate.clear()
    conn = Connection(sink, "p", "P")
    conn.send("a")  # the socket is paused: "a" waits, half written
    assert sink.sent == [] and conn._task is not None
    conn.send("b")
    conn.send("c")
    assert conn.queue == ["b", "c"]
    sink.gate.set()
    await settle()
    assert sink.sent == ["a", "b", "c"] and conn._task is None
    conn.send("d")  # idle again: at once
    assert sink.sent[-1] == "d" and conn._task is None


async def test_cancelling_a_waiting_write_cancels_the_send_itself() -> None:
    sink = Sink()
    sink.gate.clear()
    conn = Connection(sink, "p", "P")
    conn.send("a")
    task = conn._task
    assert task is not None
    await asyncio.sleep(0)  # the task now waits in the sink's send, in its place
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert sink.cancelled == ["a"] and sink.sent == []
    assert not sink.gate._waiters  # type: ignore[attr-defined]  # the send let go of its wait


async def test_messages_queued_while_a_send_waits_follow_in_order() -> None:
    sink = Sink()
    sink.gate.clear()
    conn = Connection(sink, None, None)
    for n in range(10):
        conn.send(str(n))
        await asyncio.sleep(0)
    task = conn._task
    assert task is not None and len(conn.queue) == 9  # one in flight
    sink.gate.set()
    await settle()
    assert sink.sent == [str(n) for n in range(10)]
    assert task.done() and conn._task is None


async def test_close_goes_out_after_what_is_queued_and_nothing_after() -> None:
    sink = Sink()
    sink.gate.clear()
    conn = Connection(sink, "p", "P")
    conn.send("a")
    conn.send("b")
    conn.close(4000, "bye")
    conn.send("ignored")
    conn.close(1000, "not this one")
    assert conn.closed
    sink.gate.set()
    await conn.wait_closed()
    assert sink.sent == ["a", "b"]
    assert sink.closed == (4000, "bye")
    assert conn._task is None


async def test_close_of_an_idle_connection_sends_the_close_frame() -> None:
    sink = Sink()
    conn = Connection(sink, "p", "P")
    conn.send("a")
    await settle()
    assert conn._task is None
    conn.close(1001, "table closed")
    await conn.wait_closed()
    assert sink.sent == ["a"] and sink.closed == (1001, "table closed")


async def test_a_client_too_slow_to_keep_up_is_closed() -> None:
    sink = Sink()
    sink.gate.clear()
    conn = Connection(sink, "p", "P")
    conn.send("first")
    await asyncio.sleep(0)  # "first" is in flight, stuck in the socket
    for n in range(SEND_QUEUE_LIMIT):
        conn.send(str(n))
    assert not conn.closed and len(conn.queue) == SEND_QUEUE_LIMIT
    conn.send("one too many")
    assert conn.closed and conn.close_code == 1008 and "too slow" in conn.close_reason
    assert not conn.queue  # what it has not received is dropped
    sink.gate.set()
    await conn.wait_closed()
    assert sink.sent == ["first"]
    assert sink.closed == (1008, "too slow to keep up with the table")


async def test_a_dead_socket_stops_the_connection() -> None:
    sink = Sink()
    sink.fail = True
    conn = Connection(sink, "p", "P")
    conn.send("a")
    conn.send("b")
    await settle()
    assert conn.closed and not conn.queue and conn._task is None
    conn.send("c")
    conn.close()
    await conn.wait_closed()
    assert conn._task is None and sink.sent == [] and sink.closed is None


async def test_many_idle_connections_hold_no_tasks() -> None:
    before = len(asyncio.all_tasks())
    conns = [Connection(Sink(), f"p{n}", None) for n in range(100)]
    for conn in conns:
        conn.send("hello")
    await settle()
    assert len(asyncio.all_tasks()) == before
    for conn in conns:
        conn.close()
    await asyncio.gather(*(conn.wait_closed() for conn in conns))
    assert all(conn.sink.closed == (1000, "") for conn in conns)  # type: ignore[attr-defined]
