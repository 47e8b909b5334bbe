"""Property: whatever storage fault strikes, at whatever moment, every hand a client saw end
is in the database with the result it saw, every live stack equals the ledger, and the audit
balances (docs/architecture.md, "Committed before announced" and "When storage fails").

Each example serves a table of every game from the real app (its writer a process of its
own, as ``make run`` serves it), with two people at each playing blindly from ``legal``.
Hypothesis draws how long they play, which fault strikes and when, several times over:

* on SQLite: the writer process killed (``kill -9``); the disk full (the database on a
  small file system of its own, filled up, then given room);
* on PostgreSQL: the writer process killed; every connection of the server's ended by
  PostgreSQL (as a restart of it does); PostgreSQL unreachable for a while (the server
  reaches it through a relay the test cuts, then mends).

While the fault lasts ``/healthz`` says 503 with the reason, once the server has noticed
(a fault that no write met before it was mended may go unnoticed: nothing was lost then).
Once mended, the server comes back by itself: ``/healthz`` is 200 again, the people
reconnect, and the checks above run. ``STORAGE_EXAMPLES`` (default 3) makes longer runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
from itertools import count, pairwise
from pathlib import Path
from typing import Any

from hypothesis import given, note
from hypothesis import strategies as st

from app.games.core.registry import GAME_IDS
from tests.client import Player
from tests.conftest import LiveServer, _truncate, make_settings
from tests.live_examples import live_examples
from tests.storage.faults import FullDisk, PostgresLine, drop_postgres_connections, kill_writer
from tests.storage.harness import (
    act_once,
    audit,
    check_stacks_are_the_ledgers,
    check_told_is_stored,
    healthz,
    open_socket,
    seat_people,
    told_results,
    wait_until,
)

EXAMPLES = int(os.environ.get("STORAGE_EXAMPLES", "3"))
SQLITE_FAULTS = ["kill_writer", "full_disk"]
POSTGRES_FAULTS = ["kill_writer", "drop_connections", "unreachable"]
ONLY = [f for f in os.environ.get("STORAGE_FAULTS", "").split(",") if f]
"""Narrows the faults drawn (``STORAGE_FAULTS=full_disk``), to look at one."""
_examples = count()


class Example:
    def __init__(self, live: LiveServer, data: st.DataObject, url: str) -> None:
        self.live = live
        self.data = data
        self.url = url
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
        self.tables: dict[str, list[Player]] = {}
        self.everyone: list[Player] = []

    def draw(self, strategy: st.SearchStrategy[Any], label: str) -> Any:
        return self.data.draw(strategy, label=label)

    async def open(self) -> None:
        for game in GAME_IDS:
            people, table_id = await seat_people(self.live, game, 2, names=f"s{game[:3]}")
            self.tables[table_id] = people
            self.everyone += people

    async def play(self, acts: int) -> None:
        for _ in range(acts):
            people = self.tables[self.rng.choice(list(self.tables))]
            if not await act_once(people, self.rng):
                await asyncio.sleep(0.01)  # nobody may act there now: another table's turn

    async def reconnect(self) -> None:
        """Everyone whose socket the fault closed connects again (a state comes once the
        table is back)."""
        for table_id, people in self.tables.items():
            for person in people:
                if not open_socket(person):
                    with contextlib.suppress(Exception):
                        await person.disconnect()
                    await wait_until(
                        lambda p=person, t=table_id: _try_connect(p, t), f"{person.name} back"
                    )

    async def check(self) -> None:
        for person in self.everyone:
            # a table rebuilt after the fault counts on: a version never goes back for
            # someone who saw the table before (across their reconnections too)
            versions = [state["version"] for state in person.states]
            back = [(a, b) for a, b in pairwise(versions) if b < a]
            assert not back, f"{person.name}: versions went back {back[:3]}"
        told = told_results(self.everyone)
        note(f"hands told so far: {len(told)}")
        await check_told_is_stored(self.live, told)
        await check_stacks_are_the_ledgers(self.live)
        await audit(self.live)

    async def close(self) -> None:
        for person in self.everyone:
            with contextlib.suppress(Exception):
                await person.close()


async def _try_connect(person: Player, table_id: str) -> bool:
    try:
        await person.connect(table_id)
    except Exception:
        return False
    return True


async def strike(
    kind: str, example: Example, disk: FullDisk | None, line: PostgresLine | None
) -> None:
    """The fault, then a little play while it lasts, then the mend."""
    live = example.live
    if kind == "kill_writer":
        kill_writer(live)
        # the writer's end of the socket closes at once: always noticed
        await wait_until(lambda: not live.services.guard.ok, "the server to notice")
        status, body = await healthz(live)
        assert status == 503 and "cannot save" in body["database"], body
    elif kind == "full_disk":
        assert disk is not None
        disk.fill()
    elif kind == "drop_connections":
        await drop_postgres_connections(example.url)
    elif kind == "unreachable":
        assert line is not None
        line.cut_off()
    await example.play(example.draw(st.integers(0, 10), "acts_meanwhile"))
    if kind in ("unreachable", "full_disk"):
        await wait_until(
            lambda: not live.services.guard.ok or not _noticeable(kind, live),
            "the server to notice",
        )
        if not live.services.guard.ok:
            status, body = await healthz(live)
            assert status == 503 and "cannot save" in body["database"], body
    if kind == "full_disk" and disk is not None:
        disk.make_room()
    elif kind == "unreachable" and line is not None:
        line.mend()


def _noticeable(kind: str, live: LiveServer) -> bool:
    """Whether a write is waiting that must meet the fault (else it may pass unnoticed: a
    full disk can still take a write that reuses the log's space)."""
    return kind != "full_disk" and live.services.writer.pending > 0


async def run_example(data: st.DataObject, base_url: str | None, template: Path) -> None:
    disk: FullDisk | None = None
    line: PostgresLine | None = None
    if base_url is None:
        disk = FullDisk(template, 24 * 1024 * 1024)
        url = disk.mount()
        faults = [f for f in SQLITE_FAULTS if not ONLY or f in ONLY]
    else:
        await _truncate(base_url)
        line = PostgresLine(base_url)
        url = await line.start()
        faults = [f for f in POSTGRES_FAULTS if not ONLY or f in ONLY]
    live = LiveServer(
        make_settings(
            url,
            database_writer="process",
            storage_retry_seconds=0.1,
            storage_retry_max_seconds=0.5,
        )
    )
    await live.start()
    example = Example(live, data, url)
    try:
        await example.open()
        for _ in range(example.draw(st.integers(1, 3), "faults")):
            await example.play(example.draw(st.integers(0, 40), "acts"))
            await strike(example.draw(st.sampled_from(faults), "fault"), example, disk, line)
            # back, and every job queued before the mend answered: one that met the fault
            # may still be on its way to failing (a full disk does not refuse every write)
            await wait_until(
                lambda: live.services.guard.ok and live.services.writer.pending == 0,
                "the server back, its writes answered",
                timeout=90,
            )
            status, body = await healthz(live)
            assert status == 200, body
            await example.reconnect()
            await example.play(example.draw(st.integers(5, 30), "acts_after"))
            await example.check()
    finally:
        await example.close()
        await live.stop()
        if line is not None:
            await line.stop()
        if disk is not None:
            disk.unmount()


@live_examples(EXAMPLES)
@given(data=st.data())
def test_what_was_told_survives_every_storage_fault(
    data: st.DataObject, tmp_path: Path, sqlite_template: Path, postgres_url: str | None
) -> None:
    example = tmp_path / f"example-{next(_examples)}"
    example.mkdir()
    template = example / "template.db"
    shutil.copy(sqlite_template, template)
    asyncio.run(run_example(data, postgres_url, template))
