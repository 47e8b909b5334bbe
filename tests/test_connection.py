"""A connection's send queue (app/runtime/connection.py): order kept, no task while idle, a
close after what is queued, a too-slow client closed, a dead socket stops everything."""

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

    async def send_text(self, data: str) -> None:
        await self.gate.wait()
        if self.fail:
            raise RuntimeError("the socket is gone")
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.gate.wait()
        self.closed = (code, reason)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_an_idle_connection_has_no_task_and_sends_in_order() -> None:
    sink = Sink()
    conn = Connection(sink, "p", "P")
    assert conn._task is None
    conn.send("a")
    conn.send("b")
    assert conn._task is not None
    await settle()
    conn.send("c")
    await settle()
    assert sink.sent == ["a", "b", "c"]
    assert conn._task is None  # the pump ends when the queue is empty
    assert sink.closed is None
    await conn.wait_closed()  # nothing in flight: returns at once


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
