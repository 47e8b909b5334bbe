"""Tables left empty close by themselves (``EMPTY_TABLE_CLOSE_MINUTES``, app/runtime/lobby.py).

A table with no person seated and no socket open for that long closes as its opener's close
does, and no longer counts among its opener's open tables (``MAX_TABLES_PER_PLAYER``). The
lobby's clock is the test's: no sleeping, the sweep is called directly.
"""

from __future__ import annotations

from typing import Any

from app.ops.clock import SystemClock
from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import LiveServer, make_settings
from tests.waiting import until


async def sockets_gone(table: Any) -> None:
    """Wait until the server has seen every socket of ``table`` close."""
    await until(lambda: all(conn.closed for conn in table.connections), "every socket closed")


class Clock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def time(self) -> float:
        return self.now


class SweepClock(SystemClock):
    """The system's timers, and a time the test moves (how long a table has been empty)."""

    def __init__(self, moved: Clock) -> None:
        self.moved = moved

    def now(self) -> float:
        return self.moved.time()


async def test_an_empty_table_closes_after_the_set_minutes(database_url: str) -> None:
    live = LiveServer(
        make_settings(database_url, max_tables_per_player=2, empty_table_close_minutes=30)
    )
    await live.start()
    try:
        lobby = live.services.lobby
        clock = Clock()
        lobby.clock = SweepClock(clock)  # type: ignore[assignment]
        ada = await Player.join(live, "Ada")
        empty = await ada.open_table("vingt-un")
        watched = await ada.open_table("greek-31")
        refused = await ada.http.post("/api/tables", json={"game": "trianta-ena"})
        assert refused.status_code == 409
        await ada.connect(watched)  # a socket open: not empty

        assert await lobby.sweep_empty() == []  # both found; the empty one's time starts
        clock.now += 29 * 60
        assert await lobby.sweep_empty() == []
        clock.now += 60
        assert await lobby.sweep_empty() == [empty]
        table = lobby.get(empty)
        assert table is None or table.closed
        assert (await ada.http.get(f"/api/tables/{empty}")).status_code == 404
        watched_table = lobby.get(watched)
        assert watched_table is not None and not watched_table.closed

        # the closed table no longer counts: Ada may open another
        again = await ada.http.post("/api/tables", json={"game": "trianta-ena"})
        assert again.status_code == 201, again.text

        # Ada sits at the watched table and closes her socket: seated, it is not empty
        await ada.sit(50)
        await ada.disconnect()
        await sockets_gone(watched_table)
        clock.now += 3600
        assert watched not in await lobby.sweep_empty()
        # she comes back and stands up, then goes: its time starts only now
        await ada.connect(watched)
        await ada.send({"type": "leave"})
        await ada.wait_for(lambda v: v["you"] is None)
        await ada.disconnect()
        await sockets_gone(watched_table)
        assert watched not in await lobby.sweep_empty()
        clock.now += 30 * 60
        assert watched in await lobby.sweep_empty()
        assert watched_table.closed
        result = await audit(live)
        assert result["balanced"] is True, result
        await ada.close()
    finally:
        await live.stop()


async def test_zero_never_closes(database_url: str) -> None:
    live = LiveServer(make_settings(database_url, empty_table_close_minutes=0))
    await live.start()
    try:
        lobby = live.services.lobby
        clock = Clock()
        lobby.clock = SweepClock(clock)  # type: ignore[assignment]
        ada = await Player.join(live, "Ada")
        table_id = await ada.open_table("vingt-un")
        await lobby.sweep_empty()
        clock.now += 10**6
        assert await lobby.sweep_empty() == []
        table = lobby.get(table_id)
        assert table is not None and not table.closed
        await ada.close()
    finally:
        await live.stop()
