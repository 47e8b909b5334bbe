"""Where the tables are served: by this process alone, or by one node of several.

The lobby (app/runtime/lobby.py), the table socket (app/api/ws.py) and the routes ask a
:class:`TableHosting` whatever depends on that, and nothing else does:

* the process's life: what starts before the tables come back, the house's opening balance,
  whether the lobby restores every stored table at start, what a stop hands over first;
* a table opened, restored or lost: the row written for a new table (and a room's switch's
  new table, written by the old table's job: :meth:`TableHosting.new_table`), the writer of a
  table's actor, the version it counts on from, the words of a void hand's notice, whether a failure
  to restore it says that another process holds it;
* the tables served elsewhere: the lobby's and the host's rows, the tables a player opened
  there, whether a socket for a table not served here should ask again (close ``4409``,
  :data:`ASK_AGAIN`), which address serves a table (the front's question), telling the others
  that the host funded the house.

:class:`LocalHosting` is the single process: every table here, nothing elsewhere. A node of a
cluster has its own (``ClusterHosting``, app/cluster/hosting.py: leases, fencing, moving and
draining tables, docs/scaling.md); app/services.py chooses, as it chooses the house.
"""

from __future__ import annotations

from typing import Any, Protocol

from prometheus_client import CollectorRegistry

from app.db import store
from app.db.writer.base import DatabaseWriter
from app.games.core.coded import Coded
from app.runtime import notices
from app.runtime.house import open_house
from app.runtime.table.effects import Job

ASK_AGAIN_CLOSE = 4409
"""The close code of a socket whose table another process serves (or will): ask the front
again (docs/protocol/cluster.md)."""
ASK_AGAIN = "this table is served by another node; ask again"
"""Why a socket to a table another node serves is closed with :data:`ASK_AGAIN_CLOSE`."""


class TableHosting(Protocol):
    """What differs between one process and a node of a cluster, for the tables (see the
    module's docstring)."""

    @property
    def name(self) -> str:
        """This process's name among the nodes (``NODE_ID``); empty when it is alone."""
        ...

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Once the writer runs, before the house opens and the tables come back."""
        ...

    async def open_house(self, float_amount: int) -> int:
        """The house's balance, its opening float granted once if it has none yet."""
        ...

    @property
    def restores_at_start(self) -> bool:
        """Whether the lobby restores every stored table at start (:meth:`Lobby.recover`);
        a node adopts the tables it claims instead (:meth:`serve`)."""
        ...

    async def serve(self) -> None:
        """Once the lobby has recovered: serving begins."""
        ...

    async def hand_over(self) -> None:
        """A stop, before the lobby's shutdown: hand the tables to whoever serves them next."""
        ...

    async def stop(self) -> None:
        """After the lobby's shutdown, before the writer closes."""
        ...

    def install(self, app: Any, metrics: CollectorRegistry) -> None:
        """What this hosting adds to the web app (app/main.py: before its other middleware,
        so innermost) and to its ``/metrics``."""
        ...

    # ------------------------------------------------------------------ a table

    async def create(self, row: dict[str, Any]) -> None:
        """Write a new table's row (``store.create_table``'s arguments)."""
        ...

    def new_table(self, table_id: str, job: Job) -> Job:
        """The job to store instead of ``job``, which writes the new table ``table_id`` within
        another table's transaction (a room's switch, app/runtime/rooms.py): what a new table
        needs besides its row is written in that same transaction (a node's: the table's
        lease, for this node, as :meth:`create` writes it)."""
        ...

    def table_made(self, table_id: str) -> None:
        """The job of :meth:`new_table` is committed: ``table_id`` is this process's to serve
        (the lobby restores it next)."""
        ...

    def writer_for(self, table_id: str) -> DatabaseWriter:
        """The writer of ``table_id``'s actor."""
        ...

    def first_version(self, table_id: str) -> int:
        """The version a restored table counts on from."""
        ...

    def why_restored(self, table_id: str) -> Coded:
        """Why ``table_id`` came back from the database: the notice of its void hand ("The
        server restarted: the hand in play was void, stakes returned.")."""
        ...

    def held_elsewhere(self, exc: BaseException) -> bool:
        """Whether ``exc``, met restoring a table, says that another process holds it (then
        nothing of it is this one's to close)."""
        ...

    # ------------------------------------------------------------------ the tables elsewhere

    def opened_elsewhere(self, player_id: str) -> int:
        """The open tables ``player_id`` opened that other processes serve."""
        ...

    def listed_elsewhere(self, viewer: str | None, *, everything: bool) -> list[dict[str, Any]]:
        """The lobby's rows of the tables other processes serve (``Lobby.listing``)."""
        ...

    def host_rows_elsewhere(self) -> list[dict[str, Any]]:
        """The host's rows of the tables other processes serve (``Lobby.host_rows``)."""
        ...

    async def served_elsewhere(self, table_id: str) -> bool:
        """Whether a socket for ``table_id``, not served here, should ask again
        (:data:`ASK_AGAIN_CLOSE`) rather than hear that there is no such table."""
        ...

    async def route(self, table_id: str) -> str:
        """The address (host:port) of the process that serves ``table_id``."""
        ...

    async def house_funded(self, amount: int) -> None:
        """The host funded the house here (already in the ledger): tell the others."""
        ...


class LocalHosting:
    """One process serves every table: nothing is elsewhere."""

    name = ""
    restores_at_start = True

    def __init__(self, writer: DatabaseWriter, address: str) -> None:
        self.writer = writer
        self.address = address
        """host:port at which this process answers (``NODE_ADDRESS``, else its own)."""

    async def start(self) -> None:
        return None

    async def open_house(self, float_amount: int) -> int:
        return await self.writer.run(open_house, float_amount)

    async def serve(self) -> None:
        return None

    async def hand_over(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def install(self, app: Any, metrics: CollectorRegistry) -> None:
        return None

    async def create(self, row: dict[str, Any]) -> None:
        await self.writer.run(store.create_table, **row)

    def new_table(self, table_id: str, job: Job) -> Job:
        return job

    def table_made(self, table_id: str) -> None:
        return None

    def writer_for(self, table_id: str) -> DatabaseWriter:
        return self.writer

    def first_version(self, table_id: str) -> int:
        return 0

    def why_restored(self, table_id: str) -> Coded:
        return notices.RESTARTED

    def held_elsewhere(self, exc: BaseException) -> bool:
        return False

    def opened_elsewhere(self, player_id: str) -> int:
        return 0

    def listed_elsewhere(self, viewer: str | None, *, everything: bool) -> list[dict[str, Any]]:
        return []

    def host_rows_elsewhere(self) -> list[dict[str, Any]]:
        return []

    async def served_elsewhere(self, table_id: str) -> bool:
        return False

    async def route(self, table_id: str) -> str:
        return self.address

    async def house_funded(self, amount: int) -> None:
        return None
